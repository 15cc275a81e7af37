package vision

import (
	_ "embed"
	"math"

	"gocv.io/x/gocv"
)

// The corner network: a small convolutional network (trained with
// PyTorch, run by OpenCV's dnn module from its ONNX file) that looks at
// the whole frame, shrunk to cornerNetW x cornerNetH, and gives a heat
// map for each of the grid's outer corners (A1, A5, E5, E1) at a quarter
// of that size. On crowded boards the towers hide the dividers the
// search's proposals are built from; the network sees the board's shape
// as a whole and proposes a grid from it.

//go:embed cornernet.onnx
var cornerNetONNX []byte

// The second corner network: the same architecture trained on 10 000
// other frames (sim seeds 40000-49999 rendered 640 wide; the first was
// trained on 3740). It is the better alone (worst corner on 18000-18999,
// median 0.108 -> 0.084 pitch, within 0.3 pitch 97.8 -> 99.0 %), but put
// in the first's place it read 28 fewer cells wrong and 16 fewer boards
// perfect on the five check sets, the shortcut's gates being chosen on
// the first. So it is a second opinion where the search runs: a
// candidate grid, the crowded ranking's bonus near either guess, and
// Read's fallback (secondCornerNet).
//
//go:embed cornernet2.onnx
var secondCornerNetONNX []byte

// useSecondCornerNet lets the second corner network speak where the
// search runs. On the five check sets (18000-18999, 20000-20299,
// 21000-21199, 22000-22299, 5000-5299), cold, one core each: cells wrong
// 665 -> 601 (by set 325 / 102 / 68 / 79 / 91 -> 301 / 95 / 67 / 69 /
// 69), boards perfect 1686 -> 1683; as a candidate alone 623 (1679),
// with the bonus too 610 (1683), the fallback near it 601. Its shortcut
// tried where the first's fails: 616 (1679) and slower, not kept.
// `BenchmarkReadMany`, one core, the builds side by side twice: 173 / 180
// -> 173 / 185 ms, 2315 -> 2329 allocations a frame.
var useSecondCornerNet = true

// useCornerNet lets the corner network propose a grid to the search.
var useCornerNet = true

// cornerNetWeight is the crowded ranking's bonus for a grid on the corner
// network's (falling to nothing cornerNetRadius pitches off it, by the
// worst corner). Cold, 17000-17999 (the tuning set): without the bonus
// (the network's grid only a candidate) 97.18 % of cells right; weights
// 1 / 3 / 6 / 12 / 25 read 97.27 / 97.36 / 97.46 / 97.44 / 97.27 %, and 3
// with a radius of 1 97.35 %.
const (
	cornerNetWeight = 6.0
	cornerNetRadius = 0.5
)

// cornerAgreement is the crowded ranking's bonus for grid h (full
// resolution) near the corner networks' grids.
func (r *Reader) cornerAgreement(h homography) float64 {
	if !r.cornerOK {
		return 0
	}
	return cornerNetWeight * math.Max(0, 1-r.guessDistance(cornersOf(h))/cornerNetRadius)
}

// guessDistance is the worst corner's distance (pitches) of corners c from
// the nearer of the corner networks' guesses (the first's when cornerOK,
// the second's when secondOK).
func (r *Reader) guessDistance(c [4][2]float64) float64 {
	e := pitchErr(c, r.cornerGuess)
	if r.secondOK {
		e = math.Min(e, pitchErr(c, r.secondGuess))
	}
	return e
}

// shrunkFrame is the current frame shrunk for the networks that see it
// whole: the hand network shrank it when it ran, else the first corner
// network.
func (r *Reader) shrunkFrame() gocv.Mat {
	if useHandNet {
		return r.hand.in
	}
	return r.corner.in
}

// secondOpinion runs the second corner network on the frame the first
// just read (its shrunk copy), where the search is about to run: the
// shortcut's frames (about 60 %) never need it, and it costs about 4 ms
// on one core (BenchmarkCornerNet -corneronnx cornernet2.onnx; on
// OpenCV's dnn, before useOwnCornerNets, about 11).
func (r *Reader) secondOpinion(cols, rows int) {
	r.secondOK = false
	if useCornerNet && useSecondCornerNet && r.cornerOK {
		g, _, err := r.secondCorner.guessShrunk(r.shrunkFrame(), cols, rows)
		r.secondGuess, r.secondOK = g, err == nil
	}
}

// useCornerShortcut lets a corner network's grid that refines sure (as a
// hint of a camera left in place does, nearGrid) skip the search.
var useCornerShortcut = true

// cornerShortcutBase is the least dividers-and-frame score (scoredGrid's
// base) of the network's refined grid for it to skip the search: on a
// crowded board the few dividers found leave it where the network put it.
// On 17000-17999 (the tuning set) 614 of 1000 grids refined sure; 322 of
// them were more than 0.05 pitch off (the search's grid 206), but of the
// 243 scoring 0.6 or more, 31 (the search's 29), and only 10 were 0.05
// pitch or more from the search's grid (0.5: 287, 49 and 37, 25 apart).
const cornerShortcutBase = 0.6

// shortcutSpread: where the coarse refinement network (refinenet.go),
// shortcutRounds rounds from the corner network's grid, expects every
// corner within this (pitches), its grid is the start, and refined sure
// it skips the search on fewer dividers than cornerShortcutBase asks.
// On 17000-17999 (tuning; TestShortcutSpread, 17000-17299: 64 / 88 / 113
// frames more at 0.015 / 0.02 / 0.03, their grids a median 0.028-0.034
// pitch off) cells wrong cold 370 -> 368 / 368 / 374 (every guess
// refined then, sure or not; as kept, 368); 0.02 kept. With it
// (and refineSpread 0.04), 18000-18999 430 -> 437, 20000-20299 143 ->
// 136, 22000-22299 126 -> 127, 21000-21199 82 -> 76, 5000-5299 118 ->
// 114, and the one-core median time a frame of 20000-20299 171 -> 116 ms
// (BenchmarkRead 140-150 -> 89-94 ms).
var shortcutSpread = 0.02

const shortcutRounds = 2

// sureShortcutSpread is shortcutSpread for a start the dividers then make
// sure (nearGrid): there the search, about 150 ms a frame on one core,
// finds about the same grid. On the five check sets (18000-18999,
// 20000-20299, 21000-21199, 22000-22299, 5000-5299), cold, 231 frames
// more skip it: cells wrong 662 -> 665 (boards perfect 1688 -> 1686),
// the harness's mean time a frame 185 -> 165 ms. At 0.04, 68 frames more
// read 4 cells worse. Tuned again with the ninety-ninth session's reader
// (same sets, cold; cells wrong / boards perfect / frames searched):
// 0.03 382 / 1825 / 598, 0.04 383 / 1825 / 531, 0.05 384 / 1827 / 498,
// 0.07 385 / 1826 / 476, 0.1 391 / 1826 / 472. At 0.05 a searched frame
// in 21 is spared (one core, the harness on 150000-150499: 113-120 ->
// 102-105 ms a frame; BenchmarkReadMany moves within its noise); the
// grid lands more than 0.02 pitch further off on 21 frames and nearer
// on 23; cells 7 better, 9 worse, 7 of those on 20083 (a quarter pitch
// off).
var sureShortcutSpread = 0.05

// cornerShortcut gives the corner network's grid refined on the dividers
// (full resolution) when it is sure enough to skip the search: it stays
// put when refined and beats every neighbour a cell or a fraction of one
// over (nearGrid's test of a hint) where the refinement network is fairly
// sure of it (sureShortcutSpread), or the refinement network is sure of it
// (weakShortcut). It gives the grid and its confidence.
func (r *Reader) cornerShortcut(scale float64, w, h int) (homography, float64, bool) {
	if !useCornerShortcut || !r.cornerOK {
		return homography{}, 0, false
	}
	r.gridUnsure = false
	r.evidence = gridEvidence{}
	// Where the network's own grid refines sure on plain dividers, the
	// refinement network's two rounds (about 13 ms on one core) would only
	// move the start a little: on 18000-18799, cold, one cell of 260
	// changed (cells wrong 260 -> 261).
	hg, ok := r.nearGrid(r.cornerGuess, scale, w, h)
	if ok && hg.sure && hg.base >= cornerShortcutBase {
		return hg.h, hg.sureConfidence(), true
	}
	// Failing that, the refinement network's grid is the start, and it
	// stands, only where the network is sure of it: a start moved a little
	// where it is not turned the dividers' verdict on 20083 (a quarter
	// pitch off, then taken).
	hc, ok := homographyFromCorners(r.cornerGuess)
	if !ok || shortcutSpread <= 0 {
		return homography{}, 0, false
	}
	start, spread, ok := r.refiner.refined(&r.full, hc, shortcutRounds)
	if !ok || spread > max(shortcutSpread, sureShortcutSpread) {
		return homography{}, 0, false
	}
	if hg, ok = r.nearGrid(start, scale, w, h); !ok {
		return homography{}, 0, false
	}
	if hg.sure && spread <= sureShortcutSpread {
		return hg.h, hg.sureConfidence(), true
	}
	if spread > shortcutSpread {
		return homography{}, 0, false
	}
	return r.weakShortcut(hg, scale, h), gridConfidence(hg.base), true
}

// weakShortcut takes grid hg, the refinement network's refined on the
// dividers, where the dividers do not make it sure (a crowded board's,
// most of them hidden): as a weak hint is taken (locateNearPath), with
// the evidence the board test judges where its confidence is the floor.
// The search it skips (about 150 ms a frame on one core) found no better
// grid there: of 18000-18799, 20000-20299, 21000-21199 and 22000-22299,
// cold, 107 frames more took the shortcut, their cells wrong 38 -> 30.
// Taken where the network's spread is up to 0.025 / 0.03 / 0.04 pitch,
// not only shortcutSpread's 0.02, those sets and 5000-5299 read 600 ->
// 599 / 605 cells wrong (0.04 on the four: 509 -> 534).
func (r *Reader) weakShortcut(hg hintedGrid, scale float64, h int) homography {
	if gridConfidence(hg.base) <= minGridConfidence {
		r.evidence = r.evidenceAt(hg.h, r.gridScore(hg.h, linePoints/2), scale, h)
		r.gridUnsure = r.evidence.ridge < minRidgeShown
	}
	return hg.h
}

// guessOK is guess's corners and whether they may be used.
func (c *cornerNet) guessOK(src gocv.Mat) ([4][2]float64, bool) {
	g, _, err := c.guess(src)
	return g, err == nil
}

const (
	cornerNetW, cornerNetH = 256, 144
	cornerNetStride        = 4
	cornerNetMapW          = cornerNetW / cornerNetStride
	cornerNetMapH          = cornerNetH / cornerNetStride
	cornerNetWindow        = 2 // the peak's mean is taken over +-2 map cells
)

// cornerNet is a corner network; onnx is its file (nil: cornerNetONNX).
// Its input Mat is the frame shrunk, as the hand network's.
type cornerNet struct {
	onnxNet
	onnx []byte
}

func (c *cornerNet) load() error {
	return c.onnxNet.load(fileOr(c.onnx, cornerNetONNX), "the corner network", nil)
}

// guess gives the grid's outer corners (full-resolution pixels) of BGR
// frame src as the network sees them, and each corner's share of its heat
// map's mass about the peak (how sure it is).
func (c *cornerNet) guess(src gocv.Mat) ([4][2]float64, [4]float64, error) {
	if err := c.load(); err != nil {
		return [4][2]float64{}, [4]float64{}, err
	}
	return c.guessShrunk(c.shrink(src), src.Cols(), src.Rows())
}

// guessShrunk is guess on small, a cols x rows frame already shrunk to
// cornerNetW x cornerNetH (another corner network's, which both read).
func (c *cornerNet) guessShrunk(small gocv.Mat, cols, rows int) ([4][2]float64, [4]float64, error) {
	var corners [4][2]float64
	var mass [4]float64
	if err := c.load(); err != nil {
		return corners, mass, err
	}
	heat, err := c.forwardFrame(small, "heat", 4*cornerNetMapW*cornerNetMapH, useOwnCornerNets)
	if err != nil {
		return corners, mass, err
	}
	sx := float64(cornerNetW) / float64(cols)
	sy := float64(cornerNetH) / float64(rows)
	n := cornerNetMapW * cornerNetMapH
	for k := 0; k < 4; k++ {
		m := heat[k*n : (k+1)*n]
		peak := 0
		for i, v := range m {
			if v > m[peak] {
				peak = i
			}
		}
		var z float64
		for _, v := range m {
			z += math.Exp(float64(v - m[peak]))
		}
		pu, pv := peak%cornerNetMapW, peak/cornerNetMapW
		var sw, su, sv float64
		for v := max(pv-cornerNetWindow, 0); v <= min(pv+cornerNetWindow, cornerNetMapH-1); v++ {
			for u := max(pu-cornerNetWindow, 0); u <= min(pu+cornerNetWindow, cornerNetMapW-1); u++ {
				w := math.Exp(float64(m[v*cornerNetMapW+u] - m[peak]))
				sw += w
				su += w * float64(u)
				sv += w * float64(v)
			}
		}
		// A map cell's centre is (stride-1)/2 into its block of the
		// shrunk frame; a shrunk pixel x covers the frame's (x+0.5)/s-0.5.
		x := (su/sw)*cornerNetStride + (cornerNetStride-1)/2.0
		y := (sv/sw)*cornerNetStride + (cornerNetStride-1)/2.0
		corners[k] = [2]float64{(x+0.5)/sx - 0.5, (y+0.5)/sy - 0.5}
		mass[k] = sw / z
	}
	return corners, mass, nil
}
