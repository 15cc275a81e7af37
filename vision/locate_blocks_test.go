package vision

import (
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

var dbgBlockN = flag.Int("blockn", 0, "survey blockGrids alone on this many seeds from -surveyseed")

// TestBlockGridsSurvey reports how often blockGrids' proposals alone come
// within 15 px (full frame) of the true corners, as proposed and after one
// refinement, and fails if none ever does.
func TestBlockGridsSurvey(t *testing.T) {
	if *dbgBlockN == 0 {
		t.Skip("run with -blockn N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	raw, refined, withProps, withFaces := 0, 0, 0, 0
	var spent, spentFaces time.Duration
	for s := *surveySeed; s < *surveySeed+int64(*dbgBlockN); s++ {
		m, truth := simFrame(t, s)
		_, scale, err := r.prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		w, h := r.gray.Cols(), r.gray.Rows()
		r.locateLines()   // the edge map, as locate makes it
		r.frameOutlines() // the segmentation, likewise
		t0 := time.Now()
		gs := r.blockGrids(w, h)
		spent += time.Since(t0)
		t1 := time.Now()
		faces := r.topFaces()
		spentFaces += time.Since(t1)
		if len(faces) >= 3 {
			withFaces++
		}
		if len(gs) > 0 {
			withProps++
		}
		e0, e1 := math.Inf(1), math.Inf(1)
		for _, g := range gs {
			hf := scaleHomography(g.h, 1/scale)
			e0 = math.Min(e0, cornerErr(cornersOf(hf), truth.Corners))
			hr, _ := r.refineN(hf, 1, linePoints/2)
			e1 = math.Min(e1, cornerErr(cornersOf(hr), truth.Corners))
		}
		if e0 < 15 {
			raw++
		}
		if e1 < 15 {
			refined++
		}
		if testing.Verbose() {
			fmt.Printf("seed %d el %2.0f: %d faces %d grids, nearest %.0f px, refined %.0f px\n", s, truth.Elevation, len(faces), len(gs), e0, e1)
		}
		m.Close()
	}
	n := *dbgBlockN
	fmt.Printf("block grids: near %d of %d as proposed, %d refined; %d frames with proposals, %d with 3+ faces; %.2f ms per frame (faces %.2f)\n",
		raw, n, refined, withProps, withFaces, float64(spent.Microseconds())/1000/float64(n), float64(spentFaces.Microseconds())/1000/float64(n))
	if n >= 20 && refined == 0 {
		t.Errorf("no block grid came near the truth on %d frames", n)
	}
}

// TestFitCameraBlocks checks that faces seen by a known camera agree with
// it, and that a disturbed camera is pulled back to it.
func TestFitCameraBlocks(t *testing.T) {
	// A camera 60 degrees up, looking at the board from the near side.
	truth := lookAt([3]float64{2.5, 2.5 + 6, 10.4}, [3]float64{2.5, 2.5, 0}, 600, 320, 180)
	var faces []topFace
	cells := [][3]int{{0, 0, 0}, {1, 2, 1}, {3, 1, 0}, {4, 4, 1}, {2, 3, 0}, {0, 4, 0}}
	for _, c := range cells {
		l := c[2]
		z := blockTop[l]
		hs := blockSize[l] / 2
		f := topFace{square: true}
		f.c = truth.project(float64(c[0])+0.5, float64(c[1])+0.5, z)
		for k, d := range [4]pt{{-hs, -hs}, {hs, -hs}, {hs, hs}, {-hs, hs}} {
			f.q[k] = truth.project(float64(c[0])+0.5+d.X, float64(c[1])+0.5+d.Y, z)
		}
		f.area = polyArea(f.q[:])
		faces = append(faces, f)
	}
	// The camera with its origin at the first face's centre (level 1, index 0).
	local := func(c camera) camera {
		c.t = [3]float64{
			c.t[0] + c.r[0]*0.5 + c.r[1]*0.5 + c.r[2]*blockTop[0],
			c.t[1] + c.r[3]*0.5 + c.r[4]*0.5 + c.r[5]*blockTop[0],
			c.t[2] + c.r[6]*0.5 + c.r[7]*0.5 + c.r[8]*blockTop[0],
		}
		return c
	}
	want := local(truth)
	s, ms := agree(&want, 0, faces)
	if len(ms) != len(faces) || s < float64(len(faces))-0.1 {
		t.Fatalf("true camera: %d of %d faces agree, score %.2f", len(ms), len(faces), s)
	}
	off := want
	off.f *= 1.15
	off.r = rodrigues(0.03, -0.02, 0.02)
	off.r = mulR(off.r, want.r)
	off.t[0] += 0.1
	got := fitCamera(off, 0, faces, ms)
	for _, c := range cells {
		p, q := got.project(float64(c[0]), float64(c[1]), -blockTop[0]), want.project(float64(c[0]), float64(c[1]), -blockTop[0])
		if d := math.Hypot(p.X-q.X, p.Y-q.Y); d > 0.5 {
			t.Errorf("refitted camera is %.2f px off at cell %v", d, c)
		}
	}
}

func mulR(a, b [9]float64) [9]float64 {
	var r [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[3*i+j] = a[3*i]*b[j] + a[3*i+1]*b[3+j] + a[3*i+2]*b[6+j]
		}
	}
	return r
}

// lookAt is a camera at eye looking at target, the image's x along the
// board's x.
func lookAt(eye, target [3]float64, f, cx, cy float64) camera {
	zc := sub3(target, eye)
	zc = scale3(zc, 1/norm3(zc))
	xc := cross3([3]float64{0, 0, 1}, zc) // board x seen rightwards
	xc = scale3(xc, 1/norm3(xc))
	if xc[0] < 0 {
		xc = scale3(xc, -1)
	}
	yc := cross3(zc, xc)
	c := camera{f: f, cx: cx, cy: cy}
	c.r = [9]float64{xc[0], xc[1], xc[2], yc[0], yc[1], yc[2], zc[0], zc[1], zc[2]}
	for i := 0; i < 3; i++ {
		c.t[i] = -(c.r[3*i]*eye[0] + c.r[3*i+1]*eye[1] + c.r[3*i+2]*eye[2])
	}
	return c
}

var dbgBlockPNG = flag.Int64("blockpng", 0, "write /tmp/blocks-faces-N.png: seed N's top faces and block grids")

// TestBlockPNG draws the reduced frame with the top faces (red squares,
// magenta round) and the block grids (yellow), the truth in white.
func TestBlockPNG(t *testing.T) {
	if *dbgBlockPNG == 0 {
		t.Skip("run with -blockpng N")
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, *dbgBlockPNG)
	defer m.Close()
	_, scale, _ := r.prepare(m)
	r.locateLines()
	r.frameOutlines()
	faces := r.topFaces()
	gs := r.blockGrids(r.gray.Cols(), r.gray.Rows())
	r.topFaces()
	buf := &r.faceLabels
	img := image.NewRGBA(image.Rect(0, 0, r.px.w, r.px.h))
	for y := 0; y < r.px.h; y++ {
		for x := 0; x < r.px.w; x++ {
			rr, g, b := r.px.at(x, y)
			if len(*buf) > y*r.px.w+x && (*buf)[y*r.px.w+x] >= 0 {
				// Each region tinted by its label.
				l := (*buf)[y*r.px.w+x]
				rr, g, b = float64(l*97%256), float64(l*57%256), float64(l*151%256)
			}
			img.Set(x, y, color.RGBA{uint8(rr), uint8(g), uint8(b), 255})
		}
	}
	line := func(a, b pt, c color.RGBA) {
		for u := 0.0; u <= 1; u += 0.002 {
			img.Set(int(a.X+u*(b.X-a.X)), int(a.Y+u*(b.Y-a.Y)), c)
		}
	}
	for _, f := range faces {
		if f.square {
			for k := 0; k < 4; k++ {
				line(f.q[k], f.q[(k+1)%4], color.RGBA{255, 0, 0, 255})
			}
		}
		line(pt{f.c.X - 3, f.c.Y}, pt{f.c.X + 3, f.c.Y}, color.RGBA{255, 0, 255, 255})
		line(pt{f.c.X, f.c.Y - 3}, pt{f.c.X, f.c.Y + 3}, color.RGBA{255, 0, 255, 255})
	}
	for _, g := range gs {
		for v := 0.0; v <= 5; v++ {
			line(g.h.apply(pt{0, v}), g.h.apply(pt{5, v}), color.RGBA{255, 255, 0, 255})
			line(g.h.apply(pt{v, 0}), g.h.apply(pt{v, 5}), color.RGBA{255, 255, 0, 255})
		}
	}
	for k := 0; k < 4; k++ {
		a, b := truth.Corners[k], truth.Corners[(k+1)%4]
		line(pt{scale * a[0], scale * a[1]}, pt{scale * b[0], scale * b[1]}, color.RGBA{255, 255, 255, 255})
	}
	f, err := os.Create(fmt.Sprintf("/tmp/blocks-faces-%d.png", *dbgBlockPNG))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

var dbgBlockFaces = flag.Int64("blockfaces", 0, "print seed N's top faces as the true camera sees them")

// TestBlockFaces prints where each top face of seed N lies on the true
// camera's lattice, at each level's height.
func TestBlockFaces(t *testing.T) {
	if *dbgBlockFaces == 0 {
		t.Skip("run with -blockfaces N")
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, *dbgBlockFaces)
	defer m.Close()
	_, scale, _ := r.prepare(m)
	r.frameOutlines()
	ht, _ := homographyFromCorners(truth.Corners)
	hs := scaleHomography(ht, scale)
	w, h := float64(r.px.w), float64(r.px.h)
	f := h / 2 / math.Tan(truth.FOV*math.Pi/360)
	cam := poseWithFocal(hs, w/2, h/2, f)
	p := projOf(&cam)
	for _, fc := range r.topFaces() {
		line := fmt.Sprintf("face (%.0f,%.0f) sq %v area %.0f:", fc.c.X, fc.c.Y, fc.square, fc.area)
		for l := 0; l < 3; l++ {
			b := p.plane(blockTop[l], 0, 0).inverse().apply(fc.c)
			hz := p.plane(blockTop[l], 0, 0)
			q0, q1, q2 := hz.apply(pt{b.X - 0.5, b.Y - 0.5}), hz.apply(pt{b.X + 0.5, b.Y - 0.5}), hz.apply(pt{b.X - 0.5, b.Y + 0.5})
			cell := math.Abs((q1.X-q0.X)*(q2.Y-q0.Y) - (q1.Y-q0.Y)*(q2.X-q0.X))
			line += fmt.Sprintf(" L%d (%.2f,%.2f) size %.2f", l+1, b.X, b.Y, math.Sqrt(fc.area/cell))
		}
		fmt.Println(line)
	}
}
