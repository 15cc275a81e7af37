package vision

import "testing"

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
	// Two copies of one network: the reading is the network's own output.
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
