package vision

import "math"

// On the most crowded boards too few divider places lie between bare
// cells for refineSparse. The frame's outer edges still show: the near,
// left and right ones beside the towers, and the far one where no tower
// leans over it. refineOutline adds them to the fit, with the frame's
// width (unknown: TABLE.md gives none, the simulator draws 0.4-0.8 of a
// pitch) as a ninth term of the correction. The edges alone do not fix
// the far side: fitted to them and no dividers, a grid knocked 5.4 % of a
// pitch off at its worst corner ended 5.8 % off, against 4.3 % with the
// bare cells' dividers too (check seeds 20000-20299, 15 or more built
// cells, the mean of the worst corners).
//
// Check seeds cold, median corner error of every board read, without ->
// with (boards with 20-25 built cells in brackets): 20000-20299 2.22 ->
// 2.14 % (5.49 -> 5.27), 21000-21199 2.41 -> 2.23 % (5.31 -> 4.41),
// 5000-5299 2.19 -> 2.10 % (6.23 -> 4.81). Without the far edge, 2.21,
// 2.28 and 2.11 %; with every divider place instead of the bare cells',
// the corners of boards with 20 or more built cells grew (20000-20299,
// 5.49 -> 5.82 %). Fitted in place of refineSparse on every crowded
// board, not only where it fails: 2.12, 2.20 and 2.14 %.

// outerSide is a side of the frame whose outer edge refineOutline follows.
type outerSide int

const (
	outerNear outerSide = iota
	outerLeft
	outerRight
	outerFar
)

// outline refinement's settings: how many places along each outer edge
// are searched; how far across it (pitches), the first round and the
// second; where along the left and right edges the places start (board
// Y: the far towers lean over their far ends); how far the frame's
// width may plausibly move (pitches).
//
// No edge need show a given number of points: where one hides behind
// towers or off the frame, the prior holds that side near the search's
// grid. Wanting 12 points on each of the near, left and right edges (as
// from the thirtieth to the thirty-fifth session) left 109 of the 1000
// boards of 17000-17999 on the search's grid, 80 of them right, at a
// median 5 % of a pitch against 2.3-2.9 % for those refitted; without
// it, the median corner error cold went 17000-17999 1.58 -> 1.54 %,
// 18000-18999 1.73 -> 1.70 %, 20000-20299 1.67 -> 1.60 %, 21000-21199
// 1.53 -> 1.54 %, 5000-5299 1.57 -> 1.53 % (boards of 20-25 built cells
// 4.21 -> 3.91, 5.15 -> 4.77, 5.32 -> 4.59, 4.48 -> 3.35, 4.24 -> 3.87
// %); 8, 5 and 2 points gave 1.57, 1.56 and 1.54 % on the first.
const (
	outerPlaces      = 40
	outerSearchWide  = 0.12
	outerSearch      = 0.05
	outerSideFrom    = 0.5
	frameWidthPrior  = 0.1
	innerStepShare   = 0.5
	outerEdgeMinStep = 3.0
)

// refineOutline corrects grid h (full resolution; scale maps it to the
// reduced frame) of a board read as board by a homography of the board
// plane and the frame's width, fitted to the frame's outer edges and the
// dividers between bare cells, twice (the second time searching closer).
// The grid lies on the dividers' plane, drop pitches above the cells and
// the frame (dividerDrop), so the edges are raised to it first. ok is
// false when the fit fails or the move is too large.
//
// Fitted where they lie, the edges pulled the grid towards the cells'
// plane and the lowering after took it a second time: median corner
// error cold, 17000-17999 1.38 -> 1.34 % (the 205 boards changed, all
// fitted here, 3.24 -> 2.91 %), 18000-18999 1.52 -> 1.49 %, 20000-20299
// 1.42 -> 1.41 %, 21000-21199 1.47 -> 1.37 %, 5000-5299 1.34 -> 1.32 %
// (thirty-sixth session; the drop also taken from the search's grid
// rather than the refitted one, which alone changed 33 boards of the
// first set, 1.38 % either way).
func (r *Reader) refineOutline(h homography, scale float64, places placeFilter, drop float64) (homography, bool) {
	img, ok := r.fullGrayImg()
	if !ok {
		return h, false
	}
	v, ok := r.stepView()
	if !ok {
		return h, false
	}
	_, fw := v.bestOutline(scaleHomography(h, scale))
	cur := h
	obs := r.sparseObs
	defer func() { r.sparseObs = obs[:0] }()
	for round := 0; round < 2; round++ {
		obs = dividerObs(img, cur, round, places, obs[:0])
		cam := gridCamera(cur, img.w, img.h)
		for s := outerNear; s <= outerFar; s++ {
			obs = outerPoints(img, cur, s, fw, round, &cam, drop, obs)
		}
		f := fitPlane(cur, obs, frameWidthPrior)
		if !f.ok {
			return h, false
		}
		cur, fw = f.h, fw+f.dfw
	}
	if pitchErr(cornersOf(cur), cornersOf(h)) > sparseMaxMove {
		return h, false
	}
	return cur, true
}

// outerPoints appends to obs the frame's outer edge on side s of grid h
// (full resolution, a frame fw pitches wide, h on a plane drop above the
// frame as camera cam sees it) found at outerPlaces places along it.
func outerPoints(img grayImg, h homography, s outerSide, fw float64, round int, cam *camera, drop float64, obs []sparseObs) []sparseObs {
	search := outerSearchWide
	if round > 0 {
		search = outerSearch
	}
	lo, hi := -fw+0.15, 5+fw-0.15
	if s == outerLeft || s == outerRight {
		lo = outerSideFrom
	}
	for i := 0; i < outerPlaces; i++ {
		t := lo + (float64(i)+0.5)*(hi-lo)/outerPlaces
		// The place on the edge (board), the edge's direction and the
		// outward one; the line's centred coordinate moves with the
		// frame's width by o.fw.
		var bp, along, out pt
		o := sparseObs{side: int(s) + 1}
		switch s {
		case outerNear:
			bp, along, out = pt{t, 5 + fw}, pt{1, 0}, pt{0, 1}
			o.fam, o.target, o.fw = 0, 2.5+fw, 1
		case outerLeft:
			bp, along, out = pt{-fw, t}, pt{0, 1}, pt{-1, 0}
			o.fam, o.target, o.fw = 1, -2.5-fw, -1
		case outerRight:
			bp, along, out = pt{5 + fw, t}, pt{0, 1}, pt{1, 0}
			o.fam, o.target, o.fw = 1, 2.5+fw, 1
		default:
			bp, along, out = pt{t, -fw}, pt{1, 0}, pt{0, -1}
			o.fam, o.target, o.fw = 0, -2.5-fw, -1
		}
		c := h.apply(bp)
		a := h.apply(pt{bp.X + 0.05*along.X, bp.Y + 0.05*along.Y})
		q := h.apply(pt{bp.X + 0.1*out.X, bp.Y + 0.1*out.Y})
		dx, dy := a.X-c.X, a.Y-c.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l, dy/l
		nx, ny := -uy, ux
		across := (q.X-c.X)*nx + (q.Y-c.Y)*ny
		if across < 0 {
			nx, ny = -nx, -ny
		}
		pitch := math.Abs(across) / 0.1
		off, st, ok := findOuterStep(img, c, nx, ny, ux, uy, search*pitch)
		if !ok {
			continue
		}
		o.img = raised(cam, pt{c.X + nx*off, c.Y + ny*off}, bp, drop)
		o.wt = outerEdgeWeight * st
		obs = append(obs, o)
	}
	return obs
}

// raised moves image point p, on the cells' plane about board point b,
// to where it would show on the dividers' plane, drop above, that cam
// sees at z = 0.
func raised(cam *camera, p, b pt, drop float64) pt {
	top, low := cam.project(b.X, b.Y, 0), cam.project(b.X, b.Y, -drop)
	return pt{p.X + top.X - low.X, p.Y + top.Y - low.Y}
}

// outerEdgeWeight weighs an outer edge's point against a divider's of
// the same strength. The edges give up to 160 points a board, some at a
// slab's side or a tower's foot, and the dividers between bare cells,
// which place the grid inside the frame, only a few: at full weight
// the edges and the frame width's prior held the crowded boards' grids
// where the search left them. Median corner error cold, weight 1 -> 0.3
// (thirty-fifth session): 17000-17999 1.54 -> 1.51 %, 18000-18999 1.70
// -> 1.68 %, 20000-20299 1.60 -> 1.57 %, 21000-21199 1.54 -> 1.53 %,
// 5000-5299 1.53 -> 1.47 % (20-25 built cells 3.91 -> 3.67, 4.77 ->
// 4.46, 4.59 -> 4.27, 3.35 -> 3.13, 3.87 -> 3.73 %); on 17000-17499 the
// outline-fitted boards' median corner at 2 / 1 / 0.5 / 0.25 / 0.1:
// 3.60 / 3.49 / 3.27 / 3.17 / 3.24 %.
const outerEdgeWeight = 0.3

// outerProfLen bounds findOuterStep's profile (samples).
const outerProfLen = 256

// findOuterStep finds the frame's outer edge across the line through c
// (outward normal nx, ny; along the line ux, uy) within span pixels each
// way: the innermost grey step at least innerStepShare of the strongest
// (the frame top's own edge, not the slab's side or the pedestal beyond
// it). It gives the offset along the normal and the step's gradient.
func findOuterStep(img grayImg, c pt, nx, ny, ux, uy, span float64) (float64, float64, bool) {
	m := int(math.Ceil(span)) + 1
	if 2*m+1 > outerProfLen || m < 2 {
		return 0, 0, false
	}
	// The grey across the line, averaged over three places along it.
	var prof [outerProfLen]float64
	for i := -m; i <= m; i++ {
		sum := 0.0
		for _, a := range [3]float64{-1.5, 0, 1.5} {
			v, ok := img.at(c.X+float64(i)*nx+a*ux, c.Y+float64(i)*ny+a*uy)
			if !ok {
				return 0, 0, false
			}
			sum += v
		}
		prof[i+m] = sum / 3
	}
	grad := func(i int) float64 { return math.Abs(prof[i+1] - prof[i-1]) }
	best, bi := 0.0, -1
	for i := 1; i < 2*m; i++ {
		if math.Abs(float64(i-m)) > span {
			continue
		}
		if g := grad(i); g > best {
			best, bi = g, i
		}
	}
	if bi < 2 || bi > 2*m-2 || best/2 < outerEdgeMinStep {
		return 0, 0, false
	}
	for i := 2; i < bi; i++ {
		if float64(i-m) < -span {
			continue
		}
		if g := grad(i); g >= innerStepShare*best && g >= grad(i-1) && g >= grad(i+1) {
			best, bi = g, i
			break
		}
	}
	// The peak to a fraction of a pixel.
	gl, gr := grad(bi-1), grad(bi+1)
	sub := 0.0
	if den := gl - 2*best + gr; den < 0 {
		sub = 0.5 * (gl - gr) / den
	}
	return float64(bi-m) + sub, best / 2, true
}
