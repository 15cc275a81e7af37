package vision

import (
	"math"

	"gocv.io/x/gocv"
)

// Reading near a known grid: at the table the camera stays put, so the
// grid found once (by the calibration, or in the last frame) is where the
// next frame's grid is, give or take a nudge. Refined from there, the grid
// is found even when towers hide most dividers, which is where the search
// fails most; and when it clearly still stands there, the search is
// skipped.

// nearRounds is how many times the hinted grid is refined on the dividers.
const nearRounds = 3

// nearSureDrift is the farthest refinement may move a hinted corner for
// the search to be skipped: a camera left in place moves the grid little,
// and a line refined onto a block's edge moves its corners far.
const nearSureDrift = 0.15

// nearMaxDrift is the farthest, in pitches, refinement may move a hinted
// corner before the hint is taken to be stale (the camera moved).
const nearMaxDrift = 0.3

// nearSureBase and nearSureMargin decide when the search is skipped: the
// refined hint's dividers-and-frame score is at least nearSureBase and its
// screening score beats every neighbour's (a quarter or a whole cell over,
// a cell wider or narrower, a fifth larger or smaller) by nearSureMargin.
// On training seeds 1000-1299 (TestSurveyNear) with hints knocked by up to
// a tenth of a pitch, 449 of 600 hints skipped the search and all were
// right; of 1200 hints from a camera moved or a cell off, 7 skipped it, 5
// of them wrongly.
const (
	nearSureBase   = 0.0
	nearSureMargin = 0.1
)

// nearSureConfidence is the least grid confidence of a hint that skipped
// the search.
const nearSureConfidence = 0.9

// nearPrior is how much lower than the search's best grid a refined hint
// may score and still be kept: the camera most likely did not move. On
// training seeds 1000-1299 (TestSurveyNear), 0.4 rather than 0.2 kept the
// right grid for 298 rather than 288 of 300 hints knocked by up to a
// twentieth of a pitch, and 296 rather than 291 of a tenth, for 1 fewer
// right of 300 on each of two sets of hints from a camera moved at random
// (and 23 fewer of hints exactly a cell off). A hint kept this way has the
// grid confidence of its dividers and frame, usually low: its cells are
// flagged unsure.
const nearPrior = 0.4

// ReadNear reads img expecting the grid near corners (A1, A5, E5, E1 in
// img's pixels): the camera has not moved since they were found. The grid
// is refined from there; unless it clearly still stands there, the full
// search runs too and the hint is kept only if it scores nearly as well.
func (r *Reader) ReadNear(img gocv.Mat, corners [4][2]float64) (Result, error) {
	return r.readHinted(img, nil, &corners)
}

// hintedGrid is a refined hint.
type hintedGrid struct {
	h    homography // full-resolution frame
	base float64    // dividers and frame, as scoredGrid.base
	sure bool       // the search can be skipped
}

// sureConfidence is the grid confidence of a refined hint that skips the
// search.
func (hg hintedGrid) sureConfidence() float64 {
	return math.Max(nearSureConfidence, gridConfidence(hg.base))
}

// nearGrid refines the hinted grid c (full-resolution frame w x h); ok is
// false when the hint is no grid or refinement leaves it (a stale hint).
func (r *Reader) nearGrid(c [4][2]float64, scale float64, w, h int) (hintedGrid, bool) {
	h0, ok := homographyFromCorners(c)
	if !ok || !plausibleGrid(c, w, h) {
		return hintedGrid{}, false
	}
	// The block tops this frame shows, for the screening scores (the
	// search finds them too, when it runs).
	r.frameFaces()
	stands := func(g homography) bool {
		gc := cornersOf(g)
		return plausibleGrid(gc, w, h) && squareError(g, w, h) < maxSquareError && pitchErr(gc, c) <= nearMaxDrift
	}
	g, share := r.refineFinal(h0, nearRounds, linePoints)
	refined := stands(g)
	if !refined {
		// A line went astray (onto a block's edge): refine once more from
		// the nearest square (the camera recovered from the grid, else one
		// refitted to the hint), else keep the hint as it is; none is sure.
		if gs, ss := r.refineFinal(squared(g, w, h), 1, linePoints); stands(gs) {
			g, share = gs, ss
		} else if gf, sf := r.refineFinal(squareFit(h0, w, h), 1, linePoints); stands(gf) {
			// A hint off square (a corner network's, one corner behind the
			// towers): on 18395 and 200323 squared's was 0.6 pitch off and
			// the board refused; five check sets 402 -> 379 cells wrong.
			g, share = gf, sf
		} else if stands(h0) {
			g = h0
			_, share = r.refineFinal(h0, 1, linePoints)
		} else {
			return hintedGrid{}, false
		}
	}
	hg := hintedGrid{h: g, base: share + r.frameEvidence(g)}
	if refined && hg.base >= nearSureBase && pitchErr(cornersOf(g), c) <= nearSureDrift {
		own := r.screenScore(g, scale, w, h)
		hg.sure = true
		for _, a := range nearNeighbours {
			if r.screenScore(mul3(g, a), scale, w, h) > own-nearSureMargin {
				hg.sure = false
				break
			}
		}
	}
	return hg, true
}

// locateNear gives the grid for a frame hinted with corners c: the refined
// hint when it is sure, else the better of it and the search's best, the
// hint favoured by nearPrior (by nearSamePrior over a search's grid about
// the hint's place). It gives the grid, its confidence, and false
// when neither found a grid.
func (r *Reader) locateNear(c [4][2]float64, scale float64, w, h int) (homography, float64, bool) {
	g, conf, found, _ := r.locateNearPath(c, scale, w, h)
	return g, conf, found
}

// nearPath is which way locateNear went.
type nearPath int

const (
	nearSure     nearPath = iota // the refined hint, the search skipped
	nearKept                     // the refined hint, after the search
	nearSearched                 // the search's grid (or none)
)

// locateNearPath is locateNear, also telling which way it went.
func (r *Reader) locateNearPath(c [4][2]float64, scale float64, w, h int) (homography, float64, bool, nearPath) {
	r.gridUnsure = false
	hg, ok := r.nearGrid(c, scale, w, h)
	if ok && hg.sure {
		return hg.h, hg.sureConfidence(), true, nearSure
	}
	g, best, conf, found := r.locateGrid(scale, w, h)
	if ok {
		base := r.gridScore(hg.h, linePoints/2)
		s := base + faceWeight*r.faceAgreement(scaleHomography(hg.h, scale))
		if found && !r.gridUnsure && s < best-nearSamePrior && sameGridTol(g, hg.h, nearSameGrid) {
			// The search found the hint's board and scores it plainly
			// better: the hint, which the refinement cannot move on a
			// crowded board, stands where the camera saw it before.
			return g, conf, true, nearSearched
		}
		// A search's grid with no dividers along its lines (gridUnsure)
		// does not outweigh a hint that stands where a board was.
		if !found || r.gridUnsure || s >= best-nearPrior {
			// But the camera may have moved off the board: a weak hint with
			// no dividers along its lines must read crowded, as a weak grid
			// of the search must (spare pieces are no board), unless the
			// search found a grid with dividers about the hint's place: a
			// board is there, and the hint, refined from where the grid
			// was, is kept with the search's confidence (the search's own
			// grid there was up to a fifth of a pitch further off on seed
			// 3; check seeds near a hint read alike either way).
			weak := false
			if gridConfidence(hg.base) <= minGridConfidence {
				// The board test judges a weak hint's own evidence, not
				// the search's grid's.
				r.evidence = r.evidenceAt(hg.h, base, scale, h)
				weak = r.evidence.ridge < minRidgeShown
			}
			if !weak || !found || r.gridUnsure || !sameGridTol(g, hg.h, nearSameGrid) {
				r.gridUnsure = weak
				return hg.h, gridConfidence(hg.base), true, nearKept
			}
			return hg.h, math.Max(conf, gridConfidence(hg.base)), true, nearKept
		}
	}
	return g, conf, found, nearSearched
}

// nearSameGrid is how far (pitches) the search's grid may be from a weak
// hint to be taken for it.
const nearSameGrid = 0.25

// nearSamePrior is nearPrior for a search's grid about the hint's place
// (within nearSameGrid): no cell off, so less is risked by taking it. On
// a crowded board the refinement cannot move a hint a tenth of a pitch
// off (too few of its lines show dividers), where the search, with the
// block tops and the frame, often finds the board closer. Near hints
// knocked 0.2 / 0.1 / 0.03 pitch, cells right: 17000-17499 95.90 ->
// 96.88 %, 18000-18999 (0.1) 97.70 -> 97.76 %, 17000-17499 (0.03) 98.31
// -> 98.29 %, 18000-18499 (0.03) 98.33 -> 98.30 %: a hint already right
// loses a little, one a camera knocked off gains much. Taking the
// search's grid whenever it scored higher (0) gave 0.1: 97.79 / 97.86 %
// on 17000-17999 / 18000-18999 but 0.03: 98.26 % on 17000-17499.
const nearSamePrior = 0.2

// nearNeighbours map a grid's board coordinates to its neighbours: a cell
// over, a cell wider or narrower along either axis, a fifth larger or
// smaller about the centre, and a quarter cell over (a hint knocked that
// far may not be pulled in by the refinement).
var nearNeighbours = []homography{
	{1, 0, 1, 0, 1, 0, 0, 0, 1}, {1, 0, -1, 0, 1, 0, 0, 0, 1},
	{1, 0, 0, 0, 1, 1, 0, 0, 1}, {1, 0, 0, 0, 1, -1, 0, 0, 1},
	{1.25, 0, 0, 0, 1, 0, 0, 0, 1}, {1.25, 0, -1.25, 0, 1, 0, 0, 0, 1},
	{0.8, 0, 0, 0, 1, 0, 0, 0, 1}, {0.8, 0, 0.8, 0, 1, 0, 0, 0, 1},
	{1, 0, 0, 0, 1.25, 0, 0, 0, 1}, {1, 0, 0, 0, 1.25, -1.25, 0, 0, 1},
	{1, 0, 0, 0, 0.8, 0, 0, 0, 1}, {1, 0, 0, 0, 0.8, 0.8, 0, 0, 1},
	{0.8, 0, 0.5, 0, 0.8, 0.5, 0, 0, 1}, {1.25, 0, -0.625, 0, 1.25, -0.625, 0, 0, 1},
	{1, 0, 0.25, 0, 1, 0, 0, 0, 1}, {1, 0, -0.25, 0, 1, 0, 0, 0, 1},
	{1, 0, 0, 0, 1, 0.25, 0, 0, 1}, {1, 0, 0, 0, 1, -0.25, 0, 0, 1},
}

// screenScore is the search's cheap screening score of grid hf
// (full-resolution frame): the dividers on the reduced frame, the frame's
// colours and the top faces; -Inf for a grid no camera would see.
func (r *Reader) screenScore(hf homography, scale float64, w, h int) float64 {
	if !plausibleGrid(cornersOf(hf), w, h) || squareError(hf, w, h) >= maxSquareError {
		return math.Inf(-1)
	}
	hs := scaleHomography(hf, scale)
	return r.ridgeSupportN(hs, r.gray.Cols(), r.gray.Rows(), 8) + r.frameEvidence(hf) + faceWeight*r.faceAgreement(hs)
}

// pitchErr is the worst corner distance between grids c and t, in pitches
// of t.
func pitchErr(c, t [4][2]float64) float64 {
	return cornerErr(c, t) / gridPitch(t)
}

// gridPitch is grid t's mean cell pitch in pixels: its outline's length
// over the 20 cell sides along it.
func gridPitch(t [4][2]float64) float64 {
	pitch := 0.0
	for i := 0; i < 4; i++ {
		a, b := t[i], t[(i+1)%4]
		pitch += math.Hypot(a[0]-b[0], a[1]-b[1]) / 20
	}
	return pitch
}

// cornerErr is the worst corner distance between grids c and t, in pixels.
func cornerErr(c, t [4][2]float64) float64 {
	e := 0.0
	for k := range c {
		e = math.Max(e, math.Hypot(c[k][0]-t[k][0], c[k][1]-t[k][1]))
	}
	return e
}
