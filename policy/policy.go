// Package policy is a simple built-in Santowerini player: a cheap heuristic
// that picks a legal player turn, and a game loop that pits it against the
// enemies with dice from a seeded generator. It measures how hard the
// scenarios are (WinRates); it is not meant to play well, only consistently.
package policy

import (
	"math"
	"math/rand/v2"

	"companion/engine"
)

// Weights of the heuristic, in points. A kill outweighs everything except a
// loss; a lost builder outweighs any building; the noise only breaks near-ties.
const (
	scoreWin         = 1e6
	scoreLoss        = -1e5
	scoreKill        = 1000
	scoreBuilderLost = -300
	scoreBuilding    = 20 // per building left standing after the enemies' reply
	scoreFloor       = 4  // per floor left standing after the enemies' reply
	scoreKillSetup   = 40 // per enemy a builder could kill next turn
	scoreNearTarget  = -60
	noise            = 8
	// samples is how many enemy replies, each with fresh dice, a turn is
	// judged on: movement is random, so one sample would be too jumpy.
	samples = 2
)

// Choose picks a legal player turn for p: a winning turn if there is one,
// else the turn whose outcome after a simulated enemy reply scores best
// (kills first, then builders kept safe, buildings kept standing, enemies
// kept away from target zones), with a little randomness from rng. It
// returns false when the player has no legal turn.
func Choose(p engine.Position, rng *rand.Rand) (engine.Turn, bool) {
	turns := engine.LegalTurns(p)
	best, bestScore := engine.Turn{}, math.Inf(-1)
	for _, t := range turns {
		q, res, err := engine.PlayerTurn(p, t)
		if err != nil {
			continue // LegalTurns and PlayerTurn disagree: never pick it
		}
		s := score(p, q, res, rng)
		if s > bestScore {
			best, bestScore = t, s
		}
	}
	return best, !math.IsInf(bestScore, -1)
}

// score judges the position q that a player turn led to from p.
func score(p, q engine.Position, res engine.Result, rng *rand.Rand) float64 {
	switch res.Outcome {
	case engine.Won:
		return scoreWin
	case engine.Lost:
		return scoreLoss
	}
	s := scoreKill*float64(len(p.Enemies)-len(q.Enemies)) + noise*rng.Float64()
	dice := make([]int, len(q.Enemies))
	for range samples {
		for i := range dice {
			dice[i] = 1 + rng.IntN(6)
		}
		r, _, rres, err := engine.EnemyTurn(q, dice)
		switch {
		case err != nil:
			return scoreLoss // a turn the engine cannot follow is a turn to avoid
		case rres.Outcome == engine.Lost:
			s += scoreLoss / samples
			continue
		}
		s += (scoreBuilderLost*float64(len(q.Builders)-len(r.Builders)) +
			scoreBuilding*float64(r.BuildingCount()) +
			scoreFloor*float64(r.LevelSum()) +
			scoreKillSetup*float64(killSetups(r)) +
			scoreNearTarget*float64(nearTargets(r))) / samples
	}
	return s
}

// killSetups counts the enemies standing next to a builder that is higher
// than them: that builder may build on the enemy next turn (RULES.md
// "Player turn": building on an enemy's cell).
func killSetups(p engine.Position) int {
	n := 0
	for _, e := range p.Enemies {
		for _, b := range p.Builders {
			if engine.Adjacent(b, e.Cell) && p.Levels[b] > p.Levels[e.Cell] {
				n++
				break
			}
		}
	}
	return n
}

// nearTargets counts the enemies one orthogonal step from a target zone:
// one lucky roll from losing the scenario.
func nearTargets(p engine.Position) int {
	n := 0
	for _, e := range p.Enemies {
		for d := engine.N; d <= engine.W; d++ {
			if c := e.Cell.Step(d); c.Valid() && p.Terrain[c] == engine.Target {
				n++
				break
			}
		}
	}
	return n
}

// Game is how one simulated game ended.
type Game struct {
	Outcome engine.Outcome // Won or Lost; Playing when Capped
	Capped  bool           // maxRounds rounds were played and neither side won
	Rounds  int            // enemy turns played
	Reason  string         // the engine's reason when the game ended
}

// Play plays the scenario setup s to its end: an enemy turn (RULES.md: every
// scenario starts with it) with dice from rng, then a Choose turn, and again,
// for at most maxRounds rounds. An engine error ends the game as lost, with
// the error as the reason.
func Play(s engine.Position, rng *rand.Rand, maxRounds int) Game {
	p := s.Clone()
	for round := 1; round <= maxRounds; round++ {
		dice := make([]int, len(p.Enemies))
		for i := range dice {
			dice[i] = 1 + rng.IntN(6)
		}
		q, _, res, err := engine.EnemyTurn(p, dice)
		if err != nil {
			return Game{Outcome: engine.Lost, Rounds: round, Reason: "enemy turn: " + err.Error()}
		}
		if res.Outcome != engine.Playing {
			return Game{Outcome: res.Outcome, Rounds: round, Reason: res.Reason}
		}
		t, ok := Choose(q, rng)
		if !ok {
			return Game{Outcome: engine.Lost, Rounds: round, Reason: "no legal player turn"}
		}
		p, res, err = engine.PlayerTurn(q, t)
		if err != nil {
			return Game{Outcome: engine.Lost, Rounds: round, Reason: "player turn: " + err.Error()}
		}
		if res.Outcome != engine.Playing {
			return Game{Outcome: res.Outcome, Rounds: round, Reason: res.Reason}
		}
	}
	return Game{Outcome: engine.Playing, Capped: true, Rounds: maxRounds}
}

// PlayGame plays s to its end like Play and reports whether the player won.
// A game still going after maxRounds rounds counts as lost (rounds ==
// maxRounds); Play tells a capped game apart.
func PlayGame(s engine.Position, rng *rand.Rand, maxRounds int) (won bool, rounds int) {
	g := Play(s, rng, maxRounds)
	return g.Outcome == engine.Won, g.Rounds
}
