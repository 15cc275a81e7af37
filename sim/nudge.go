package sim

import (
	"math"
	"math/rand"
)

// Nudge moves grid corners (A1, A5, E5, E1 in pixels) the way a camera
// nudged on the table would see them move: all together by up to j cell
// pitches, and each by up to j/2 more. It stands for a grid found earlier
// (a calibration, the last frame) given to the reader as a hint.
func Nudge(c [4][2]float64, j float64, rng *rand.Rand) [4][2]float64 {
	pitch := 0.0
	for i := 0; i < 4; i++ {
		a, b := c[i], c[(i+1)%4]
		pitch += math.Hypot(a[0]-b[0], a[1]-b[1]) / 20
	}
	ang, d := rng.Float64()*2*math.Pi, rng.Float64()*j*pitch
	for i := range c {
		a2, d2 := rng.Float64()*2*math.Pi, rng.Float64()*j/2*pitch
		c[i][0] += d*math.Cos(ang) + d2*math.Cos(a2)
		c[i][1] += d*math.Sin(ang) + d2*math.Sin(a2)
	}
	return c
}
