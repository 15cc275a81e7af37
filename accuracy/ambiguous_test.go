package accuracy

import (
	"flag"
	"fmt"
	"sort"
	"testing"

	"companion/observation"
	"companion/sim"
)

var ambiguousFlag = flag.String("ambiguous", "", "print how many cells of these seeds' boards no single photo can tell from another token (a diagnosis of the targets' ceiling)")

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

// outOfSight reports whether nothing of cell i's top and pawn is in sight.
func outOfSight(c sim.CellSight) bool { return c.Top == 0 && c.Figure <= 0 }

// twins gives the tokens cell i of scene s could hold with nothing of
// it in sight, as its own token is (nil if that token shows): for the
// camera those boards are one and the same, give or take a shadow.
func twins(s sim.Scene, i int) []observation.Square {
	if !outOfSight(sim.Sight(s)[i]) {
		return nil
	}
	truth := s.Board[i]
	out := []observation.Square{truth}
	for _, t := range allTokens {
		if t == truth {
			continue
		}
		s.Board[i] = t
		if outOfSight(sim.Sight(s)[i]) {
			out = append(out, t)
		}
	}
	return out
}

// TestAmbiguous (with -ambiguous SEEDS) counts the cells whose token no
// photo can tell from another, and how many boards a reader that guesses
// each such cell as the commonest token among its twins (by the tokens'
// share over these boards' cells) would read perfectly, all else right.
func TestAmbiguous(t *testing.T) {
	if *ambiguousFlag == "" {
		t.Skip("run with -ambiguous SEEDS")
	}
	seeds, err := parseSeeds(*ambiguousFlag)
	if err != nil {
		t.Fatal(err)
	}
	share := map[observation.Square]int{}
	type cell struct {
		seed  int64
		i     int
		truth observation.Square
		twins []observation.Square
	}
	var cells []cell
	for _, seed := range seeds {
		s := sim.RandomScene(seed)
		for i, sq := range s.Board {
			share[sq]++
			if tw := twins(s, i); len(tw) > 1 {
				cells = append(cells, cell{seed, i, sq, tw})
			}
		}
	}
	guess := func(tw []observation.Square) observation.Square {
		best := tw[0]
		for _, t := range tw {
			if share[t] > share[best] {
				best = t
			}
		}
		return best
	}
	boards, wrongBoards := map[int64]bool{}, map[int64]bool{}
	wrong := 0
	kinds := map[string]int{}
	for _, c := range cells {
		boards[c.seed] = true
		if g := guess(c.twins); g != c.truth {
			wrong++
			wrongBoards[c.seed] = true
			kinds[fmt.Sprintf("%s guessed %s", c.truth, g)]++
		}
	}
	n := len(seeds)
	t.Logf("%d boards: %d cells (on %d boards) could hold another token with nothing in sight", n, len(cells), len(boards))
	t.Logf("guessing the commonest twin: %d cells wrong on %d boards: at most %.2f %% of cells and %.1f %% of boards perfect",
		wrong, len(wrongBoards), 100*(1-float64(wrong)/float64(25*n)), 100*(1-float64(len(wrongBoards))/float64(n)))
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(a, b int) bool { return kinds[ks[a]] > kinds[ks[b]] })
	for _, k := range ks {
		t.Logf("  %s: %d", k, kinds[k])
	}
}

// TestTwins: a cell in sight has no twins; a cell out of sight has its
// own token first and every twin out of sight too, and on twenty boards
// some cell has one.
func TestTwins(t *testing.T) {
	found := 0
	for seed := int64(5000); seed < 5020; seed++ {
		s := sim.RandomScene(seed)
		sight := sim.Sight(s)
		for i := range s.Board {
			tw := twins(s, i)
			if !outOfSight(sight[i]) {
				if tw != nil {
					t.Errorf("seed %d cell %d is in sight (%+v) yet has twins %v", seed, i, sight[i], tw)
				}
				continue
			}
			if len(tw) == 0 || tw[0] != s.Board[i] {
				t.Fatalf("seed %d cell %d: twins %v do not start with its token %s", seed, i, tw, s.Board[i])
			}
			for _, tok := range tw[1:] {
				alt := s
				alt.Board[i] = tok
				if c := sim.Sight(alt)[i]; !outOfSight(c) {
					t.Errorf("seed %d cell %d: twin %s is in sight (%+v)", seed, i, tok, c)
				}
			}
			if len(tw) > 1 {
				found++
			}
		}
	}
	if found == 0 {
		t.Error("no cell of 5000-5019 has a twin: the test shows nothing")
	}
}
