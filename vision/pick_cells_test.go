package vision

import "testing"

// TestPickByCells reads crowded tuning frames whose best-ranked grid was
// two or three cells off while a grid ranked lower read its cells far
// more surely: each must now end on the board, its cells nearly all right.
func TestPickByCells(t *testing.T) {
	if testing.Short() {
		t.Skip("renders two scenes")
	}
	readSeedsNear(t, []int64{17889, 17426}, 0.25, 3)
}

// TestPickByCellsRidgeClear: on 17980 the grid to pick is one boardShown
// would refuse but whose divider ridges are clear (minRidgeClear), so the
// reading would not refuse it; the grid chosen was 1.8 pitches off.
func TestPickByCellsRidgeClear(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a scene")
	}
	readSeedsNear(t, []int64{17980}, 0.35, 6)
}

// TestPickByCellsOwnChoice: on 17130 findGrid chose a grid 0.17 pitch off
// whose cells all read right, but gave the mean of the grids about it,
// 0.35 off and unsure; pickByCells then moved to a grid 0.76 off (15
// cells wrong) as long as it did not compare the choice itself.
func TestPickByCellsOwnChoice(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a scene")
	}
	readSeedsNear(t, []int64{17130}, 0.25, 2)
}

// TestPickRefusedFallsBack: on 21129 pickByCells picks findGrid's own
// choice over the mean of the grids about it, and the choice is refused
// after (too few built cells for a grid shown unsure); the board is read
// on the mean, as before the choice was compared, instead of refused.
func TestPickRefusedFallsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a scene")
	}
	readSeedsNear(t, []int64{21129}, 0.5, 10)
}
