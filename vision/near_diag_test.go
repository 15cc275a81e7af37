package vision

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"sort"
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
	var paths [7][3][2]int // per kind and path: taken, right
	searchRight := 0
	for s := *surveySeed; s < *surveySeed+int64(*dbgNearN); s++ {
		m, truth := simFrame(t, s)
		_, scale, err := r.prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		w, h := m.Cols(), m.Rows()
		if g, _, _, ok := r.locateGrid(scale, w, h); ok && pitchErr(cornersOf(g), truth.Corners) < 0.25 {
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
			g, conf, found, path := r.locateNearPath(c, scale, w, h)
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
			paths[k][path][0]++
			if e < 0.25 {
				paths[k][path][1]++
			}
			line += fmt.Sprintf(" | %s ok %v path %d e%.3f conf %.2f", kinds[k], ok, path, e, conf)
		}
		if testing.Verbose() {
			fmt.Println(line)
		}
		m.Close()
	}
	fmt.Printf("search alone: right %d of %d\n", searchRight, *dbgNearN)
	for k, n := range kinds {
		fmt.Printf("%-8s right %3d, search skipped %3d (wrongly %d); paths sure %d/%d kept %d/%d searched %d/%d (right/taken)\n", n, right[k], sure[k], sureWrong[k],
			paths[k][0][1], paths[k][0][0], paths[k][1][1], paths[k][1][0], paths[k][2][1], paths[k][2][0])
	}
}

var dbgRefineN = flag.Int("refinen", 0, "survey refinement started at the true grid on this many seeds from -surveyseed")

// TestSurveyRefine measures the refinement's own error: started at the
// true grid, how far it moves the corners (median over corners, in
// pitches), for a few ways of refining (development aid).
func TestSurveyRefine(t *testing.T) {
	if *dbgRefineN == 0 {
		t.Skip("run with -refinen N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	ways := []struct {
		name      string
		rounds, n int
		lens      bool
	}{{"r2", 2, linePoints, false}, {"r2lens", 2, linePoints, true}, {"r2n80lens", 2, 2 * linePoints, true}, {"r3n80lens", 3, 2 * linePoints, true}}
	errs := make([][]float64, len(ways))
	for s := *surveySeed; s < *surveySeed+int64(*dbgRefineN); s++ {
		m, truth := simFrame(t, s)
		if _, _, err := r.prepare(m); err != nil {
			t.Fatal(err)
		}
		ht, _ := homographyFromCorners(truth.Corners)
		p := 0.0
		for i := 0; i < 4; i++ {
			a, b := truth.Corners[i], truth.Corners[(i+1)%4]
			p += math.Hypot(a[0]-b[0], a[1]-b[1]) / 20
		}
		for k, w := range ways {
			g, _ := r.refineDividers(ht, w.rounds, w.n)
			c := cornersOf(g)
			if w.lens {
				if lc, ok := r.lensCorners(g, nil); ok {
					c = lc
				}
			}
			for i := range c {
				errs[k] = append(errs[k], math.Hypot(c[i][0]-truth.Corners[i][0], c[i][1]-truth.Corners[i][1])/p)
			}
		}
		m.Close()
	}
	for k, w := range ways {
		sort.Float64s(errs[k])
		n := len(errs[k])
		fmt.Printf("%-7s corner error median %.2f%% p90 %.2f%% of pitch\n", w.name, 100*errs[k][n/2], 100*errs[k][n*9/10])
	}
}

var lineK1 = flag.Float64("linek1", 0, "TestSurveyLines: only seeds with lens distortion k1 below this (negative) or at least this (positive)")

// TestSurveyLines prints, per grid line, the mean and spread of the fitted
// divider line's offset from the true line at its middle, in pitches,
// outward positive (development aid; -refinen N).
func TestSurveyLines(t *testing.T) {
	if *dbgRefineN == 0 {
		t.Skip("run with -refinen N [-surveyseed S]")
	}
	r := NewReader()
	defer r.Close()
	var off [2][6][]float64
	for s := *surveySeed; s < *surveySeed+int64(*dbgRefineN); s++ {
		if k1 := sim.RandomScene(s).Camera.Distortion; *lineK1 != 0 && (k1 < *lineK1) != (*lineK1 < 0) {
			continue // -linek1 -0.03: only k1 < -0.03; 0.01: only k1 >= 0.01 (-ish)
		}
		m, truth := simFrame(t, s)
		if _, _, err := r.prepare(m); err != nil {
			t.Fatal(err)
		}
		ht, _ := homographyFromCorners(truth.Corners)
		g, _ := r.fullGray.DataPtrUint8()
		img := grayImg{g, r.fullGray.Cols(), r.fullGray.Rows()}
		for fam := 0; fam < 2; fam++ {
			for k := 0; k <= 5; k++ {
				l, in, ok := r.fitGridLine(img, ht, fam, k, 0, linePoints, false)
				if !ok || in < linePoints/3 {
					continue
				}
				var c, q pt
				if fam == 0 {
					c, q = ht.apply(pt{2.5, float64(k)}), ht.apply(pt{2.5, float64(k) + 1})
				} else {
					c, q = ht.apply(pt{float64(k), 2.5}), ht.apply(pt{float64(k) + 1, 2.5})
				}
				// Signed distance from c to the line, towards q (inward
				// for k=0), in pitches along the normal.
				d := l.nx*c.X + l.ny*c.Y - l.d
				dq := l.nx*q.X + l.ny*q.Y - l.d
				pitchN := dq - d
				v := -d / pitchN // where the line is, from c towards q, in pitches
				if k >= 3 {
					v = -v
				}
				off[fam][k] = append(off[fam][k], -v) // outward positive
			}
		}
		m.Close()
	}
	for fam := 0; fam < 2; fam++ {
		for k := 0; k <= 5; k++ {
			v := off[fam][k]
			mean, sd := 0.0, 0.0
			for _, x := range v {
				mean += x
			}
			mean /= float64(len(v))
			for _, x := range v {
				sd += (x - mean) * (x - mean)
			}
			sd = math.Sqrt(sd / float64(len(v)))
			sort.Float64s(v)
			fmt.Printf("fam %d line %d: n %3d mean %+.4f sd %.4f median %+.4f pitches\n", fam, k, len(v), mean, sd, v[len(v)/2])
		}
	}
}
