package vision

import (
	"companion/observation"
	"companion/sim"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"
	"time"
)

var (
	dbgSeed  = flag.Int64("dbgseed", 0, "print the localisation steps for this sim seed")
	dbgFound = flag.Bool("dbgfound", false, "overlay the board found rather than the truth")
)

func TestDebugLocate(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, err := r.prepare(m)
	if err != nil {
		t.Fatal(err)
	}
	ht, _ := homographyFromCorners(truth.Corners)
	hts := scaleHomography(ht, scale)
	w, h := r.gray.Cols(), r.gray.Rows()
	cands := r.locate()
	_, ts := r.refine(ht, 2)
	fmt.Printf("seed %d el %.0f az %.0f: %d candidates; truth support %.3f dividers %.3f\n", *dbgSeed, truth.Elevation, truth.Azimuth, len(cands), r.ridgeSupport(hts, w, h), ts)
	for _, hs := range cands {
		hf, s := r.refine(scaleHomography(hs, 1/scale), 2)
		a := hf.apply(pt{0, 0})
		fmt.Printf("  candidate support %.3f dividers %.3f corner0 %.1f,%.1f (truth %.1f,%.1f)\n", r.ridgeSupport(hs, w, h), s, a.X, a.Y, truth.Corners[0][0], truth.Corners[0][1])
	}
}

func TestDebugTiming(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, _ := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	for i := 0; i < 3; i++ {
		t0 := time.Now()
		_, scale, _ := r.prepare(m)
		t1 := time.Now()
		hs := r.locate()[0]
		t2 := time.Now()
		h, _ := r.refine(scaleHomography(hs, 1/scale), 2)
		t3 := time.Now()
		var res Result
		r.readCells(scaleHomography(h, scale), &res)
		t4 := time.Now()
		fmt.Println("prepare", t1.Sub(t0), "locate", t2.Sub(t1), "refine", t3.Sub(t2), "cells", t4.Sub(t3))
	}
}

func TestDebugPose(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	for s := *dbgSeed; s < *dbgSeed+8; s++ {
		m, truth := simFrame(t, s)
		r := NewReader()
		_, scale, _ := r.prepare(m)
		h, _ := homographyFromCorners(truth.Corners)
		hs := scaleHomography(h, scale)
		w, hh := r.px.w, r.px.h
		defF := 0.5 * float64(hh) / math.Tan(50*math.Pi/180/2)
		cam := poseFromHomography(hs, float64(w)/2, float64(hh)/2, defF)
		trueF := 0.5 * float64(hh) / math.Tan(truth.FOV*math.Pi/180/2)
		fmt.Printf("seed %d: f %.0f true %.0f; elevation %.1f true %.1f; centre %.2f\n", s, cam.f, trueF, cam.elevation(), truth.Elevation, cam.centre())
		m.Close()
		r.Close()
	}
}

func TestDebugOverlay(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, _ := r.prepare(m)
	h, _ := homographyFromCorners(truth.Corners)
	hs := scaleHomography(h, scale)
	c := &r.cc
	all := c.setup(hs, r.px.w, r.px.h)
	r.model.estimateBoard(&r.px, hs)
	r.model.ringHistogram(&r.px, hs)
	r.model.compute(&r.px, all)
	for i := range c.hyp {
		c.hyp[i] = hypIndex(truth.Board[i])
	}
	if *dbgFound {
		c.search()
	}
	c.draw(all, -1, 0)
	img := image.NewRGBA(image.Rect(0, 0, r.px.w, r.px.h))
	cols := [nLab][3]uint8{{0, 0, 0}, {255, 0, 0}, {0, 0, 255}, {0, 120, 255}, {255, 255, 0}, {255, 0, 255}}
	for y := 0; y < r.px.h; y++ {
		for x := 0; x < r.px.w; x++ {
			o := y*r.px.w + x
			rr, gg, bb := r.px.at(x, y)
			l := c.lab[o]
			if !image.Pt(x, y).In(all) {
				l = 0
			}
			k := cols[l]
			a := 0.5
			if l == 0 {
				a = 0
			}
			img.Set(x, y, color.RGBA{uint8(rr*(1-a) + float64(k[0])*a), uint8(gg*(1-a) + float64(k[1])*a), uint8(bb*(1-a) + float64(k[2])*a), 255})
		}
	}
	f, _ := os.Create(fmt.Sprintf("/tmp/overlay%d.png", *dbgSeed))
	png.Encode(f, img)
	f.Close()
	fmt.Println(truth.Board.Tokens(), r.model.board, r.model.sd)
}

func TestDebugCells(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, _ := r.prepare(m)
	h, _ := homographyFromCorners(truth.Corners)
	hs := scaleHomography(h, scale)
	c := &r.cc
	all := c.setup(hs, r.px.w, r.px.h)
	cells := cellColours(&r.px, hs)
	means, sds := boardCandidates(cells)
	for i := range cells {
		fmt.Printf("%v %.2f  ", truth.Board[i], cells[i])
		if i%5 == 4 {
			fmt.Println()
		}
	}
	for k := range means {
		r.model.board, r.model.sd = means[k], sds[k]
		r.model.ringHistogram(&r.px, hs)
		r.model.compute(&r.px, all)
		for i := range c.hyp {
			c.hyp[i] = hypIndex(truth.Board[i])
		}
		c.draw(all, -1, 0)
		tl := c.total(all, &r.model)
		for i := range c.hyp {
			c.hyp[i] = 0
		}
		c.search()
		c.draw(all, -1, 0)
		fmt.Printf("candidate %.2f sd %.3f: truth LL %.0f, found LL %.0f\n", means[k], sds[k], tl, c.total(all, &r.model))
		var b observation.Board
		for i := range c.hyp {
			b[i] = hypSquare(c.hyp[i])
		}
		fmt.Println(b.Tokens())
	}
	fmt.Println(truth.Board.Tokens())
}

var dbgOracle = flag.Int("oracle", 0, "measure cell accuracy (true corners) on this many seeds from 1000, with the default and the true piece set")

func TestDebugOracle(t *testing.T) {
	if *dbgOracle == 0 {
		t.Skip("run with -oracle N")
	}
	r := NewReader()
	defer r.Close()
	var right [2]int
	n := 0
	for s := int64(1000); s < 1000+int64(*dbgOracle); s++ {
		m, truth := simFrame(t, s)
		pc := sim.RandomScene(s).Pieces
		for v := 0; v < 2; v++ {
			r.cc.set = defaultSet
			if v == 1 {
				r.cc.set = pieceSet{pc.Level1Top, pc.Level2Top, pc.Level3Top, pc.Level1Size, pc.Level2Size, pc.Level3Size, pc.DomeWidth, pc.PawnWidth, pc.PawnHeight}
			}
			res, err := r.ReadWithCorners(m, truth.Corners)
			if err != nil {
				t.Fatal(err)
			}
			for i := range res.Board {
				if res.Board[i] == truth.Board[i] {
					right[v]++
				}
			}
		}
		n += 25
		m.Close()
	}
	fmt.Printf("default set %.1f%%, true set %.1f%%\n", 100*float64(right[0])/float64(n), 100*float64(right[1])/float64(n))
}

var dbgCell = flag.Int("cell", -1, "with -dbgseed: print the hypothesis scores of this cell with the others at the truth")

func TestDebugScores(t *testing.T) {
	if *dbgCell < 0 {
		t.Skip("run with -dbgseed N -cell I")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, _ := r.prepare(m)
	h, _ := homographyFromCorners(truth.Corners)
	hs := scaleHomography(h, scale)
	c := &r.cc
	all := c.setup(hs, r.px.w, r.px.h)
	r.model.estimateBoard(&r.px, hs)
	r.model.ringHistogram(&r.px, hs)
	r.model.compute(&r.px, all)
	for i := range c.hyp {
		c.hyp[i] = hypIndex(truth.Board[i])
	}
	i := *dbgCell
	fmt.Printf("cell %d truth %v region %v\n", i, truth.Board[i], c.region[i])
	for k := 0; k < nHyp; k++ {
		fmt.Printf("  %v: %.1f\n", hypSquare(k), c.score(i, k, &r.model))
	}
	// Per-label mean LL inside the region.
	reg := c.region[i]
	var sum [nLab]float64
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		for x := reg.Min.X; x < reg.Max.X; x++ {
			for l := 0; l < nLab; l++ {
				sum[l] += float64(r.model.ll[l][y*r.px.w+x])
			}
		}
	}
	fmt.Println("mean LL per label over region:", sum)
}

func TestDebugLLMap(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, _ := r.prepare(m)
	h, _ := homographyFromCorners(truth.Corners)
	hs := scaleHomography(h, scale)
	c := &r.cc
	all := c.setup(hs, r.px.w, r.px.h)
	r.model.estimateBoard(&r.px, hs)
	r.model.ringHistogram(&r.px, hs)
	r.model.compute(&r.px, all)
	img := image.NewRGBA(image.Rect(0, 0, r.px.w, r.px.h))
	for y := all.Min.Y; y < all.Max.Y; y++ {
		for x := all.Min.X; x < all.Max.X; x++ {
			o := y*r.px.w + x
			d := float64(r.model.ll[labBlock][o] - r.model.ll[labBoard][o])
			v := clamp8(math.Abs(d) * 40)
			if d > 0 {
				img.Set(x, y, color.RGBA{0, v, 0, 255})
			} else {
				img.Set(x, y, color.RGBA{v, 0, 0, 255})
			}
		}
	}
	f, _ := os.Create(fmt.Sprintf("/tmp/llmap%d.png", *dbgSeed))
	png.Encode(f, img)
	f.Close()
}

var dbgK = flag.String("ks", "2,3", "hypotheses to compare")

func TestDebugDiff(t *testing.T) {
	if *dbgCell < 0 {
		t.Skip("run with -dbgseed N -cell I")
	}
	m, truth := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	_, scale, _ := r.prepare(m)
	h, _ := homographyFromCorners(truth.Corners)
	hs := scaleHomography(h, scale)
	c := &r.cc
	all := c.setup(hs, r.px.w, r.px.h)
	r.model.estimateBoard(&r.px, hs)
	r.model.ringHistogram(&r.px, hs)
	r.model.compute(&r.px, all)
	for i := range c.hyp {
		c.hyp[i] = hypIndex(truth.Board[i])
	}
	var ka, kb int
	fmt.Sscanf(*dbgK, "%d,%d", &ka, &kb)
	i := *dbgCell
	reg := c.region[i]
	c.draw(reg, i, ka)
	la := append([]uint8(nil), c.lab...)
	c.draw(reg, i, kb)
	trans := map[[2]uint8][2]float64{}
	img := image.NewRGBA(image.Rect(0, 0, r.px.w, r.px.h))
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		for x := reg.Min.X; x < reg.Max.X; x++ {
			o := y*r.px.w + x
			rr, gg, bb := r.px.at(x, y)
			img.Set(x, y, color.RGBA{uint8(rr), uint8(gg), uint8(bb), 255})
			if la[o] != c.lab[o] {
				key := [2]uint8{la[o], c.lab[o]}
				v := trans[key]
				v[0]++
				v[1] += float64(r.model.ll[c.lab[o]][o] - r.model.ll[la[o]][o])
				trans[key] = v
				img.Set(x, y, color.RGBA{255, 0, uint8(50 * c.lab[o]), 255})
			}
		}
	}
	fmt.Println("transitions a->b: count, LL gain:", trans)
	img2 := image.NewRGBA(image.Rect(0, 0, 4*reg.Dx(), 4*reg.Dy()))
	for y := 0; y < 4*reg.Dy(); y++ {
		for x := 0; x < 4*reg.Dx(); x++ {
			img2.Set(x, y, img.At(reg.Min.X+x/4, reg.Min.Y+y/4))
		}
	}
	img = img2
	f, _ := os.Create("/tmp/diff.png")
	png.Encode(f, img)
	f.Close()
}

var dbgLocN = flag.Int("locn", 0, "survey the localisation on this many seeds from -dbgseed")

func TestDebugLocSurvey(t *testing.T) {
	if *dbgLocN == 0 {
		t.Skip("run with -dbgseed S -locn N")
	}
	r := NewReader()
	defer r.Close()
	good := 0
	for s := *dbgSeed; s < *dbgSeed+int64(*dbgLocN); s++ {
		m, truth := simFrame(t, s)
		_, scale, _ := r.prepare(m)
		w, h := r.gray.Cols(), r.gray.Rows()
		ht, _ := homographyFromCorners(truth.Corners)
		_, tdiv := r.refine(ht, 2)
		trid := r.ridgeSupport(scaleHomography(ht, scale), w, h)
		cands := r.locate()
		bestI, bestErr, bestDiv := -1, math.Inf(1), 0.0
		var chosenErr, chosenDiv float64 = math.NaN(), -1
		for i, hs := range cands {
			hf, d := r.refine(scaleHomography(hs, 1/scale), 2)
			c := cornersOf(hf)
			e := 0.0
			for k := range c {
				e = math.Max(e, math.Hypot(c[k][0]-truth.Corners[k][0], c[k][1]-truth.Corners[k][1]))
			}
			if e < bestErr {
				bestI, bestErr, bestDiv = i, e, d
			}
			if d > chosenDiv && plausibleGrid(c, m.Cols(), m.Rows()) {
				chosenDiv, chosenErr = d, e
			}
		}
		ok := chosenErr < 5
		if ok {
			good++
		}
		fmt.Printf("seed %d el %2.0f: truth ridge %.2f div %.2f | %d cands, nearest #%d err %.1f div %.2f | chosen err %.1f div %.2f %v\n",
			s, truth.Elevation, trid, tdiv, len(cands), bestI, bestErr, bestDiv, chosenErr, chosenDiv, ok)
		m.Close()
	}
	fmt.Println("good", good)
}

func TestDebugRidge(t *testing.T) {
	if *dbgSeed == 0 {
		t.Skip("run with -dbgseed N")
	}
	m, _ := simFrame(t, *dbgSeed)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	r.prepare(m)
	r.locate()
	rd, _ := r.ridges.DataPtrUint8()
	w, h := r.gray.Cols(), r.gray.Rows()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := rd[y*w+x]
			img.Set(x, y, color.RGBA{v, v, v, 255})
		}
	}
	raw, _ := r.lines.DataPtrFloat32()
	for i := 0; i+1 < len(raw) && i < 2*40; i += 2 {
		rho, th := float64(raw[i]), float64(raw[i+1])
		c, s := math.Cos(th), math.Sin(th)
		for tt := -800.0; tt < 800; tt += 0.5 {
			x, y := rho*c-tt*s, rho*s+tt*c
			img.Set(int(x), int(y), color.RGBA{255, 0, 0, 255})
		}
	}
	f, _ := os.Create("/tmp/ridge.png")
	png.Encode(f, img)
	f.Close()
}
