package main

import (
	"strings"
	"testing"

	"companion/engine"
)

// FuzzParseMove checks the CLI's --move/--build reading never panics, names
// the flag at fault, and never accepts a turn engine.ParseTurn would read
// differently.
func FuzzParseMove(f *testing.F) {
	for _, seed := range [][2]string{
		{"B2-C3", "C4"}, {"b2-c3", "c4"}, {" A1-E5 ", "E4"}, {"Z9-C3", "C4"}, {"B2C3", "C4"},
		{"B2-C3 C4", ""}, {"B2-", "C4"}, {"-C3", "C4"}, {"B2-C3", "C44"}, {"é1-C3", "C4"}, {"B2--C3", "\x00"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, move, build string) {
		if len(move)+len(build) > 64 {
			t.Skip()
		}
		got, err := parseMove(move, build)
		if err != nil {
			if !strings.Contains(err.Error(), "--move") && !strings.Contains(err.Error(), "--build") {
				t.Errorf("error %q names neither flag", err)
			}
			return
		}
		if !got.From.Valid() || !got.To.Valid() || !got.Build.Valid() {
			t.Fatalf("parseMove(%q, %q) = %v: a cell off the board", move, build, got)
		}
		want, err := engine.ParseTurn(move + " " + build)
		if err != nil || want != got {
			t.Errorf("parseMove(%q, %q) = %v, but ParseTurn says %v, %v", move, build, got, want, err)
		}
		// Round trip through the text form.
		if again, err := engine.ParseTurn(got.String()); err != nil || again != got {
			t.Errorf("round trip of %v: %v, %v", got, again, err)
		}
	})
}
