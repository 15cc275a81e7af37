package engine

import (
	"strings"
	"testing"
)

const goodPosition = `{"terrain":[".....",".....","WW.WW",".....","..T.."],
 "levels":["00000","01200","00000","00030","00004"],
 "builders":["D2","D4"],
 "enemies":[{"pawn":"dark-male","cell":"A5","facing":"S"},{"pawn":"light-female","cell":"A1","facing":"S"}],
 "god":null}`

func TestParsePosition(t *testing.T) {
	p, err := ParsePosition([]byte(goodPosition))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Enemies) != 2 || p.Enemies[0].Pawn != LightFemale {
		t.Errorf("enemies not in resolution order: %+v", p.Enemies)
	}
	if p.Terrain[CellAt(2, 0)] != Water || p.Terrain[CellAt(4, 2)] != Target || p.Levels[CellAt(4, 4)] != Dome {
		t.Errorf("grid misread: %+v", p)
	}
}

func TestParsePositionErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"empty", ``, "ends too early"},
		{"truncated", goodPosition[:60], "ends too early"},
		{"not JSON", `terrain: .....`, "not CONTRACT.md's position JSON"},
		{"trailing data", goodPosition + `{}`, "after the JSON object"},
		{"no levels", `{"terrain":[".....",".....",".....",".....","....."]}`, `needs "terrain" and "levels"`},
		{"four rows", strings.Replace(goodPosition, `"00000","01200",`, `"01200",`, 1), "needs 5 rows"},
		{"short row", strings.Replace(goodPosition, `"01200"`, `"0120"`, 1), "needs 5 characters"},
		{"level 5", strings.Replace(goodPosition, `"01200"`, `"01500"`, 1), "is not one of"},
		{"bad terrain", strings.Replace(goodPosition, `"WW.WW"`, `"WX.WW"`, 1), "is not one of"},
		{"bad cell", strings.Replace(goodPosition, `"D2"`, `"Z9"`, 1), `cell "Z9"`},
		{"bad pawn", strings.Replace(goodPosition, `dark-male`, `dark-knight`, 1), `pawn "dark-knight"`},
		{"bad facing", strings.Replace(goodPosition, `"facing":"S"}]`, `"facing":"Q"}]`, 1), `facing "Q"`},
		{"two pawns on a cell", strings.Replace(goodPosition, `"D4"`, `"D2"`, 1), "two pawns on one cell"},
		{"pawn on water", strings.Replace(goodPosition, `"D4"`, `"C1"`, 1), "stands on water"},
		{"pawn on a dome", strings.Replace(goodPosition, `"D4"`, `"E5"`, 1), "stands on a dome"},
		{"three builders", strings.Replace(goodPosition, `"D4"]`, `"D4","E1","E2"]`, 1), "at most 2"},
		{"enemy twice", strings.Replace(goodPosition, `dark-male`, `light-female`, 1), "appears twice"},
		{"bad god side", strings.Replace(goodPosition, `"god":null`, `"god":{"card":"Zeus","side":"both"}`, 1), "god side"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePosition([]byte(tt.json))
			if err == nil {
				t.Fatalf("no error, want one mentioning %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "position: ") {
				t.Errorf("error %q, want it to start with \"position: \" and mention %q", err, tt.want)
			}
		})
	}
}
