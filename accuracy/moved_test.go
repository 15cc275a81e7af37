package accuracy

import (
	"context"
	"testing"

	"companion/vision"

	"gocv.io/x/gocv"
)

// echoCorners "reads" a frame as the corners it is given, so the harness
// measures the corners handed over.
type echoCorners struct{}

func (echoCorners) Read(gocv.Mat) (vision.Result, error) { return vision.Result{}, vision.ErrNoGrid }

func (echoCorners) ReadWithCorners(_ gocv.Mat, c [4][2]float64) (vision.Result, error) {
	return vision.Result{Corners: c}, nil
}

// TestMovedCorners: the true corners are handed over exactly, and moved
// by sd pitches they are off by about that much, the same way each run.
func TestMovedCorners(t *testing.T) {
	seeds := []int64{5000, 5001}
	exact := RunWithTrueCorners(context.Background(), seeds, echoCorners{})
	for _, s := range exact.Samples {
		if w := s.WorstCorner(); w > 1e-9 {
			t.Errorf("seed %d: true corners handed over %.3g pitch off", s.Seed, w)
		}
	}
	const sd = 0.02
	moved := RunWithMovedCorners(context.Background(), seeds, echoCorners{}, sd)
	again := RunWithMovedCorners(context.Background(), seeds, echoCorners{}, sd)
	for i, s := range moved.Samples {
		// The worst of four corners moved sd on each axis lies within a
		// tenth and five times sd but for odds of about one in a thousand.
		if w := s.WorstCorner(); w < sd/10 || w > 5*sd {
			t.Errorf("seed %d: corners moved %.3f pitch s.d. are %.4f pitch off at worst", s.Seed, sd, w)
		}
		if s.CornerPx != again.Samples[i].CornerPx {
			t.Errorf("seed %d: the moves differ from run to run: %v, %v", s.Seed, s.CornerPx, again.Samples[i].CornerPx)
		}
	}
}
