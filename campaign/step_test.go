package campaign

import (
	"errors"

	"companion/engine"
)

// playStep does the next thing a player at the table would: a die, the end
// of an enemy turn, a turn chosen by pick from the legal ones, or going on
// after a scenario. It reports false when the game is finished.
func playStep(g *Game, pick func([]engine.Turn) engine.Turn) (bool, error) {
	var err error
	switch g.Step {
	case StepEnemyTurn:
		var v EnemyTurnView
		if v, err = g.EnemyTurn(); err == nil {
			if v.Next < 0 {
				_, err = g.ResolveEnemyTurn()
			} else {
				_, err = g.RollVirtualDie()
			}
		}
	case StepPlayerTurn:
		turns := engine.LegalTurns(g.Position)
		if len(turns) == 0 {
			return false, errors.New("no legal turn at the player's turn")
		}
		err = g.PlayerTurn(pick(turns))
	case StepWon, StepLost:
		err = g.Continue()
	default:
		return false, nil
	}
	return true, err
}
