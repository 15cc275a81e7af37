package sim

import (
	"math"
	"math/rand"
	"testing"
)

func TestNudgeStaysWithinJitter(t *testing.T) {
	c := [4][2]float64{{100, 100}, {600, 100}, {600, 600}, {100, 600}} // pitch 100
	rng := rand.New(rand.NewSource(3))
	for _, j := range []float64{0, 0.05, 0.2} {
		moved := 0.0
		for n := 0; n < 200; n++ {
			d := Nudge(c, j, rng)
			for i := range d {
				m := math.Hypot(d[i][0]-c[i][0], d[i][1]-c[i][1])
				if m > 1.5*j*100+1e-9 {
					t.Fatalf("jitter %v: corner %d moved %.1f px, more than %.1f", j, i, m, 1.5*j*100)
				}
				moved = math.Max(moved, m)
			}
		}
		if j > 0 && moved < j*100 {
			t.Errorf("jitter %v: corners moved at most %.1f px in 200 tries; want near %.0f", j, moved, 1.5*j*100)
		}
		if j == 0 && moved != 0 {
			t.Errorf("jitter 0 moved a corner %.3f px", moved)
		}
	}
}
