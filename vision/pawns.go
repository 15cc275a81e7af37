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
// same before the pawn veto) of a pawn of a colour what the rest of the
// reading best says of that colour's pawns, and picks each cell's best
// again. The networks read each cell alone, with the chance of a pawn on
// any one cell that their training frames had; but a cell's chance of the
// second blue builder, when one is seen elsewhere, is three times that:
// a pawn half hidden behind a tower is then read rather than dropped.
// With m pawns of the colour read on the other cells and F cells not
// domed, the odds of one more on this cell are P(m+1)(m+1) / (P(m)(F-m))
// (pawns stand on random free cells), against the networks' E[n] /
// (F-E[n]). A colour read twice elsewhere is left to limitPawns.
func pawnCountPrior(lp, adj *[25][nHyp]float64, best *[25]int) {
	var count [4]int
	free := 0
	for _, k := range best {
		sq := hypSquare(k)
		count[sq.Occupant]++
		if sq.Level < 4 {
			free++
		}
	}
	if free <= pawnsPerColour {
		return
	}
	f := float64(free)
	var bonus [4][pawnsPerColour]float64
	for o := observation.Blue; o <= observation.Dark; o++ {
		p := pawnCountChances[o]
		var mean float64
		for n, pn := range p {
			mean += float64(n) * pn
		}
		trained := math.Log(mean / (f - mean))
		for m := range bonus[o] {
			bonus[o][m] = math.Log(p[m+1]*float64(m+1)/(p[m]*(f-float64(m)))) - trained
		}
	}
	for i := range best {
		own := hypSquare(best[i]).Occupant
		for k := range lp[i] {
			o := hypSquare(k).Occupant
			if o == observation.Empty {
				continue
			}
			m := count[o]
			if own == o {
				m--
			}
			if m >= pawnsPerColour {
				continue
			}
			lp[i][k] += bonus[o][m]
			adj[i][k] += bonus[o][m]
		}
	}
	for i := range best {
		best[i] = 0
		for k := range lp[i] {
			if lp[i][k] > lp[i][best[i]] {
				best[i] = k
			}
		}
	}
}
