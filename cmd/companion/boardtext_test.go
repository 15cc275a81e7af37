package main

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"companion/engine"
)

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestDrawBoard(t *testing.T) {
	p, err := engine.ParsePosition([]byte(`{"terrain": [".....", ".....", "WW.WW", ".....", "..T.."],
	 "levels": ["00000", "01200", "00000", "00030", "00004"], "builders": ["D2", "D4"],
	 "enemies": [{"pawn": "light-female", "cell": "A1", "facing": "S"}, {"pawn": "dark-male", "cell": "A5", "facing": "W"},
	             {"pawn": "light-male", "cell": "B5", "facing": "N"}, {"pawn": "dark-female", "cell": "E1", "facing": "E"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		style boardStyle
		want  []string
		color bool
	}{
		{"plain ASCII", boardStyle{ASCII: true}, []string{"LFv", "DM<", "LM^", "DF>", "~~~~~~", "T0", "4   ", "3 B"}, false},
		{"Unicode", boardStyle{}, []string{"LF▼", "DM◀", "LM▲", "DF▶"}, false},
		{"colour", boardStyle{Color: true}, []string{ansiBuilder + "B" + ansiReset, ansiLight + "LF▼" + ansiReset, ansiDark + "DM◀" + ansiReset}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			drawBoard(&b, p, tt.style)
			out := b.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("board lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "\x1b[") != tt.color {
				t.Errorf("ANSI codes present: %v, want %v", !tt.color, tt.color)
			}
			// Every grid line is as wide as the border, colours or not.
			lines := strings.Split(out, "\n")
			width := utf8.RuneCountInString(lines[1])
			for _, l := range lines[1:12] {
				if got := utf8.RuneCountInString(ansi.ReplaceAllString(l, "")); got != width {
					t.Errorf("line %q is %d wide, want %d", l, got, width)
				}
			}
			if !strings.Contains(out, "Light female A1 facing south; Dark male A5 facing west") {
				t.Errorf("no line in words for the pawns:\n%s", out)
			}
		})
	}
}

func TestStyleFor(t *testing.T) {
	tests := []struct {
		name    string
		tty     bool
		noColor string
		ascii   bool
		want    boardStyle
	}{
		{"terminal", true, "", false, boardStyle{Color: true}},
		{"terminal, NO_COLOR", true, "1", false, boardStyle{}},
		{"terminal, --ascii", true, "", true, boardStyle{Color: true, ASCII: true}},
		{"pipe", false, "", false, boardStyle{ASCII: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io := &streams{OutTTY: tt.tty}
			got := styleFor(io, func(k string) string {
				if k == "NO_COLOR" {
					return tt.noColor
				}
				return ""
			}, tt.ascii)
			if got != tt.want {
				t.Errorf("style %+v, want %+v", got, tt.want)
			}
		})
	}
}
