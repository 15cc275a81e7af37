package vision

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

var dbgFrameN = flag.Int("framen", 0, "survey the frame-region grids on this many seeds from -surveyseed")

// TestSurveyFrame prints, for each seed, how near the frame regions' grids
// come to the true grid, before and after refinement (development aid).
func TestSurveyFrame(t *testing.T) {
	if *dbgFrameN == 0 {
		t.Skip("run with -framen N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	near, found := 0, 0
	for s := *surveySeed; s < *surveySeed+int64(*dbgFrameN); s++ {
		m, truth := simFrame(t, s)
		_, scale, _ := r.prepare(m)
		w, h := r.gray.Cols(), r.gray.Rows()
		outl := r.frameOutlines()
		gs := r.frameGrids(w, h)
		best := math.Inf(1)
		line := ""
		for _, g := range gs {
			hf, sc := r.refineN(scaleHomography(g.h, 1/scale), 2, linePoints)
			e0 := cornerErr(cornersOf(scaleHomography(g.h, 1/scale)), truth.Corners)
			e1 := cornerErr(cornersOf(hf), truth.Corners)
			line += fmt.Sprintf(" [%.2f e%.0f->%.0f s%.2f]", g.s, e0, e1, sc)
			best = math.Min(best, e1)
		}
		if best < 5 {
			near++
		}
		if len(gs) > 0 {
			found++
		}
		ht, _ := homographyFromCorners(truth.Corners)
		_, ts := r.refineN(ht, 2, linePoints)
		var chosen homography
		cs := -9.0
		for _, hs := range r.locate() {
			hf, sc := r.refineN(scaleHomography(hs, 1/scale), 1, linePoints/2)
			if sc > cs && plausibleGrid(cornersOf(hf), m.Cols(), m.Rows()) {
				cs, chosen = sc, hf
			}
		}
		hf, sc := r.refine(chosen, 1)
		fmt.Printf("seed %d el %2.0f: truth s%.2f chosen s%.2f e%.0f | %d outlines%s\n", s, truth.Elevation, ts, sc, cornerErr(cornersOf(hf), truth.Corners), len(outl), line)
		m.Close()
	}
	fmt.Println("near", near, "of", *dbgFrameN, "with grids", found)
}

func cornerErr(c, t [4][2]float64) float64 {
	e := 0.0
	for k := range c {
		e = math.Max(e, math.Hypot(c[k][0]-t[k][0], c[k][1]-t[k][1]))
	}
	return e
}

var dbgSegSeed = flag.Int64("segpng", 0, "write /tmp/seg-N.png: the flat regions and outlines of seed N")

func TestSegPNG(t *testing.T) {
	if *dbgSegSeed == 0 {
		t.Skip("run with -segpng N")
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, *dbgSegSeed)
	defer m.Close()
	_, scale, _ := r.prepare(m)
	outl := r.frameOutlines()
	s := &r.seg
	img := image.NewRGBA(image.Rect(0, 0, s.w, s.h))
	cols := map[int32]color.RGBA{}
	for i := range s.parent {
		root := s.find(int32(i))
		c, ok := cols[root]
		if !ok {
			if s.size[root] < 50 {
				c = color.RGBA{0, 0, 0, 255}
			} else {
				c = color.RGBA{uint8(rand.IntN(200) + 55), uint8(rand.IntN(200) + 55), uint8(rand.IntN(200) + 55), 255}
			}
			cols[root] = c
		}
		img.Set(i%s.w, i/s.w, c)
	}
	for _, q := range outl {
		for k := 0; k < 4; k++ {
			a, b := q[k], q[(k+1)%4]
			for u := 0.0; u <= 1; u += 0.002 {
				img.Set(int((a.X+u*(b.X-a.X))/2), int((a.Y+u*(b.Y-a.Y))/2), color.RGBA{255, 0, 0, 255})
			}
		}
	}
	for k := 0; k < 4; k++ {
		a, b := truth.Corners[k], truth.Corners[(k+1)%4]
		for u := 0.0; u <= 1; u += 0.002 {
			img.Set(int(scale*(a[0]+u*(b[0]-a[0]))/2), int(scale*(a[1]+u*(b[1]-a[1]))/2), color.RGBA{255, 255, 255, 255})
		}
	}
	f, err := os.Create(fmt.Sprintf("/tmp/seg-%d.png", *dbgSegSeed))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
