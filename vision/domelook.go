package vision

import (
	_ "embed"
	"math"
)

// The dome look: a blue builder on a level-3 tower and a dome (blue too)
// on one are the same colour in the same place; the dome is wider and
// lower, the pawn narrower and taller. The reader mixed them on 9 cells of
// the five check sets and 6 of the hold-out, most of them read sure. The
// dome look samples the cell on the pawn look's planes above the third
// tier's top (through a pawn's body and its head, which a dome never
// reaches) and lets a small network correct the odds between the two.

const (
	// hypBlueOnThree and hypDome are the two hypotheses judged.
	hypBlueOnThree = 4*3 + 1
	hypDome        = 16
	// domeLookGate: only cells read as one of the two whose odds between
	// them lie within this either way are looked at (the trainer's GATE).
	domeLookGate = 6.0
	// domeLookBound bounds the correction, as the trainer's BOUND does.
	domeLookBound = 3.0
)

// The dome look's file (scripts/train-domelook.sh): the tier network's
// layers trained as a classifier of the two, the classes weighed alike,
// on every blue-on-three and dome cell of 60000-72432 (each frame read at
// its true corners moved 0.02 and 0.01 pitch: 30 286 cells, 2774 of them
// blue pawns), 8 epochs, half of each batch mirrored. Of the 206 cells of
// 18000-18999 and 20000-20299 read as one of the two within the gate
// (corners moved 0.012) the reader gets 16 wrong, with the look 2. Cold,
// five check sets: 513 -> 508 cells wrong, 1752 -> 1754 boards perfect,
// five blue pawns found, nothing lost (SIM_NOTES, seventy-sixth session).
//
//go:embed domelook.onnx
var domeLookONNX []byte

// useDomeLook lets the dome look correct the cells' odds.
var useDomeLook = true

// newDomeLook gives the dome look's network.
func newDomeLook() cellLook {
	return cellLook{onnx: domeLookONNX, name: "the dome look's network", nExtra: pawnLookExtra}
}

// domeOdds reports whether a cell's best hypothesis (of log-probabilities
// lp) is a blue pawn on level 3 or a dome, and the log-odds of the dome.
func domeOdds(lp *[nHyp]float64) (odds float64, ok bool) {
	best := likeliest(lp)
	return lp[hypDome] - lp[hypBlueOnThree], best == hypDome || best == hypBlueOnThree
}

// sampleDome fills pix and extra with cell i's inputs to the dome look,
// with odds odds of the dome.
func (c *cellCtx) sampleDome(full *pixels, toFull float64, i int, odds float64, pix []uint8, extra []float32) {
	c.samplePawn(full, toFull, i, 3, odds, pix, extra)
}

// domeLook lets the dome network correct the odds between a dome and a
// blue pawn on level 3 of the cells unsure of them, and reports whether
// it did.
func (r *Reader) domeLook(toFull float64) bool {
	c := &r.cc
	if !useDomeLook || r.full.w == 0 || len(c.lookIn) != 25*lookInputs {
		return false
	}
	// A network that does not load leaves the reading as it is: the file
	// is built in, so that is a build fault TestDomeLookSizes catches.
	if r.dome.load() != nil {
		return false
	}
	changed := false
	for i := range c.netLP {
		lp := &c.netLP[i]
		odds, ok := domeOdds(lp)
		if !ok || math.Abs(odds) >= domeLookGate {
			continue
		}
		c.sampleDome(&r.full, toFull, i, odds, r.dome.pix, r.dome.extra)
		corr, err := r.dome.runBoth(1)
		if err != nil {
			return changed
		}
		lp[hypDome] = lp[hypBlueOnThree] + cappedOdds(odds, float64(corr[0]), domeLookBound)
		changed = true
	}
	return changed
}
