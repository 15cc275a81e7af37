package vision

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"companion/sim"
)

var dbgNearN = flag.Int("nearn", 0, "survey reading near a hinted grid on this many seeds from -surveyseed")

// TestSurveyNear sorts, per kind of hint, how often reading near it finds
// the right grid, how often the search was skipped and how often wrongly,
// against the search alone (development aid).
func TestSurveyNear(t *testing.T) {
	if *dbgNearN == 0 {
		t.Skip("run with -nearn N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	rng := rand.New(rand.NewSource(1))
	kinds := []string{"nudge05", "nudge10", "nudge20", "cellOff", "larger", "bump", "bump2"}
	var right, sure, sureWrong [7]int
	searchRight := 0
	for s := *surveySeed; s < *surveySeed+int64(*dbgNearN); s++ {
		m, truth := simFrame(t, s)
		_, scale, err := r.prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		w, h := m.Cols(), m.Rows()
		if g, best, _, ok := r.locateGrid(scale, w, h); ok && best >= minDividers && pitchErr(cornersOf(g), truth.Corners) < 0.25 {
			searchRight++
		}
		ht, _ := homographyFromCorners(truth.Corners)
		hints := [7][4][2]float64{
			sim.Nudge(truth.Corners, 0.05, rng),
			sim.Nudge(truth.Corners, 0.10, rng),
			sim.Nudge(truth.Corners, 0.20, rng),
			cornersOf(mul3(ht, homography{1, 0, 1, 0, 1, 0, 0, 0, 1})),
			cornersOf(mul3(ht, homography{1.2, 0, -0.5, 0, 1.2, -0.5, 0, 0, 1})),
			cornersOf(mul3(ht, bump(rng))),
			cornersOf(mul3(ht, bump(rng))),
		}
		line := fmt.Sprintf("seed %d el %2.0f", s, truth.Elevation)
		for k, c := range hints {
			hg, ok := r.nearGrid(c, scale, w, h)
			g, _, found := r.locateNear(c, scale, w, h)
			e := math.Inf(1)
			if found {
				e = pitchErr(cornersOf(g), truth.Corners)
			}
			if e < 0.25 {
				right[k]++
			}
			if ok && hg.sure {
				sure[k]++
				if e >= 0.25 {
					sureWrong[k]++
				}
			}
			line += fmt.Sprintf(" | %s ok %v sure %v e%.3f", kinds[k], ok, ok && hg.sure, e)
		}
		if testing.Verbose() {
			fmt.Println(line)
		}
		m.Close()
	}
	fmt.Printf("search alone: right %d of %d\n", searchRight, *dbgNearN)
	for k, n := range kinds {
		fmt.Printf("%-8s right %3d, search skipped %3d (wrongly %d)\n", n, right[k], sure[k], sureWrong[k])
	}
}
