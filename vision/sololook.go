package vision

import (
	_ "embed"
	"math"
)

// The solo look: the cells the finished reading leaves unsure are read
// again by a patch-only network (solonet_train.py's, soloB6 of the
// eighty-third session), which sees them otherwise than the reading does;
// the looks correct its reading as they do the reading's, and where the
// result is fairly sure it replaces the cell's. The two readings' errors
// fall on different cells: on the five check sets cold, 477 -> 448 cells
// wrong, 1777 -> 1794 boards perfect (SIM_NOTES, eighty-fourth session).
// The cells keep their confidence, so the player is asked about them as
// before: the look changes what the companion proposes, not what it asks.

//go:embed sololook.onnx
var soloLookONNX []byte

// soloLookBelow: the solo look reads the cells in sight whose confidence
// is under this. Out of sight (nearer pieces cover their tops: hiddenCover)
// both readings guess: on the five check sets the look put 20 such cells
// right and 15 wrong, and they are most of the cells it would read (3 a
// board). Every unsure cell read, trust 0.85, simulated on the five check
// sets' readings (cells wrong of the 452 in frames read): below 0.8 430,
// 0.85 422, 0.9 417, 0.95 417, 0.97 424.
const soloLookBelow = 0.9

// soloLookTrust: the solo look's reading replaces the cell's where its
// likeliest has at least this probability. As soloLookBelow (below 0.9):
// 0.5 434, 0.7 421, 0.8 412, 0.85 417, 0.9 419, 0.98 429.
const soloLookTrust = 0.85

// useSoloLook switches the solo look on (tests compare readings without
// it).
var useSoloLook = true

// soloLookSure stands in, during the solo look, for the log-probabilities
// of the cells it does not read: so far from the next reading that no look
// takes them up.
const soloLookSure = 1000

// soloLookCells are the cells of res the solo look reads: in sight, and
// less sure than soloLookBelow (confIn holds res's confidence features).
func soloLookCells(res *Result, confIn *[25][nConfFeatures]float64) []int {
	var cells []int
	for i, p := range res.Confidence {
		if p < soloLookBelow && confIn[i][confTopCover] < hiddenCover {
			cells = append(cells, i)
		}
	}
	return cells
}

// soloLook reads the unsure cells in sight of res (the finished reading,
// the cell context's netLP its log-probabilities) with the look's network,
// and puts its reading into res where it is sure.
func (r *Reader) soloLook(toFull float64, res *Result) {
	if !useSoloLook || r.full.w == 0 || len(r.cc.lookIn) != 25*lookInputs {
		return
	}
	cells := soloLookCells(res, &r.confIn)
	if len(cells) == 0 {
		return
	}
	if len(r.soloLookNets.nets) == 0 {
		r.soloLookNets.nets = []patchNet{{file: soloLookONNX}}
	}
	nets, n := r.soloLookNets.nets, len(cells)
	var lp [25][nHyp]float64
	// A network that does not load leaves the reading: the file is built
	// in, so that is a build fault TestSoloLookPutsRightUnsureCells catches.
	if r.soloPass(nets, toFull, cells, lp[:n]) != nil || r.soloShifted(nets, toFull, cells, lp[:n]) != nil {
		return
	}
	r.looksOn(toFull, cells, lp[:n])
	for j, i := range cells {
		if k := likeliest(&lp[j]); probability(&lp[j], k) >= soloLookTrust {
			res.Board[i], res.plainBoard[i] = hypSquare(k), hypSquare(k)
		}
	}
}

// looksOn lets the looks correct the log-probabilities lp[j] of cells[j]
// in place of the reading's, the other cells standing in as sure; the
// reading's log-probabilities are put back after.
func (r *Reader) looksOn(toFull float64, cells []int, lp [][nHyp]float64) {
	c := &r.cc
	kept := c.netLP
	for i := range c.netLP {
		k := likeliest(&kept[i])
		for q := range c.netLP[i] {
			c.netLP[i][q] = -soloLookSure
		}
		c.netLP[i][k] = 0
	}
	for j, i := range cells {
		c.netLP[i] = lp[j]
	}
	r.looks(toFull)
	for j, i := range cells {
		lp[j] = c.netLP[i]
	}
	c.netLP = kept
}

// probability is hypothesis k's probability under log-probabilities lp,
// normalised (a mean of log-probabilities is not).
func probability(lp *[nHyp]float64, k int) float64 {
	sum := 0.0
	for _, v := range lp {
		sum += math.Exp(v - lp[k])
	}
	return 1 / sum
}
