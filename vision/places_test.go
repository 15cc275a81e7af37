package vision

import (
	"image"
	"testing"

	"companion/observation"
)

func TestPlaceFilterAnd(t *testing.T) {
	below := func(v float64) placeFilter {
		return func(fam, k int) func(t float64) bool { return func(t float64) bool { return t < v } }
	}
	tests := []struct {
		name string
		f    placeFilter
		t    float64
		want bool
	}{
		{"both keep", below(3).and(below(4)), 2, true},
		{"one refuses", below(3).and(below(4)), 3.5, false},
		{"nil and a filter", placeFilter(nil).and(below(1)), 2, false},
		{"a filter and nil", below(1).and(nil), 0.5, true},
	}
	for _, tt := range tests {
		if got := tt.f.line(0, 1)(tt.t); got != tt.want {
			t.Errorf("%s: kept %v, want %v", tt.name, got, tt.want)
		}
	}
	if placeFilter(nil).and(nil).line(0, 1) != nil {
		t.Error("nil and nil: want no filter (every place)")
	}
}

// A block drawn on cell C3 of a grid 20 pixels a pitch: the places on its
// lines, and those within shownMargin of it, show no bare board; places
// further off do.
func TestShownPlaces(t *testing.T) {
	r := &Reader{}
	c := &r.cc
	c.w, c.h = 140, 140
	c.lab = make([]uint8, c.w*c.h)
	const pitch, off = 20.0, 20.0
	h := homography{pitch, 0, off, 0, pitch, off, 0, 0, 1}
	for i := range c.order {
		c.order[i] = i
	}
	const cell, hyp = 12, 4 // C3, level 1
	block := poly{{off + 2*pitch, off + 2*pitch}, {off + 3*pitch, off + 2*pitch}, {off + 3*pitch, off + 3*pitch}, {off + 2*pitch, off + 3*pitch}}
	c.shapes[cell][hyp] = []drawn{{outline: block, lab: labBlock}}
	c.box[cell][hyp] = image.Rect(int(off+2*pitch), int(off+2*pitch), int(off+3*pitch)+1, int(off+3*pitch)+1)
	c.hyp[cell] = hyp
	shown := r.shownPlaces(h, 1)
	tests := []struct {
		name   string
		fam, k int
		t      float64
		want   bool
	}{
		{"row line 2 along the block", 0, 2, 2.5, false},
		{"row line 3 along the block", 0, 3, 2.5, false},
		{"column line 2 along the block", 1, 2, 2.5, false},
		{"row line 2 just past the block's corner", 0, 2, 3.05, false},
		{"row line 2 clear of the block", 0, 2, 3.5, true},
		{"row line 1, a cell away", 0, 1, 2.5, true},
		{"column line 4 beside bare cells", 1, 4, 2.5, true},
		{"row line 0, off the drawn map", 0, 0, -1.5, false},
	}
	for _, tt := range tests {
		if got := shown.line(tt.fam, tt.k)(tt.t); got != tt.want {
			t.Errorf("%s: kept %v, want %v", tt.name, got, tt.want)
		}
	}
	board := observation.Board{}
	board[12] = observation.Square{Level: 1}
	both := shown.and(bareFilter(&board))
	if both.line(0, 1)(0.5) != true || both.line(0, 1)(2.5) != true || both.line(0, 2)(2.5) != false {
		t.Error("shown and bare: want places between bare cells that show the board, and none beside the block")
	}
}
