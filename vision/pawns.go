package vision

import "companion/observation"

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
