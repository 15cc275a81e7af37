package vision

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"sort"
	"testing"
	"time"
)

var dbgGridN = flag.Int("gridn", 0, "survey findGrid's candidates on this many seeds from -surveyseed")

// TestSurveyGrid sorts each seed's localisation into right, wrong and
// refused, and for the failures tells whether some scored candidate was
// right (a scoring failure) or none was (a proposal failure), and how the
// true grid itself would score (development aid).
func TestSurveyGrid(t *testing.T) {
	if *dbgGridN == 0 {
		t.Skip("run with -gridn N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	var right, wrong, refused, wrongHasNear, refusedHasNear, truthBeats int
	var finalRight, finalWrong, finalWrongConf int
	var spent time.Duration
	for s := *surveySeed; s < *surveySeed+int64(*dbgGridN); s++ {
		m, truth := simFrame(t, s)
		_, scale, err := r.prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		all := r.gridCandidates(scale, m.Cols(), m.Rows())
		spent += time.Since(t0)
		sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
		ht, _ := homographyFromCorners(truth.Corners)
		ts := r.gridScore(ht, linePoints/2)
		tsf := ts + faceWeight*r.faceAgreement(scaleHomography(ht, scale))
		nearI, nearE := -1, math.Inf(1)
		for i, g := range all {
			if e := pitchErr(cornersOf(g.h), truth.Corners); e < nearE {
				nearI, nearE = i, e
			}
		}
		status := "right"
		ce := math.Inf(1)
		var cs, cb float64
		if len(all) > 0 {
			ce = pitchErr(cornersOf(all[0].h), truth.Corners)
			cs, cb = all[0].s, all[0].base
		}
		switch {
		case len(all) == 0 || cs < minDividers:
			status = "REFUSED"
			refused++
			if nearE < 0.25 {
				refusedHasNear++
			}
		case ce > 0.25:
			status = "WRONG"
			wrong++
			if nearE < 0.25 {
				wrongHasNear++
			}
		default:
			right++
		}
		final := math.Inf(1)
		fconf := 0.0
		if g, _, conf, ok := r.locateGrid(scale, m.Cols(), m.Rows()); ok {
			c := cornersOf(g)
			if lc, ok := r.lensCorners(g, nil); ok && plausibleGrid(lc, m.Cols(), m.Rows()) {
				c = lc
			}
			final, fconf = pitchErr(c, truth.Corners), conf
		}
		if final < 0.25 {
			finalRight++
		} else if !math.IsInf(final, 1) {
			finalWrong++
			if fconf > 0.5 {
				finalWrongConf++
			}
		}
		if (final < 0.25) != (status == "right") {
			status += "*"
		}
		if status != "right" && tsf > cs {
			truthBeats++
		}
		line := fmt.Sprintf("seed %d el %2.0f %-7s %d faces: chosen e%.2f s%.2f b%.2f | nearest #%d e%.2f", s, truth.Elevation, status, len(r.faces), ce, cs, cb, nearI, nearE)
		if nearI >= 0 {
			line += fmt.Sprintf(" s%.2f b%.2f", all[nearI].s, all[nearI].base)
		}
		line += fmt.Sprintf(" | truth s%.2f b%.2f sq%.3f | final e%.2f conf %.2f", tsf, ts, squareError(ht, m.Cols(), m.Rows()), final, fconf)
		if status != "right" || testing.Verbose() {
			fmt.Println(line)
		}
		m.Close()
	}
	fmt.Printf("final: right %d wrong %d (conf > 0.5: %d)\n", finalRight, finalWrong, finalWrongConf)
	fmt.Printf("right %d wrong %d (near candidate %d) refused %d (near candidate %d); truth outscores chosen on %d failures; findGrid %.1f ms/frame\n",
		right, wrong, wrongHasNear, refused, refusedHasNear, truthBeats, float64(spent.Microseconds())/1000/float64(*dbgGridN))
}

var dbgGridPNG = flag.Int64("gridpng", 0, "write /tmp/grid-N.png: seed N with the true grid (white), the candidates (yellow) and the chosen grid (red)")

func TestGridPNG(t *testing.T) {
	if *dbgGridPNG == 0 {
		t.Skip("run with -gridpng N")
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, *dbgGridPNG)
	defer m.Close()
	_, scale, _ := r.prepare(m)
	all := r.gridCandidates(scale, m.Cols(), m.Rows())
	sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
	props := r.locate()
	img := image.NewRGBA(image.Rect(0, 0, r.px.w, r.px.h))
	for y := 0; y < r.px.h; y++ {
		for x := 0; x < r.px.w; x++ {
			rr, g, b := r.px.at(x, y)
			img.Set(x, y, color.RGBA{uint8(rr), uint8(g), uint8(b), 255})
		}
	}
	line := func(a, b pt, c color.RGBA) {
		for u := 0.0; u <= 1; u += 0.001 {
			img.Set(int(a.X+u*(b.X-a.X)), int(a.Y+u*(b.Y-a.Y)), c)
		}
	}
	grid := func(hs homography, c color.RGBA, full bool) {
		for v := 0.0; v <= 5; v++ {
			if !full && v > 0 && v < 5 {
				continue
			}
			line(hs.apply(pt{0, v}), hs.apply(pt{5, v}), c)
			line(hs.apply(pt{v, 0}), hs.apply(pt{v, 5}), c)
		}
	}
	for _, p := range props {
		grid(p, color.RGBA{0, 200, 255, 255}, false)
	}
	for _, g := range all {
		grid(scaleHomography(g.h, scale), color.RGBA{255, 255, 0, 255}, false)
	}
	ht, _ := homographyFromCorners(truth.Corners)
	grid(scaleHomography(ht, scale), color.RGBA{255, 255, 255, 255}, true)
	if len(all) > 0 {
		grid(scaleHomography(all[0].h, scale), color.RGBA{255, 0, 0, 255}, true)
	}
	f, err := os.Create(fmt.Sprintf("/tmp/grid-%d.png", *dbgGridPNG))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
