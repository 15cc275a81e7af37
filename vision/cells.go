package vision

import (
	"image"
	"math"

	"companion/observation"
)

// Cell reading by render and compare. For each cell there are 17 hypotheses:
// level 0-3 with no pawn or a blue, light or dark pawn, and a dome. Each is
// drawn with the camera recovered from the grid (the outlines of its tiers,
// dome and pawn where the camera would see them, nearer cells drawn over
// farther ones) into a label map, and scored by how well every pixel's
// colour fits the label drawn there (see colour.go). The three pawn colours
// share one drawing. Cells are decided by coordinate descent, nearest cells
// first, two sweeps. A cell whose hypotheses all score alike (hidden behind
// a tall tower) gets a low confidence; every confidence is also scaled by
// how surely the grid was found.

const nHyp = 17

// confTemp scales the score differences (per pixel of the cell's region)
// into the confidence's softmax. Calibrated on seeds 20000-20299 with the
// true corners so that cells at 0.9 or more are all but never wrong (1
// wrong of 1325 there; 0.12 gave 18 of 2000).
const confTemp = 0.15

// Labels of the drawn map.
const (
	labBoard = iota
	labBlock
	labDome
	labBlue
	labLight
	labDark
	nLab
	// labTop is a block's top face: a block for the learned histograms,
	// but the frame's block-top colour fits it (the faces below are shaded
	// and windowed), which tells the tiers apart where their sides show.
	labTop  = nLab
	labMine = nLab + 1 // the pawn of the cell being scored, any colour (score)
	nPlanes = nLab + 1 // label planes of the colour model
	// llStride is a pixel's share of the colour model's interleaved
	// planes: the planes and one float of padding (32 bytes).
	llStride = nPlanes + 1
)

func hypSquare(k int) observation.Square {
	if k == 16 {
		return observation.Square{Level: 4}
	}
	return observation.Square{Level: uint8(k / 4), Occupant: observation.Occupant(k % 4)}
}

type drawn struct {
	outline poly
	lab     uint8
	id      uint8 // which part of the cell's stack (edgeID), for its edge samples
}

type cellCtx struct {
	cam    camera
	w, h   int
	shapes [25][nHyp][]drawn
	box    [25][nHyp]image.Rectangle
	region [25]image.Rectangle // union over hypotheses
	order  [25]int             // drawing order, farthest first
	rank   [25]int
	hyp    [25]int
	lab    []uint8
	base   []uint8 // the other cells, for scoring one (drawBase)
	tmp    []pt
	slab   []pt // storage of the outlines (polyBuf)
	parts  []shape
	scores [25][nHyp]float64
	model  *colourModel
	set    pieceSet
	// gray is the reduced frame's grey (nil: no edge cue); edges holds each
	// cell's parts' outline samples (edgeSamples), made once per pose.
	gray   grayImg
	eslab  []edgeSample           // all samples made for this pose
	eRange [25][nEdgeIDs][2]int32 // cell i's part id's samples in eslab
	eDone  [25]uint16             // bit id: eRange[i][id] made for this pose
	// netIn holds the cells' inputs to the cell networks, netInputs each:
	// cell i's on the grid at row i, on the grid shifted by netShifts[s]
	// at row (s+1)*25+i (netRow); netAll is where the colour model's
	// likelihoods were computed. netXs, netHids and netOut are the batch's
	// scratch and its outputs; netLP each cell's log-probabilities, the
	// grid's and its shifts' averaged.
	netIn   []float32
	netXs   []float32
	netHids []float32
	netOut  [][nHyp]float64
	netOne  [][nHyp]float64
	netLP   [25][nHyp]float64
	netAll  image.Rectangle
	// lookIn holds the cells' inputs to the second look, lookInputs each
	// (lookInput); lookXs and lookHid are its scratch.
	lookIn  []float32
	lookXs  []float32
	lookHid []float32
	lookPts []float32 // a place's sample points' features (lookInput)
	// patchPix and patchExtra hold the cells' inputs to the third look
	// (samplePatches).
	patchPix   []uint8
	patchExtra []float32
	// patchShift moves the patches' samples by this much (board units):
	// the solo reading's second reading of its unsure cells.
	patchShift pt
	// shiftPix, shiftExtra and shiftLP hold the solo reading's unsure
	// cells' inputs and readings on the shifted grids (soloShifted).
	shiftPix   []uint8
	shiftExtra []float32
	shiftLP    [][nHyp]float64
	// fillBuf is fill's room for the rows' spans; ptX and ptY hold a
	// cell's sample points for the network (cellPoints).
	fillBuf  []float64
	ptX, ptY []int32
	spans    []rowSpan  // score's rows drawn on
	drawing  []hypShape // score_hyp's outlines of the hypothesis scored
	// rasters are the pose's outlines rasterised (shapeRasters): cell i's
	// hypothesis k's from rasterFirst[i][k] once rastered[i][k]; rows
	// holds their rows' spans.
	rastered    [25][nHyp]bool
	rasterFirst [25][nHyp]int32
	rasters     []raster
	rows        []rowSpan
	// rOf is cell i's part id's raster (partRaster), the hypotheses'
	// shared, once bit id of rDone[i] is set.
	rOf   [25][nEdgeIDs]raster
	rDone [25]uint16
	// agree is each cell's agreement (agreement) on the pick read, cover
	// how much nearer pieces cover it (cellCover): the confidence's.
	agree, cover [25][2]float64
	// colours are the colours the reading chose (readCellsAgain).
	colours boardColours
}

// boardColours are the colours a reading chose: the board's cells' and
// the block tops', if any. A reading again on a grid moved a little
// (readCellsAgain) takes them as they were rather than choosing afresh.
type boardColours struct {
	ok                        bool
	board, sd, block, blockSD [3]float64
	hasBlock                  bool
}

// useGray gives the cell reading the frame's grey image, if it fits.
func (r *Reader) useGray() {
	c := &r.cc
	c.gray = grayImg{}
	if g, err := r.gray.DataPtrUint8(); err == nil && edgeWeight > 0 && r.gray.Cols() == r.px.w && r.gray.Rows() == r.px.h {
		c.gray = grayImg{g, r.px.w, r.px.h}
	}
}

// readCells reads the cells on grid h (reduced frame) into res, choosing
// the board's colours and the lens.
func (r *Reader) readCells(h homography, res *Result) { r.readCellsWith(h, res, nil) }

// readCellsAgain reads the cells on grid h (reduced frame), another grid
// of the frame last read, with the colours that reading chose where its
// cells show the same block tops (sameBlocks); a frame's first reading
// (no colours yet) chooses them as readCells does. The choice
// (seenBoard and a sweep for each colour tried) is about a third of a
// reading. On the five check sets, cold, choosing afresh read 672 cells
// wrong (1690 boards perfect), this 666 (1689), about 3 ms a frame less.
// Without the test of the block tops, 655 (1685), but 18 of those cells
// on one board (5007) and on others a first grid's wrong block colour
// kept (the hold-out's 100172, 3 -> 8 wrong).
func (r *Reader) readCellsAgain(h homography, res *Result) {
	if ch := r.cc.colours; ch.ok && r.sameBlocks(h, &ch) {
		r.readCellsWith(h, res, &ch)
		return
	}
	r.readCells(h, res)
}

// sameBlocks reports whether the cells on grid h (reduced frame) show the
// block tops' colour ch holds (or, as ch, none): a first grid off the
// block tops takes shaded sides or cells for them (100172).
func (r *Reader) sameBlocks(h homography, ch *boardColours) bool {
	var m colourModel
	m.chooseColours(boardCandidates(cellColours(&r.px, h)))
	if m.hasBlock != ch.hasBlock {
		return false
	}
	return !m.hasBlock || sameSurface(m.block, ch.block)
}

// lenses gives the focal lengths to try on grid h (reduced frame): the
// grid's own estimate (or a known lens) and, where that is unsure, a
// shorter and a longer one.
func (r *Reader) lenses(h homography) []float64 {
	// Near top-down the grid does not fix the focal length (how far the
	// camera is), on which the towers' parallax depends: try a short, a
	// middle and a long lens and keep the one that explains the frame best.
	f0, sure := focalLength(h, float64(r.px.w)/2, float64(r.px.h)/2, defaultFocal(r.px.h))
	focals := []float64{f0}
	if cam := poseWithFocal(h, float64(r.px.w)/2, float64(r.px.h)/2, f0); sure < 0.3 && tryFocals && cam.elevation() > focalElevation {
		// A known lens replaces the three tried. Where the grid fixes the
		// focal length the frame's own is kept: given the true one there
		// too, 17000-17999 near a hint read 45-60° views worse (293 -> 331
		// wrong cells, two boards refused), the cell networks having
		// learned the frame's estimate.
		if f, ok := r.knownFocal(r.px.h); ok {
			focals[0] = f
		} else {
			focals = append(focals, f0*0.8, f0*1.25)
		}
	}
	return focals
}

// readCellsWith is readCells, with the colours given if known.
func (r *Reader) readCellsWith(h homography, res *Result, known *boardColours) {
	c, m := &r.cc, &r.model
	if len(r.solo.nets) > 0 {
		// A network that fails to run leaves the cells unread (all
		// bare, unsure); UseCellNetworks loaded them, so that is a fault
		// of the file given.
		if err := r.readSolo(h, res); err != nil {
			*res = Result{Corners: res.Corners}
		}
		return
	}
	r.useGray()
	var means, sds [][3]float64
	var boards []int
	var cells [25][3]float64
	if known != nil {
		means, sds, boards = [][3]float64{known.board}, [][3]float64{known.sd}, []int{0}
		m.block, m.blockSD, m.hasBlock, m.noBoard = known.block, known.blockSD, known.hasBlock, false
	} else {
		cells = cellColours(&r.px, h)
		means, sds = boardCandidates(cells)
		boards = m.chooseColours(means, sds)
	}
	if traceCells != nil {
		traceCells("candidates %.3v sds %.3v boards %v block %v %.3v", means, sds, boards, r.model.hasBlock, r.model.block)
	}
	focals := r.lenses(h)
	// The region any lens's hypotheses may cover, for the colour model.
	all := c.setupFocal(h, r.px.w, r.px.h, focals[0])
	for _, f := range focals[1:] {
		cam := poseWithFocal(h, float64(r.px.w)/2, float64(r.px.h)/2, f)
		all = all.Union(c.reach(&cam))
	}
	// The board colour: see which colour the cells show around the block
	// tops (seenBoard); failing that, every candidate gets one sweep with
	// the middle lens and the one that explains the frame best is kept.
	// Then the other lenses get one sweep with it; the reading that
	// explains the frame best gets the second sweep.
	bestLL, bestB, bestF := math.Inf(-1), 0, 0
	var bestHyp [25]int
	// lone says no other trial's likelihood is weighed against this one's
	// (one board colour, one lens; or the no-block trial, weighed by the
	// networks' confidence instead): its total over the frame, a sum over
	// every pixel of the region, is not needed.
	lone := false
	trial := func(b, v int) {
		c.hyp = [25]int{}
		c.search(1)
		c.draw(all, -1, 0)
		ll := 0.0
		if !lone || traceCells != nil {
			ll = c.total(all, &r.model)
		}
		if traceCells != nil {
			traceCells("trial board %d %.3v focal %d: ll %.0f hyp %v", b, r.model.board, v, ll, c.hyp)
		}
		if ll > bestLL {
			bestLL, bestB, bestF, bestHyp = ll, b, v, c.hyp
		}
	}
	noBlockAt := -1 // the index in boards of the trial with no block colour
	var whiter [3]float64
	hasWhiter := false
	setBoard := func(b int) {
		if b == noBlockAt {
			r.model.hasBlock = hasWhiter
			if hasWhiter {
				r.model.block = whiter
			}
		}
		r.model.board, r.model.sd = means[boards[b]], sds[boards[b]]
		r.model.ringHistogram(&r.px, h)
		r.model.compute(&r.px, all)
	}
	if known != nil {
		// The colours stand.
	} else if mean, sd, ok := r.seenBoard(h, all, means[boards[0]], sds[boards[0]]); ok {
		// The colour seen, measured over far more pixels than the cell
		// centres' clusters, is the board's.
		means, sds = append(means, mean), append(sds, sd)
		boards = []int{len(means) - 1}
	} else if r.model.hasBlock {
		// The whitest cluster of cell colours may be bare cells in a
		// lamp's light (sand or grass lit unevenly, an empty board), not
		// block tops: it is tried as the board too, with no block colour
		// or, where a lone cell is whiter still, with that cell's.
		for i := range means {
			if means[i] == r.model.block {
				noBlockAt = len(boards)
				boards = append(boards, i)
				break
			}
		}
		whiter, hasWhiter = whiterCell(cells, r.model.block)
	}
	nb := len(boards)
	if noBlockAt >= 0 {
		nb = noBlockAt
	}
	lone = nb == 1 && len(focals) == 1
	for q := range boards[:nb] {
		setBoard(q)
		trial(q, 0)
	}
	if bestB != nb-1 {
		setBoard(bestB)
	}
	for v := 1; v < len(focals); v++ {
		c.setupFocal(h, r.px.w, r.px.h, focals[v])
		trial(bestB, v)
	}
	if bestF != len(focals)-1 {
		c.setupFocal(h, r.px.w, r.px.h, focals[bestF])
	}
	c.hyp = bestHyp
	phantoms := r.finishCells(all, res)
	r.keepColours()
	if noBlockAt < 0 {
		return
	}
	// The reading with the whitest cluster as bare cells is kept only if
	// its cells read much more surely, or more surely where the search,
	// with the block colour, drew block tops on many cells the networks
	// read bare (phantomBlocks): likelihoods under the two colour models do
	// not compare fairly (without a block colour, block tops pass for a
	// sharp board colour), but the networks' confidence does.
	withBlock := &r.keptColour
	withBlock.keep(c, res)
	setBoard(noBlockAt)
	bestLL, lone = math.Inf(-1), true
	trial(noBlockAt, bestF)
	c.hyp = bestHyp
	r.finishCells(all, res)
	r.keepColours()
	with, without := meanConf(withBlock.res.plainConf[:]), meanConf(res.plainConf[:])
	if traceCells != nil {
		traceCells("mean confidence with block colour %.3f, without %.3f; phantom blocks %d", with, without, phantoms)
	}
	if without < with+noBlockMargin && (phantoms < noBlockPhantoms || without <= with) {
		withBlock.restore(c, res)
	}
}

// phantomBlocks counts the cells on which the search's hypothesis (hyp)
// stands a block while the networks' reading (board) has the cell bare.
func phantomBlocks(hyp *[25]int, board *observation.Board) int {
	n := 0
	for i, h := range hyp {
		if hypSquare(h).Level >= 1 && board[i].Level == 0 {
			n++
		}
	}
	return n
}

// whiterCell finds the whitest cell colour that is clearly whiter than
// the cluster taken as block tops: when that cluster turns out to be bare
// cells, a lone block or two (too few for a cluster of their own) still
// give the block colour (100085: two blocks on pale stone read bare).
func whiterCell(cells [25][3]float64, block [3]float64) ([3]float64, bool) {
	best, ok := block, false
	for _, c := range cells {
		if offWhite(c) && whiteness(c) > whiteness(best) && whiteness(c) > whiteness(block)+0.1 && !sameSurface(c, block) {
			best, ok = c, true
		}
	}
	return best, ok
}

// keepColours records the colour model's colours as the reading's.
func (r *Reader) keepColours() {
	m := &r.model
	r.cc.colours = boardColours{true, m.board, m.sd, m.block, m.blockSD, m.hasBlock}
}

// cellsKept is a reading of the cells set aside while another is tried:
// the result, and the cell state that what follows the reading uses (the
// confidence model's features; the networks' inputs, which the trainers
// collect).
type cellsKept struct {
	res           Result
	agree, cover  [25][2]float64
	cam           camera
	hyp           [25]int
	netIn, lookIn []float32
	netLP         [25][nHyp]float64
	colours       boardColours
}

// keep sets aside res and c's state.
func (k *cellsKept) keep(c *cellCtx, res *Result) {
	k.res, k.agree, k.cover, k.cam, k.hyp = *res, c.agree, c.cover, c.cam, c.hyp
	k.netLP, k.colours = c.netLP, c.colours
	k.netIn = append(k.netIn[:0], c.netIn...)
	k.lookIn = append(k.lookIn[:0], c.lookIn...)
}

// restore puts back the reading kept.
func (k *cellsKept) restore(c *cellCtx, res *Result) {
	*res = k.res
	c.agree, c.cover, c.cam = k.agree, k.cover, k.cam
	c.netLP, c.colours = k.netLP, k.colours
	c.netIn = append(c.netIn[:0], k.netIn...)
	c.lookIn = append(c.lookIn[:0], k.lookIn...)
}

// restoreAll is restore that also puts back the hypotheses read and their
// outlines for the kept pose, as after the reading itself: what follows a
// reading (shownPlaces) draws them.
func (k *cellsKept) restoreAll(c *cellCtx, res *Result) {
	k.restore(c, res)
	c.hyp = k.hyp
	c.prepare()
}

// noBlockMargin is how much surer (mean confidence over the cells) a
// reading with no block colour must be to be kept. On the check seeds
// 20000-20299 with the true corners the right ones were 0.17-0.24 surer,
// the wrong ones 0.02-0.04.
const noBlockMargin = 0.1

// noBlockPhantoms: with the block colour's search standing blocks on this
// many cells the networks read bare (phantomBlocks), the reading with no
// block colour is kept if it is surer at all. Its cells have grown surer
// since noBlockMargin was chosen: near-empty boards of grey or pale stone
// whose lit cells formed the whitest cluster were 0.03-0.1 surer without
// it (phantom blocks 15-25: 18016, 18520, 22080, 22087; a dark pawn on
// grey stone missed, and the phantoms' cover capping most cells at
// hiddenConf, so asked), while boards truly with blocks had 0-2 (20139
// read a light pawn bare without its block colour, 0.04 surer).
const noBlockPhantoms = 8

// meanConf is the mean of the cells' confidences.
func meanConf(c []float64) float64 {
	t := 0.0
	for _, v := range c {
		t += v
	}
	return t / float64(len(c))
}

// finishCells reads the cells from the render-and-compare reading c.hyp.
// It gives the search's phantom blocks (phantomBlocks) before the
// networks' second reading: none without the networks.
func (r *Reader) finishCells(all image.Rectangle, res *Result) int {
	c := &r.cc
	c.search(1)
	for i := range c.hyp {
		res.Board[i] = hypSquare(c.hyp[i])
		res.Confidence[i] = c.confidence(i)
	}
	res.plainBoard, res.plainConf = res.Board, res.Confidence
	c.netAll = all
	c.netFeatures(&r.px, &r.model)
	n := cellNetInUse()
	if len(n) == 0 {
		return 0
	}
	r.networksRead(n, res)
	// The networks see each cell with the other cells as the search stood
	// them: what covers it, the map drawn round it. Where the search stood
	// blocks on cells the networks read bare, those phantoms hid what is
	// behind them and capped its confidence (cellCover); so the networks
	// read the cells once more with the others as they read them.
	phantoms := phantomBlocks(&c.hyp, &res.Board)
	if useSecondReading && phantoms >= secondReadingPhantoms {
		for i := range c.hyp {
			c.hyp[i] = hypIndex(res.Board[i])
		}
		c.netFeatures(&r.px, &r.model)
		r.networksRead(n, res)
	}
	return phantoms
}

// networksRead reads every cell into res with the cell networks n and the
// second look, from the features netFeatures made.
func (r *Reader) networksRead(n cellNets, res *Result) {
	c := &r.cc
	c.cellLogProbs(n)
	c.secondLook(&r.px, &r.model, lookNetInUse())
	c.decideAll(res)
}

// secondReadingPhantoms: the networks read the cells again (finishCells)
// where the search stood blocks on this many cells they read bare. Five
// check sets cold, cells wrong / boards perfect / cells asked: none 432 /
// 1804 / 8816; 6 425 / 1806 / 8743; 4 420 / 1807 / 8724 (9 boards better
// by 14 cells, 2 worse by 2); a first draft that also let the second
// reading hide the phantoms from the block colour's test: 3 421 / 1806,
// 4 419 / 1808, 6 424 / 1807, and on every cell whose level the search
// and the networks disagree on, 3 or more, 430 / 1802 (38 boards better,
// 39 worse) (SIM_NOTES, ninetieth session).
const secondReadingPhantoms = 4

// useSecondReading switches the networks' second reading on (tests
// compare readings without it).
var useSecondReading = true

// decideAll reads every cell from c.netLP into res, with the agreement and
// cover the confidence model takes.
func (c *cellCtx) decideAll(res *Result) {
	best := c.decide(res)
	for i, k := range best {
		c.agree[i] = c.agreement(i, k)
		c.cover[i][0], c.cover[i][1] = c.cellCover(i, res.Board[i])
	}
}

// decide reads each cell from its log-probabilities c.netLP, with
// towerPawnBonus added, into res.plainBoard and res.plainConf, and with
// pawnCountPrior added too into res.Board and res.Confidence; it gives the
// hypotheses picked for the latter.
func (c *cellCtx) decide(res *Result) [25]int {
	var lp, adj [25][nHyp]float64
	for i := range c.hyp {
		adj[i] = c.netLP[i]
		for k := range adj[i] {
			adj[i][k] += towerPawnBonus[k]
		}
		lp[i] = adj[i]
		// A pawn that render and compare finds far worse than its best
		// reading is not seen: the network has only been taught simulated
		// frames, and sees pawns on bare cells of frames unlike them.
		rc := c.netRow(0, i)[netScoresAt:]
		for k := range lp[i] {
			if sq := hypSquare(k); sq.Occupant != observation.Empty && float64(rc[k]) < -pawnVeto {
				lp[i][k] = math.Inf(-1)
			}
		}
	}
	best := pickBest(&lp)
	plainBest := best
	limitPawns(&lp, &plainBest)
	readOdds(&lp, &adj, plainBest, &res.plainBoard, &res.plainConf)
	pawnCountPrior(&lp, &adj, &best)
	limitPawns(&lp, &best)
	readOdds(&lp, &adj, best, &res.Board, &res.Confidence)
	return best
}

// pickBest gives each cell's likeliest hypothesis under lp.
func pickBest(lp *[25][nHyp]float64) [25]int {
	var best [25]int
	for i := range lp {
		best[i] = likeliest(&lp[i])
	}
	return best
}

// likeliest is one cell's likeliest hypothesis under lp (the first of
// equals).
func likeliest(lp *[nHyp]float64) int {
	best := 0
	for k, v := range lp {
		if v > lp[best] {
			best = k
		}
	}
	return best
}

// readOdds puts the hypotheses best into board, and their confidence into
// conf. The confidence counts the vetoed pawns too (adj, lp before the
// veto): a pawn the network saw and render and compare did not is a
// doubt, not a certainty that the cell is bare.
func readOdds(lp, adj *[25][nHyp]float64, best [25]int, board *observation.Board, conf *[25]float64) {
	for i, k := range best {
		var z float64
		for _, v := range adj[i] {
			z += math.Exp(v - lp[i][k])
		}
		board[i] = hypSquare(k)
		conf[i] = 1 / z
	}
}

// agreement gives how far the reading's parts agree on cell i's pick k:
// the share of the grid and its shifts (netShifts) whose networks alone
// pick it, and 1 when render and compare picked it too.
func (c *cellCtx) agreement(i, k int) [2]float64 {
	var a [2]float64
	for s := 0; s <= len(netShifts); s++ {
		lp := &c.netOut[s*25+i]
		best := 0
		for h := range lp {
			if lp[h] > lp[best] {
				best = h
			}
		}
		if best == k {
			a[0] += 1 / float64(len(netShifts)+1)
		}
	}
	if c.hyp[i] == k {
		a[1] = 1
	}
	return a
}

// towerPawnBonus is added to the networks' log-probabilities of a light
// pawn on a tower (levels 1-3) and of a blue pawn on level 3 before a cell
// is read. The networks missed those pawns far more often than they saw
// ones not there: on 17000-17999, cold, a light pawn on level 3 was read
// as the bare tower 20 times in 117, a bare level 3 as one with a light
// pawn once in 2170; a blue pawn on level 3 was read as a dome 9 times in
// 175, a dome as that pawn 4 times in 1626 (white on white, and the
// pawn's head reaching out past the tower where the third look's patches
// end). Tuned there (light 0.5 / 1 / 2: 368 -> 354 / 352 / 359 wrong
// cells; with light 1, blue 0.5 / 1: 352 -> 348 / 350); light 0.5 and
// blue 0.5, cold, cells wrong (boards perfect): 17000-17999 368 -> 351
// (766 -> 781), and on the check sets 18000-18999 437 -> 433 (749 ->
// 755), 20000-20299 136 -> 135 (218 -> 219), 21000-21199 76 -> 71 (152
// -> 155), 22000-22299 127 -> 128 (223 -> 223), 5000-5299 114 -> 112
// (241 -> 243).
var towerPawnBonus = func() (b [nHyp]float64) {
	for k := range b {
		switch sq := hypSquare(k); {
		case sq.Occupant == observation.Light && sq.Level >= 1:
			b[k] = lightTowerBonus
		case sq.Occupant == observation.Blue && sq.Level == 3:
			b[k] = blueTowerBonus
		}
	}
	return b
}()

const (
	lightTowerBonus = 0.5
	blueTowerBonus  = 0.5
)

// pawnVeto is how far (in the confidence's temperature units) below render
// and compare's best reading a pawn may score and still be read. It was
// 3.5 when the cell networks alone read the pawns (chosen on the check
// seeds 20000-20299, costing 0.07 % of their cells); with the second looks
// 8 reads more cells right on every set, cold (17000-17999 95.74 ->
// 95.82 %, 18000-18999 95.99 -> 96.08 %, 20000-20299 96.19 -> 96.29 %,
// 21000-21199 95.76 -> 95.92 %, 5000-5299 96.35 -> 96.48 %), and none
// (100) no more than 8 on the first. It stays, loosened, for frames unlike
// the simulated ones the networks were taught on.
const pawnVeto = 8

// lookNetInUse gives the second look's networks, nil for the cell
// networks alone (TestTrainLookNet turns it off to learn a new one).
var lookNetInUse = func() lookNets { return builtinLookNets }

// cellNetInUse gives the network that decides the cells, nil for render
// and compare alone (TestTrainCellNet turns it off to learn a new one).
var cellNetInUse = func() cellNets { return builtinNet }

// minBoardPoints is how many lattice points (of about 1600) must show
// bare board for its colour to be measured from a reading.
const minBoardPoints = 40

// seenBoard reads the frame with the block tops' colour known (the model's,
// or the only cluster of cell colours, given) and the cells' colour
// unknown, and measures the cells' colour where that reading shows bare
// board. The likelihoods of whole readings do not tell the board's colour
// well (a board label as sharp as the block's explains block tops about as
// well, and shaded block tops pass for a grey board), but block tops are
// the whitest surface: cells seen around them must be a different colour
// and less white. It reports whether such a colour was seen.
func (r *Reader) seenBoard(h homography, all image.Rectangle, only, onlySD [3]float64) (mean, sd [3]float64, ok bool) {
	m, c := &r.model, &r.cc
	had := m.hasBlock
	if !had {
		if !offWhite(only) {
			return mean, sd, false
		}
		m.block, m.blockSD = only, onlySD
		m.blockSD[0] = math.Max(m.blockSD[0], 0.1)
	}
	m.hasBlock, m.noBoard = true, true
	m.board = m.block
	m.board[0] -= boardBelow
	m.ringHistogram(&r.px, h)
	m.compute(&r.px, all)
	c.hyp = [25]int{}
	c.search(1)
	c.draw(all, -1, 0)
	m.noBoard = false
	mean, sd, n := m.boardFromMap(&r.px, h, c.lab)
	ok = n >= minBoardPoints && whiteness(mean) < whiteness(m.block)-0.1 && !sameSurface(mean, m.block)
	m.hasBlock = ok || had
	if traceCells != nil {
		traceCells("unknown board: hyp %v; board seen %.3v sd %.3v at %d points: %v", c.hyp, mean, sd, n, ok)
	}
	return mean, sd, ok
}

// traceCells, when set, receives the cell reading's steps (development aid).
var traceCells func(format string, args ...any)

// tryFocals enables the search over three focal lengths near top-down
// views (camera above focalElevation degrees): about one cell in a hundred
// better on simulated frames. Below, a lens that the grid does not fix (a
// symmetric trapezoid) changes the pose too much to be tried blindly: on a
// drawn empty board it let a pawn explain the frame's edge.
const (
	tryFocals      = true
	focalElevation = 65
)

// pieceSets are the proportions tried; the one that explains the frame
// best is kept. Trying a small and a large set besides TABLE.md's middle
// values gained about one cell in a hundred on simulated frames for three
// times the work, so only the middle set is tried; keeping, after the
// reading, whichever of the middle, low-end and high-end sets gives the
// higher total log-likelihood lost 1.2 cells in a hundred.
var pieceSets = []pieceSet{defaultSet}

// search decides the cells by coordinate descent, nearest first, from the
// cells as they stand, for at most the given number of sweeps.
func (c *cellCtx) search(sweeps int) {
	for sweep := 0; sweep < sweeps; sweep++ {
		changed := false
		for q := 24; q >= 0; q-- {
			i := c.order[q]
			c.scoreCell(i)
			best, bestK := math.Inf(-1), 0
			for k := 0; k < nHyp; k++ {
				if s := c.scores[i][k]; s > best {
					best, bestK = s, k
				}
			}
			if bestK != c.hyp[i] {
				changed = true
				c.hyp[i] = bestK
			}
		}
		if !changed {
			break
		}
	}
}

// scoreCell scores every hypothesis of cell i with the other cells as
// they stand.
func (c *cellCtx) scoreCell(i int) {
	c.drawBase(i)
	// score draws each hypothesis over the base map and puts it back.
	reg, w := c.region[i], c.w
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		copy(c.lab[y*w+reg.Min.X:y*w+reg.Max.X], c.base[y*w+reg.Min.X:y*w+reg.Max.X])
	}
	// The three pawn colours share their outline: one drawing scores all
	// three (hypotheses 4L+1..3).
	for k := 0; k < nHyp; k++ {
		sq := hypSquare(k)
		if sq.Occupant > observation.Blue {
			continue
		}
		s := c.score(i, k, c.model)
		c.scores[i][k] = s[0]
		if sq.Occupant == observation.Blue {
			c.scores[i][k+1], c.scores[i][k+2] = s[1], s[2]
		}
	}
}

// labNear marks, in the base map, pixels a nearer cell covers: they look
// the same under every hypothesis of the cell being scored.
const labNear = 255

// drawBase fills the base map over cell i's region with the board and the
// farther cells as they stand, and the nearer cells as labNear.
func (c *cellCtx) drawBase(i int) {
	reg := c.region[i]
	w := c.w
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		row := c.base[y*w+reg.Min.X : y*w+reg.Max.X]
		for x := range row {
			row[x] = labBoard
		}
	}
	for _, j := range c.order {
		if j == i {
			continue
		}
		kj := c.hyp[j]
		if !c.box[j][kj].Overlaps(reg) {
			continue
		}
		near := c.rank[j] > c.rank[i]
		for s, r := range c.shapeRasters(j, kj) {
			l := c.shapes[j][kj][s].lab
			if near {
				l = labNear
			}
			c.fillRaster(r, reg.Min.X, reg.Min.Y, reg.Max.X, reg.Max.Y, c.base, l, nil)
		}
	}
}

// score scores cell i as hypothesis k against the base map (drawBase):
// the label log-likelihoods it changes, summed, so relative to an empty
// cell. For a pawn hypothesis it gives the blue, light and dark pawn's
// scores from one drawing; otherwise the first.
func (c *cellCtx) score(i, k int, m *colourModel) [3]float64 {
	box := c.box[i][k].Intersect(c.region[i])
	if box.Empty() || len(c.shapes[i][k]) == 0 {
		return [3]float64{}
	}
	if s, ok := c.scoreC(i, k, m, box); ok {
		return s
	}
	return c.scoreGo(i, k, m, box)
}

// scoreGo is score in Go, on the box it draws in: the reference
// score_hyp is tested against, and the fallback should its arguments not
// fit the kernel.
func (c *cellCtx) scoreGo(i, k int, m *colourModel, box image.Rectangle) [3]float64 {
	var s [3]float64
	// The label map equals the base map over the cell's region
	// (scoreCell): only the rows' spans drawn on can differ, so only they
	// are summed and put back (the sums skip equal pixels: the same sums).
	w := c.w
	if cap(c.spans) < box.Dy() {
		c.spans = make([]rowSpan, max(c.h, box.Dy()))
	}
	spans := c.spans[:box.Dy()]
	for r := range spans {
		spans[r] = rowSpan{math.MaxInt32, -1}
	}
	mine := false
	for s, r := range c.shapeRasters(i, k) {
		l := c.shapes[i][k][s].lab
		if l >= labBlue && l <= labDark {
			l = labMine
			mine = true
		}
		c.fillRaster(r, box.Min.X, box.Min.Y, box.Max.X, box.Max.Y, c.lab, l, spans)
	}
	s = scoreSpans(c.base, c.lab, m, w, box, spans, mine)
	if c.gray.p != nil {
		e := c.edgeScore(i, k, box)
		s[0] += e
		s[1] += e
		s[2] += e
	}
	for r, sp := range spans {
		if sp.lo <= sp.hi {
			o := (box.Min.Y + r) * w
			copy(c.lab[o+int(sp.lo):o+int(sp.hi)+1], c.base[o+int(sp.lo):o+int(sp.hi)+1])
		}
	}
	return s
}

// draw fills the label map over reg with every cell as it stands, except
// cell i drawn as hypothesis k.
func (c *cellCtx) draw(reg image.Rectangle, i, k int) {
	w := c.w
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		row := c.lab[y*w+reg.Min.X : y*w+reg.Max.X]
		for x := range row {
			row[x] = labBoard
		}
	}
	for _, j := range c.order {
		kj := c.hyp[j]
		if j == i {
			kj = k
		}
		if !c.box[j][kj].Overlaps(reg) {
			continue
		}
		for s, r := range c.shapeRasters(j, kj) {
			c.fillRaster(r, reg.Min.X, reg.Min.Y, reg.Max.X, reg.Max.Y, c.lab, c.shapes[j][kj][s].lab, nil)
		}
	}
}

// total sums the label log-likelihoods of the drawn map over rect.
func (c *cellCtx) total(rect image.Rectangle, m *colourModel) float64 {
	var s float64
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		o := y*c.w + rect.Min.X
		for x := rect.Min.X; x < rect.Max.X; x++ {
			s += float64(m.ll[o*llStride+int(c.lab[o])])
			o++
		}
	}
	return s
}

// confidence is the softmax probability of the chosen hypothesis, the
// score differences scaled per pixel of the cell's region. A cell hidden
// behind a tower scores alike under every hypothesis: low confidence.
func (c *cellCtx) confidence(i int) float64 {
	b := c.hyp[i]
	area := float64(c.region[i].Dx()*c.region[i].Dy()) + 1
	t := confTemp * area // temperature: score units per nat
	var z float64
	for k := 0; k < nHyp; k++ {
		z += math.Exp((c.scores[i][k] - c.scores[i][b]) / t)
	}
	return 1 / z
}

// setup poses the camera from the reduced-frame homography and prepares
// every cell's hypotheses; it returns the region they may cover.
func (c *cellCtx) setup(h homography, w, hh int) image.Rectangle {
	f, _ := focalLength(h, float64(w)/2, float64(hh)/2, defaultFocal(hh))
	return c.setupFocal(h, w, hh, f)
}

// defaultFocal is the focal length (pixels) of a 50-degree vertical field
// of view, the middle of usual webcams and phones.
func defaultFocal(hh int) float64 { return focalOfView(hh, 50) }

// setupFocal is setup with a given focal length.
func (c *cellCtx) setupFocal(h homography, w, hh int, f float64) image.Rectangle {
	c.cam = poseWithFocal(h, float64(w)/2, float64(hh)/2, f)
	c.w, c.h = w, hh
	if cap(c.lab) < w*hh {
		c.lab = make([]uint8, w*hh)
	}
	c.lab = c.lab[:w*hh]
	if cap(c.base) < w*hh {
		c.base = make([]uint8, w*hh)
	}
	c.base = c.base[:w*hh]
	c.prepare()
	all := image.Rectangle{}
	for i := range c.region {
		all = all.Union(c.region[i])
	}
	for i := range c.hyp {
		c.hyp[i] = 0
	}
	return all
}

// prepare draws every cell's hypotheses' outlines, their bounding boxes
// and the cells' drawing order (farthest first).
func (c *cellCtx) prepare() {
	bounds := image.Rect(0, 0, c.w, c.h)
	var depth [25]float64
	if c.slab == nil {
		c.slab = make([]pt, 0, 25*nHyp*8*polyBufLen)
		c.tmp = make([]pt, 0, 64)
	}
	c.slab = c.slab[:0]
	c.forgetRasters()
	c.eDone = [25]uint16{}
	c.eslab = c.eslab[:0]
	for i := 0; i < 25; i++ {
		row, col := i/5, i%5
		c.region[i] = image.Rectangle{}
		// The ground footprint always belongs to the cell's region.
		fpBox := polyBox(prism(&c.cam, row, col, 1, 0, 0, false, c.tmp[:0], polyBuf(&c.slab)))
		// Each outline is made once and every hypothesis takes its own of
		// them: the stack as a dome's (the tiers' sides and tops in
		// order, then the dome), and a pawn on each level.
		c.parts = c.set.cellShapes(&c.cam, row, col, 4, false, c.parts[:0], c.tmp[:0], &c.slab)
		var pawns [4]shape
		for l := range pawns {
			pawns[l] = c.set.pawnShape(&c.cam, row, col, l, c.tmp[:0], &c.slab)
		}
		for k := 0; k < nHyp; k++ {
			sq := hypSquare(k)
			c.shapes[i][k] = c.shapes[i][k][:0]
			if sq.Occupant > observation.Blue {
				// A light or dark pawn has the blue one's outlines (made
				// just before): only the pawn's label differs.
				kb := k - int(sq.Occupant-observation.Blue)
				for _, d := range c.shapes[i][kb] {
					if d.lab == labBlue {
						d.lab = uint8(labBlue + int(sq.Occupant) - 1)
					}
					c.shapes[i][k] = append(c.shapes[i][k], d)
				}
				c.box[i][k] = c.box[i][kb]
				continue
			}
			level := int(sq.Level)
			stack := c.parts[:min(2*level, len(c.parts))]
			for j, s := range stack {
				l := uint8(labBlock)
				switch s.part {
				case partTop:
					l = labTop
				case partDome:
					l = labDome
				}
				c.shapes[i][k] = append(c.shapes[i][k], drawn{s.outline, l, uint8(j)})
			}
			if level < 4 && sq.Occupant != observation.Empty {
				l := uint8(labBlue + int(sq.Occupant) - 1)
				c.shapes[i][k] = append(c.shapes[i][k], drawn{pawns[level].outline, l, uint8(edgePawn + level)})
			}
			bb := fpBox
			for _, d := range c.shapes[i][k] {
				bb = bb.Union(polyBox(d.outline))
			}
			c.box[i][k] = bb.Intersect(bounds)
			c.region[i] = c.region[i].Union(c.box[i][k])
		}
		// Depth of the cell centre along the view.
		r := &c.cam.r
		x, y, z := float64(col)+0.5, float64(row)+0.5, 0.5
		depth[i] = r[6]*x + r[7]*y + r[8]*z + c.cam.t[2]
	}
	for i := range c.order {
		c.order[i] = i
	}
	// Insertion sort by depth, farthest first.
	for a := 1; a < 25; a++ {
		for b := a; b > 0 && depth[c.order[b]] > depth[c.order[b-1]]; b-- {
			c.order[b], c.order[b-1] = c.order[b-1], c.order[b]
		}
	}
	for q, i := range c.order {
		c.rank[i] = q
	}
}

// reach bounds what cells' hypotheses cover with the camera cam: each
// cell's full-width column from the board up to the top of a pawn on a
// level-3 tower.
func (c *cellCtx) reach(cam *camera) image.Rectangle {
	var out image.Rectangle
	top := c.set.tier3Top + c.set.pawnHeight
	for i := 0; i < 25; i++ {
		out = out.Union(polyBox(prism(cam, i/5, i%5, 1, 0, top, false, c.tmp[:0], nil)))
	}
	return out.Intersect(image.Rect(0, 0, c.w, c.h))
}

func polyBox(p poly) image.Rectangle {
	if len(p) == 0 {
		return image.Rectangle{}
	}
	x0, y0, x1, y1 := p[0].X, p[0].Y, p[0].X, p[0].Y
	for _, q := range p {
		x0, y0 = min(x0, q.X), min(y0, q.Y)
		x1, y1 = max(x1, q.X), max(y1, q.Y)
	}
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1)
}

// The edge cue. A tier's top outline, and the step between two tiers, show
// as an edge in the image at a place that depends on the level; colour
// alone often cannot tell a tier's top from the one below (both off-white)
// near top-down. Each drawn part's outline is sampled; where the drawn
// labels differ on its two sides (the outline is seen), the image's
// contrast across it scores for the hypothesis, a flat image against it.

// Edge part ids: the tiers' sides and tops (0-5) and the dome (6) as
// cellShapes draws them, and a pawn on each level (edgePawn+level).
const (
	edgePawn = 7
	nEdgeIDs = edgePawn + 4
)

// edgeStep is the spacing (pixels) of an outline's samples; edgeReach
// how far across it the labels are looked at and the contrast sought (the
// pieces sit a little off centre and rotated: the edge need not be exactly
// where it is drawn).
const (
	edgeStep  = 3.0
	edgeReach = 2
)

// edgeWeight scores a sample whose contrast reaches edgeCap (grey levels
// across 2 pixels); a sample with none scores -edgeBias*edgeWeight (so an
// outline drawn where the image is flat counts against its hypothesis).
// Tuned on seeds 20000-20299 with the true corners (weights 12-32 and
// steps 2-4 pixels all within 0.4 % of each other); 0 turns the cue off.
var (
	edgeWeight = 24.0
	edgeCap    = 40.0
	edgeBias   = 0.6
)

type edgeSample struct {
	x, y   int32 // the sample
	ax, ay int32 // edgeReach pixels to one side
	bx, by int32 // and to the other
	s      float32
}

// maxOutlineEdge bounds an outline's edge (pixels) that edgeSamples
// samples: no board's piece is drawn that large in a frame.
const maxOutlineEdge = 1e6

// sampleRange gives the samples q in [qa, qb) of m along a-b (at
// t = (q+0.5)/m) that may lie within margin pixels of the w x h frame,
// and false when none can: the segment clipped to the frame grown by
// margin (Liang-Barsky), widened by a sample each way.
func sampleRange(a, b pt, m int, w, h, margin float64) (qa, qb int, in bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := b.X-a.X, b.Y-a.Y
	for _, c := range [4][2]float64{
		{-dx, a.X + margin}, {dx, w + margin - a.X},
		{-dy, a.Y + margin}, {dy, h + margin - a.Y},
	} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
	}
	if t0 > t1 {
		return 0, 0, false
	}
	qa = max(0, int(math.Floor(t0*float64(m)-0.5))-1)
	qb = min(m, int(math.Ceil(t1*float64(m)-0.5))+2)
	return qa, qb, qa < qb
}

// edgeSamples samples outline p: each sample's place, the pixels on its two
// sides, and its score from the grey image's contrast across the outline.
func (c *cellCtx) edgeSamples(p poly, out []edgeSample) []edgeSample {
	g := c.gray
	n := len(p)
	if n < 3 {
		return out
	}
	const np = 2*edgeReach + 3
	for e := 0; e < n; e++ {
		a, b := p[e], p[(e+1)%n]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l < 1 {
			continue
		}
		if l > maxOutlineEdge {
			continue
		}
		nx, ny := -dy/l, dx/l
		m := int(l / edgeStep)
		// Only the samples near the frame can have their profile inside
		// it: an outline drawn for corners far off the frame (given by
		// hand) would otherwise be walked for seconds.
		qa, qb, in := sampleRange(a, b, m, float64(g.w), float64(g.h), edgeReach+2)
		if !in {
			continue
		}
		for q := qa; q < qb; q++ {
			t := (float64(q) + 0.5) / float64(m)
			x, y := a.X+t*dx, a.Y+t*dy
			// Contrast: the largest grey difference across 2 pixels
			// within edgeReach of the outline (nearest pixels: the
			// outline's place is only known to a pixel or two anyway).
			var prof [np]int
			ok := true
			for j := range prof {
				d := float64(j - edgeReach - 1)
				ix, iy := int(x+nx*d), int(y+ny*d)
				if ix < 0 || iy < 0 || ix >= g.w || iy >= g.h {
					ok = false
					break
				}
				prof[j] = int(g.p[iy*g.w+ix])
			}
			if !ok {
				continue
			}
			con := 0
			for j := 1; j+1 < np; j++ {
				d := prof[j+1] - prof[j-1]
				if d < 0 {
					d = -d
				}
				con = max(con, d)
			}
			s := edgeWeight * (min(float64(con), edgeCap)/edgeCap - edgeBias)
			r := float64(edgeReach)
			out = append(out, edgeSample{
				int32(x), int32(y),
				int32(x + nx*r), int32(y + ny*r),
				int32(x - nx*r), int32(y - ny*r),
				float32(s),
			})
		}
	}
	return out
}

// edgeRange gives the range in eslab of the edge samples of cell i's
// outline d, making them on first use for the current pose.
func (c *cellCtx) edgeRange(i int, d drawn) [2]int32 {
	if c.eDone[i]&(1<<d.id) == 0 {
		a := len(c.eslab)
		c.eslab = c.edgeSamples(d.outline, c.eslab)
		c.eRange[i][d.id] = [2]int32{int32(a), int32(len(c.eslab))}
		c.eDone[i] |= 1 << d.id
	}
	return c.eRange[i][d.id]
}

// edgeScore sums, over cell i's hypothesis k's outlines, the samples seen:
// the labels on their two sides differ in the label map (score's, valid
// over box, the base map elsewhere in the cell's region) and neither side
// is behind a nearer cell.
func (c *cellCtx) edgeScore(i, k int, box image.Rectangle) float64 {
	reg := c.region[i]
	rx0, ry0, rx1, ry1 := int32(reg.Min.X), int32(reg.Min.Y), int32(reg.Max.X), int32(reg.Max.Y)
	bx0, by0, bx1, by1 := int32(box.Min.X), int32(box.Min.Y), int32(box.Max.X), int32(box.Max.Y)
	w := int32(c.w)
	base, lab := c.base, c.lab
	// label gives the drawn label at (x, y), labNear behind a nearer cell;
	// outside the cell's region nothing of it is drawn (board).
	label := func(x, y int32) uint8 {
		if x < rx0 || y < ry0 || x >= rx1 || y >= ry1 {
			return labBoard
		}
		o := y*w + x
		if l := base[o]; l == labNear || x < bx0 || y < by0 || x >= bx1 || y >= by1 {
			return l
		}
		return lab[o]
	}
	var s float64
	for _, d := range c.shapes[i][k] {
		rg := c.edgeRange(i, d)
		for _, e := range c.eslab[rg[0]:rg[1]] {
			la, lb := label(e.ax, e.ay), label(e.bx, e.by)
			if la != lb && la != labNear && lb != labNear {
				s += float64(e.s)
			}
		}
	}
	return s
}
