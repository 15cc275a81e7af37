package vision

import (
	"image"

	"companion/observation"
)

// The refits of the reported corners (refineSparse, refineOutline and the
// lens refit) take divider points along the twelve grid lines. Where a
// piece stands over a divider, or a tower nearer the camera hides it, the
// points found there are the pieces' edges: a block's foot stands just
// inside its cell, parallel to the divider. With the cells read, the
// reading drawn where the camera sees it tells where the board itself
// shows; shownPlaces keeps the places that show bare board all round.
//
// Check seeds cold, median corner error of every board read (share of the
// pitch), before -> after: 20000-20299 2.14 -> 1.95 %, 21000-21199 2.23
// -> 2.04 %, 5000-5299 2.10 -> 1.88 %, 17000-17999 2.29 -> 2.05 %, when
// boards of up to 14 built cells took every shown place and more crowded
// ones only those between bare cells, and the lens refit every shown
// place (since, every board and the lens refit too the shown places
// between bare cells: refineSparse; the lens refit so, 1.82 -> 1.71 %,
// 1.80 -> 1.73 %, 1.79 -> 1.75 %). No cell reading changes. Taking only the refits' places so (the lens refit
// keeping every place): 1.98, 2.15 and 1.89 % on the first three; a margin
// of 0.06 or 0.15 pitch: 2.06 / 2.16 / 1.89 % and 2.04 / 2.12 / 1.92 %;
// also taking the places beside blocks on crowded boards (not only those
// between bare cells), 2.15, 2.28 and 2.24 %; the lens refit of the
// search's grid where the refits fail, 1.99, 2.10 and 2.05 %.

// placeFilter says which places t (board coordinate, 0 to 5) along grid
// line k of family fam (0: a row line, board Y = k; 1: a column line) may
// give divider points; a nil filter keeps every place.
type placeFilter func(fam, k int) func(t float64) bool

// and keeps the places both filters keep.
func (f placeFilter) and(g placeFilter) placeFilter {
	switch {
	case f == nil:
		return g
	case g == nil:
		return f
	}
	return func(fam, k int) func(t float64) bool {
		a, b := f(fam, k), g(fam, k)
		return func(t float64) bool { return a(t) && b(t) }
	}
}

// line gives the filter's test for one line, nil for every place.
func (f placeFilter) line(fam, k int) func(t float64) bool {
	if f == nil {
		return nil
	}
	return f(fam, k)
}

// bareFilter keeps the places between two cells board reads bare
// (bareBetween).
func bareFilter(board *observation.Board) placeFilter {
	return func(fam, k int) func(t float64) bool { return bareBetween(board, fam, k) }
}

// shownMargin is how far (pitches) around a place, across its line and
// along it, the board must show for the place to be kept.
const shownMargin = 0.1

// shownPlaces draws the cells' reading (readCells, on grid h scaled by
// scale to the reduced frame) and keeps the places where it shows bare
// board at the place and shownMargin either side of it, across the line
// and along it.
func (r *Reader) shownPlaces(h homography, scale float64) placeFilter {
	c := &r.cc
	if c.w <= 0 || c.h <= 0 || len(c.lab) < c.w*c.h {
		return nil
	}
	c.draw(image.Rect(0, 0, c.w, c.h), -1, 0)
	hs := scaleHomography(h, scale)
	bare := func(x, y float64) bool {
		p := hs.apply(pt{x, y})
		ix, iy := int(p.X+0.5), int(p.Y+0.5)
		if ix < 0 || iy < 0 || ix >= c.w || iy >= c.h {
			return false
		}
		return c.lab[iy*c.w+ix] == labBoard
	}
	return func(fam, k int) func(t float64) bool {
		line := float64(k)
		return func(t float64) bool {
			const m = shownMargin
			for _, q := range [5][2]float64{{t, line}, {t, line - m}, {t, line + m}, {t - m, line}, {t + m, line}} {
				x, y := q[0], q[1]
				if fam == 1 {
					x, y = y, x
				}
				if !bare(x, y) {
					return false
				}
			}
			return true
		}
	}
}
