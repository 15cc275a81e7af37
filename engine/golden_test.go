package engine

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the results in testdata/enemy_turn/*.json from the engine (review the diff!)")

// vector is one golden enemy turn, testdata/enemy_turn/*.json: a position
// in CONTRACT.md's JSON and the dice, then the events, the position after
// and the outcome that EnemyTurn must give.
type vector struct {
	Name       string            `json:"name"`
	Comment    string            `json:"comment,omitempty"`
	State      json.RawMessage   `json:"state"`
	Dice       []int             `json:"dice"`
	Events     []json.RawMessage `json:"events"`
	StateAfter json.RawMessage   `json:"state_after"`
	Outcome    string            `json:"outcome"`
	Reason     string            `json:"reason"`
}

func TestGoldenEnemyTurns(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "enemy_turn", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors in testdata/enemy_turn: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var v vector
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			p, err := ParsePosition(v.State)
			if err != nil {
				t.Fatalf("%s: state: %v", file, err)
			}
			q, events, res, err := EnemyTurn(p, v.Dice)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if *update {
				writeVector(t, file, v, q, events, res)
				return
			}
			if len(events) != len(v.Events) {
				t.Errorf("%d events, want %d", len(events), len(v.Events))
			}
			for i := 0; i < len(events) && i < len(v.Events); i++ {
				got, err := json.Marshal(events[i])
				if err != nil {
					t.Fatal(err)
				}
				if !sameJSON(t, got, v.Events[i]) {
					t.Errorf("event %d:\n  got  %s\n  want %s", i, got, v.Events[i])
				}
			}
			want, err := ParsePosition(v.StateAfter)
			if err != nil {
				t.Fatalf("%s: state_after: %v", file, err)
			}
			if !q.Equal(want) {
				t.Errorf("state after:\n  got  %s\n  want %s", mustJSON(t, q), mustJSON(t, want))
			}
			if res.Outcome.String() != v.Outcome || res.Reason != v.Reason {
				t.Errorf("outcome %v (%q), want %s (%q)", res.Outcome, res.Reason, v.Outcome, v.Reason)
			}
		})
	}
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, a, b []byte) bool {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// writeVector rewrites a vector's results, one event a line.
func writeVector(t *testing.T, file string, v vector, q Position, events []Event, res Result) {
	var b bytes.Buffer
	line := func(key string, val any, comma bool) {
		var j bytes.Buffer
		enc := json.NewEncoder(&j)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(val); err != nil {
			t.Fatal(err)
		}
		b.WriteString("  \"" + key + "\": ")
		b.Write(bytes.TrimSuffix(j.Bytes(), []byte("\n")))
		if comma {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("{\n")
	line("name", v.Name, true)
	if v.Comment != "" {
		line("comment", v.Comment, true)
	}
	var state bytes.Buffer
	if err := json.Compact(&state, v.State); err != nil {
		t.Fatal(err)
	}
	line("state", json.RawMessage(state.Bytes()), true)
	line("dice", v.Dice, true)
	b.WriteString("  \"events\": [\n")
	for i, e := range events {
		j, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("    ")
		b.Write(j)
		if i < len(events)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ],\n")
	line("state_after", q, true)
	line("outcome", res.Outcome.String(), true)
	line("reason", res.Reason, false)
	b.WriteString("}\n")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
