package vision

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// Grid search: every proposed grid is refined once and scored; the best
// few are then tried one cell over and one cell wider or narrower each
// way, because on crowded boards the proposals often stop a cell short of
// the frame or run a cell onto it, and the dividers alone cannot tell.

// variantSeeds is how many of the best grids have their neighbours tried.
const variantSeeds = 3

// maxSquareError is the most a grid may be off a seen square (squareError;
// true grids of simulated frames are within 0.021).
const maxSquareError = 0.05

// faceWeight weighs how well the blocks' top faces sit on a grid's cells
// against its dividers and frame.
const faceWeight = 1.0

// proposalsRefined is how many of the screened proposals are refined.
const proposalsRefined = 6

// climbRounds is how many more times, on a frame where no grid shows its
// dividers surely, the neighbours of grids new among the best are tried.
// Check seeds 20000-20299 / 21000-21199 cold, cells right 93.76 / 93.90 %
// with none: 4, 93.95 / 94.30 % (seed 20144's grid 1.9 -> 0.3 pitch off,
// 21091's 1.3 -> 0.8), 8 the same, for about 4 ms a frame. Seeding each
// round from every grid not yet a seed instead, 3 rounds: 94.07 / 94.26 %
// for 24 ms.
const climbRounds = 4

// variantsRefined is how many of the screened neighbours are refined.
const variantsRefined = 6

// variantsFramed is how many neighbours, the best by their dividers, are
// scored by the frame's colours too.
const variantsFramed = 40

type scoredGrid struct {
	h homography // full-resolution frame
	s float64
	// base is the score without the top faces' agreement: the dividers
	// and the frame, which the grid confidence is calibrated on.
	base float64
	// frame is the frame's share of base (frameEvidence).
	frame float64
	// outlined says the board's outline is seen all round the grid, at a
	// board's size (findGrid sets it).
	outlined bool
}

// locateGrid finds the grid (full-resolution frame): the best candidate,
// then refined twice more with more places per line (the second time
// searching closer to the line). It gives the grid's score and how sure it
// is, in 0..1, and marks the read as searched.
func (r *Reader) locateGrid(scale float64, w, h int) (homography, float64, float64, bool) {
	r.searched = true
	r.gridUnsure = false
	r.evidence = gridEvidence{}
	best, ok := r.findGrid(scale, w, h)
	if !ok {
		return best.h, best.s, 0, false
	}
	return r.settleGrid(best, scale, w, h)
}

// settleGrid is locateGrid's end for the grid best that findGrid chose:
// whether a board is shown on it, and its final refinement.
func (r *Reader) settleGrid(best scoredGrid, scale float64, w, h int) (homography, float64, float64, bool) {
	r.gridUnsure = false
	ridge := r.ridgeSupport(scaleHomography(best.h, scale), r.gray.Cols(), r.gray.Rows())
	shown, unsure := boardRead(best, ridge)
	if !shown {
		return best.h, best.s, 0, false
	}
	r.gridUnsure = unsure
	g := best.h
	conf := gridConfidence(best.base)
	r.evidence = gridEvidence{g: best, ridge: ridge}
	if gf, _ := r.refineFinal(g, 2, linePoints); plausibleGrid(cornersOf(gf), w, h) && squareError(gf, w, h) < maxSquareError && (conf >= 1 || r.fairMove(g, gf)) {
		g = gf
	}
	// The share of the grid lines where the dividers were found, moved by
	// the frame's evidence: wrong grids score up to about 0.5, right ones
	// 0.55 to 1. The top faces help choose a grid but not this: a grid a
	// fifth of a cell off still has its faces near its cells' centres.
	return g, best.s, conf, true
}

// fairMove tells whether the final refinement's move of a grid whose
// dividers are not surely seen, from g to gf, is to be kept. On a crowded
// board the few dividers found can be a block's edges, and right grids
// were dragged a fifth to half a pitch off (check seeds 20084, 21032,
// 20216); a move so large is kept only if the dividers are found along
// the new lines at least as often as along the old (seeds 5099, 20147).
func (r *Reader) fairMove(g, gf homography) bool {
	if pitchErr(cornersOf(gf), cornersOf(g)) < maxFinalMove {
		return true
	}
	_, before := r.refineFinal(g, 1, linePoints)
	_, after := r.refineFinal(gf, 1, linePoints)
	return after >= before-finalSlack
}

// maxFinalMove is the largest move (the worst corner, in pitches) of the
// final refinement kept unchecked; finalSlack how much fewer of the
// divider places the moved grid may find.
const (
	maxFinalMove = 0.15
	finalSlack   = 0.01
)

// boardShown tells whether a grid's scores show a board at all: its
// dividers and frame (minDividers), or, on crowded boards that hide them,
// block tops sitting on its cells. Spare pieces lying on a table give tops
// that a grid can be fitted to, and the edges of blocks and a plank
// table's seams can pass for dividers, but no divider ridges run along the
// grid's lines and, read, the cells show few blocks. So a weak grid (grid
// confidence at its floor) with no ridges along its lines (ridge,
// ridgeSupport) is shown unsure: the reader then wants its cells crowded
// (minBuiltUnsure). A weak grid is read with a low confidence, so that
// the player is asked, rather than refused: refusing a board in view helps
// no one.
//
// A crowded board whose tops are not found as faces still shows its
// outline all round at a board's size (outlined): its grid is shown too,
// unsure when it scores under minCrowdedScore (seed 17076: 23 built cells
// hide every divider; a grid 0.08 pitch off scored -0.39), so that an
// outline with nothing on it is not read as an empty board.
//
// A weak grid with neither block tops on its cells nor the frame's colours
// around it (no faces, frame evidence below 0) must show clear ridges
// (minRidgeBare): the table's own lines and the spare pieces' edges then
// pass for a board's dividers with ridges of 0.04 to 0.07.
func boardShown(g scoredGrid, ridge float64) (shown, unsure bool) {
	shown = g.s >= minDividers || g.outlined || g.s-g.base >= minFacesShown && g.s >= minCrowdedScore
	bare := g.s-g.base <= 0 && g.frame < 0
	unsure = ridge < minRidgeShown || bare && ridge < minRidgeBare || g.s < minCrowdedScore
	return shown, shown && unsure && gridConfidence(g.base) <= minGridConfidence
}

// boardRead is boardShown for a grid about to be read (settled on or
// picked): dividers this clear along its lines (minRidgeClear) are a
// board's, whatever its other scores.
func boardRead(g scoredGrid, ridge float64) (shown, unsure bool) {
	if ridge >= minRidgeClear {
		return true, false
	}
	return boardShown(g, ridge)
}

// minFacesShown is the least agreement of the block tops with a grid for
// it to stand for a crowded board; minCrowdedScore the least whole score
// such a grid may have (an outlined grid needs none). A plain table
// scores -0.36 with no tops.
// minRidgeShown is the least divider ridge support of a weak grid for it
// to be shown whatever its cells read: spare pieces on a table scored at
// most 0.028 (60 renders with no board), right grids of crowded boards
// mostly 0.04 to 0.3. minBuiltUnsure is the least number of cells with a
// block that a grid shown unsure must read (spare pieces read as 10
// built cells once, TestReadSparesNoBoard's seed 11, and 11 with three
// second looks; 11 and 12 changed none of the check seeds 20000-20299,
// 21000-21199 and 5000-5299). minRidgeBare is the least
// ridge support of a weak grid with no tops and no frame: spare pieces on
// a table gave up to 0.073 (40 renders), the right grids of such boards
// 0.17 to 0.56 on the check seeds and seeds 3000-3299 (3 frames).
//
// minOutlineShown is the least outline support (bestOutline) and
// minHeightShown the least height (a share of the frame's) of a grid
// shown by its outline: the crowded boards refused on the tuning sets
// whose best grid was right had 0.82-0.96 and 0.57-0.64, the wrong best
// grids mostly 0.27-0.38 high, and spare pieces on a table at most 0.74
// of outline (40 renders; of 200 more, 5 read with or without this).
//
// minRidgeClear is the divider ridge support at which a grid about to be
// read (boardRead: the grid settled on, or one pickByCells compares) is
// read even though boardShown would refuse it. findGrid's choice does not
// take it: there it changed grids for the worse
// (5000-5299: 5029 and 5141 refused). The grids refused in 200 renders of
// spare pieces on a table had ridges of at most 0.142 (0.12 read one of
// them); at 0.2 it reads three boards refused before on the tuning seeds
// 17000-18999 and 5000-5299 (17136, 85 degrees, a wide lens: 0 wrong
// cells), at 0.15 four more (about 50 more cells right in 2300 boards).
const (
	minRidgeClear   = 0.2
	minOutlineShown = 0.8
	minHeightShown  = 0.5
	minRidgeBare    = 0.1
	minFacesShown   = 0.1
	minCrowdedScore = -0.3
	minRidgeShown   = 0.035
	minBuiltUnsure  = 12
)

// gridConfidence maps a grid's dividers-and-frame score to how sure its
// place is, in minGridConfidence..1.
func gridConfidence(base float64) float64 {
	return math.Min(1, math.Max(minGridConfidence, (base-0.35)/0.4))
}

// minGridConfidence is the confidence of the weakest grids read.
const minGridConfidence = 0.05

// findGrid gives the best grid (full-resolution frame) and its scores;
// scale maps the full frame to the reduced one.
func (r *Reader) findGrid(scale float64, w, h int) (scoredGrid, bool) {
	r.ranked = r.ranked[:0]
	all := r.gridCandidates(scale, w, h)
	if len(all) == 0 {
		return scoredGrid{}, false
	}
	// The outline's support tips the choice: on crowded boards the other
	// scores rank grids a cell or two off above the right one. Where no
	// grid shows its dividers surely, the grids are ranked by all the cues
	// together (crowdedScore) instead. But a grid
	// the board would not be shown on (boardShown) is passed over for the
	// next that it would: the outline must not turn a board read into one
	// refused.
	v, ok := r.stepView()
	type ranked struct {
		g     scoredGrid
		s     float64
		ridge float64 // ridgeSupport, where computed (else NaN)
	}
	ridgeOf := func(g scoredGrid) float64 {
		return r.ridgeSupport(scaleHomography(g.h, scale), r.gray.Cols(), r.gray.Rows())
	}
	crowded := !dividersSure(all)
	verify := r.gridVerifier(crowded)
	rs := make([]ranked, len(all))
	for i, g := range all {
		rs[i] = ranked{g, g.s, math.NaN()}
		hs := scaleHomography(g.h, scale)
		ol, hf := outlineOf(v, ok, hs), gridHeight(g.h)/float64(h)
		rs[i].g.outlined = ol >= minOutlineShown && hf >= minHeightShown
		if crowded {
			rs[i].ridge = ridgeOf(g)
			rs[i].s = crowdedScore(g, rs[i].ridge, ol, hf)
			if verify != nil {
				rs[i].s += verify(hs, crowdedCues(g, rs[i].ridge, ol, hf))
			}
			rs[i].s += r.cornerAgreement(g.h)
		} else {
			rs[i].s += outlineWeight * ol
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].s > rs[j].s })
	// A grid shown unsure (no divider ridges) is read only if its cells
	// read crowded; one shown sure is preferred.
	chosen := -1
	for i := 0; i < len(rs) && i < shownTries; i++ {
		g, ridge := rs[i].g, rs[i].ridge
		if math.IsNaN(ridge) {
			ridge = ridgeOf(g)
		}
		shown, unsure := boardShown(g, ridge)
		if shown && !unsure {
			chosen = i
			break
		}
		if shown && chosen < 0 {
			chosen = i
		}
	}
	if chosen < 0 {
		chosen = 0
	}
	g := rs[chosen].g
	if !crowded {
		return g, true
	}
	// The grids ranked near the chosen one, a fraction of a cell off it
	// each way, are each about as likely: their mean, weighed by their
	// ranking, is nearer the board than any one.
	hs := make([]homography, len(rs))
	ss := make([]float64, len(rs))
	for i, x := range rs {
		hs[i], ss[i] = x.g.h, x.s
		r.ranked = append(r.ranked, rankedGrid{x.g, x.s, x.ridge})
	}
	r.rankChosen = chosen
	c := consensusCorners(hs, ss, chosen)
	if hm, ok := homographyFromCorners(c); ok && plausibleGrid(c, w, h) {
		g.h = hm
	}
	r.rankMean = g.h
	return g, true
}

// rankedGrid is one of a crowded frame's grids as findGrid ranked them:
// its score there and its divider ridges' support (ridgeSupport).
type rankedGrid struct {
	g        scoredGrid
	s, ridge float64
}

// consensusRadius is how far (the worst corner, in pitches) from a
// crowded frame's chosen grid the grids averaged with it may be;
// consensusTemp is the ranking score's temperature in their weights.
// Check seeds 20000-20299 / 21000-21199 cold, cells right 93.37 /
// 93.78 % before: 0.5 and 1, 93.43 / 93.84 % (grids right 275 -> 277 and
// 184 -> 185); temperature 2, 93.37 / 93.68 %; radius 0.7, 93.56 /
// 93.76 %. With the grid network in the ranking since (thirty-fourth
// session), temperature 2 against 1, cells right 17000-17999 96.01 ->
// 96.20 %, 18000-18999 96.08 -> 96.16 %, 20000-20299 96.29 -> 96.39 %,
// 21000-21199 95.98 -> 95.86 %, 5000-5299 96.52 -> 96.56 %, and the
// median corner nearer on four of the five (1.80 -> 1.76 % of a pitch on
// the first); 3 and 4 read 96.14 and 96.15 % on the first, better on
// 21000-21199, worse on 18000-18999 and 20000-20299.
const (
	consensusRadius = 0.5
	consensusTemp   = 2.0
)

// consensusCorners gives the mean corners of grids hs near grid hs[chosen]
// (within consensusRadius), each weighed by exp((s - s[chosen]) / T).
func consensusCorners(hs []homography, s []float64, chosen int) [4][2]float64 {
	var sum [4][2]float64
	total := 0.0
	c0 := cornersOf(hs[chosen])
	for i, hh := range hs {
		c := cornersOf(hh)
		if pitchErr(c, c0) > consensusRadius {
			continue
		}
		wt := math.Exp((s[i] - s[chosen]) / consensusTemp)
		for k := range c {
			sum[k][0] += wt * c[k][0]
			sum[k][1] += wt * c[k][1]
		}
		total += wt
	}
	for k := range sum {
		sum[k][0] /= total
		sum[k][1] /= total
	}
	return sum
}

// crowdedScore ranks the grids of a frame where no grid shows its
// dividers surely (crowded boards): the dividers found (share), the
// frame's colours, the block tops on the cells, the divider ridges along
// the lines, the outline's support, and the grid's height (a share of the
// frame's). The weights were fitted (a softmax over each frame's
// candidates, the right ones wanted) on seeds 20000-20299 and 3000-3299,
// each set checked with the weights fitted on the other: right grids of
// such frames 174 -> 183 and 181 -> 185 (of 227 each; a right one was
// among the candidates in 204).
func crowdedScore(g scoredGrid, ridge, outline, height float64) float64 {
	c := crowdedCues(g, ridge, outline, height)
	return 1.7*c[0] + 3.8*c[1] + 5.5*c[2] + 2.35*c[3] + 2.9*c[4] + 1.55*c[5]
}

// crowdedCues are crowdedScore's cues, in its order.
func crowdedCues(g scoredGrid, ridge, outline, height float64) [gridCues]float64 {
	return [gridCues]float64{g.base - g.frame, g.frame, g.s - g.base, ridge, outline, height}
}

// gridVerifier gives the grid network's correction to a crowded frame's
// candidates' crowdedScore (hs: a candidate on the reduced frame), or nil
// when the frame is not crowded or no network is built in.
func (r *Reader) gridVerifier(crowded bool) func(hs homography, cues [gridCues]float64) float64 {
	n := builtinGridNet
	if !crowded || n == nil {
		return nil
	}
	// The view is sampled from the reduced frame blurred a little: one
	// pixel's noise must not decide a sample.
	gocv.Blur(r.small, &r.blurred, image.Pt(3, 3))
	if err := r.blurPx.load(r.blurred); err != nil {
		return nil
	}
	if len(r.view) != viewPixels {
		r.view = make([]float32, viewPixels)
		r.netIn = make([]float32, 2*gridNetInputs)
	}
	return func(hs homography, cues [gridCues]float64) float64 {
		x, xs := r.netIn[:gridNetInputs], r.netIn[gridNetInputs:]
		gridNetInput(&r.blurPx, hs, cues, r.view, x)
		return n.score(x, xs)
	}
}

// gridHeight is the height of grid h's outline in the frame (pixels).
func gridHeight(h homography) float64 {
	c := cornersOf(h)
	y0, y1 := c[0][1], c[0][1]
	for _, p := range c[1:] {
		y0, y1 = math.Min(y0, p[1]), math.Max(y1, p[1])
	}
	return y1 - y0
}

// dividersSure reports whether some grid shows its dividers and frame
// well enough to be read at full confidence: the outline grids, for
// crowded boards, are then not needed.
func dividersSure(all []scoredGrid) bool {
	for _, g := range all {
		if gridConfidence(g.base) >= 1 {
			return true
		}
	}
	return false
}

// shownTries is how many grids, best first, findGrid checks for a board
// shown on them.
const shownTries = 5

// gridCandidates gives every grid findGrid scored (full-resolution frame).
func (r *Reader) gridCandidates(scale float64, w, h int) []scoredGrid {
	var all []scoredGrid
	// Each grid is scored where it stands, and again after one refinement
	// (which can lock onto a block's edge instead of a hidden divider):
	// both are kept.
	add := func(g homography, share float64) {
		if plausibleGrid(cornersOf(g), w, h) && squareError(g, w, h) < maxSquareError {
			fe := r.frameEvidence(g)
			s := share + fe
			all = append(all, scoredGrid{h: g, s: s + faceWeight*r.faceAgreement(scaleHomography(g, scale)), base: s, frame: fe})
		}
	}
	try := func(hf homography) {
		if !plausibleGrid(cornersOf(hf), w, h) {
			return
		}
		hr, share := r.refineDividers(hf, 1, linePoints/2)
		add(hf, share)
		if !plausibleGrid(cornersOf(hr), w, h) {
			return
		}
		if squareError(hr, w, h) >= maxSquareError && squareUp {
			// Some grid line went astray: take the square nearest to the
			// grid, as a camera would see it, and refine again.
			hr, _ = r.refineDividers(squared(hr, w, h), 1, linePoints/2)
		}
		if plausibleGrid(cornersOf(hr), w, h) && squareError(hr, w, h) < maxSquareError {
			_, share := r.refineDividers(hr, 1, linePoints/2)
			add(hr, share)
		}
	}
	// The proposals are screened cheaply (dividers on the reduced frame,
	// the frame's colours) before the best are refined on the full frame.
	rw, rh := r.gray.Cols(), r.gray.Rows()
	var props []scoredGrid
	for _, hs := range r.locate() {
		hf := scaleHomography(hs, 1/scale)
		if plausibleGrid(cornersOf(hf), w, h) {
			s := r.ridgeSupportN(hs, rw, rh, 8) + r.frameEvidence(hf)
			if screenFaces {
				s += faceWeight * r.faceAgreement(hs)
			}
			props = append(props, scoredGrid{h: hf, s: s})
		}
	}
	sort.Slice(props, func(i, j int) bool { return props[i].s > props[j].s })
	for i := 0; i < len(props) && i < proposalsRefined; i++ {
		try(props[i].h)
	}
	// The outline's grids (for crowded boards) are all refined: the cheap
	// screening above, by dividers, would drop them.
	if !dividersSure(all) {
		_, raw := r.outlineEdges()
		orows, ocols := familyLines(raw, rw, rh, outlinePool)
		qs := r.outlineGrids(orows, ocols, outlineNear)
		if !r.cornerOK {
			// The corner networks' grids, tried below, find the boards
			// the wide search was for (see outlineWide).
			for _, q := range r.outlineGrids(orows, ocols, outlineWide) {
				if !nearAny(qs, q.h) {
					qs = append(qs, q)
				}
			}
		}
		for _, q := range qs {
			try(scaleHomography(q.h, 1/scale))
		}
	}
	if len(all) == 0 {
		return nil
	}
	sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
	// The neighbours are tried about the best grids, then again about
	// any of theirs that climbed among the best: a grid two or three
	// cells off on a crowded board reaches the board a cell at a time.
	var used []homography
	for round := 0; round <= climbRounds; round++ {
		if round > 0 && dividersSure(all) {
			break
		}
		pool := all
		if round > 0 && len(pool) > variantSeeds {
			pool = pool[:variantSeeds]
		}
		seeds := newSeeds(pool, used, variantSeeds)
		if len(seeds) == 0 {
			break
		}
		used = append(used, seeds...)
		r.tryNeighbours(seeds, scale, w, h, try)
		sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
	}
	for _, g := range []struct {
		c  [4][2]float64
		ok bool
	}{{r.cornerGuess, r.cornerOK}, {r.secondGuess, r.secondOK}} {
		if !g.ok {
			continue
		}
		if hc, ok := homographyFromCorners(g.c); ok {
			try(hc)
			sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
		}
	}
	// The table's hole, last: tried among the neighbours' seeds it took
	// a seed's place and lost grids found about it (17447).
	if useTableHole && !dividersSure(all) {
		if q, ok := r.holeGrid(rw, rh); ok {
			try(scaleHomography(q.h, 1/scale))
			sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
		}
	}
	return all
}

// newSeeds gives up to k of the best grids (all sorted best first) that
// are neither a seed already (used) nor like one another.
func newSeeds(all []scoredGrid, used []homography, k int) []homography {
	var seeds []homography
	for _, g := range all {
		if len(seeds) >= k {
			break
		}
		dup := false
		for _, s := range [][]homography{seeds, used} {
			for _, x := range s {
				if sameGridTol(x, g.h, 0.3) {
					dup = true
					break
				}
			}
		}
		if !dup {
			seeds = append(seeds, g.h)
		}
	}
	return seeds
}

// tryNeighbours screens the seeds' neighbours cheaply (dividers on the
// reduced frame, the frame's colours) and tries the best few.
func (r *Reader) tryNeighbours(seeds []homography, scale float64, w, h int, try func(homography)) {
	rw, rh := r.gray.Cols(), r.gray.Rows()
	var screened []scoredGrid
	for _, hs := range seeds {
		for _, a := range gridNeighbours {
			hv := mul3(hs, a)
			if !plausibleGrid(cornersOf(hv), w, h) {
				continue
			}
			s := r.ridgeSupportN(scaleHomography(hv, scale), rw, rh, 6)
			screened = append(screened, scoredGrid{h: hv, s: s})
		}
	}
	// The frame's colours cost more: only for the best by the dividers.
	sort.Slice(screened, func(i, j int) bool { return screened[i].s > screened[j].s })
	if len(screened) > variantsFramed {
		screened = screened[:variantsFramed]
	}
	for i := range screened {
		screened[i].s += r.frameEvidence(screened[i].h)
		if screenFaces {
			screened[i].s += faceWeight * r.faceAgreement(scaleHomography(screened[i].h, scale))
		}
	}
	sort.Slice(screened, func(i, j int) bool { return screened[i].s > screened[j].s })
	for i := 0; i < len(screened) && i < variantsRefined; i++ {
		try(screened[i].h)
	}
}

// screenFaces adds the top faces' agreement to the cheap screening of
// proposals and neighbours: on crowded boards the grids from the blocks
// have few dividers or frame to show, and were screened out before the
// faces could speak for them.
const screenFaces = true

// gridNeighbours map a grid's board coordinates to those of its
// neighbours: shifted a cell, or with one cell more or fewer, along either
// axis or both.
var gridNeighbours = func() []homography {
	var out []homography
	for _, su := range []float64{0.8, 1, 1.25} {
		for _, sv := range []float64{0.8, 1, 1.25} {
			for _, tu := range []float64{-1, 0, 1} {
				for _, tv := range []float64{-1, 0, 1} {
					if su == 1 && sv == 1 && tu == 0 && tv == 0 || su != 1 && sv != 1 {
						continue
					}
					out = append(out, homography{su, 0, tu * su, 0, sv, tv * sv, 0, 0, 1})
				}
			}
		}
	}
	// A grid a little too large or small about its centre: refinement can
	// stop on the blocks' edges a fifth of a cell out.
	for _, sc := range []float64{0.92, 0.96, 1.04} {
		out = append(out, homography{sc, 0, 2.5 * (1 - sc), 0, sc, 2.5 * (1 - sc), 0, 0, 1})
	}
	return out
}()

// squareError measures how far grid h (full-resolution frame w x hh) is
// from the image of a square seen by a camera with square pixels, its
// principal point near the frame's centre (within a seventh of the frame,
// for photos cropped a little) and a focal length within 0.5 to 2.5 frame
// heights: a grid one cell too wide or too short one way is a rectangle,
// and no such camera sees a rectangle as that square. 0 is a perfect
// square; a 5-by-4 rectangle seen from above gives about 0.4.
func squareError(h homography, w, hh int) float64 {
	best := math.Inf(1)
	for _, ox := range [3]float64{-1, 0, 1} {
		for _, oy := range [3]float64{-1, 0, 1} {
			cx := float64(w) * (0.5 + ox*principalSlack)
			cy := float64(hh) * (0.5 + oy*principalSlack)
			best = math.Min(best, squareErrorAt(h, cx, cy, float64(hh)))
		}
	}
	return best
}

// principalSlack is how far off the frame's centre (a share of its width
// and height) the principal point may be.
const principalSlack = 0.14

// squareErrorAt is squareError for principal point (cx, cy); f0 is the
// frame's height.
func squareErrorAt(h homography, cx, cy, f0 float64) float64 {
	h1, h2, a1, b1, a2, b2 := squareConstraints(h, cx, cy)
	// w = 1/f^2, f between 0.5 and 2.5 frame heights.
	wMin, wMax := 1/(2.5*f0*2.5*f0), 1/(0.5*f0*0.5*f0)
	wf := wMin
	if den := a1*a1 + a2*a2; den > 0 {
		wf = math.Min(wMax, math.Max(wMin, -(a1*b1+a2*b2)/den))
	}
	r1, r2 := a1*wf+b1, a2*wf+b2
	n := math.Hypot(h1[0], h1[1])*math.Hypot(h2[0], h2[1])*wf + math.Abs(b1) + math.Abs(b2)
	return math.Hypot(r1, r2) / (n + 1e-300)
}

// squareUp retries grids that are not squares from the nearest square.
const squareUp = true

// squared gives the view of a square nearest to grid h: the camera
// recovered from h (a rotation made orthonormal) sees the board's square.
func squared(h homography, w, hh int) homography {
	return squareSeenBy(recoveredCamera(h, w, hh), h)
}

// squareFit gives the view of a square nearest to grid h's corners: the
// camera recovered from h, refitted to them (robustly, so that one corner
// a network placed off behind the towers moves most). squared keeps the
// recovered camera as it is, which can move a grid that is nearly square
// half a pitch (18395, 200323: refused).
func squareFit(h homography, w, hh int) homography {
	o := make([]camObs, len(boardSquare))
	for i, p := range boardSquare {
		o[i] = camObs{x: p.X, y: p.Y, p: h.apply(p), wt: 1}
	}
	return squareSeenBy(fitCameraTo(recoveredCamera(h, w, hh), o, squareFitSteps), h)
}

// squareFitSteps are squareFit's Gauss-Newton steps (fitCameraTo: two
// plain, then robust): enough to set aside one corner half a pitch off
// (TestSquareFit).
const squareFitSteps = 8

// boardSquare is the board's outline, A1, A5, E5, E1, in pitches.
var boardSquare = []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}}

// recoveredCamera is the camera seen from grid h (a w x hh frame), its
// principal point the frame's centre.
func recoveredCamera(h homography, w, hh int) camera {
	cx, cy := float64(w)/2, float64(hh)/2
	f, _ := focalLength(h, cx, cy, float64(hh))
	return poseWithFocal(h, cx, cy, f)
}

// squareSeenBy is the grid of the board's square as camera cam sees it,
// else h where that fit fails.
func squareSeenBy(cam camera, h homography) homography {
	dst := make([]pt, len(boardSquare))
	for i, p := range boardSquare {
		dst[i] = cam.project(p.X, p.Y, 0)
	}
	sq, ok := fitHomography(boardSquare, dst)
	if !ok {
		return h
	}
	return sq
}

// outlineOf is the share of grid hs's (reduced frame) outline that step
// view v shows (bestOutline), 0 without a view.
func outlineOf(v stepView, ok bool, hs homography) float64 {
	if !ok {
		return 0
	}
	ol, _ := v.bestOutline(hs)
	return ol
}

// evidenceAt is what grid hf (full-resolution frame of height h) shows of
// a board, scored as the search scores its candidates (gridCandidates,
// findGrid): for a grid the search did not settle on, such as a hint.
// base is hf's gridScore at linePoints/2, when already known.
func (r *Reader) evidenceAt(hf homography, base, scale float64, h int) gridEvidence {
	hs := scaleHomography(hf, scale)
	v, ok := r.stepView()
	g := scoredGrid{h: hf, base: base, frame: r.frameEvidence(hf)}
	g.s = base + faceWeight*r.faceAgreement(hs)
	g.outlined = outlineOf(v, ok, hs) >= minOutlineShown && gridHeight(hf)/float64(h) >= minHeightShown
	return gridEvidence{g: g, ridge: r.ridgeSupport(hs, r.gray.Cols(), r.gray.Rows())}
}

// gridScore is how well grid h (full-resolution frame) stands where it
// is: the share of its lines' places with a divider, plus the frame's
// evidence; n places per line.
func (r *Reader) gridScore(h homography, n int) float64 {
	_, share := r.refineDividers(h, 1, n)
	return share + r.frameEvidence(h)
}

// nearAny reports whether grid h is within 0.3 pitch of one of qs.
func nearAny(qs []quadCand, h homography) bool {
	for _, q := range qs {
		if sameGridTol(q.h, h, 0.3) {
			return true
		}
	}
	return false
}
