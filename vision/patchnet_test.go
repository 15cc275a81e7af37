package vision

import (
	"math"
	"math/rand"
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

// Cells go through the network in runs of patchRows' sizes (19: 8, 8, 2
// and 1): a cell's correction does not depend on which run it is in, nor
// on the run's size, so 19 cells at once read as each cell alone.
func TestPatchNetBatches(t *testing.T) {
	var p patchNet
	defer p.close()
	const n = 19
	rng := rand.New(rand.NewSource(1))
	pix := make([]uint8, n*patchPixels)
	for i := range pix {
		pix[i] = uint8(rng.Intn(256))
	}
	extra := make([]float32, n*patchExtra)
	for i := range extra {
		extra[i] = float32(rng.NormFloat64())
	}
	all := make([][nHyp]float64, n)
	if err := p.correct(pix, extra, all); err != nil {
		t.Fatal(err)
	}
	moved := false
	for i := 0; i < n; i++ {
		one := make([][nHyp]float64, 1)
		if err := p.correct(pix[i*patchPixels:(i+1)*patchPixels], extra[i*patchExtra:(i+1)*patchExtra], one); err != nil {
			t.Fatal(err)
		}
		for k := range one[0] {
			if math.Abs(one[0][k]-all[i][k]) > 1e-4 {
				t.Fatalf("cell %d, hypothesis %d: %.6f alone, %.6f among %d", i, k, one[0][k], all[i][k], n)
			}
			moved = moved || one[0][k] != 0
		}
	}
	if !moved {
		t.Error("the network corrected nothing: the test shows nothing")
	}
	if err := p.correct(make([]uint8, 26*patchPixels), make([]float32, 26*patchExtra), make([][nHyp]float64, 26)); err == nil {
		t.Error("26 cells: want an error")
	}
}
