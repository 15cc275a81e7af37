package accuracy

import (
	"companion/observation"
	"companion/sim"
)

// The cells no photo can read: a cell whose top and pawn are wholly out
// of sight could as well hold another token that would be out of sight
// too (a lower block behind a tower, a pawn on the ground behind it). A
// reader can only guess those; the report says how well a reader right
// on every other cell could do, guessing each as the commonest of its
// twins.

// allTokens are the 17 tokens a cell can hold.
var allTokens = func() []observation.Square {
	var out []observation.Square
	for l := uint8(0); l < 4; l++ {
		for o := observation.Empty; o <= observation.Dark; o++ {
			out = append(out, observation.Square{Level: l, Occupant: o})
		}
	}
	return append(out, observation.Square{Level: 4})
}()

// outOfSight reports whether nothing of a cell's top and pawn is in sight.
func outOfSight(c sim.CellSight) bool { return c.Top == 0 && c.Figure <= 0 }

// twins gives the tokens cell i of scene s could hold with nothing of it
// in sight, its own first, when its own token is out of sight and
// another would be too; else nil. For the camera those boards are one,
// give or take a shadow. The pieces' placements are the scene's, so only
// that cell changes.
func twins(s sim.Scene, i int, sight sim.CellSight) []observation.Square {
	if !outOfSight(sight) {
		return nil
	}
	truth := s.Board[i]
	out := []observation.Square{truth}
	for _, t := range allTokens {
		if t == truth {
			continue
		}
		s.Board[i] = t
		if outOfSight(sim.SightOf(s, i)) {
			out = append(out, t)
		}
	}
	if len(out) == 1 {
		return nil
	}
	return out
}

// guessTwins counts, over samples, the cells with twins and the boards
// with one, and of them the cells and boards a reader gets wrong that
// guesses each as its commonest twin by the tokens' share of all the
// samples' cells; it sets each sample's TwinsGuessedWrong.
func guessTwins(samples []Sample) (cells, boards, wrong, wrongBoards int) {
	share := map[observation.Square]int{}
	for _, s := range samples {
		for _, sq := range s.Truth {
			share[sq]++
		}
	}
	for k := range samples {
		s := &samples[k]
		s.TwinsGuessedWrong = 0
		has, miss := false, false
		for i, tw := range s.Twins {
			if len(tw) == 0 {
				continue
			}
			cells++
			has = true
			best := tw[0]
			for _, t := range tw {
				if share[t] > share[best] {
					best = t
				}
			}
			if best != s.Truth[i] {
				wrong++
				s.TwinsGuessedWrong++
				miss = true
			}
		}
		if has {
			boards++
		}
		if miss {
			wrongBoards++
		}
	}
	return cells, boards, wrong, wrongBoards
}
