package vision

import (
	"fmt"
	"math"
)

// A camera's field of view, when known. Seen from near straight above, the
// grid does not fix the focal length, and the towers' parallax (how far a
// tier's top stands off its cell, how much larger it shows) scales with
// it: the reader then tries three lenses and keeps the one that explains
// the frame best. Its choice is off by about a tenth of the focal length
// (the pieces' heights, which differ from set to set, trade against it),
// and the cells read worse for it: with the true corners and each frame's
// true field of view given, seeds 17000-17999 and 18000-18999 seen from
// 66° and higher read 98.47 -> 98.75 % and 98.89 -> 98.98 % of cells
// right. A webcam's field of view does not change, so a player who knows
// it (the camera's data sheet) can give it once.

// Fields of view (degrees, vertical) accepted: webcams and phones lie well
// inside.
const (
	minFieldOfView = 20
	maxFieldOfView = 120
)

// SetFieldOfView tells the Reader its camera's vertical field of view in
// degrees, for every frame after; 0 goes back to estimating it from each
// frame. The principal point is taken at the frame's centre.
func (r *Reader) SetFieldOfView(deg float64) error {
	if err := CheckFieldOfView(deg); err != nil {
		return err
	}
	r.fov = deg
	return nil
}

// CheckFieldOfView says whether deg is a field of view SetFieldOfView
// takes (0, or within 20-120 degrees).
func CheckFieldOfView(deg float64) error {
	if deg == 0 || (deg >= minFieldOfView && deg <= maxFieldOfView) {
		return nil
	}
	return fmt.Errorf("vision: field of view %g degrees is outside %d-%d: give the camera's vertical field of view, or 0 to estimate it", deg, minFieldOfView, maxFieldOfView)
}

// knownFocal is the focal length (pixels) of the field of view set, on a
// frame hh pixels high; ok is false when none is set.
func (r *Reader) knownFocal(hh int) (f float64, ok bool) {
	if r.fov == 0 {
		return 0, false
	}
	return focalOfView(hh, r.fov), true
}

// focalOfView is the focal length (pixels) of a vertical field of view of
// deg degrees on a frame hh pixels high.
func focalOfView(hh int, deg float64) float64 {
	return 0.5 * float64(hh) / math.Tan(deg*math.Pi/180/2)
}
