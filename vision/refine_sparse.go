package vision

import (
	"math"

	"companion/observation"
)

// The strict final refinement (refineFinal) moves a grid line only where
// its divider shows along much of it, so on a board with a dozen built
// cells it mostly leaves the grid where the search put it: on check seeds
// 20000-20299 the mean corner error of grids with 10-14 built cells was
// 3.5 % of a pitch before and after it. Yet some divider is seen along
// nearly every line. refineSparse takes every divider point found, on
// any line, and fits a small correction of the board plane to them all,
// a prior holding the directions the points do not fix: the mean corner
// error of those grids went to 2.2 %.
//
// The corrected grid is only reported (Result.Corners); the cells are
// still read on the grid before it. Read on the corrected grid, the
// cells came out worse (check seeds 20000-20299: 96.23 -> 96.03 %
// right): the second looks were taught on the search's own grids (and
// a later trial on crowded boards' grids gained too little for a second
// cell reading, below).
//
// Median corner error, every board read cold (check seeds, share of the
// pitch), without -> with: 20000-20299 2.47 -> 2.33 %, 21000-21199 2.46
// -> 2.44 %, 5000-5299 2.51 -> 2.37 %; the hold-out 100000-100499 2.80 ->
// 2.68 % (boards with 10-14 built cells 2.16 -> 1.85 %). Near a hint
// knocked by a tenth of a pitch (20000-20299), 2.81 -> 2.59 %. No grid
// that was right became wrong. It costs about 1.5 ms a frame.
//
// Most divider points found beside a block are its edges: a block's foot
// stands just inside its cell, and a nearer tower hides the divider
// behind it. So the fit takes only the places between two cells read
// bare (level 0; beyond an outer line, the frame) where the reading shows
// bare board (shownPlaces). Until the thirty-first session boards of up
// to 14 built cells took every place, wanting at least 120 points and 30
// of each family, and only more crowded boards the bare cells' places
// (check seeds, median corner error, boards with 15-19 built cells: 3.09
// -> 2.47, 3.37 -> 3.11 and 3.21 -> 2.96 %). With the places shown bare,
// the bare cells' places on every board (and refineOutline where too few
// show): check seeds 1.95 -> 1.82 %, 2.04 -> 1.80 %, 1.88 -> 1.79 %
// (boards with 10-14 built cells 2.08 -> 1.55, 2.43 -> 1.72 and 1.77 ->
// 1.34 %); the bare places from 9, 11 or 13 built cells on: 1.81 / 1.79 /
// 1.79, 1.81 / 1.79 / 1.78 and 1.84 / 1.84 / 1.78 %; every shown place
// below 15 built cells wanting 80 and 20 points, 60 and 15, 40 and 10:
// 1.86 / 1.89 / 1.81, 1.81 / 1.83 / 1.81 and 1.78 / 1.82 / 1.79 %.
// Earlier, also skipping cells with a pawn: worse (2.27, 2.46, 2.28 %
// against 2.22, 2.41, 2.19 %). Reading the cells again on the corrected
// grid (a second cell reading, about 24 ms): cells right 96.23 -> 96.32,
// 95.74 -> 95.70 and 95.99 -> 96.03 %, too little for the time.

// sparse refinement's settings: the least points on the fit, in all and
// of each family of lines (a line family alone fixes only half the
// grid); the prior's weight; the largest move kept (pitches, the worst
// corner). Check seeds 20000-20299, median corner error: the prior's
// weight 1, 3, 10 and 100: 2.40, 2.33, 2.29 and 2.39 % (each with the
// others as here, every place taken). On crowded boards' bare places:
// wanting 60 points and 15 of each family 2.23, 2.42 and 2.25 % on the
// check seeds against 2.22, 2.41 and 2.19 %; 80 and 20, 2.29 % on the
// first. A largest move of 0.25: 1.94 / 2.04 / 1.88 % against 1.95 / 2.04
// / 1.88 %.
const (
	sparseMinPoints    = 45
	sparseMinPerFamily = 12
	sparsePriorWeight  = 10
	sparseMaxMove      = 0.15
)

// bareBetween says, for line k of family fam (0: a row line, board Y = k;
// 1: a column line) of board b, whether the place t along it (board
// coordinate) lies between two cells read level 0, the frame beyond an
// outer line counting as bare.
func bareBetween(b *observation.Board, fam, k int) func(t float64) bool {
	return func(t float64) bool {
		j := int(math.Floor(t))
		if j < 0 || j >= observation.Size {
			return false
		}
		for _, side := range [2]int{k - 1, k} {
			if side < 0 || side >= observation.Size {
				continue
			}
			row, col := side, j
			if fam == 1 {
				row, col = j, side
			}
			if b[row*observation.Size+col].Level != 0 {
				return false
			}
		}
		return true
	}
}

// sparseObs is a divider point found in the image, which line it lies
// on, and the find's strength.
type sparseObs struct {
	img    pt
	fam    int     // 0: a row line (board Y = target), 1: a column line
	target float64 // the line's board coordinate, centred (k - 2.5)
	wt     float64
	// fw is how the line moves with the frame's width: 0 for a divider,
	// +1 or -1 for the frame's outer edge on a side (refineOutline).
	fw float64
	// side is 0 for a divider, else 1 + the frame's side (outerSide).
	side int
}

// refineSparse corrects grid h (full resolution, on the dividers' plane)
// by a homography of the board plane fitted to the divider points found
// along its twelve lines at the places that places keeps, twice (the
// second time searching closer). ok is false when too few points lie on
// the fit or the move is too large.
func (r *Reader) refineSparse(h homography, places placeFilter) (homography, bool) {
	img, ok := r.fullGrayImg()
	if !ok {
		return h, false
	}
	cur := h
	obs := r.sparseObs
	defer func() { r.sparseObs = obs[:0] }()
	for round := 0; round < 2; round++ {
		obs = dividerObs(img, cur, round, places, obs[:0])
		nh, on, ok := fitSparse(cur, obs)
		if !ok || on[0]+on[1] < sparseMinPoints || on[0] < sparseMinPerFamily || on[1] < sparseMinPerFamily {
			return h, false
		}
		cur = nh
	}
	if pitchErr(cornersOf(cur), cornersOf(h)) > sparseMaxMove {
		return h, false
	}
	return cur, true
}

// dividerObs appends to obs the divider points found along grid h's
// twelve lines (search round round) at the places that places keeps, of
// the kind, ridges or grooves, that gives most of their strength. A
// board's dividers are all alike, lighter or darker than its cells, so
// a find of the other kind is something else: a block's foot and its
// shadow, a seam in the cells, a pawn's edge. Taking both kinds (until
// the thirty-sixth session), the median corner error cold was
// 17000-17999 1.28 %, 18000-18999 1.41 %, 20000-20299 1.36 %,
// 21000-21199 1.25 %, 5000-5299 1.25 %; one kind, 1.22 / 1.35 / 1.20 /
// 1.18 / 1.13 %. Taking one kind only where it gave over 70 % of the
// strength, 1.23 % on the first.
func dividerObs(img grayImg, h homography, round int, places placeFilter, obs []sparseObs) []sparseObs {
	start := len(obs)
	obs, ridges, ridge, all := dividerFinds(img, h, round, places, obs)
	keep := ridge > all/2
	out := obs[:start]
	for i, o := range obs[start:] {
		if ridges[i] == keep {
			out = append(out, o)
		}
	}
	return out
}

// dividerFinds appends to obs every divider point found along grid h's
// twelve lines (search round round) at the places that places keeps,
// and gives whether each is a ridge, and the summed strength of the
// ridges and of all.
func dividerFinds(img grayImg, h homography, round int, places placeFilter, obs []sparseObs) (_ []sparseObs, ridges []bool, ridge, all float64) {
	for fam := 0; fam < 2; fam++ {
		for k := 0; k <= 5; k++ {
			eachDivider(img, h, fam, k, round, linePoints, true, places.line(fam, k), func(p pt, s float64, r bool) {
				obs = append(obs, sparseObs{img: p, fam: fam, target: float64(k) - 2.5, wt: s})
				ridges = append(ridges, r)
				all += s
				if r {
					ridge += s
				}
			})
		}
	}
	return obs, ridges, ridge, all
}

// centreBoard shifts board coordinates so that the grid's centre is 0:
// the correction's terms are then about independent.
var centreBoard = homography{1, 0, -2.5, 0, 1, -2.5, 0, 0, 1}

// Each point's residual is its board coordinate across its line less the
// line's; sparseResidual is a usual one (pitches, about a pixel at
// 1280x720), sparsePrior how far each of the correction's eight terms may
// plausibly go (the linear ones, the shifts, the perspective ones), and
// sparseCut the residual beyond which a point is ignored: wide for the
// first steps, then narrow.
var sparsePrior = [8]float64{0.02, 0.02, 0.05, 0.02, 0.02, 0.05, 0.01, 0.01}

const (
	sparseResidual = 0.015
	sparseCutWide  = 0.08
	sparseCut      = 0.04
	sparseSteps    = 8
	sparseWideStep = 3
)

// fitSparse fits the correction to obs by reweighted Gauss-Newton steps
// (Tukey's weights) under a Gaussian prior. It gives the corrected grid
// and how many points of each family lie within half the cut of it.
func fitSparse(h homography, obs []sparseObs) (homography, [2]int, bool) {
	f := fitPlane(h, obs, 1)
	return f.h, f.on, f.ok
}

// planeFit is fitPlane's outcome: the corrected grid, how far the frame's
// width moved (pitches), and the points on the fit by family and by side
// (sparseObs.side).
type planeFit struct {
	h      homography
	dfw    float64
	on     [2]int
	onSide [5]int
	ok     bool
}

// nPlaneTerms is the correction's terms: the board plane's homography's
// eight and the frame's width.
const nPlaneTerms = 9

// fitPlane fits the correction to obs by reweighted Gauss-Newton steps
// (Tukey's weights) under a Gaussian prior, fwPrior how far the frame's
// width may plausibly move (pitches); with no frame edges among obs the
// width is held by the prior alone.
func fitPlane(h homography, obs []sparseObs, fwPrior float64) planeFit {
	out := planeFit{h: h}
	if len(obs) == 0 {
		return out
	}
	// g maps image points to centred board coordinates.
	g := mul3(centreBoard, h.inverse())
	var lam [nPlaneTerms]float64
	for i, p := range sparsePrior {
		lam[i] = sparsePriorWeight * (sparseResidual / p) * (sparseResidual / p)
	}
	lam[8] = sparsePriorWeight * (sparseResidual / fwPrior) * (sparseResidual / fwPrior)
	// The strengths, made about 1 on average and capped, weigh the points.
	mean := 0.0
	for _, o := range obs {
		mean += o.wt
	}
	mean /= float64(len(obs))
	if !(mean > 0) {
		return out
	}
	var total [nPlaneTerms]float64 // the correction so far, held by the prior
	for step := 0; step < sparseSteps; step++ {
		cut := sparseCut
		if step < sparseWideStep {
			cut = sparseCutWide
		}
		var a [nPlaneTerms][nPlaneTerms]float64
		var b [nPlaneTerms]float64
		for i := range lam {
			a[i][i] = lam[i]
			b[i] = -lam[i] * total[i]
		}
		for _, o := range obs {
			res, j := sparseTerms(g, o, total[8])
			u := res / cut
			if math.Abs(u) >= 1 {
				continue
			}
			t := 1 - u*u
			w := math.Min(o.wt/mean, 2) * t * t
			for m := 0; m < nPlaneTerms; m++ {
				if j[m] == 0 {
					continue
				}
				b[m] -= w * j[m] * res
				for n := 0; n < nPlaneTerms; n++ {
					a[m][n] += w * j[m] * j[n]
				}
			}
		}
		var rows [nPlaneTerms][]float64
		for i := range rows {
			rows[i] = a[i][:]
		}
		var d [nPlaneTerms]float64
		if !solveRows(rows[:], b[:], d[:]) {
			return out
		}
		for i := range total {
			total[i] += d[i]
		}
		g = mul3(homography{1 + d[0], d[1], d[2], d[3], 1 + d[4], d[5], d[6], d[7], 1}, g)
	}
	for _, o := range obs {
		if res, _ := sparseTerms(g, o, total[8]); math.Abs(res) < sparseCut/2 {
			out.on[o.fam]++
			out.onSide[o.side]++
		}
	}
	out.h, out.dfw, out.ok = mul3(g.inverse(), centreBoard), total[8], true
	return out
}

// sparseTerms gives point o's residual under g, the frame's width moved by
// dfw, and its derivatives by the correction's terms at no correction.
func sparseTerms(g homography, o sparseObs, dfw float64) (float64, [nPlaneTerms]float64) {
	p := g.apply(o.img)
	x, y := p.X, p.Y
	target := o.target + o.fw*dfw
	if o.fam == 1 {
		return x - target, [nPlaneTerms]float64{x, y, 1, 0, 0, 0, -x * x, -x * y, -o.fw}
	}
	return y - target, [nPlaneTerms]float64{0, 0, 0, x, y, 1, -x * y, -y * y, -o.fw}
}
