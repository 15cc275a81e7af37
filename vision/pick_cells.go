package vision

// On a crowded board the search's ranking of grids (findGrid) is often
// unsure, and the grid it chose can be cells off while one ranked a little
// lower reads its cells far more surely. So when the cells read on the
// chosen grid are unsure, pickByCells reads them on the next few grids
// ranked and takes the one whose cells read surest, its ranking score
// counting a little too.
//
// Tuned on seeds 17000-17999 (their crowded frames' five best grids read:
// the mean confidence alone, or a weight of 0.1-0.5 on the score, or
// wider margins, gained less). Cells right cold: 17000-17999 95.32 ->
// 95.64 %, 18000-18999 95.74 -> 95.98 %, check seeds 5000-5299 95.99 ->
// 96.29 %, 20000-20299 96.23 -> 96.19 %. With the grid picked then
// averaged with its neighbours as findGrid's own choice is: 95.60,
// 95.92, 96.27 and 96.23 %. With no weight on the score and a margin of
// 0.05: 95.50 % and 95.64 % on the first two. A gate of 0.97 read the
// same as 0.93 and costs more. Comparing three grids rather than five
// read the same on both tuning sets but lost 5141's gain (96.21 %), and
// eight from the first 30 ranked read the same as five on the tuning
// sets.

// pickGate is the mean confidence (before the confidence model) of the
// chosen grid's cells below which the other grids are read; pickScoreWeight
// weighs a grid's ranking score against its cells' mean confidence, and
// pickMargin is how much better another grid must do. pickGrids is how
// many distinct grids are compared (the chosen one among them), from the
// first pickScan ranked.
const (
	pickGate        = 0.93
	pickScoreWeight = 0.05
	pickMargin      = 0.025
	pickGrids       = 5
	pickScan        = 12
)

// pickByCells chooses among a crowded frame's best-ranked grids
// (r.ranked) by how surely the cells read on each, when those read on the
// grid findGrid chose (first) are unsure: it gives the grid to read
// instead and ok. tried says some other grid's cells were read, so the
// reader's cell state is theirs; first's reading was set aside in
// r.keptFirst before. choice says the grid given is findGrid's choice
// itself, of which first was read on the mean (rankMean).
func (r *Reader) pickByCells(first *Result, scale float64) (g scoredGrid, tried, ok, choice bool) {
	c0 := meanConf(first.plainConf[:])
	if len(r.ranked) == 0 || c0 >= pickGate {
		return g, false, false, false
	}
	chosen := r.rankChosen
	best, bestV := -1, c0+pickScoreWeight*r.ranked[chosen].s
	var seen []homography
	var res Result
	for i := 0; i < len(r.ranked) && i < pickScan && len(seen) < pickGrids; i++ {
		gi := r.ranked[i].g
		if sameAsAny(seen, gi.h) {
			continue
		}
		seen = append(seen, gi.h)
		// findGrid gave the mean of the grids about its choice: where
		// that is another grid, the choice itself is compared too
		// (17130: chosen 0.17 pitch off and every cell read right, the
		// mean 0.35 off and unsure).
		if i == chosen && sameGridTol(r.rankMean, gi.h, 0.1) {
			continue
		}
		// Any grid settleGrid would read may be picked, its ridges clear
		// too (boardRead, not boardShown): 17980 (17000-17999) 1.81 ->
		// 0.30 pitch off, 18 wrong cells -> 6; 5036 (5000-5299) 16 -> 6,
		// 5141 4 -> 11; no board of 18000-18999, 20000-20299,
		// 21000-21199 or the hold-out changed.
		if shown, _ := boardRead(gi, r.ranked[i].ridge); !shown {
			continue
		}
		if !tried {
			r.keptFirst.keep(&r.cc, first)
		}
		// With the first grid's colours where the block tops agree: the
		// colours' choice is a third of a reading (see readHinted).
		r.readCellsAgain(scaleHomography(gi.h, scale), &res)
		tried = true
		if v := meanConf(res.plainConf[:]) + pickScoreWeight*r.ranked[i].s; v > bestV+pickMargin {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return g, tried, false, false
	}
	// The grid picked is read as it stands: the mean of the grids near
	// it, as findGrid takes for its own choice, leans to those ranked
	// above it, which its cells have just outread.
	return r.ranked[best].g, tried, true, best == chosen
}

// sameAsAny reports whether grid h is within a tenth of a pitch of one of
// hs: the ranking holds many copies of a grid, refined or not.
func sameAsAny(hs []homography, h homography) bool {
	for _, x := range hs {
		if sameGridTol(x, h, 0.1) {
			return true
		}
	}
	return false
}
