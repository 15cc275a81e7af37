package vision

import (
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

// simFrame renders seed's scene and passes it through JPEG at the scene's
// quality, like a real frame; the caller must Close the Mat.
func simFrame(tb testing.TB, seed int64) (gocv.Mat, sim.Truth) {
	tb.Helper()
	data, truth, err := sim.Frame(seed)
	if err != nil {
		tb.Fatalf("seed %d: %v", seed, err)
	}
	m, err := DecodeBytes(data)
	if err != nil {
		tb.Fatalf("seed %d: %v", seed, err)
	}
	return m, truth
}
