package vision

import (
	"math/rand"
	"testing"
)

// The fast path inside the frame gives exactly what the clamped path
// gives, and points at and beyond the edges take the border's colours.
func TestBilinearMatchesClampedPath(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	p := &pixels{w: 7, h: 5, bgr: make([]uint8, 7*5*3)}
	for i := range p.bgr {
		p.bgr[i] = uint8(rng.Intn(256))
	}
	points := [][2]float64{{0, 0}, {5.999, 3.999}, {6, 4}, {-0.5, 2}, {3.25, -1}, {6.5, 4.5}, {2.5, 1.75}}
	for i := 0; i < 2000; i++ {
		points = append(points, [2]float64{rng.Float64()*9 - 1, rng.Float64()*7 - 1})
	}
	for _, q := range points {
		if got, want := p.bilinear(q[0], q[1]), p.bilinearClamped(q[0], q[1]); got != want {
			t.Fatalf("bilinear(%v, %v) = %v, want %v", q[0], q[1], got, want)
		}
	}
	// The top-left pixel's colour, as r, g, b.
	if got := p.bilinear(0, 0); got != [3]float64{float64(p.bgr[2]), float64(p.bgr[1]), float64(p.bgr[0])} {
		t.Errorf("bilinear(0, 0) = %v, want the first pixel's r, g, b", got)
	}
}
