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

// TestPlaneRowMatchesProject: a plane's points made a row at a time are
// camera.project's to the bit, for cameras looking from every side, and
// with a point behind the camera (the depth clamped).
func TestPlaneRowMatchesProject(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 200; trial++ {
		var cam camera
		cam.f, cam.cx, cam.cy = 500+1000*rng.Float64(), 640*rng.Float64(), 360*rng.Float64()
		for k := range cam.r {
			cam.r[k] = rng.NormFloat64()
		}
		for k := range cam.t {
			cam.t[k] = 10 * rng.NormFloat64()
		}
		side := 1 + rng.Intn(maxPlaneSide)
		var across planeRow
		xs := make([]float64, side)
		for k := range xs {
			xs[k] = 6*rng.Float64() - 0.5
			across.set(&cam, k, xs[k])
		}
		y, z := 6*rng.Float64()-0.5, 3*rng.Float64()
		got := make([]pt, side)
		across.project(&cam, y, z, got)
		for k, x := range xs {
			want := cam.project(x, y, z)
			if math.Float64bits(got[k].X) != math.Float64bits(want.X) || math.Float64bits(got[k].Y) != math.Float64bits(want.Y) {
				t.Fatalf("trial %d point %d: row %v, project %v", trial, k, got[k], want)
			}
		}
	}
}

// TestSamplePlaneMatchesEach: a plane sampled a row at a time is the one
// sampled point by point through camera.project, colours and cover, on a
// real reading's cells (a shifted grid takes some samples off the frame).
func TestSamplePlaneMatchesEach(t *testing.T) {
	m, truth := benchFrame(t)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	if _, err := r.ReadWithCorners(m, truth.Corners); err != nil {
		t.Fatal(err)
	}
	c := &r.cc
	toFull := float64(r.full.w) / float64(r.px.w)
	for _, shift := range []pt{{}, {X: -1.5, Y: 2.5}} {
		c.patchShift = shift
		for _, side := range []int{patchSide, tierSide, 5} {
			n := side * side
			got, want := make([]uint8, 3*n), make([]uint8, 3*n)
			gotCover, wantCover := make([]uint8, n), make([]uint8, n)
			for i := 0; i < 25; i++ {
				z := float64(i%4) * c.set.tier1Top
				c.samplePlane(&r.full, toFull, i, z, side, got, gotCover)
				c.samplePlaneEach(&r.full, toFull, i, z, side, want, wantCover)
				if string(got) != string(want) || string(gotCover) != string(wantCover) {
					t.Fatalf("shift %v side %d cell %d: a row at a time differs from point by point", shift, side, i)
				}
			}
		}
	}
	c.patchShift = pt{}
}
