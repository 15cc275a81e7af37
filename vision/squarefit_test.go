package vision

import (
	"math"
	"math/rand"
	"testing"
)

// TestSquareFit: a board seen at 50 and 75 degrees with one corner moved
// (as a corner network places the one hidden behind towers) so far that
// the grid is no square view: squareFit gives a square view near the
// corners given, nearer than squared's.
func TestSquareFit(t *testing.T) {
	for _, c := range []struct {
		name   string
		eye    [3]float64
		corner int
		move   pt // pitches
	}{
		{"50 degrees, far corner out", [3]float64{2.5 + 3, 2.5 + 7, 10}, 0, pt{-0.3, 0.4}},
		{"50 degrees, near corner in", [3]float64{2.5 - 2, 2.5 + 8, 10}, 2, pt{0.4, -0.3}},
		{"75 degrees, side corner", [3]float64{2.5, 2.5 + 3, 11}, 1, pt{0.4, 0.3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cam := lookAt(c.eye, [3]float64{2.5, 2.5, 0}, 800, 640, 360)
			var truth, given [4][2]float64
			for i, p := range boardSquare {
				q := cam.project(p.X, p.Y, 0)
				truth[i] = [2]float64{q.X, q.Y}
				if i == c.corner {
					p = pt{p.X + c.move.X, p.Y + c.move.Y}
					q = cam.project(p.X, p.Y, 0)
				}
				given[i] = [2]float64{q.X, q.Y}
			}
			h, ok := homographyFromCorners(given)
			if !ok {
				t.Fatal("no homography from the corners given")
			}
			if e := squareError(h, 1280, 720); e < maxSquareError {
				t.Fatalf("the corners given are square enough already (%.4f): no test", e)
			}
			fit := squareFit(h, 1280, 720)
			if e := squareError(fit, 1280, 720); e > 1e-3 {
				t.Errorf("fit's square error %.4f, want about 0", e)
			}
			// squared, the camera recovered as it is, moved such grids
			// half a pitch.
			moved, old := pitchErr(cornersOf(fit), given), pitchErr(cornersOf(squared(h, 1280, 720)), given)
			t.Logf("fit moved %.3f pitch, squared %.3f", moved, old)
			if moved > 0.2 || moved > 0.7*old {
				t.Errorf("fit moved the corners %.3f pitch at most, squared %.3f", moved, old)
			}
		})
	}
}

// TestSquareFitFinite: whatever quadrilateral a network or a user gives
// (crossed, collapsed, far off the frame), squareFit gives a finite grid:
// a NaN would pass some of the checks after it.
func TestSquareFitFinite(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	tried := 0
	for i := 0; i < 5000; i++ {
		var c [4][2]float64
		for k := range c {
			c[k] = [2]float64{rng.Float64()*3000 - 1000, rng.Float64()*2000 - 700}
		}
		if i%10 == 0 {
			c[2] = c[1] // two corners on one point
		}
		h, ok := homographyFromCorners(c)
		if !ok {
			continue
		}
		tried++
		for _, v := range squareFit(h, 1280, 720) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("corners %v: squareFit gives %v", c, squareFit(h, 1280, 720))
			}
		}
	}
	if tried < 1000 {
		t.Fatalf("only %d of 5000 quadrilaterals made a homography", tried)
	}
}
