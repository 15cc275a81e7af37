package engine

import (
	"reflect"
	"testing"

	"companion/observation"
)

func board(t testing.TB, rows ...string) observation.Board {
	t.Helper()
	b, err := observation.Parse(rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDiff(t *testing.T) {
	expected := board(t, "0 0 1 0 0", "0 2L 0 0 0", "0 0 2 0 0", "0 0 0 1B 0", "4 0 0 0 0D")
	tests := []struct {
		name string
		seen observation.Board
		want []string
	}{
		{"same board", expected, nil},
		{"one level", board(t, "0 0 1 0 0", "0 2L 0 0 0", "0 0 3 0 0", "0 0 0 1B 0", "4 0 0 0 0D"),
			[]string{"C3 should be level 2, it is level 3"}},
		{"a builder missing", board(t, "0 0 1 0 0", "0 2L 0 0 0", "0 0 2 0 0", "0 0 0 1 0", "4 0 0 0 0D"),
			[]string{"D4 should have a blue builder, it is empty"}},
		{"a pawn too many", board(t, "0 0 1 0 0", "0D 2L 0 0 0", "0 0 2 0 0", "0 0 0 1B 0", "4 0 0 0 0D"),
			[]string{"B1 should be empty, there is a dark enemy"}},
		{"the wrong colour", board(t, "0 0 1 0 0", "0 2D 0 0 0", "0 0 2 0 0", "0 0 0 1B 0", "4 0 0 0 0D"),
			[]string{"B2 should have a light enemy, there is a dark enemy"}},
		{"a dome missing", board(t, "0 0 1 0 0", "0 2L 0 0 0", "0 0 2 0 0", "0 0 0 1B 0", "3 0 0 0 0D"),
			[]string{"E1 should be level 4 (a dome), it is level 3"}},
		{"several, sorted by cell, level before occupant", board(t, "0 0 1 0 0", "0 2L 0 0 0", "0 0 2 0 0", "0B 0 0 2 0", "4 0 0 0 0D"),
			[]string{"D1 should be empty, there is a blue builder", "D4 should be level 1, it is level 2", "D4 should have a blue builder, it is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff(expected, tt.seen); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Diff:\n  got  %q\n  want %q", got, tt.want)
			}
		})
	}
}
