package policy

import (
	"testing"
)

// TestWinRates measures the built-in scenarios with the policy and checks the
// campaign's difficulty curve. With -v it logs the README's table:
//
//	go test -run TestWinRates -v ./policy/
func TestWinRates(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 3000 games; the checks need them all")
	}
	// 500 games a scenario take about a second; fewer would let sampling
	// noise (about 2 points at 500) blur the ordering checked below.
	const games = 500
	rates := WinRates(games, 1)
	t.Logf("policy win rates, %d seeded games per scenario:\n%s", games, Table(rates))

	// Bounds per scenario: the measured rate (seed 1; other seeds agree to a
	// few points) with room for sampling noise and small policy changes.
	bounds := [][2]float64{{0.85, 0.99}, {0.70, 0.92}, {0.48, 0.74}, {0.45, 0.70}, {0.30, 0.52}, {0.12, 0.34}}
	// tolerance lets the two level-2 maps (3 and 4) swap by a little.
	const tolerance = 0.08
	for i, r := range rates {
		w := r.WinRate()
		if r.Wins == 0 || r.Wins == r.Games {
			t.Errorf("%s: won %d of %d: a scenario must be both winnable and losable", r.Name, r.Wins, r.Games)
		}
		if w < bounds[i][0] || w > bounds[i][1] {
			t.Errorf("%s: win rate %.2f outside [%.2f, %.2f]", r.Name, w, bounds[i][0], bounds[i][1])
		}
		if r.Capped > r.Games/20 {
			t.Errorf("%s: %d of %d games capped at %d rounds", r.Name, r.Capped, r.Games, MaxRounds)
		}
		if i == 0 {
			continue
		}
		prev := rates[i-1]
		slack := 0.0
		if prev.Level == r.Level {
			slack = tolerance
		}
		if w > prev.WinRate()+slack {
			t.Errorf("%s (level %d) won %.2f, more than %s (level %d) at %.2f", r.Name, r.Level, w, prev.Name, prev.Level, prev.WinRate())
		}
	}
}
