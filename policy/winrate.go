package policy

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"companion/engine"
	"companion/scenario"
)

// MaxRounds caps a simulated game. Games of the built-in scenarios end well
// before it (the longest seen: about 35 rounds); a capped game is not a win,
// and Rate counts it apart.
const MaxRounds = 100

// Rate is how the policy fares on one scenario.
type Rate struct {
	Number int
	Name   string
	Level  int
	Games  int
	Wins   int
	Capped int     // games still going after MaxRounds rounds (counted as not won)
	Rounds float64 // mean rounds per game
}

// WinRate is the fraction of games won.
func (r Rate) WinRate() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.Wins) / float64(r.Games)
}

// Measure plays games games of s with the policy. Game i uses its own
// generator seeded from (seed, s.Number, i), so any one game can be replayed.
func Measure(s scenario.Scenario, games int, seed int64) Rate {
	r := Rate{Number: s.Number, Name: s.Name, Level: s.Level, Games: games}
	total := 0
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(seed), uint64(s.Number)<<32|uint64(i)))
		g := Play(s.Setup, rng, MaxRounds)
		total += g.Rounds
		if g.Capped {
			r.Capped++
		} else if g.Outcome == engine.Won {
			r.Wins++
		}
	}
	if games > 0 {
		r.Rounds = float64(total) / float64(games)
	}
	return r
}

// WinRates measures every built-in scenario, games games each, in parallel.
func WinRates(games int, seed int64) []Rate {
	ss := scenario.Builtin()
	rates := make([]Rate, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rates[i] = Measure(s, games, seed)
		}()
	}
	wg.Wait()
	return rates
}

// Table formats rates as a markdown table for the README.
func Table(rates []Rate) string {
	var b strings.Builder
	b.WriteString("| # | scenario | level | games | won | win rate | capped | mean rounds |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range rates {
		fmt.Fprintf(&b, "| %d | %s | %d | %d | %d | %.0f%% | %d | %.1f |\n",
			r.Number, r.Name, r.Level, r.Games, r.Wins, 100*r.WinRate(), r.Capped, r.Rounds)
	}
	return b.String()
}
