package observation

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: the token form never panics, and what it accepts prints back
// to rows that parse to the same board.
func FuzzParse(f *testing.F) {
	f.Add("0 0 1 0 0|0 2L 0 0 0|0 0 0 1B 0|0 0 0 0 0|4 0 0 0 0D")
	f.Add("0 0 0 0 0|0 0 0 0 0|0 0 0 0 0|0 0 0 0 0|0 0 0 0 0")
	f.Add("4B 0|||")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			t.Skip()
		}
		b, err := Parse(strings.Split(s, "|"))
		if err != nil {
			return
		}
		again, err := Parse(b.Tokens())
		if err != nil {
			t.Fatalf("Tokens() of an accepted board does not parse: %v", err)
		}
		if !reflect.DeepEqual(again, b) {
			t.Fatalf("round trip changed the board: %v -> %v", b.Tokens(), again.Tokens())
		}
	})
}
