package engine

import (
	"math/rand/v2"
	"testing"
)

func TestLegalTurnsCounts(t *testing.T) {
	tests := []struct {
		name string
		p    Position
		want int
	}{
		// 8 moves, 8 builds after each (the cell left included), but not
		// B2 A1: the enemy on A1 is not lower than B2.
		{"lone builder in the open", pos(t, flat, "00000 00000 00000 00000 00001", "C3", "light-female A1 S"), 63},
		// A2: A1 A3 B1 B2 B3; B1: A1 A2 B2 C1 C2; B2: 8 cells.
		{"builder in a corner", pos(t, flat, "00000 00000 00000 00000 00001", "A1", "light-female E1 N"), 18},
		{"won: none", pos(t, flat, "00000 00000 00000 00000 00001", "A1", ""), 0},
		{"hemmed in: none", pos(t, flat, "04000 44000 00000 00000 00000", "A1", "light-female E5 N"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LegalTurns(tt.p); len(got) != tt.want {
				t.Errorf("%d legal turns, want %d: %v", len(got), tt.want, got)
			}
		})
	}
}

// TestLegalTurnsMatchPlayerTurn: on many random positions, LegalTurns lists
// exactly the turns PlayerTurn accepts, each once, and CanPlayerAct agrees.
func TestLegalTurnsMatchPlayerTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		p := randomPosition(r)
		legal := map[Turn]bool{}
		for _, u := range LegalTurns(p) {
			if legal[u] {
				t.Fatalf("%v listed twice in\n%s", u, mustJSON(t, p))
			}
			legal[u] = true
		}
		for _, from := range p.Builders {
			for to := Cell(0); to < NumCells; to++ {
				for b := Cell(0); b < NumCells; b++ {
					u := Turn{from, to, b}
					_, _, err := PlayerTurn(p, u)
					if (err == nil) != legal[u] {
						t.Fatalf("%v: PlayerTurn error %v, listed %v, in\n%s", u, err, legal[u], mustJSON(t, p))
					}
				}
			}
		}
		if CanPlayerAct(p) != (len(legal) > 0) {
			t.Fatalf("CanPlayerAct %v with %d legal turns in\n%s", CanPlayerAct(p), len(legal), mustJSON(t, p))
		}
	}
}

func TestAppendLegalTurnsAllocs(t *testing.T) {
	p := midGame(t)
	buf := make([]Turn, 0, MaxTurns)
	if n := testing.AllocsPerRun(100, func() { buf = AppendLegalTurns(buf[:0], &p) }); n != 0 {
		t.Errorf("AppendLegalTurns allocates %v times", n)
	}
	if len(buf) == 0 {
		t.Errorf("no legal turn in the mid-game position")
	}
}
