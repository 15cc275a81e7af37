package vision

import (
	"image"
	"math/rand"
	"reflect"
	"testing"

	"companion/sim"
)

// TestCellsKept: a reading set aside and put back is the reading as it
// was, whatever the reading tried between did to the result and the cell
// state (the confidence model's features and the networks' inputs).
func TestCellsKept(t *testing.T) {
	var c cellCtx
	c.netIn = []float32{1, 2, 3}
	c.lookIn = []float32{4, 5}
	c.agree[3] = [2]float64{0.5, 1}
	c.cover[7] = [2]float64{0.25, 0}
	c.cam.f = 900
	var res Result
	res.Board[2].Level = 3
	res.Confidence[2] = 0.75
	res.Corners[1] = [2]float64{10, 20}
	wantRes, wantC := res, c
	wantC.netIn = append([]float32(nil), c.netIn...)
	wantC.lookIn = append([]float32(nil), c.lookIn...)

	var k cellsKept
	k.keep(&c, &res)
	// The other reading writes over the same buffers.
	c.netIn[0], c.lookIn[1] = -1, -1
	c.agree[3], c.cover[7] = [2]float64{}, [2]float64{1, 1}
	c.cam.f = 1200
	res.Board[2].Level, res.Confidence[2] = 1, 0.5
	k.restore(&c, &res)

	if res != wantRes {
		t.Errorf("result restored %+v, want %+v", res, wantRes)
	}
	if !reflect.DeepEqual(c.netIn, wantC.netIn) || !reflect.DeepEqual(c.lookIn, wantC.lookIn) {
		t.Errorf("inputs restored %v %v, want %v %v", c.netIn, c.lookIn, wantC.netIn, wantC.lookIn)
	}
	if c.agree != wantC.agree || c.cover != wantC.cover || c.cam != wantC.cam {
		t.Errorf("state restored agree %v cover %v cam %+v, want %v %v %+v", c.agree[3], c.cover[7], c.cam, wantC.agree[3], wantC.cover[7], wantC.cam)
	}
}

// TestCellsKeptRestoresAll: on a real frame, a reading put back with
// restoreAll after another grid's cells were read is the first reading
// again, down to the hypotheses drawn (which shownPlaces reads after it):
// what reading the first grid again would give, without its cost.
func TestCellsKeptRestoresAll(t *testing.T) {
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, 5001)
	defer m.Close()
	_, scale, err := r.prepare(m)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := homographyFromCorners(truth.Corners)
	other, _ := homographyFromCorners(sim.Nudge(truth.Corners, 0.3, rand.New(rand.NewSource(1))))
	drawn := func() []uint8 {
		c := &r.cc
		c.draw(image.Rect(0, 0, c.w, c.h), -1, 0)
		return append([]uint8(nil), c.lab...)
	}
	var want, res Result
	r.readCells(scaleHomography(first, scale), &want)
	wantLab, wantHyp, wantCam := drawn(), r.cc.hyp, r.cc.cam
	res = want
	r.keptFirst.keep(&r.cc, &res)
	r.readCells(scaleHomography(other, scale), &res)
	if res == want {
		t.Fatal("the other grid read the same: the test shows nothing")
	}
	r.keptFirst.restoreAll(&r.cc, &res)
	if res != want {
		t.Errorf("result restored differs from the first reading")
	}
	if r.cc.hyp != wantHyp || r.cc.cam != wantCam {
		t.Errorf("hypotheses or pose restored differ: %v against %v", r.cc.hyp, wantHyp)
	}
	if !reflect.DeepEqual(drawn(), wantLab) {
		t.Errorf("the hypotheses drawn after restoreAll differ from the first reading's")
	}
}
