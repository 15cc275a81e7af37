package vision

import (
	"math"
	"math/rand"
	"testing"
)

// bilinearClamped is bilinear's general path: every pixel through at.
func bilinearClamped(p *pixels, x, y float64) [3]float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	xi, yi := int(x0), int(y0)
	var out [3]float64
	for k, w := range [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy} {
		a, b, c := p.at(xi+k%2, yi+k/2)
		out[0] += w * a
		out[1] += w * b
		out[2] += w * c
	}
	return out
}

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
		if got, want := p.bilinear(q[0], q[1]), bilinearClamped(p, q[0], q[1]); got != want {
			t.Fatalf("bilinear(%v, %v) = %v, want %v", q[0], q[1], got, want)
		}
	}
	// The top-left pixel's colour, as r, g, b.
	if got := p.bilinear(0, 0); got != [3]float64{float64(p.bgr[2]), float64(p.bgr[1]), float64(p.bgr[0])} {
		t.Errorf("bilinear(0, 0) = %v, want the first pixel's r, g, b", got)
	}
}
