package vision

import (
	"math"
	"testing"
)

// holeTable paints a 640x360 reduced frame: a table in two lights (lit on
// the left, in shadow on the right, so that it is two regions with an edge
// between them), a die on it, and when board is set a turned square board
// of tan frame and white and green cells (many regions) in the middle. It
// gives the frame and whether a half-size pixel is on the board.
func holeTable(board bool) (pixels, func(x, y int) bool) {
	const w, h = 640, 360
	px := pixels{w: w, h: h, bgr: make([]uint8, 3*w*h)}
	const turn = 10 * math.Pi / 180
	cx, cy, half := 330.0, 180.0, 120.0
	// onBoard tells, in reduced-frame pixels, whether (x, y) is on the
	// board, and where in its 5 x 5 cells (with a frame 0.5 wide).
	local := func(x, y float64) (u, v float64) {
		dx, dy := x-cx, y-cy
		return dx*math.Cos(turn) + dy*math.Sin(turn), -dx*math.Sin(turn) + dy*math.Cos(turn)
	}
	on := func(x, y float64) bool {
		u, v := local(x, y)
		return board && math.Abs(u) < half && math.Abs(v) < half
	}
	set := func(x, y int, r, g, b uint8) {
		o := 3 * (y*w + x)
		px.bgr[o], px.bgr[o+1], px.bgr[o+2] = b, g, r
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			switch {
			case on(float64(x), float64(y)):
				u, v := local(float64(x), float64(y))
				pitch := 2 * half / 6 // five cells and a frame half a cell wide each side
				cu, cv := (u+half)/pitch-0.5, (v+half)/pitch-0.5
				switch {
				case cu < 0 || cv < 0 || cu >= 5 || cv >= 5:
					set(x, y, 200, 160, 100) // the frame
				case (int(cu)+int(cv))%3 == 0:
					set(x, y, 235, 235, 230) // a block's top
				default:
					set(x, y, 70, 140, 60) // grass
				}
			case math.Hypot(float64(x)-40, float64(y)-40) < 10:
				set(x, y, 220, 30, 30) // a die
			case x < 400:
				set(x, y, 150, 60, 150) // the table, lit
			default:
				set(x, y, 90, 35, 90) // the table in shadow
			}
		}
	}
	return px, func(x, y int) bool { return on(2*float64(x)+1, 2*float64(y)+1) }
}

// TestTableHole: what the table's regions leave is the board, whole and
// alone: not the die on the table, nor the edge between the table's lit
// and shaded parts. With no board there is no hole.
func TestTableHole(t *testing.T) {
	r := NewReader()
	defer r.Close()
	px, onBoard := holeTable(true)
	r.px = px
	r.frameOutlines()
	mask, ok := r.seg.tableHole(&r.hole)
	if !ok {
		t.Fatal("no hole found for the board")
	}
	s := &r.seg
	// The board's outline is edge pixels, in no region: the hole has them.
	nearBoard := func(x, y int) bool {
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if onBoard(x+dx, y+dy) {
					return true
				}
			}
		}
		return false
	}
	var board, boardIn, out int
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			in := mask[y*s.w+x]
			switch {
			case onBoard(x, y):
				board++
				if in {
					boardIn++
				}
			case in && !nearBoard(x, y):
				out++
			}
		}
	}
	if share := float64(boardIn) / float64(board); share < 0.97 {
		t.Errorf("the hole covers %.3f of the board, want at least 0.97", share)
	}
	if share := float64(out) / float64(boardIn+out); share > 0.003 {
		t.Errorf("%.3f of the hole is more than two pixels off the board, want at most 0.003", share)
	}

	r.px, _ = holeTable(false)
	r.frameOutlines()
	if _, ok := r.seg.tableHole(&r.hole); ok {
		t.Error("a table with no board gave a hole")
	}
}

// TestReadCrowdedBoardByTableHole reads a tuning frame whose crowded board
// was refused before the table's hole was a candidate: 17993, seen from 86
// degrees, 21 built cells, every candidate from the dividers, the frame
// regions and the block tops more than half a pitch off (the harness: 1
// cell wrong, the worst corner 0.27 pitch off).
func TestReadCrowdedBoardByTableHole(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a scene")
	}
	readSeedsNear(t, []int64{17993}, 0.35, 3)
}
