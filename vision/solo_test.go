package vision

import (
	"slices"
	"testing"
)

// The embedded patch network stands in for a solo network: it takes the
// same inputs and gives nHyp values a cell, though corrections, not
// log-probabilities, so its reading differs from the reader's own.
func TestUseCellNetworksReplacesTheReading(t *testing.T) {
	m, truth := simFrame(t, 20005)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	own, err := r.ReadWithCorners(m, truth.Corners)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.UseCellNetworks(patchNetONNX, patchNetONNX); err != nil {
		t.Fatal(err)
	}
	solo, err := r.ReadWithCorners(m, truth.Corners)
	if err != nil {
		t.Fatal(err)
	}
	if solo.Board == own.Board && solo.Confidence == own.Confidence {
		t.Error("the cells read the same with the stand-in networks as with the reader's own reading")
	}
	// Two copies of one network: the reading is the network's own output
	// (with no cell read again on shifted grids).
	defer func(g float64) { soloShiftGate = g }(soloShiftGate)
	soloShiftGate = 0
	h, ok := homographyFromCorners(truth.Corners)
	if !ok {
		t.Fatal("no homography from the true corners")
	}
	c := &r.cc
	if err := r.readSolo(scaleHomography(h, float64(r.px.w)/float64(m.Cols())), &solo); err != nil {
		t.Fatal(err)
	}
	var want [25][nHyp]float64
	if err := r.solo.nets[0].inRuns(25, func(run *patchRun, at, end int) error {
		out, err := run.run(c.patchPix[at*patchPixels:end*patchPixels], c.patchExtra[at*patchExtra:end*patchExtra], (end-at)*nHyp)
		for j := at; j < end && err == nil; j++ {
			for k := range want[j] {
				want[j][k] = float64(out[(j-at)*nHyp+k])
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for k := range want[i] {
			if d := c.netLP[i][k] - want[i][k]; d > 1e-5 || d < -1e-5 {
				t.Fatalf("cell %d hypothesis %d: log-probability %v, want the networks' mean %v", i, k, c.netLP[i][k], want[i][k])
			}
		}
	}
	if err := r.UseCellNetworks(); err != nil {
		t.Fatal(err)
	}
	again, err := r.ReadWithCorners(m, truth.Corners)
	if err != nil {
		t.Fatal(err)
	}
	if again.Board != own.Board || again.Confidence != own.Confidence {
		t.Errorf("with no networks given the reading is not the reader's own again:\n%v\nwant\n%v", again.Board, own.Board)
	}
}

// The unsure cells are read again on the shifted grids and averaged; the
// sure ones keep their reading.
func TestSoloShiftedAveragesTheUnsureCells(t *testing.T) {
	m, truth := simFrame(t, 20005)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	if err := r.UseCellNetworks(patchNetONNX); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadWithCorners(m, truth.Corners); err != nil {
		t.Fatal(err)
	}
	toFull := float64(r.full.w) / float64(r.px.w)
	var base, tmp [25][nHyp]float64
	if err := r.soloPass(r.solo.nets, toFull, allCells[:], base[:]); err != nil {
		t.Fatal(err)
	}
	want := base
	for _, sh := range netShifts {
		r.cc.patchShift = sh
		err := r.soloPass(r.solo.nets, toFull, allCells[:], tmp[:])
		r.cc.patchShift = pt{}
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			for k := range want[i] {
				want[i][k] += tmp[i][k]
			}
		}
	}
	// A gate between the cells' leads, so that some are read again and
	// some not.
	leads := make([]float64, 25)
	for i := range base {
		leads[i] = lead(&base[i])
	}
	slices.Sort(leads)
	defer func(g float64) { soloShiftGate = g }(soloShiftGate)
	soloShiftGate = (leads[12] + leads[13]) / 2
	got := base
	if err := r.soloShifted(r.solo.nets, toFull, allCells[:], got[:]); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i := range got {
		unsure := lead(&base[i]) < soloShiftGate
		for k := range got[i] {
			w := base[i][k]
			if unsure {
				w = want[i][k] / float64(len(netShifts)+1)
			}
			if d := got[i][k] - w; d > 1e-5 || d < -1e-5 {
				t.Fatalf("cell %d (unsure %v) hypothesis %d: %v, want %v", i, unsure, k, got[i][k], w)
			}
			if got[i][k] != base[i][k] {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Error("no cell's reading changed on the shifted grids")
	}
}
