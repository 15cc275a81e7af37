package vision

// The dividers stand a little above the cells, and the grid is fitted to
// their lines, so it lies on a plane above the board's: seen from a
// camera low over the near side, up to about a hundredth of a pitch
// beyond the true grid. The corners reported are the board's own: that
// plane lowered by dividerDrop, as the camera recovered from the grid
// sees it.
// Reading near a hint, this took the median corner error from 3.21 % to
// 3.01 % of a pitch on training seeds 1000-1299 and from 3.06 % to 2.95 %
// on 2000-2299, but left the hold-out's unchanged (3.27 % and 3.28 %): a
// small bias under larger errors. The cells are read on the dividers'
// plane, as the cell network was taught.

// How far above the cells (pitches) the fitted grid lies depends on how
// its dividers show. TABLE.md says only "thin raised dividers"; the
// simulator draws them 0.01 to 0.04 high, light (three sets in four) or
// dark. The fits find a divider between the two edges of its line in the
// grey: for a ridge (a divider lighter than the cells beside it) about
// its top, for a groove (darker) about its foot, the side the camera
// sees and its shadow darkening with it. Until the thirty-sixth session
// every grid was lowered by 0.0125 (0.025 in the thirty-fifth's first
// half: the far corners came out 0.8 % of a pitch towards the camera).
// Then, on 17000-17499, grids right and refitted by refineSparse, the
// sets with dark dividers (DividerColour) had their corners a median 2.2
// % of a pitch off against 1.2 % for light ones, shifted along the
// camera's view as a height would (the shift growing as the camera
// lowered: towards the camera 0.9 % at 45-60 degrees up for dark ones,
// 0.45 % away for light). Median corner error cold, ridges lowered 0.015
// / 0.018 / 0.02 / 0.022 / 0.026 and grooves 0.004 / 0 / 0 / 0 / -0.003:
// 17000-17999 1.41 / 1.38 / 1.37 / 1.38 / 1.43 % (1.51 % at 0.0125 for
// both).
const (
	ridgeDrop  = 0.02
	grooveDrop = 0
	// unseenDrop is the lowering when no divider is found to say.
	unseenDrop = 0.0125
)

// dividerDrop gives how far (pitches) to lower grid h (full resolution),
// fitted to the dividers at places: ridgeDrop when ridges give most of
// the strength of the dividers found along its lines, else grooveDrop.
func dividerDrop(img grayImg, h homography, places placeFilter) float64 {
	_, _, ridge, all := dividerFinds(img, h, 1, places, nil)
	switch {
	case all == 0:
		return unseenDrop
	case ridge > all/2:
		return ridgeDrop
	}
	return grooveDrop
}

// dropAt is dividerDrop for grid h (full resolution) at places, or
// unseenDrop when the frame's grey is not at hand.
func (r *Reader) dropAt(h homography, places placeFilter) float64 {
	img, ok := r.fullGrayImg()
	if !ok {
		return unseenDrop
	}
	return dividerDrop(img, h, places)
}

// lowered moves grid corners c (A1, A5, E5, E1 in pixels, for grid h of a
// w x hh frame) from the fitted plane, drop pitches up, down to the
// cells.
func lowered(h homography, c [4][2]float64, w, hh int, drop float64) [4][2]float64 {
	cam := gridCamera(h, w, hh)
	for i, b := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		top, low := cam.project(b.X, b.Y, 0), cam.project(b.X, b.Y, -drop)
		c[i][0] += low.X - top.X
		c[i][1] += low.Y - top.Y
	}
	return c
}

// gridCamera is the camera that sees grid h's plane (full resolution, a
// w x hh frame) at z = 0, with the focal length the grid suggests.
func gridCamera(h homography, w, hh int) camera {
	cx, cy := float64(w)/2, float64(hh)/2
	f, _ := focalLength(h, cx, cy, defaultFocal(hh))
	return poseWithFocal(h, cx, cy, f)
}
