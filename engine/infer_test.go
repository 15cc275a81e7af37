package engine

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"companion/observation"
)

func TestInferTurn(t *testing.T) {
	before := ruleBoard(t)
	// After C2-D2 D3: the light female on D3 is defeated and taken off.
	after := board(t, "0 0 0 0 0", "4 0 2D 0 0", "2 0 0 4 0", "0 1B 1 0 0", "0B 0 0 0 0")
	tests := []struct {
		name string
		seen observation.Board
		want []Turn   // when the error is nil
		err  string   // in the error
		diff []string // the NoMatchError's Diffs
	}{
		{"the defeated enemy taken off", after, []Turn{turn(t, "C2-D2 D3")}, "", nil},
		{"a plain move and build", board(t, "0 0 0 0 0", "4 0 2D 0 0", "2 1 0 4 0", "0 1B 0L 0 0", "0B 0 0 0 0"), []Turn{turn(t, "C2-D2 C2")}, "", nil},
		{"the defeated enemy left on the board", board(t, "0 0 0 0 0", "4 0 2D 0 0", "2 0 0 4 0", "0 1B 1L 0 0", "0B 0 0 0 0"), nil,
			"the closest is C2-D2 D3", []string{"D3 should be empty, there is a light enemy"}},
		{"a level read wrong", board(t, "0 0 0 0 0", "4 0 2D 0 0", "2 0 0 4 0", "0 1B 2 0 0", "0B 0 0 0 0"), nil,
			"the closest is C2-D2 D3", []string{"D3 should be level 1, it is level 2"}},
		{"nothing changed", before.Board(), nil, "no turn was played", nil},
		{"two builds", board(t, "0 0 0 0 0", "4 0 2D 0 0", "2 1 0 4 0", "0 1B 1 0 0", "0B 0 0 0 0"), nil,
			"no legal turn explains the board", []string{"C2 should be level 0, it is level 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := InferTurn(before, tt.seen)
			if tt.err == "" {
				if err != nil || !reflect.DeepEqual(got, tt.want) {
					t.Errorf("InferTurn = %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			var nm *NoMatchError
			if !errors.As(err, &nm) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("InferTurn = %v, %v; want a *NoMatchError containing %q", got, err, tt.err)
			}
			if !reflect.DeepEqual(nm.Diffs, tt.diff) {
				t.Errorf("diffs %q, want %q", nm.Diffs, tt.diff)
			}
		})
	}
}

func TestInferTurnErrors(t *testing.T) {
	won := pos(t, flat, "10000 00000 00000 00000 00000", "C3", "")
	if _, err := InferTurn(won, won.Board()); err == nil || !strings.Contains(err.Error(), "already won") {
		t.Errorf("won position: error %v", err)
	}
	stuck := pos(t, flat, "04000 44000 00000 00000 00000", "A1", "light-female E5 N")
	seen := stuck.Board()
	seen[1].Level = 3
	_, err := InferTurn(stuck, seen)
	var nm *NoMatchError
	if !errors.As(err, &nm) || nm.Closest != nil || !strings.Contains(err.Error(), "no builder can move and then build") {
		t.Errorf("stuck position: error %v", err)
	}
}

// TestInferTurnEveryLegalTurn: on random positions every legal turn is
// inferred back from the board it leaves, and it alone: no two legal turns
// leave the same board (InferTurn's doc relies on it). boardAfter agrees
// with PlayerTurn.
func TestInferTurnEveryLegalTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		p := randomPosition(r)
		base := p.Board()
		boards := map[observation.Board]Turn{}
		for _, u := range LegalTurns(p) {
			q, _, err := PlayerTurn(p, u)
			if err != nil {
				t.Fatal(err)
			}
			seen := q.Board()
			if fast := boardAfter(&base, u); fast != seen {
				t.Fatalf("%v: boardAfter differs from PlayerTurn: %q in\n%s", u, Diff(seen, fast), mustJSON(t, p))
			}
			if v, dup := boards[seen]; dup {
				t.Fatalf("%v and %v leave the same board in\n%s", u, v, mustJSON(t, p))
			}
			boards[seen] = u
			got, err := InferTurn(p, seen)
			if err != nil || len(got) != 1 || got[0] != u {
				t.Fatalf("%v: InferTurn = %v, %v in\n%s", u, got, err, mustJSON(t, p))
			}
		}
	}
}
