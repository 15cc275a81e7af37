package policy

import (
	"math/rand/v2"
	"testing"

	"companion/engine"
	"companion/scenario"
)

// pos builds a position from CONTRACT.md JSON; tests read like the vectors.
func pos(t *testing.T, js string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition([]byte(js))
	if err != nil {
		t.Fatalf("bad test position: %v", err)
	}
	return p
}

func TestChooseKills(t *testing.T) {
	// The builder on C2 (level 2) can step to B2 (level 1) and build on the
	// light-female's B3 (level 0): the only enemy-killing turns start there.
	p := pos(t, `{"terrain": [".....", ".....", ".....", ".....", "....."],
		"levels":   ["00000", "01000", "02000", "00000", "00011"],
		"builders": ["C2", "E1"],
		"enemies":  [{"pawn": "light-female", "cell": "B3", "facing": "E"},
		             {"pawn": "dark-male", "cell": "E3", "facing": "E"}],
		"god": null}`)
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		tr, ok := Choose(p, rng)
		if !ok {
			t.Fatal("Choose found no turn")
		}
		q, _, err := engine.PlayerTurn(p, tr)
		if err != nil {
			t.Fatalf("seed %d: Choose gave an illegal turn %v: %v", seed, tr, err)
		}
		if len(q.Enemies) != 1 {
			t.Errorf("seed %d: Choose gave %v, which kills no enemy", seed, tr)
		}
	}
}

func TestChooseWins(t *testing.T) {
	// Killing the last enemy wins at once (C3 to B2, both level 1, then build
	// on A3, level 0); it must beat every other turn.
	p := pos(t, `{"terrain": [".....", ".....", ".....", ".....", "....."],
		"levels":   ["00000", "01000", "00100", "00000", "00000"],
		"builders": ["C3", "E5"],
		"enemies":  [{"pawn": "dark-female", "cell": "A3", "facing": "S"}],
		"god": null}`)
	tr, ok := Choose(p, rand.New(rand.NewPCG(1, 2)))
	if !ok {
		t.Fatal("Choose found no turn")
	}
	_, res, err := engine.PlayerTurn(p, tr)
	if err != nil || res.Outcome != engine.Won {
		t.Errorf("Choose gave %v: %v, %v; want the winning build on A3", tr, res, err)
	}
}

func TestChooseNoTurn(t *testing.T) {
	// The lone builder is walled in by domes and water: no move at all.
	p := pos(t, `{"terrain": ["..W..", ".....", ".....", ".....", "....."],
		"levels":   ["04040", "44400", "00000", "00000", "00001"],
		"builders": ["A1"],
		"enemies":  [{"pawn": "dark-female", "cell": "E1", "facing": "N"}],
		"god": null}`)
	if tr, ok := Choose(p, rand.New(rand.NewPCG(1, 2))); ok {
		t.Errorf("Choose = %v, true; want no turn", tr)
	}
}

// TestChooseLegal plays games of every built-in scenario and checks each
// chosen turn against LegalTurns.
func TestChooseLegal(t *testing.T) {
	turns := 0
	for _, sc := range scenario.Builtin() {
		for seed := range uint64(8) {
			rng := rand.New(rand.NewPCG(seed, uint64(sc.Number)))
			p := sc.Setup
			for range 40 {
				dice := make([]int, len(p.Enemies))
				for j := range dice {
					dice[j] = 1 + rng.IntN(6)
				}
				q, _, res, err := engine.EnemyTurn(p, dice)
				if err != nil {
					t.Fatalf("%s: %v", sc.Name, err)
				}
				if res.Outcome != engine.Playing {
					break
				}
				tr, ok := Choose(q, rng)
				legal := engine.LegalTurns(q)
				if !ok {
					if len(legal) > 0 {
						t.Fatalf("%s: Choose found no turn, LegalTurns has %d", sc.Name, len(legal))
					}
					break
				}
				if !contains(legal, tr) {
					t.Fatalf("%s: Choose gave %v, not in LegalTurns", sc.Name, tr)
				}
				turns++
				if p, res, err = engine.PlayerTurn(q, tr); err != nil || res.Outcome != engine.Playing {
					break
				}
			}
		}
	}
	if turns < 100 {
		t.Errorf("only %d turns checked: the games end too soon to test much", turns)
	}
}

func contains(ts []engine.Turn, t engine.Turn) bool {
	for _, u := range ts {
		if u == t {
			return true
		}
	}
	return false
}

func TestPlayGameDeterministic(t *testing.T) {
	p := bridge(t)
	for seed := range uint64(5) {
		w1, r1 := PlayGame(p, rand.New(rand.NewPCG(seed, 9)), MaxRounds)
		w2, r2 := PlayGame(p, rand.New(rand.NewPCG(seed, 9)), MaxRounds)
		if w1 != w2 || r1 != r2 {
			t.Errorf("seed %d: (%v, %d) then (%v, %d): same seed, different game", seed, w1, r1, w2, r2)
		}
		if r1 < 1 || r1 > MaxRounds {
			t.Errorf("seed %d: %d rounds", seed, r1)
		}
	}
}

func TestPlayCapped(t *testing.T) {
	p := bridge(t)
	g := Play(p, rand.New(rand.NewPCG(1, 1)), 0)
	if !g.Capped || g.Outcome != engine.Playing || g.Rounds != 0 {
		t.Errorf("Play with 0 rounds = %+v, want capped at 0", g)
	}
	if won, rounds := PlayGame(p, rand.New(rand.NewPCG(1, 1)), 0); won || rounds != 0 {
		t.Errorf("PlayGame with 0 rounds = %v, %d; a capped game is not won", won, rounds)
	}
}

func bridge(t *testing.T) engine.Position {
	t.Helper()
	s, err := scenario.Get(1)
	if err != nil {
		t.Fatal(err)
	}
	return s.Setup
}
