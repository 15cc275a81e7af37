package vision

import (
	"errors"
	"fmt"
	"image"
	"math"
	"time"

	"companion/observation"

	"gocv.io/x/gocv"
)

// ErrNoGrid means no 5x5 grid was found in the frame.
var ErrNoGrid = errors.New("no Santorini board grid found: is the whole board in view, lit, and not covered by a hand?")

// ErrGridRunsOn means the lines found run on past a 5x5 grid, as on tiles
// or squared paper (sidesRunOn). It is an ErrNoGrid.
var ErrGridRunsOn error = gridRunsOnError{}

type gridRunsOnError struct{}

func (gridRunsOnError) Error() string {
	return "no Santorini board found: the lines seen run on past a 5x5 grid, as on tiles or squared paper, while a board's grid ends at its frame. Is the board in view?"
}

func (gridRunsOnError) Unwrap() error { return ErrNoGrid }

// workWidth is the width of the reduced frame the localisation and the cell
// reading work on; the grid is then refined on the full-resolution frame.
const workWidth = 640

// Result is one frame's reading.
type Result struct {
	Board observation.Board
	// Corners are the outer corners of the 5x5 grid in image pixels, in the
	// order A1 (top left), A5 (top right), E5 (bottom right), E1 (bottom left).
	Corners [4][2]float64
	// Confidence is each cell's confidence in 0..1 (index row*5+col): the
	// chance that it is read right (confidence.go), grid included; a cell
	// the camera cannot see is at most 0.5. Take a cell without asking
	// only from SureConfidence.
	Confidence [25]float64
	// GridConfidence is how plainly the grid's dividers and frame show, in
	// 0..1 (1 when the corners were given): low on crowded boards, whose
	// grids are still mostly right.
	GridConfidence float64
	// Millis is the recognition time, decoding excluded.
	Millis float64
	// plainBoard and plainConf are the cells as read without
	// pawnCountPrior. The reader's choices between readings compare
	// plainConf, and the board test reads plainBoard, as they were tuned:
	// on spare pieces lying on a table the prior finds pawns too.
	plainBoard observation.Board
	plainConf  [25]float64
}

// Reader reads board frames. It owns scratch Mats reused across frames, so
// one Reader must not be used by two goroutines at once. Close it when done.
type Reader struct {
	bgr   gocv.Mat // the frame converted to 8-bit BGR when it was not
	small gocv.Mat // reduced BGR frame
	// shrinkSums is shrinkArea's scratch for the reduced frame.
	shrinkSums []uint16
	gray       gocv.Mat // reduced grey
	ridges     gocv.Mat // thin ridges and grooves of the reduced grey
	edges      gocv.Mat // step edges of the reduced grey (stepEdges)
	// colourEdges are the step edges of the reduced colour frame
	// (outlineEdges), colourLines their Hough lines (rho, theta), in vote
	// order; colourReady says they are the current frame's.
	colourEdges gocv.Mat
	colourLines []float32
	colourReady bool
	hough       houghLines   // the Hough transform's tables and scratch
	canny       cannyScratch // canny's scratch
	fullGray    gocv.Mat     // full-resolution grey, for refinement
	blurred     gocv.Mat     // reduced BGR frame blurred, for the grids' views

	// edgesReady says edges is the current frame's: prepare clears it, so
	// that nothing reads the last frame's edges.
	edgesReady bool

	// confIn are the last reading's cells' confidence features
	// (confFeatures), kept for learning the confidence model.
	confIn [25][nConfFeatures]float64

	// gridUnsure is set by locateGrid when the grid it found is weak and
	// shows no divider ridges (boardShown): its cells must read crowded.
	gridUnsure bool
	// evidence is what the grid read showed of a board: the search's
	// (settleGrid) or a weak hint's (evidenceAt), for boardChecks.
	evidence gridEvidence
	// boardIn are the last reading's board features when its grid was
	// weak (boardWeak), kept for learning the board test.
	boardIn   [nBoardFeatures]float64
	boardWeak bool
	// searched says the last read searched the frame for its grid
	// (locateGrid): neither the corner network's grid nor a hint stood
	// (the slow way, for the benchmarks).
	searched bool

	// fov is the camera's vertical field of view in degrees when known
	// (SetFieldOfView), else 0.
	fov float64

	// Go-side buffers reused across frames.
	px     pixels
	blurPx pixels    // blurred's pixels (gridVerifier)
	view   []float32 // gridView's scratch
	netIn  []float32 // the grid network's input and scratch
	// keptColour, keptGrid and keptFirst hold a reading of the cells while
	// another is tried: readCells's without a block colour, readOnCorners's
	// on the reported corners, pickByCells's on the grid first chosen.
	keptColour, keptGrid, keptFirst cellsKept
	// ranked are a crowded frame's grids as findGrid ranked them (empty
	// when the frame is not crowded), rankChosen the one it chose.
	ranked     []rankedGrid
	rankChosen int
	// rankMean is the grid findGrid gave for a crowded frame: the mean of
	// the grids ranked about its choice (consensusCorners).
	rankMean homography
	// sparseObs are refineSparse's divider points.
	sparseObs []sparseObs
	rawLines  []float32
	cc        cellCtx
	model     colourModel
	seg       segImage
	segReady  bool // seg holds this frame's regions (frameOutlines ran)
	hole      holeScratch
	// faceLabels labels the reduced frame's pixels by top face (blockGrids).
	faceLabels []int32
	faceMask   []bool    // topFaces's pixels not yet taken
	faceStack  []int32   // topFaces's flood fill
	facePix    []int32   // topFaces's region
	faces      []topFace // the current frame's top faces, when facesReady
	facesReady bool
	// stepGrads and stepNear index the colour step edges (stepView);
	// gradsReady says they are the current frame's.
	stepGrads  []stepGrad
	stepNear   []uint16
	gradsReady bool
	// corner is the corner network; cornerGuess its corners for the
	// current frame (full resolution) when cornerOK.
	corner      cornerNet
	cornerGuess [4][2]float64
	cornerOK    bool
	// traceGrid, when set (TraceGrid), receives the corners at each stage.
	traceGrid func(stage string, corners [4][2]float64)
	// traceTimes, when set (TraceTimes), receives each stage's time.
	traceTimes func(stage string, d time.Duration)
	// secondCorner is the second corner network (secondOpinion), run
	// only where the search runs; secondGuess its corners when secondOK.
	secondCorner cornerNet
	secondGuess  [4][2]float64
	secondOK     bool
	// patch is the third look's network; full the frame being read at
	// full resolution (the source's own memory when it is continuous
	// BGR), which it samples.
	patch patchNet
	full  pixels
	// solo, when it holds networks, replaces the cells' reading (solo.go).
	solo soloCells
	// soloLookNets are the solo look's networks (sololook.go).
	soloLookNets soloCells
	// tiers are the tier look's networks (tiernet.go), pawn and hidden
	// the pawn look's (pawnlook.go: for cells in sight and for cells
	// whose top nearer pieces cover), dome the dome look's (domelook.go).
	tiers  [2]tierNet
	pawn   cellLook
	hidden cellLook
	dome   cellLook
	// collectPatches makes the third look sample its inputs with the
	// network off (the trainer's export).
	collectPatches bool
	// refiner is the refinement network (refinenet.go).
	refiner refineNet
	// hand is the hand network (handnet.go); handLogit its logit for the
	// frame last read.
	hand      handNet
	handLogit float64
	// handPassed: the frame being read again (Read's fallback) has
	// already passed the hand check; it is not run twice.
	handPassed bool
}

// NewReader makes a Reader; Close it when done.
func NewReader() *Reader {
	r := &Reader{
		bgr:         gocv.NewMat(),
		small:       gocv.NewMat(),
		gray:        gocv.NewMat(),
		ridges:      gocv.NewMat(),
		edges:       gocv.NewMat(),
		colourEdges: gocv.NewMat(),
		fullGray:    gocv.NewMat(),
		blurred:     gocv.NewMat(),
	}
	r.secondCorner.onnx = secondCornerNetONNX
	r.tiers, r.pawn, r.hidden, r.dome = newTierNets(), newPawnLook(), newHiddenLook(), newDomeLook()
	r.cc.model = &r.model
	r.cc.set = defaultSet
	return r
}

// Close releases the Reader's Mats.
func (r *Reader) Close() error {
	r.corner.close()
	r.secondCorner.close()
	r.hand.close()
	r.patch.close()
	r.solo.close()
	r.soloLookNets.close()
	for k := range r.tiers {
		r.tiers[k].close()
	}
	r.pawn.close()
	r.hidden.close()
	r.dome.close()
	r.refiner.close()
	for _, m := range []*gocv.Mat{&r.bgr, &r.small, &r.gray, &r.ridges, &r.edges, &r.colourEdges, &r.fullGray, &r.blurred} {
		if err := m.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Read reads a BGR frame with no set-up: it finds the grid, then each cell.
func (r *Reader) Read(img gocv.Mat) (Result, error) {
	start := time.Now()
	res, err := r.read(img, nil)
	if useCornerFallback && r.cornerOK && (err != nil || r.guessDistance(res.Corners) > cornerDisagree) {
		// Refused, or far from the corner networks' grids: on crowded
		// boards the search's grids can all fail the board's checks, or
		// its choice be a cell or more off, where the network's grid,
		// refined as a hint is, is right. Read near it (the second
		// network's, the better alone, where it ran), as ReadNear does
		// (the search runs again there and the hint is weighed against
		// it); the board test judges the grid found there as a hint's.
		guess := r.cornerGuess
		if r.secondOK {
			guess = r.secondGuess
		}
		r.handPassed = true
		res2, err2 := r.readHinted(img, nil, &guess)
		r.handPassed = false
		if err2 == nil {
			// The time is the whole read's, both attempts.
			res2.Millis = float64(time.Since(start).Microseconds()) / 1000
			return res2, nil
		}
	}
	return res, err
}

// useCornerFallback lets Read read near the corner network's grid when the
// search's grid is refused or cornerDisagree pitches (worst corner) from
// it. On 17000-17999 (tuning) 4 grids read were more than 0.6 from it:
// read near it 18 -> 0, 16 -> 16, 16 -> 5, 0 -> 0 cells wrong; of those
// 0.5-0.6 from it one read 4 -> 15.
var useCornerFallback = true

const cornerDisagree = 0.6

// ReadWithCorners reads a BGR frame whose grid corners are known (A1, A5, E5,
// E1 outer corners in pixels), skipping the localisation.
func (r *Reader) ReadWithCorners(img gocv.Mat, corners [4][2]float64) (Result, error) {
	return r.read(img, &corners)
}

// TraceGrid has f receive the grid's corners (full resolution, A1 A5 E5
// E1) at each stage of the reads that follow, nil to stop: "guess" (the
// corner network's), "grid" (the grid found, on the dividers' plane),
// "onGrid" (the corners reported for it, lowered to the cells; again for
// each grid read), "refit" (boardChecks' refit), "refined" (the
// refinement network's, where its reading is kept) and "final"; where
// Read falls back to reading near the corner network's grid, a second
// pass follows, its "final" the one reported. A development aid: later
// stages undo good corners on some frames (the eightieth session's notes),
// and this shows which.
func (r *Reader) TraceGrid(f func(stage string, corners [4][2]float64)) { r.traceGrid = f }

// trace passes a stage's corners to the TraceGrid hook, if any.
func (r *Reader) trace(stage string, c [4][2]float64) {
	if r.traceGrid != nil {
		r.traceGrid(stage, c)
	}
}

// ReadImage reads a Go image (e.g. a sim frame); a convenience for tests.
func (r *Reader) ReadImage(img image.Image) (Result, error) {
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		return Result{}, fmt.Errorf("vision: converting image: %w", err)
	}
	defer m.Close()
	return r.Read(m)
}

func (r *Reader) read(img gocv.Mat, corners *[4][2]float64) (Result, error) {
	return r.readHinted(img, corners, nil)
}

// readHinted reads img with the given corners, or near the hinted ones, or
// (both nil) with the full search.
func (r *Reader) readHinted(img gocv.Mat, corners, near *[4][2]float64) (Result, error) {
	start := time.Now()
	var res Result
	r.boardWeak, r.searched = false, false
	r.cc.colours = boardColours{} // a reading again needs this frame's first
	if img.Empty() || img.Cols() < 64 || img.Rows() < 64 {
		return res, fmt.Errorf("vision: frame is empty or tiny (%dx%d)", img.Cols(), img.Rows())
	}
	src, scale, err := r.prepare(img)
	if err != nil {
		return res, err
	}
	if corners != nil {
		if err := checkGivenCorners(*corners, img.Cols(), img.Rows()); err != nil {
			return res, err
		}
	}
	lap := start
	r.lap(StagePrepare, &lap)
	if useHandNet && !r.handPassed {
		if r.handLogit, err = r.hand.logit(src); err != nil {
			return res, err
		}
		if r.handLogit > handThreshold {
			return res, ErrNotSettled
		}
		r.lap(StageHand, &lap)
	}
	var h homography
	gridConf := 1.0
	shortcut := false // the corner network's grid skipped the search
	if corners != nil {
		h, _ = homographyFromCorners(*corners)
	} else {
		var found bool
		if near != nil {
			h, gridConf, found = r.locateNear(*near, scale, src.Cols(), src.Rows())
			r.lap(StageNear, &lap)
		} else {
			if useCornerNet {
				if useHandNet {
					// The frame as the hand network shrank it: one shrink
					// saved (about 1 ms at 1920x1080).
					g, _, err := r.corner.guessShrunk(r.shrunkFrame(), src.Cols(), src.Rows())
					r.cornerGuess, r.cornerOK = g, err == nil
				} else {
					r.cornerGuess, r.cornerOK = r.corner.guessOK(src)
				}
			}
			r.lap(StageCorner, &lap)
			if h, gridConf, shortcut = r.cornerShortcut(scale, src.Cols(), src.Rows()); shortcut {
				found = true
				r.lap(StageShortcut, &lap)
			} else {
				r.lap(StageShortcut, &lap)
				r.secondOpinion(src.Cols(), src.Rows())
				h, _, gridConf, found = r.locateGrid(scale, src.Cols(), src.Rows())
				r.lap(StageSearch, &lap)
			}
		}
		if !found {
			return res, ErrNoGrid
		}
		if near == nil && r.cornerOK {
			r.trace("guess", r.cornerGuess)
		}
		r.trace("grid", cornersOf(h))
	}
	// onGrid reads the cells on grid h.
	onGrid := func(h homography) error {
		res.Corners = cornersOf(h)
		if corners == nil {
			res.Corners = r.lensRefit(h, src.Cols(), src.Rows(), nil)
		}
		if !plausibleGrid(res.Corners, src.Cols(), src.Rows()) && corners == nil {
			return ErrNoGrid
		}
		if corners == nil {
			res.Corners = lowered(h, res.Corners, src.Cols(), src.Rows(), r.dropAt(h, nil))
			r.trace("onGrid", res.Corners)
		}
		// Cells are read on the reduced frame. A grid read after another
		// of this frame's (settleGrid's after pickByCells) takes the
		// colours that reading chose where its cells show the same block
		// tops (readCellsAgain), as pickByCells's grids do: the choice of
		// colours is about 7 ms of a 24 ms reading on one core. On the five
		// check sets, cold, 563 -> 565 cells wrong, 1706 boards perfect
		// either way; about one frame in five reads one grid fewer afresh
		// (20000-20299: 62 of 554 readings), about 1.4 ms a frame on
		// average, under this machine's noise end to end.
		r.readCellsAgain(scaleHomography(h, scale), &res)
		return nil
	}
	if err := onGrid(h); err != nil {
		return res, err
	}
	r.lap(StageFirst, &lap)
	// first is the grid first read, should findGrid's own choice, which
	// pickByCells may pick over it, be refused after.
	var first struct {
		h      homography
		conf   float64
		unsure bool
		ev     gridEvidence
	}
	pickedChoice := false
	if corners == nil && near == nil && !shortcut {
		// The grids pickByCells tries overwrite the cells' reading: it
		// sets this one aside, and it is put back rather than read again
		// (about 25 ms). Reading it again gave the same cells and
		// confidences on 17000-17499 to the last printed digit.
		if g, tried, ok, choice := r.pickByCells(&res, scale); ok {
			first.h, first.conf, first.unsure, first.ev = h, gridConf, r.gridUnsure, r.evidence
			if h2, _, conf2, found := r.settleGrid(g, scale, src.Cols(), src.Rows()); found && onGrid(h2) == nil {
				h, gridConf = h2, conf2
				pickedChoice = choice
			} else {
				r.gridUnsure, r.evidence = first.unsure, first.ev
				r.keptFirst.restoreAll(&r.cc, &res)
			}
		} else if tried {
			r.keptFirst.restoreAll(&r.cc, &res)
		}
		r.lap(StagePick, &lap)
	}
	if corners == nil {
		// The board test judges weak grids, the search's or a hint's.
		if err := r.boardChecks(h, scale, src.Cols(), src.Rows(), &res, gridConf <= minGridConfidence); err != nil {
			if !pickedChoice {
				return res, err
			}
			// Comparing findGrid's choice with the mean of the grids about
			// it must not turn a board read into one refused: the mean's
			// reading is checked instead (21129, 21000-21199). Other grids
			// picked and refused stay refused: falling back from them read
			// one more of 400 frames of spare pieces on a table as a board.
			h, gridConf, r.gridUnsure, r.evidence = first.h, first.conf, first.unsure, first.ev
			r.keptFirst.restoreAll(&r.cc, &res)
			if err := r.boardChecks(h, scale, src.Cols(), src.Rows(), &res, gridConf <= minGridConfidence); err != nil {
				return res, err
			}
		}
		r.lap(StageChecks, &lap)
	}
	if corners == nil && near == nil {
		r.refineRead(gridConf, scale, &res)
		r.lap(StageRefine, &lap)
	}
	// The third look corrects the reading chosen, once: the choices
	// before it (the camera's distance, the grid, the board test) were
	// made on the second look's readings, which they were tuned on (with
	// it in every reading, a bare table's spare pieces, seed 191, passed
	// the board test).
	toFull := float64(r.full.w) / float64(r.px.w)
	if r.looks(toFull) {
		r.cc.decideAll(&res)
	}
	r.lap(StageLooks, &lap)
	res.GridConfidence = gridConf
	r.trace("final", res.Corners)
	r.confIn = r.confFeatures(res.Board, res.Confidence, gridConf, corners == nil && r.gridUnsure)
	if confModelInUse() {
		res.Confidence = calibrated(r.confIn, confWeights)
	} else {
		for i := range res.Confidence {
			res.Confidence[i] *= gridConf
		}
	}
	r.soloLook(toFull, &res)
	r.lap(StageFinish, &lap)
	res.Millis = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}

// looks runs the third, tier, pawn and dome looks on the cell context's
// odds. Each works on the odds the one before it left, so all run, in this
// order, before the cells are decided again; it says whether any changed
// them.
func (r *Reader) looks(toFull float64) bool {
	third := r.thirdLook(toFull)
	tier := r.tierLook(toFull)
	pawn := r.pawnLook(toFull)
	dome := r.domeLook(toFull)
	return third || tier || pawn || dome
}

// boardChecks are the last checks of a board found on grid h (full
// resolution, scale to the reduced frame) of a w x hh frame, with its
// cells read in res: on the way they refit the reported corners and may
// read the cells again on them. weak says the grid (the search's or a
// hint's) is weak, for the board test. The error says why no board is
// read.
func (r *Reader) boardChecks(h homography, scale float64, w, hh int, res *Result, weak bool) error {
	// On the grid finally chosen: a first choice off the board has the
	// board's own dividers running on past it.
	if r.runsOn(h, scale) {
		return ErrGridRunsOn
	}
	if c, ok := r.sparseCorners(h, res.Board, scale, w, hh); ok {
		res.Corners = c
		r.trace("refit", c)
		r.readOnCorners(c, scale, res)
		// The refit can settle on other lines of a pattern that runs on
		// (squared paper filling the frame: the search's grid stood
		// between its lines, the refit on them).
		if hc, ok := homographyFromCorners(c); ok && r.runsOn(hc, scale) {
			return ErrGridRunsOn
		}
	}
	if weak {
		// A weak grid's whole reading must look like a board's, not like
		// spare pieces lying on a table (boardLogit).
		r.boardWeak = true
		r.boardIn = r.boardFeatures(res, scale, w, hh)
		if boardLogit(r.boardIn, boardTestWeights) < boardTestFloor {
			return ErrNoGrid
		}
	}
	if viewElevation(res.Corners, w, hh) < minViewElevation {
		// A square seen from this low is no board on the table the
		// camera looks down at: the table's own lines or spare pieces.
		return ErrNoGrid
	}
	if r.gridUnsure && res.Board.Built() < minBuiltUnsure {
		// No dividers seen, and the cells not crowded enough to hide
		// them: pieces lying on a table, not a board.
		return ErrNoGrid
	}
	return nil
}

// lensRefit gives grid h's corners (full resolution, a w x hh frame)
// refitted for the lens (on the divider places that places keeps) when
// that fit holds and moves them little, else h's own.
func (r *Reader) lensRefit(h homography, w, hh int, places placeFilter) [4][2]float64 {
	c := cornersOf(h)
	if !useLens {
		return c
	}
	if lc, ok := r.lensCorners(h, places); ok && plausibleGrid(lc, w, hh) && pitchErr(lc, c) < maxLensMove {
		return lc
	}
	return c
}

// sparseCorners are the corners reported for grid h (full resolution,
// scale to the reduced frame) of a w x hh frame corrected by refineSparse,
// or failing that refineOutline, then refitted for the lens and lowered
// to the cells (dividerDrop, judged on the search's grid). Each takes
// only the divider places between two cells read bare where the reading
// shows bare board (shownPlaces).
func (r *Reader) sparseCorners(h homography, board observation.Board, scale float64, w, hh int) ([4][2]float64, bool) {
	places := r.shownPlaces(h, scale).and(bareFilter(&board))
	drop := r.dropAt(h, places)
	hr, ok := r.refineSparse(h, places)
	if !ok {
		hr, ok = r.refineOutline(h, scale, places, drop)
	}
	if !ok {
		return [4][2]float64{}, false
	}
	c := r.lensRefit(hr, w, hh, places)
	if !plausibleGrid(c, w, hh) {
		return c, false
	}
	return lowered(hr, c, w, hh, drop), true
}

// readOnCorners reads the cells again on the reported corners c (as if
// given, --corners), which the refits put nearer the board than the
// search's grid they were first read on, when the first reading res is
// unsure (its mean confidence under rereadGate), and keeps the new
// reading if its cells read at least as surely; else res and the cell
// state stay as they were.
//
// On the grids the search finds right, the cells read worse than on the
// true corners (17000-17999 near a hint: 96.90 % against 98.17 %). Read
// again on the reported corners and kept so, cells right cold:
// 17000-17999 96.30 -> 96.50 %, 18000-18999 96.12 -> 96.36 %; near a hint
// 96.90 -> 97.66 % on the first. Always kept: 96.23 % cold (grids 0.1 to
// 0.25 pitch off read worse on their refit), near a hint 97.43 %; kept
// only when 0.01 surer, 96.45 %; 0.01 less sure allowed, 96.50 %; each
// cell's surer reading of the two, 96.48 %; only on refineSparse's
// grids, 96.36 %.
func (r *Reader) readOnCorners(c [4][2]float64, scale float64, res *Result) {
	if meanConf(res.plainConf[:]) >= rereadGate {
		return
	}
	r.readSurerOn(c, scale, res)
}

// readSurerOn reads the cells again on corners c (full resolution, scale
// to the reduced frame) and keeps that reading if its cells read at least
// as surely as res's; else res and the cell state stay as they were. It
// reports whether the new reading was kept.
func (r *Reader) readSurerOn(c [4][2]float64, scale float64, res *Result) bool {
	hc, ok := homographyFromCorners(c)
	if !ok {
		return false
	}
	r.keptGrid.keep(&r.cc, res)
	r.readCellsAgain(scaleHomography(hc, scale), res)
	if meanConf(res.plainConf[:]) < meanConf(r.keptGrid.res.plainConf[:]) {
		r.keptGrid.restore(&r.cc, res)
		return false
	}
	return true
}

// rereadGate is the first reading's mean confidence from which the cells
// are not read again: each reading costs about 25 ms on one core. Gates
// of 0.97 / 0.98 / 0.985 / none on 17000-17999, when it was chosen:
// cells right cold 96.44 / 96.47 / 96.50 / 96.50 %, read again on 31 /
// 44 / 52 / 100 % of the boards. With the reader of the sixty-fourth
// session, 0.985 -> 0.97 on the five check sets, cold:
// 662 -> 662 cells wrong (1687 -> 1688 boards perfect; 0.95: 666, 1686),
// the cells read again on 148 -> 93 of 5000-5299's 302 readings; near a
// hint knocked 0.1 pitch (20000-20299, 21000-21199, 5000-5299) 283 -> 285
// wrong, the mean time a frame 136 -> 129 ms.
const rereadGate = 0.97

// prepare converts the frame to BGR if needed, makes the reduced frame, the
// grey images and the Go-side pixels; it gives the source and the scale from
// it to the reduced frame.
func (r *Reader) prepare(img gocv.Mat) (gocv.Mat, float64, error) {
	src := img
	switch img.Type() {
	case gocv.MatTypeCV8UC3:
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(img, &r.bgr, gocv.ColorGrayToBGR)
		src = r.bgr
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(img, &r.bgr, gocv.ColorBGRAToBGR)
		src = r.bgr
	default:
		return src, 0, fmt.Errorf("vision: unsupported frame type %v (want 8-bit BGR)", img.Type())
	}
	if img.Cols() > MaxSide || img.Rows() > MaxSide {
		return src, 0, fmt.Errorf("vision: %w: %dx%d", ErrTooLarge, img.Cols(), img.Rows())
	}
	scale := float64(workWidth) / float64(src.Cols())
	if scale > 1 {
		scale = 1
	}
	sw := int(float64(src.Cols())*scale + 0.5)
	sh := int(float64(src.Rows())*scale + 0.5)
	if scale < 1 {
		// As OpenCV's area resize, bit for bit; at whole scales from 3
		// (1920x1080) about a fifth of its time.
		shrinkArea(src, &r.small, image.Pt(sw, sh), &r.shrinkSums)
	} else {
		src.CopyTo(&r.small)
	}
	gocv.CvtColor(r.small, &r.gray, gocv.ColorBGRToGray)
	r.edgesReady = false
	r.cornerOK = false
	r.secondOK = false
	r.colourReady = false
	r.model.forgetRing()
	r.segReady = false
	r.gradsReady = false
	r.facesReady = false
	gocv.CvtColor(src, &r.fullGray, gocv.ColorBGRToGray)
	if data, err := src.DataPtrUint8(); err == nil && src.IsContinuous() {
		r.full = pixels{w: src.Cols(), h: src.Rows(), bgr: data}
	} else if err := r.full.load(src); err != nil {
		return src, 0, err
	}
	if err := r.px.load(r.small); err != nil {
		return src, 0, err
	}
	if r.px.flat() {
		return src, 0, ErrBlank
	}
	// The reduced frame's true scale (rounding).
	return src, float64(sw) / float64(src.Cols()), nil
}

// outlineEdges gives the step edges of the reduced colour frame (Canny
// takes the channel that changes most), and their Hough lines in vote
// order, made once per frame. The board's outline needs colour: a blue
// frame on a brown table can be one grey, and the grey edges then miss
// the board's sides. Colour edges everywhere (the line grids, the top
// faces) read fewer cells than colour edges for the outline alone.
func (r *Reader) outlineEdges() (gocv.Mat, []float32) {
	if !r.colourReady {
		r.canny.canny(r.small, &r.colourEdges, 40, 120)
		r.colourLines = r.colourLines[:0]
		if raw, err := r.hough.lines(r.colourEdges, int(stepHoughVotes*float64(r.small.Rows()))); err == nil {
			r.colourLines = append(r.colourLines, raw...)
		}
		r.colourReady = true
	}
	return r.colourEdges, r.colourLines
}

// stepEdges gives the Canny step edges of the reduced grey, made once per
// frame.
func (r *Reader) stepEdges() gocv.Mat {
	if !r.edgesReady {
		r.canny.canny(r.gray, &r.edges, 40, 120)
		r.edgesReady = true
	}
	return r.edges
}

// useLens refits the reported corners allowing for lens distortion.
const useLens = true

// minDividers is the least score (dividers found plus the frame's
// evidence) for a grid to be accepted. It is low: on crowded boards the
// right grid often scores 0.15-0.4, and a weak grid is reported with a low
// confidence (so the player is asked) rather than refused.
const minDividers = 0.15

// cornersOf gives the grid's outer corners A1, A5, E5, E1.
func cornersOf(h homography) [4][2]float64 {
	var c [4][2]float64
	for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		q := h.apply(p)
		c[i] = [2]float64{q.X, q.Y}
	}
	return c
}

// scaleHomography composes h with an image scaling by s.
func scaleHomography(h homography, s float64) homography {
	return mul3(homography{s, 0, 0, 0, s, 0, 0, 0, 1}, h)
}

// homographyFromCorners gives the board homography from the four outer
// grid corners A1, A5, E5, E1.
func homographyFromCorners(c [4][2]float64) (homography, bool) {
	src := []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}}
	dst := make([]pt, 4)
	for i := range c {
		dst[i] = pt{c[i][0], c[i][1]}
	}
	if !convex(dst) {
		return homography{}, false
	}
	return fitHomography(src, dst)
}

// convex reports whether the quadrilateral is strictly convex, either winding.
func convex(q []pt) bool {
	sign := 0.0
	for i := 0; i < 4; i++ {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		z := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		if z == 0 || z*sign < 0 {
			return false
		}
		sign = z
	}
	return true
}

// minViewElevation (degrees) is the lowest a camera may seem to look
// down on the grid read (viewElevation). TABLE.md's cameras are 45 to 90
// degrees up, but the ray from the board's centre runs lower than the
// camera's axis: the true corners of seeds 17000-17999 gave 34.4 degrees
// at the least, the corners read there 34.2. Of 200 frames of spare
// pieces on a table with no board, 15 were read as boards, 7 of them
// seen from 6.9 to 24.6 degrees.
const minViewElevation = 28

// viewElevation is the elevation (degrees) of the camera that sees the
// board's square as corners c in a w x h frame, through a lens of the
// cell reading's default focal length (defaultFocal).
func viewElevation(c [4][2]float64, w, h int) float64 {
	hm, ok := homographyFromCorners(c)
	if !ok {
		return 0
	}
	cam := poseFromHomography(hm, float64(w)/2, float64(h)/2, defaultFocal(h))
	return cam.elevation()
}

// checkGivenCorners says what is wrong with corners given by hand
// (--corners, a calibration's) for a w x h frame, if anything: read as
// they stand, corners in another photo's pixels, mirrored or far too small
// gave a confident reading of nothing (corners far off the frame read every
// cell a dome, none marked unsure). The limits are plausibleGrid's.
func checkGivenCorners(c [4][2]float64, w, h int) error {
	const order = "A1 (top left), A5 (top right), E5 (bottom right), E1 (bottom left)"
	for _, p := range c {
		if math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.IsInf(p[0], 0) || math.IsInf(p[1], 0) {
			return fmt.Errorf("vision: the given corners %v are not all numbers: give them as %s in pixels", c, order)
		}
	}
	if _, ok := homographyFromCorners(c); !ok {
		return fmt.Errorf("vision: the given corners do not form a convex quadrilateral: give them as %s", order)
	}
	q := []pt{{c[0][0], c[0][1]}, {c[1][0], c[1][1]}, {c[2][0], c[2][1]}, {c[3][0], c[3][1]}}
	if !clockwise(q) {
		return fmt.Errorf("vision: the given corners run anticlockwise, which would read the board mirrored: give them as %s", order)
	}
	m := gridMargin * float64(h)
	for k, p := range q {
		if p.X < -m || p.Y < -m || p.X > float64(w)+m || p.Y > float64(h)+m {
			return fmt.Errorf("vision: the given corner %s (%.0f, %.0f) is outside the %dx%d photo: give the corners in this photo's pixels", [4]string{"A1", "A5", "E5", "E1"}[k], p.X, p.Y, w, h)
		}
	}
	if !plausibleGrid(c, w, h) {
		return fmt.Errorf("vision: the given corners enclose too little of the %dx%d photo to read 25 cells (at least %.0f%% of it): give the grid's outer corners, %s", w, h, 100*minGridArea, order)
	}
	return nil
}

// minGridArea is the least share of the frame a grid covers; gridMargin
// how far past the frame's edges (a share of its height) its corners may
// lie.
const (
	minGridArea = 0.03
	gridMargin  = 0.1
)

// clockwise reports whether corners q (A1, A5, E5, ...) turn clockwise in
// image coordinates (y down) from A1 to A5 to E5, as a board seen from
// above and not mirrored does.
func clockwise(q []pt) bool {
	return (q[1].X-q[0].X)*(q[2].Y-q[1].Y)-(q[1].Y-q[0].Y)*(q[2].X-q[1].X) > 0
}

// plausibleGrid rejects grids that are tiny, inside out, or mostly outside
// the frame.
func plausibleGrid(c [4][2]float64, w, h int) bool {
	q := []pt{{c[0][0], c[0][1]}, {c[1][0], c[1][1]}, {c[2][0], c[2][1]}, {c[3][0], c[3][1]}}
	if !convex(q) {
		return false
	}
	if !clockwise(q) {
		return false
	}
	var area float64
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		area += a.X*b.Y - b.X*a.Y
	}
	area /= 2
	if area < minGridArea*float64(w*h) {
		return false
	}
	m := gridMargin * float64(h)
	for _, p := range q {
		if p.X < -m || p.Y < -m || p.X > float64(w)+m || p.Y > float64(h)+m {
			return false
		}
	}
	return true
}
