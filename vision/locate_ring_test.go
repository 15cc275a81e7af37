package vision

import (
	"fmt"
	"math"
	"testing"
)

// TestSurveyRing prints, for each seed, the true grid's divider share and
// frame fit, and for each candidate of locate its error (full-resolution
// pixels), divider share, ring score and frame fit (development aid).
func TestSurveyRing(t *testing.T) {

	if *dbgLocN == 0 {
		t.Skip("run with -locn N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	for s := *surveySeed; s < *surveySeed+int64(*dbgLocN); s++ {
		m, truth := simFrame(t, s)
		_, scale, _ := r.prepare(m)
		ht, _ := homographyFromCorners(truth.Corners)
		_, tdiv := r.refineDividers(ht, 2, linePoints)
		tr := r.bestFrameFit(scaleHomography(ht, scale), 12)
		pc := truth.Corners
		pitch := (math.Hypot(pc[1][0]-pc[0][0], pc[1][1]-pc[0][1]) + math.Hypot(pc[2][0]-pc[3][0], pc[2][1]-pc[3][1])) / 10
		line := fmt.Sprintf("seed %d el %2.0f pitch %.1f truth div %.2f ring %.2f |", s, truth.Elevation, pitch, tdiv, tr)
		for _, hs := range r.locate() {
			hf, d := r.refineDividers(scaleHomography(hs, 1/scale), 2, linePoints)
			c := cornersOf(hf)
			e := 0.0
			for k := range c {
				e = math.Max(e, math.Hypot(c[k][0]-truth.Corners[k][0], c[k][1]-truth.Corners[k][1]))
			}
			line += fmt.Sprintf(" %.0f:%.2f/%.2f/%.2f", e, d, r.ringScore(scaleHomography(hf, scale)), r.bestFrameFit(scaleHomography(hf, scale), 12))
		}
		fmt.Println(line)
		m.Close()
	}
}

// TestSurveyRead reads each seed as the reader does and prints the grids
// accepted with a corner more than 1/4 pitch off (development aid).
func TestSurveyRead(t *testing.T) {
	if *dbgLocN == 0 {
		t.Skip("run with -locn N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	read, right := 0, 0
	for s := *surveySeed; s < *surveySeed+int64(*dbgLocN); s++ {
		m, truth := simFrame(t, s)
		res, err := r.Read(m)
		if err == nil {
			read++
			pc := truth.Corners
			pitch := (math.Hypot(pc[1][0]-pc[0][0], pc[1][1]-pc[0][1]) + math.Hypot(pc[2][0]-pc[3][0], pc[2][1]-pc[3][1])) / 10
			e := 0.0
			for k := range pc {
				e = math.Max(e, math.Hypot(res.Corners[k][0]-pc[k][0], res.Corners[k][1]-pc[k][1]))
			}
			h, _ := homographyFromCorners(res.Corners)
			_, d := r.refineDividers(h, 1, linePoints)
			if e < pitch/4 {
				right++
			} else {
				fmt.Printf("seed %d el %2.0f WRONG err %.2f pitch, div %.2f frame %+.2f\n", s, truth.Elevation, e/pitch, d, r.frameEvidence(h))
			}
		}
		m.Close()
	}
	fmt.Println("read", read, "right", right)
}
