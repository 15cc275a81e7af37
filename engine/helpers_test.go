package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// flat is the terrain of a board of land only.
const flat = "..... ..... ..... ..... ....."

// pos builds a position through CONTRACT.md's JSON: terrain and levels are
// five space-separated rows A-E, builders space-separated cells, enemies
// comma-separated "pawn cell facing" items, e.g. "light-female C3 N".
func pos(t testing.TB, terrain, levels, builders, enemies string) Position {
	t.Helper()
	j := map[string]any{
		"terrain":  strings.Fields(terrain),
		"levels":   strings.Fields(levels),
		"builders": strings.Fields(builders),
		"god":      nil,
	}
	es := []map[string]string{}
	for _, item := range strings.Split(enemies, ",") {
		f := strings.Fields(item)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			t.Fatalf("enemy %q: want \"pawn cell facing\"", item)
		}
		es = append(es, map[string]string{"pawn": f[0], "cell": f[1], "facing": f[2]})
	}
	j["enemies"] = es
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePosition(data)
	if err != nil {
		t.Fatalf("test position: %v", err)
	}
	return p
}

// cell reads a cell name or fails the test.
func cell(t testing.TB, s string) Cell {
	t.Helper()
	c, err := ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cells reads space-separated cell names; "" gives nil.
func cells(t testing.TB, s string) []Cell {
	t.Helper()
	var cs []Cell
	for _, f := range strings.Fields(s) {
		cs = append(cs, cell(t, f))
	}
	return cs
}

// turn reads a turn or fails the test.
func turn(t testing.TB, s string) Turn {
	t.Helper()
	u, err := ParseTurn(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// levelsString gives the levels as five space-separated rows.
func levelsString(p Position) string {
	var b strings.Builder
	for c := Cell(0); c < NumCells; c++ {
		if c > 0 && c%5 == 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(byte('0' + p.Levels[c]))
	}
	return b.String()
}

// enemiesString gives the enemies as pos reads them.
func enemiesString(p Position) string {
	var parts []string
	for _, e := range p.Enemies {
		parts = append(parts, e.Pawn.String()+" "+e.Cell.String()+" "+e.Facing.String())
	}
	return strings.Join(parts, ", ")
}

// buildersString gives the builders as pos reads them.
func buildersString(p Position) string {
	var parts []string
	for _, b := range p.Builders {
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ")
}
