package vision

import (
	"testing"
)

// withoutPatchNet runs f with the third look switched off.
func withoutPatchNet(f func()) {
	was := usePatchNet
	usePatchNet = false
	defer func() { usePatchNet = was }()
	f()
}

// The third look reads the regression suite's frames (never trained on)
// at their true corners with fewer cells wrong than the second look
// alone.
func TestPatchNetHelps(t *testing.T) {
	r := NewReader()
	defer r.Close()
	wrong := func() int {
		n := 0
		for seed := int64(5000); seed < 5040; seed++ {
			m, truth := simFrame(t, seed)
			res, err := r.ReadWithCorners(m, truth.Corners)
			m.Close()
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			n += cellsWrong(res, truth)
		}
		return n
	}
	with := wrong()
	var without int
	withoutPatchNet(func() { without = wrong() })
	t.Logf("cells wrong at the true corners of 5000-5039: %d with the third look, %d without", with, without)
	if with >= without {
		t.Errorf("third look: %d cells wrong, without it %d: want fewer", with, without)
	}
}

// The network's input and output sizes match the build's: a file
// trained for other sizes fails here rather than in the reader.
func TestPatchNetSizes(t *testing.T) {
	var p patchNet
	defer p.close()
	lp := make([][nHyp]float64, 3)
	if err := p.correct(make([]uint8, 3*patchPixels), make([]float32, 3*patchExtra), lp); err != nil {
		t.Fatal(err)
	}
}
