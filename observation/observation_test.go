package observation

import (
	"reflect"
	"testing"
)

func TestParseRoundTrip(t *testing.T) {
	rows := []string{"0 0 1 0 0", "0 2L 0 0 0", "0 0 0 1B 0", "0 0 0 0 0", "4 0 0 0 0D"}
	b, err := Parse(rows)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.At(1, 1); got != (Square{2, Light}) {
		t.Errorf("B2 = %v, want 2L", got)
	}
	if got := b.At(4, 0); got != (Square{4, Empty}) {
		t.Errorf("E1 = %v, want 4", got)
	}
	if !reflect.DeepEqual(b.Tokens(), rows) {
		t.Errorf("round trip: got %q", b.Tokens())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		rows []string
	}{
		{"four rows", []string{"0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0"}},
		{"short row", []string{"0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0"}},
		{"level 5", []string{"5 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0"}},
		{"bad occupant", []string{"0X 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0"}},
		{"pawn on dome", []string{"4B 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0"}},
		{"long token", []string{"0BB 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0", "0 0 0 0 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse(tt.rows); err == nil {
				t.Errorf("Parse(%q) succeeded, want an error", tt.rows)
			}
		})
	}
}
