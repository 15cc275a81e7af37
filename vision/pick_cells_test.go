package vision

import "testing"

// TestPickByCells reads crowded tuning frames whose best-ranked grid was
// two or three cells off while a grid ranked lower read its cells far
// more surely: each must now end on the board, its cells nearly all right.
func TestPickByCells(t *testing.T) {
	if testing.Short() {
		t.Skip("renders two scenes")
	}
	withoutCornerNet(t, func() { readSeedsNear(t, []int64{17889, 17426}, 0.25, 3) })
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

// TestPickByCellsChoice: findGrid reads the mean of the grids ranked
// about its choice, and pickByCells compares the choice itself too.
//   - 17130: the choice is 0.17 pitch off and reads every cell right; the
//     mean is 0.35 off and unsure. Without the choice compared, a grid
//     0.76 off was picked (15 cells wrong).
//   - 21129: the choice is picked, then refused after (too few built
//     cells for a grid shown unsure); the board must be read on the mean,
//     as before the choice was compared, not refused.
func TestPickByCellsChoice(t *testing.T) {
	if testing.Short() {
		t.Skip("renders two scenes")
	}
	readSeedCases(t, []seedCase{
		{"choice read surer than the mean", 17130, 0.25, 2},
		{"choice refused, mean read", 21129, 0.5, 10},
	})
}
