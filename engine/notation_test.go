package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseTurn(t *testing.T) {
	tests := []struct {
		in   string
		want string // Turn.String(), or "" for an error
		err  string // in the error
	}{
		{"B2-C3 C4", "B2-C3 C4", ""},
		{"b2-c3 c4", "B2-C3 C4", ""},
		{"  E5-D4   E5 ", "E5-D4 E5", ""},
		{"A1-B2\tA1", "A1-B2 A1", ""},
		{"", "", "want FROM-TO BUILD"},
		{"B2-C3", "", "want FROM-TO BUILD"},
		{"B2-C3 C4 D5", "", "want FROM-TO BUILD"},
		{"B2 C3 C4", "", "want FROM-TO BUILD"},
		{"B2C3 C4", "", "needs a dash"},
		{"B2-C3-D4 C4", "", "move to"},
		{"F2-C3 C4", "", "move from"},
		{"B0-C3 C4", "", "move from"},
		{"B2-C6 C4", "", "move to"},
		{"B2- C4", "", "move to"},
		{"B2-C3 C", "", "build"},
		{"B2-C3 C44", "", "build"},
		{"B2–C3 C4", "", "needs a dash"}, // an en dash is not a dash
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTurn(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("ParseTurn(%q) = %v, %v; want an error containing %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got.String() != tt.want {
				t.Errorf("ParseTurn(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestTurnJSON(t *testing.T) {
	in := Turn{From: cell(t, "B2"), To: cell(t, "C3"), Build: cell(t, "C4")}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `"B2-C3 C4"` {
		t.Fatalf("json.Marshal = %s, %v", b, err)
	}
	var back Turn
	if err := json.Unmarshal(b, &back); err != nil || back != in {
		t.Errorf("read back %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`"B2C3"`), &back); err == nil {
		t.Errorf("\"B2C3\" read as a turn")
	}
	if _, err := json.Marshal(Turn{From: NoCell}); err == nil {
		t.Errorf("a turn from NoCell marshalled")
	}
}
