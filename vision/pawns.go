package vision

import (
	"math"

	"companion/observation"
)

// pawnsPerColour is how many pawns of one colour a set holds: a male and a
// female sculpt of each (TABLE.md). The others lie beside the board, so a
// reading with a third pawn of a colour has one wrong.
const pawnsPerColour = 2

// limitPawns changes the readings (hypotheses best, indexed like lp) that
// put more than pawnsPerColour pawns of a colour on the board: of that
// colour's cells, those whose next best reading (a bare cell or a colour
// with room) costs least log-probability give the pawn up, until every
// colour fits. It reports the cells changed.
func limitPawns(lp *[25][nHyp]float64, best *[25]int) []int {
	var changed []int
	for {
		var count [4]int
		for _, k := range best {
			count[hypSquare(k).Occupant]++
		}
		over := observation.Empty
		for o := observation.Blue; o <= observation.Dark; o++ {
			if count[o] > pawnsPerColour {
				over = o
				break
			}
		}
		if over == observation.Empty {
			return changed
		}
		cell, to := -1, -1
		var cost float64
		for i, k := range best {
			if hypSquare(k).Occupant != over {
				continue
			}
			alt := -1
			for a := range lp[i] {
				o := hypSquare(a).Occupant
				if o == over || (o != observation.Empty && count[o] >= pawnsPerColour) {
					continue
				}
				if alt < 0 || lp[i][a] > lp[i][alt] {
					alt = a
				}
			}
			if c := lp[i][k] - lp[i][alt]; cell < 0 || c < cost {
				cell, to, cost = i, alt, c
			}
		}
		best[cell] = to
		changed = append(changed, cell)
	}
}

// pawnCountChances are the chances that 0, 1 or 2 pawns of a colour stand
// on the board (blue, light, dark; index 0 unused): sim.RandomBoard's
// weights (TestPawnCountChancesMatchSim). The player's two builders are
// nearly always both on the board; the enemies come and go.
var pawnCountChances = [4][pawnsPerColour + 1]float64{
	{},
	{0.1, 0.25, 0.65},
	{0.3, 0.35, 0.35},
	{0.3, 0.35, 0.35},
}

// pawnCountPrior adds to each cell's log-probabilities (lp, and adj, the
// same before the pawn veto) of a pawn of each colour what the rest of the
// board says of that colour's pawns, and picks each cell's best again.
// The networks read each cell alone, with the chance of a pawn on any one
// cell that their training frames had; but a cell's chance of the second
// blue builder, when one is seen elsewhere, is about three times that: a
// pawn half hidden behind a tower is then read rather than dropped. The
// counts' prior is pawnCountChances with the pawns on random free cells
// (blue placed first, then light, then dark, as sim.RandomBoard does);
// each cell's odds are summed over every way the other cells may be read,
// as surely as the networks read them (forward and backward over the
// cells, the counts so far as the state, capped at pawnsPerColour: a
// third pawn of a colour gets no chance at all).
func pawnCountPrior(lp, adj *[25][nHyp]float64, best *[25]int) {
	free := 0
	for _, k := range best {
		if hypSquare(k).Level < 4 {
			free++
		}
	}
	if free <= pawnsPerColour {
		return
	}
	trained := trainedOccupants(float64(free))
	w := occupantWeights(lp, trained)
	fwd, bwd := countChains(&w, free)
	for i := range lp {
		var g [4]float64
		for s, a := range fwd[i] {
			if a == 0 {
				continue
			}
			for o := observation.Empty; o <= observation.Dark; o++ {
				if t := countStep(s, o); t >= 0 {
					g[o] += a * bwd[i+1][t]
				}
			}
		}
		if g[observation.Empty] <= 0 {
			continue
		}
		for k := range lp[i] {
			o := hypSquare(k).Occupant
			if o == observation.Empty {
				continue
			}
			d := math.Log(g[o]/trained[o]) - math.Log(g[observation.Empty]/trained[observation.Empty])
			lp[i][k] += d
			adj[i][k] += d
		}
	}
	*best = pickBest(lp)
}

// trainedOccupants is the networks' own chance of each occupant on a
// cell, with f cells not domed: their probabilities hold it already, and
// the counts' prior replaces it.
func trainedOccupants(f float64) [4]float64 {
	var trained [4]float64
	trained[observation.Empty] = 1
	for o := observation.Blue; o <= observation.Dark; o++ {
		for n, pn := range pawnCountChances[o] {
			trained[o] += float64(n) * pn / f
		}
		trained[observation.Empty] -= trained[o]
	}
	return trained
}

// occupantWeights gives each cell's weight for each occupant: its
// hypotheses' probabilities summed by occupant over the trained chance,
// scaled to the cell's best.
func occupantWeights(lp *[25][nHyp]float64, trained [4]float64) [25][4]float64 {
	var w [25][4]float64
	for j := range lp {
		top := math.Inf(-1)
		for _, v := range lp[j] {
			top = math.Max(top, v)
		}
		if math.IsInf(top, -1) {
			continue // every reading vetoed: the cell weighs nothing
		}
		for k, v := range lp[j] {
			w[j][hypSquare(k).Occupant] += math.Exp(v - top)
		}
		for o := range w[j] {
			w[j][o] /= trained[o]
		}
	}
	return w
}

// The counts of pawns of each colour on the cells so far, 0 to
// pawnsPerColour each, as one state.
const (
	countSide   = pawnsPerColour + 1
	countStates = countSide * countSide * countSide
)

var countStride = [4]int{0, countSide * countSide, countSide, 1}

// countOf is state s's count of colour o.
func countOf(s int, o observation.Occupant) int { return s / countStride[o] % countSide }

// countStep is state s after one more cell with occupant o, or -1 when
// that is a pawn too many.
func countStep(s int, o observation.Occupant) int {
	if o == observation.Empty {
		return s
	}
	if countOf(s, o) == pawnsPerColour {
		return -1
	}
	return s + countStride[o]
}

// countChains gives, for the cells' occupant weights w and free cells not
// domed, fwd[i]: how the counts over cells 0 to i-1 stand, and bwd[i]:
// how likely each count before cell i makes cells i to 24 and the prior on
// the final counts (each row normalised: only ratios within a row count).
func countChains(w *[25][4]float64, free int) (fwd, bwd [26][countStates]float64) {
	fwd[0][0] = 1
	for j := 0; j < 25; j++ {
		var sum float64
		for s, a := range fwd[j] {
			if a == 0 {
				continue
			}
			for o := observation.Empty; o <= observation.Dark; o++ {
				if t := countStep(s, o); t >= 0 {
					fwd[j+1][t] += a * w[j][o]
					sum += a * w[j][o]
				}
			}
		}
		normalise(fwd[j+1][:], sum)
	}
	for s := range bwd[25] {
		bwd[25][s] = countsPrior(s, free)
	}
	for j := 24; j >= 0; j-- {
		var sum float64
		for s := range bwd[j] {
			for o := observation.Empty; o <= observation.Dark; o++ {
				if t := countStep(s, o); t >= 0 {
					bwd[j][s] += w[j][o] * bwd[j+1][t]
				}
			}
			sum += bwd[j][s]
		}
		normalise(bwd[j][:], sum)
	}
	return fwd, bwd
}

// countsPrior is the chance of one given placement of state s's pawns on
// free cells: each colour's count by pawnCountChances, the placement
// among the cells left uniform (blue first, then light, then dark).
func countsPrior(s, free int) float64 {
	nb, nl, nd := countOf(s, observation.Blue), countOf(s, observation.Light), countOf(s, observation.Dark)
	if nb+nl+nd > free {
		return 0
	}
	return pawnCountChances[observation.Blue][nb] * pawnCountChances[observation.Light][nl] * pawnCountChances[observation.Dark][nd] /
		(choose(free, nb) * choose(free-nb, nl) * choose(free-nb-nl, nd))
}

// normalise divides v by sum, when sum is positive.
func normalise(v []float64, sum float64) {
	if sum <= 0 {
		return
	}
	for i := range v {
		v[i] /= sum
	}
}

// choose is n choose k, 0 outside 0 <= k <= n.
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	c := 1.0
	for i := 0; i < k; i++ {
		c = c * float64(n-i) / float64(i+1)
	}
	return c
}
