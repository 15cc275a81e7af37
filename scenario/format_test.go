package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"companion/engine"
)

// good is a complete valid file; the error cases below each break one thing.
const good = `# A comment, then every key.
name: Test Map
level: 2
about: Just a test.
map:
#    1  2  3  4  5
  A  .  .  1  .  .
  B  W  W  .  W  W
  C  0  2  3  4  .
  D  .  t  T3 .  .
  E  .  .  .  .  1
builders: D1 D5
enemy: dark-male A1 facing E
enemy: light-female A3 facing s
`

func TestParseGood(t *testing.T) {
	s, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "Test Map" || s.Level != 2 || s.About != "Just a test." || s.Number != 0 {
		t.Errorf("header = %q %d %q %d", s.Name, s.Level, s.About, s.Number)
	}
	p := s.Setup
	cell := func(name string) engine.Cell {
		c, err := engine.ParseCell(name)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	checks := []struct {
		cell    string
		terrain engine.Terrain
		level   engine.Level
	}{
		{"A3", engine.Land, 1}, {"B1", engine.Water, 0}, {"C1", engine.Land, 0},
		{"C4", engine.Land, 4}, {"D2", engine.Target, 0}, {"D3", engine.Target, 3},
		{"E5", engine.Land, 1},
	}
	for _, c := range checks {
		i := cell(c.cell)
		if p.Terrain[i] != c.terrain || p.Levels[i] != c.level {
			t.Errorf("%s = terrain %d level %d, want %d %d", c.cell, p.Terrain[i], p.Levels[i], c.terrain, c.level)
		}
	}
	if want := []engine.Cell{cell("D1"), cell("D5")}; !reflect.DeepEqual(p.Builders, want) {
		t.Errorf("builders = %v, want %v", p.Builders, want)
	}
	// The file lists dark-male first; the setup keeps resolution order.
	want := []engine.Enemy{{Pawn: engine.LightFemale, Cell: cell("A3"), Facing: engine.S}, {Pawn: engine.DarkMale, Cell: cell("A1"), Facing: engine.E}}
	if !reflect.DeepEqual(p.Enemies, want) {
		t.Errorf("enemies = %v, want %v", p.Enemies, want)
	}
}

func TestParseErrors(t *testing.T) {
	// Each case edits good: replace old by new; the error must name line and problem.
	tests := []struct {
		name, old, new string
		line           int
		want           string
	}{
		{"unknown key", "level: 2", "lvl: 2", 3, `unknown key "lvl"`},
		{"not a key", "about: Just a test.", "Just a test.", 4, "is not \"key: value\""},
		{"duplicate key", "about: Just a test.", "name: Again", 4, `"name" given twice (first on line 2)`},
		{"empty name", "name: Test Map", "name:", 2, "name is empty"},
		{"control character in name", "name: Test Map", "name: Test\x01Map", 2, "control character"},
		{"bad level", "level: 2", "level: two", 3, `level "two"`},
		{"negative level", "level: 2", "level: -1", 3, `level "-1"`},
		{"map value on its line", "map:", "map: 1 2 3", 5, "stands alone"},
		{"short row", "  C  0  2  3  4  .", "  C  0  2  3  4", 9, "map row C has 4 cells, want 5"},
		{"long row", "  C  0  2  3  4  .", "  C  0  2  3  4  .  .", 9, "map row C has 6 cells"},
		{"unspaced row", "  C  0  2  3  4  .", "  C  0234.", 9, "separate the 5 cells with spaces"},
		{"bad cell", "  C  0  2  3  4  .", "  C  0  2  5  4  .", 9, `map row C column 3: "5" is not a cell`},
		{"bad target level", "  D  .  t  T3 .  .", "  D  .  t  T5 .  .", 10, `column 3: "T5"`},
		{"wrong row label", "  C  0  2  3  4  .", "  D  0  2  3  4  .", 9, "map row labelled D where row C belongs"},
		{"missing row", "  E  .  .  .  .  1\n", "", 11, "map row E missing"},
		{"water with a level", "  B  W  W  .  W  W", "  B  W2 W  .  W  W", 8, `"W2" is not a cell`},
		{"no builders listed", "builders: D1 D5", "builders:", 12, "list the cells of 1 or 2 builders"},
		{"three builders", "builders: D1 D5", "builders: D1 D5 E1", 12, "3 listed, the player has at most 2"},
		{"bad builder cell", "builders: D1 D5", "builders: D1 F5", 12, `cell "F5"`},
		{"two builders on a cell", "builders: D1 D5", "builders: D1 D1", 12, "where line 12 already put a builder"},
		{"builder on water", "builders: D1 D5", "builders: B1 D5", 12, "a builder on B1 stands on water"},
		{"builder on a dome", "builders: D1 D5", "builders: C4 D5", 12, "stands on a dome"},
		{"enemy on a builder", "enemy: dark-male A1", "enemy: dark-male D1", 13, "the dark-male on D1, where line 12 already put a builder"},
		{"enemy on water", "enemy: dark-male A1", "enemy: dark-male B2", 13, "the dark-male on B2 stands on water"},
		{"enemy on a target zone", "enemy: dark-male A1", "enemy: dark-male D2", 13, "starts on target zone D2"},
		{"unknown pawn", "enemy: dark-male A1", "enemy: grey-male A1", 13, `pawn "grey-male"`},
		{"bad facing", "enemy: dark-male A1 facing E", "enemy: dark-male A1 facing X", 13, `facing "X"`},
		{"enemy without facing", "enemy: dark-male A1 facing E", "enemy: dark-male A1", 13, "want \"enemy: PAWN CELL facing DIR\""},
		{"enemy twice", "enemy: dark-male A1", "enemy: light-female A1", 14, "light-female listed twice"},
		{"no name", "name: Test Map\n", "", 0, "no name"},
		{"map rows without map:", "map:\n", "", 6, "a map row must follow \"map:\""},
		{"no map", "map:\n#    1  2  3  4  5\n  A  .  .  1  .  .\n  B  W  W  .  W  W\n  C  0  2  3  4  .\n  D  .  t  T3 .  .\n  E  .  .  .  .  1\n", "", 0, "no map"},
		{"no builders", "builders: D1 D5\n", "", 0, "no builders"},
		{"no enemy", "enemy: dark-male A1 facing E\nenemy: light-female A3 facing s\n", "", 0, "no enemy"},
		{"map cut short", "map:\n#    1  2  3  4  5\n  A  .  .  1  .  .\n  B  W  W  .  W  W\n  C  0  2  3  4  .\n  D  .  t  T3 .  .\n  E  .  .  .  .  1\nbuilders: D1 D5\nenemy: dark-male A1 facing E\nenemy: light-female A3 facing s\n",
			"builders: D1 D5\nenemy: dark-male A1 facing E\nmap:\n  A  .  .  1  .  .\n", 7, "the map has 1 rows, want 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.Replace(good, tt.old, tt.new, 1)
			if in == good {
				t.Fatalf("case does not change the input: %q not found", tt.old)
			}
			_, err := Parse([]byte(in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error = %v, want a *ParseError", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Msg, tt.want) {
				t.Errorf("Parse error = line %d %q, want line %d containing %q", pe.Line, pe.Msg, tt.line, tt.want)
			}
		})
	}
}

func TestParseCRLFAndCase(t *testing.T) {
	in := strings.ReplaceAll(good, "\n", "\r\n")
	in = strings.Replace(in, "name:", "Name:", 1)
	in = strings.Replace(in, "  A  .", "  a  .", 1)
	a, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("CRLF / case variant parses differently:\n%+v\n%+v", a, b)
	}
}

func TestRoundTrip(t *testing.T) {
	inputs := map[string][]byte{"good": []byte(good)}
	for n := 1; n <= Count; n++ {
		data, err := BuiltinFile(n)
		if err != nil {
			t.Fatal(err)
		}
		inputs[string(rune('0'+n))] = data
	}
	for name, data := range inputs {
		s, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := Format(s)
		s2, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: Format output does not parse: %v\n%s", name, err, out)
		}
		if !reflect.DeepEqual(s, s2) {
			t.Errorf("%s: round trip changed the scenario:\n%+v\n%+v", name, s, s2)
		}
		if out2 := Format(s2); string(out2) != string(out) {
			t.Errorf("%s: Format is not stable:\n%s\n%s", name, out, out2)
		}
	}
}

// TestFormatDoc keeps FORMAT.md's example a valid file: players copy it.
func TestFormatDoc(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("FORMAT.md: no example block")
	}
	s, err := Parse([]byte(example))
	if err != nil {
		t.Fatalf("FORMAT.md example: %v", err)
	}
	if b, _ := Get(1); !reflect.DeepEqual(s.Setup, b.Setup) {
		t.Errorf("FORMAT.md example differs from built-in scenario 1")
	}
}

func TestFormatLooks(t *testing.T) {
	s, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := `name: Test Map
level: 2
about: Just a test.
map:
#    1  2  3  4  5
  A  .  .  1  .  .
  B  W  W  .  W  W
  C  .  2  3  4  .
  D  .  T T3  .  .
  E  .  .  .  .  1
builders: D1 D5
enemy: light-female A3 facing S
enemy: dark-male A1 facing E
`
	if got := string(Format(s)); got != want {
		t.Errorf("Format =\n%s\nwant\n%s", got, want)
	}
}

func TestBuiltin(t *testing.T) {
	ss := Builtin()
	if len(ss) != Count {
		t.Fatalf("%d built-in scenarios, want %d", len(ss), Count)
	}
	wantNames := []string{"The Bridge", "The City Gate", "The Citadel", "The Tower", "The Marketplace", "The Palace"}
	wantLevels := []int{0, 1, 2, 2, 3, 4}
	for i, s := range ss {
		if s.Number != i+1 || s.Name != wantNames[i] || s.Level != wantLevels[i] {
			t.Errorf("scenario %d = %d %q level %d, want %d %q level %d", i+1, s.Number, s.Name, s.Level, i+1, wantNames[i], wantLevels[i])
		}
		if len(s.Setup.Builders) != 2 {
			t.Errorf("%s: %d builders, want 2", s.Name, len(s.Setup.Builders))
		}
		if err := s.Setup.Validate(); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if r := engine.Status(s.Setup); r.Outcome != engine.Playing {
			t.Errorf("%s: setup is already %v: %s", s.Name, r.Outcome, r.Reason)
		}
		if s.About == "" {
			t.Errorf("%s: no about line", s.Name)
		}
	}
	if n1, n6 := len(ss[0].Setup.Enemies), len(ss[5].Setup.Enemies); n1 != 1 || n6 != 4 {
		t.Errorf("enemies: scenario 1 has %d (want 1), scenario 6 has %d (want 4)", n1, n6)
	}
	// Builtin hands out copies: changing one must not change the campaign.
	ss[0].Setup.Builders[0] = engine.NoCell
	if s, _ := Get(1); s.Setup.Builders[0] == engine.NoCell {
		t.Error("Builtin returned the package's own slices")
	}
}

func TestGet(t *testing.T) {
	for _, n := range []int{0, 7, -1} {
		if _, err := Get(n); err == nil {
			t.Errorf("Get(%d): no error", n)
		}
	}
	s, err := Get(6)
	if err != nil || s.Number != 6 || s.Name != "The Palace" {
		t.Errorf("Get(6) = %d %q, %v", s.Number, s.Name, err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(ok, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(ok)
	if err != nil || s.Name != "Test Map" || s.Number != 0 {
		t.Errorf("Load = %q %d, %v", s.Name, s.Number, err)
	}

	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte(strings.Replace(good, "level: 2", "lvl: 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(bad)
	if err == nil || !strings.HasPrefix(err.Error(), "scenario "+bad+": line 3: unknown key") {
		t.Errorf("Load(bad) error = %v, want it to name the file and line", err)
	}

	if _, err := Load(filepath.Join(dir, "missing.txt")); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("Load(missing) error = %v", err)
	}

	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, make([]byte, maxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "not a scenario file") {
		t.Errorf("Load(big) error = %v", err)
	}
}
