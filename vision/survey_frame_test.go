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

	"companion/sim"
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
	near, found, candNear, chosenNear, varNear, outerNear := 0, 0, 0, 0, 0, 0
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
		anyNear, variantNear := math.Inf(1), math.Inf(1)
		for _, hs := range r.locate() {
			hf, _ := r.refineN(scaleHomography(hs, 1/scale), 1, linePoints/2)
			anyNear = math.Min(anyNear, cornerErr(cornersOf(hf), truth.Corners))
			for _, a := range gridNeighbours {
				variantNear = math.Min(variantNear, cornerErr(cornersOf(mul3(hf, a)), truth.Corners))
			}
		}
		chosen, sc, _, _ := r.locateGrid(scale, m.Cols(), m.Rows())
		hf := chosen
		ce := cornerErr(cornersOf(hf), truth.Corners)
		if lc, ok := r.lensCorners(hf, nil); ok {
			line += fmt.Sprintf(" lens %.1f plain %.1f", cornerErr(lc, truth.Corners), ce)
		}
		if ce >= 15 && ce < 50 {
			cc := cornersOf(hf)
			line += " corners"
			for k := range cc {
				line += fmt.Sprintf(" %.0f", math.Hypot(cc[k][0]-truth.Corners[k][0], cc[k][1]-truth.Corners[k][1]))
			}
			pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
			line += fmt.Sprintf(" pitch %.0f board", pitch)
			inv := ht.inverse()
			for k := range cc {
				b := inv.apply(pt{cc[k][0], cc[k][1]})
				line += fmt.Sprintf(" (%.2f,%.2f)", b.X, b.Y)
			}
		}
		// How near the frame outlines come to the board's true outline.
		fw := sim.RandomScene(s).Style.FrameWidth
		var outer [4][2]float64
		for k, p := range []pt{{-fw, -fw}, {5 + fw, -fw}, {5 + fw, 5 + fw}, {-fw, 5 + fw}} {
			q := ht.apply(p)
			outer[k] = [2]float64{q.X, q.Y}
		}
		bestOuter := math.Inf(1)
		for _, fr := range outl {
			var c [4][2]float64
			for k := range c {
				c[k] = [2]float64{2 * fr.outer[k].X / scale, 2 * fr.outer[k].Y / scale}
			}
			bestOuter = math.Min(bestOuter, cornerErr(c, outer))
		}
		if bestOuter < 15 {
			outerNear++
		}
		line += fmt.Sprintf(" outer %.0f sqT %.3f sqC %.3f", bestOuter, squareError(ht, m.Cols(), m.Rows()), squareError(chosen, m.Cols(), m.Rows()))
		if variantNear < 15 {
			varNear++
		}
		if anyNear < 15 {
			candNear++
		}
		if ce < 15 {
			chosenNear++
		}
		fmt.Printf("seed %d el %2.0f: truth s%.2f chosen s%.2f e%.0f anynear %.0f | %d outlines%s\n", s, truth.Elevation, ts, sc, ce, anyNear, len(outl), line)
		m.Close()
	}
	fmt.Println("near", near, "of", *dbgFrameN, "with grids", found, "; any candidate near", candNear, "chosen near", chosenNear, "variant near", varNear, "outline near", outerNear)
}

var dbgSegSeed = flag.Int64("segpng", 0, "write /tmp/seg-N.png: the frame regions, outlines and grids of seed N")

// TestSegPNG draws the reduced frame with the frame regions tinted, their
// outlines in red, their grids in yellow and the true grid in white.
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
	grids := r.frameGrids(r.gray.Cols(), r.gray.Rows())
	s := &r.seg
	img := image.NewRGBA(image.Rect(0, 0, r.px.w, r.px.h))
	tints := []color.RGBA{{255, 0, 255, 255}, {0, 255, 255, 255}, {255, 128, 0, 255}, {0, 0, 255, 255}, {0, 255, 0, 255}, {128, 0, 255, 255}}
	for y := 0; y < r.px.h; y++ {
		for x := 0; x < r.px.w; x++ {
			rr, g, b := r.px.at(x, y)
			c := color.RGBA{uint8(rr), uint8(g), uint8(b), 255}
			if x/2 < s.w && y/2 < s.h {
				for k, fr := range outl {
					if fr.mask[(y/2)*s.w+x/2] {
						tc := tints[k%len(tints)]
						c = color.RGBA{uint8((int(c.R) + int(tc.R)) / 2), uint8((int(c.G) + int(tc.G)) / 2), uint8((int(c.B) + int(tc.B)) / 2), 255}
						break
					}
				}
			}
			img.Set(x, y, c)
		}
	}
	line := func(a, b pt, c color.RGBA) {
		for u := 0.0; u <= 1; u += 0.001 {
			img.Set(int(a.X+u*(b.X-a.X)), int(a.Y+u*(b.Y-a.Y)), c)
		}
	}
	for _, fr := range outl {
		for k := 0; k < 4; k++ {
			line(pt{2 * fr.outer[k].X, 2 * fr.outer[k].Y}, pt{2 * fr.outer[(k+1)%4].X, 2 * fr.outer[(k+1)%4].Y}, color.RGBA{255, 0, 0, 255})
		}
	}
	for _, g := range grids {
		c := cornersOf(g.h)
		for k := 0; k < 4; k++ {
			line(pt{c[k][0], c[k][1]}, pt{c[(k+1)%4][0], c[(k+1)%4][1]}, color.RGBA{255, 255, 0, 255})
		}
	}
	for k := 0; k < 4; k++ {
		a, b := truth.Corners[k], truth.Corners[(k+1)%4]
		line(pt{scale * a[0], scale * a[1]}, pt{scale * b[0], scale * b[1]}, color.RGBA{255, 255, 255, 255})
	}
	if hf, _, _, ok := r.locateGrid(scale, m.Cols(), m.Rows()); ok {
		hs := scaleHomography(hf, scale)
		for v := 0.0; v <= 5; v++ {
			line(hs.apply(pt{0, v}), hs.apply(pt{5, v}), color.RGBA{0, 255, 0, 255})
			line(hs.apply(pt{v, 0}), hs.apply(pt{v, 5}), color.RGBA{0, 255, 0, 255})
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
