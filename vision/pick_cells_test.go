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
