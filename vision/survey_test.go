package vision

import (
	"flag"
	"fmt"
	"math"
	"testing"
)

var surveySeed = flag.Int64("surveyseed", 1000, "first seed of -locn")

// dbgLocN enables a survey of the localisation: for each sim seed, the
// true grid's ridge and divider scores, the candidate nearest the truth and
// the one chosen (development aid; errors in full-resolution pixels).
var dbgLocN = flag.Int("locn", 0, "survey the localisation on this many seeds from -surveyseed")

func TestSurveyLocate(t *testing.T) {
	if *dbgLocN == 0 {
		t.Skip("run with -locn N [-surveyseed S] to survey the localisation")
	}
	r := NewReader()
	defer r.Close()
	good := 0
	for s := *surveySeed; s < *surveySeed+int64(*dbgLocN); s++ {
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
