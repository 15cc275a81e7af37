package engine

// neighbours lists, for each cell, the cells touching it orthogonally or
// diagonally (the player's move and build range), in cell order.
var neighbours = func() (n [NumCells][]Cell) {
	for a := Cell(0); a < NumCells; a++ {
		for b := Cell(0); b < NumCells; b++ {
			if Adjacent(a, b) {
				n[a] = append(n[a], b)
			}
		}
	}
	return n
}()

// MaxTurns bounds the number of legal turns of any position: 2 builders,
// 8 moves each, 8 builds after each move.
const MaxTurns = 2 * 8 * 8

// LegalTurns lists every legal player turn of p (RULES.md "Player turn"):
// builders in p.Builders order, then moves, then builds in cell order. It is
// empty when p is not a valid position or the scenario is already won or
// lost. Each turn listed is accepted by PlayerTurn, and no other.
func LegalTurns(p Position) []Turn {
	var buf [MaxTurns]Turn
	turns := AppendLegalTurns(buf[:0], &p)
	if len(turns) == 0 {
		return nil
	}
	return append([]Turn(nil), turns...)
}

// AppendLegalTurns appends the legal turns of p to dst, as LegalTurns lists
// them, and returns the extended slice. With cap(dst)-len(dst) >= MaxTurns
// it does not allocate.
func AppendLegalTurns(dst []Turn, p *Position) []Turn {
	if playable(p) != nil {
		return dst
	}
	o := occupancyOf(p)
	for _, from := range p.Builders {
		for _, to := range neighbours[from] {
			if moveRule(p, &o, from, to) != ruleOK {
				continue
			}
			for _, b := range neighbours[to] {
				if buildRule(p, &o, from, to, b) == ruleOK {
					dst = append(dst, Turn{from, to, b})
				}
			}
		}
	}
	return dst
}

// CanPlayerAct is the start-of-player-turn check of RULES.md "End of a
// scenario": whether any builder can move and then build. EnemyTurn runs it
// at the end of every enemy turn (RULES.md "Rulings") and reports Lost with
// ReasonStuck when it fails; Status does not run it (see Status). It is
// false for a position that fails Validate, and it does not look at whether
// the scenario has already ended.
func CanPlayerAct(p Position) bool {
	if p.Validate() != nil {
		return false
	}
	return canPlayerAct(&p)
}

// canPlayerAct is CanPlayerAct for a valid position.
func canPlayerAct(p *Position) bool {
	o := occupancyOf(p)
	for _, from := range p.Builders {
		for _, to := range neighbours[from] {
			if moveRule(p, &o, from, to) != ruleOK {
				continue
			}
			for _, b := range neighbours[to] {
				if buildRule(p, &o, from, to, b) == ruleOK {
					return true
				}
			}
		}
	}
	return false
}
