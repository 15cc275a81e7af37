package vision

import (
	"reflect"
	"testing"
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
