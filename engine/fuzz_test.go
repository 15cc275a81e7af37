package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuzzInput caps fuzz inputs: a position's JSON is a few hundred bytes.
const maxFuzzInput = 1 << 12

// addPositionSeeds adds every position of testdata/enemy_turn to f, with
// extra fuzz arguments.
func addPositionSeeds(f *testing.F, extra ...any) {
	files, err := filepath.Glob(filepath.Join("testdata", "enemy_turn", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds in testdata/enemy_turn: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var v vector
		if err := json.Unmarshal(data, &v); err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		f.Add(append([]any{[]byte(v.State)}, extra...)...)
		f.Add(append([]any{[]byte(v.StateAfter)}, extra...)...)
	}
}

// FuzzParsePosition: ParsePosition never panics, and a position it accepts
// is valid and survives a round trip through CONTRACT.md's JSON.
func FuzzParsePosition(f *testing.F) {
	addPositionSeeds(f)
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{"terrain":null}`,
		`{"terrain":[".....",".....",".....",".....","....."],"levels":["00000","00000","00000","00000","00000"],"builders":["A1","A1"],"enemies":[],"god":null}`,
		`{"terrain":[".....",".....",".....",".....","....."],"levels":["00000","00000","00000","00000","00004"],"builders":["E5"],"enemies":[],"god":{"card":"Zeus","side":"enemy"}}`,
		`{"terrain":["W....",".....",".....",".....","....."],"levels":["10000","00000","00000","00000","00000"],"builders":[],"enemies":[{"pawn":"dark-male","cell":"Z9","facing":"Q"}],"god":null} trailing`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		p, err := ParsePosition(data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParsePosition accepted an invalid position: %v", err)
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		q, err := ParsePosition(out)
		if err != nil {
			t.Fatalf("parse of %s: %v", out, err)
		}
		if !q.Equal(p) {
			t.Fatalf("round trip changed the position:\n  %s\n  %s", out, mustJSON(t, q))
		}
		if again, _ := json.Marshal(q); string(again) != string(out) {
			t.Fatalf("marshal is not stable:\n  %s\n  %s", out, again)
		}
	})
}

// FuzzParseTurn: ParseTurn never panics, and a turn it accepts has cells on
// the board and prints back to a text it reads the same.
func FuzzParseTurn(f *testing.F) {
	for _, s := range []string{"B2-C3 C4", "b2-c3 c4", " E5-D4  E5 ", "", "B2C3 C4", "B2-C3", "B2-C3 C4 D5", "A0-A1 A2", "F1-E1 E2", "B2--C3 C4", "B2-C3\tC4", "é1-A1 A2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzzInput {
			return
		}
		u, err := ParseTurn(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "turn ") {
				t.Fatalf("error without context: %v", err)
			}
			return
		}
		if !u.From.Valid() || !u.To.Valid() || !u.Build.Valid() {
			t.Fatalf("ParseTurn(%q) = %v: a cell off the board", s, u)
		}
		back, err := ParseTurn(u.String())
		if err != nil || back != u {
			t.Fatalf("ParseTurn(%q) = %v, printed %q, read back %v, %v", s, u, u.String(), back, err)
		}
		if !strings.EqualFold(strings.Join(strings.Fields(s), " "), u.String()) {
			t.Fatalf("ParseTurn(%q) = %v: not the same text", s, u)
		}
	})
}

// FuzzEnemyTurn: from any position ParsePosition accepts, EnemyTurn with
// any dice never panics; when it plays, every invariant of the random games
// holds, and so does a legal player turn after it.
func FuzzEnemyTurn(f *testing.F) {
	addPositionSeeds(f, []byte{0, 1, 2, 3}, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, dice []byte, pick uint8) {
		if len(data) > maxFuzzInput {
			return
		}
		p, err := ParsePosition(data)
		if err != nil {
			return
		}
		ds := make([]int, len(p.Enemies))
		for i := range ds {
			if i < len(dice) {
				ds[i] = 1 + int(dice[i])%6
			} else {
				ds[i] = 1 + i%6
			}
		}
		q, events, res, err := EnemyTurn(p, ds)
		if err != nil {
			if Status(p).Outcome == Playing {
				t.Fatalf("EnemyTurn refused a playing position: %v", err)
			}
			return
		}
		checkEnemyTurn(t, p, q, events, res)
		if res.Outcome != Playing {
			return
		}
		turns := LegalTurns(q)
		u := turns[int(pick)%len(turns)]
		after, res, err := PlayerTurn(q, u)
		if err != nil {
			t.Fatalf("legal turn %v refused: %v", u, err)
		}
		checkPlayerTurn(t, q, after, u, res)
		if got, err := InferTurn(q, after.Board()); err != nil || len(got) != 1 || got[0] != u {
			t.Fatalf("InferTurn after %v = %v, %v", u, got, err)
		}
	})
}
