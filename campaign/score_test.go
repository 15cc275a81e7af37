package campaign

import (
	"slices"
	"testing"

	"companion/engine"
)

// pos builds a position from CONTRACT.md's JSON.
func pos(t *testing.T, js string) engine.Position {
	t.Helper()
	p, err := engine.ParsePosition([]byte(js))
	if err != nil {
		t.Fatalf("position: %v", err)
	}
	return p
}

const setupJSON = `{"terrain": [".....", ".....", "WW.WW", ".....", "..T.."],
 "levels": ["00000", "01200", "00000", "00000", "00000"],
 "builders": ["D2", "D4"],
 "enemies": [{"pawn": "light-female", "cell": "A1", "facing": "S"}]}`

func TestScore(t *testing.T) {
	setup := pos(t, setupJSON)
	info := ScenarioInfo{Number: 3, Name: "The Citadel", Level: 2, Setup: setup}
	withLevels := func(levels string, builders string) engine.Position {
		return pos(t, `{"terrain": [".....", ".....", "WW.WW", ".....", "..T.."],
		 "levels": [`+levels+`], "builders": [`+builders+`], "enemies": []}`)
	}
	tests := []struct {
		name    string
		attempt int
		final   engine.Position
		bonuses []string
		points  int
	}{
		{"first attempt, both builders, +3 levels: every bonus", 1,
			withLevels(`"00000", "01200", "00000", "11100", "00000"`, `"D2", "D4"`),
			[]string{BonusFirst, BonusAlive, BonusBuildings}, 2 + 6},
		{"second attempt: no First!", 2,
			withLevels(`"00000", "01200", "00000", "11100", "00000"`, `"D2", "D4"`),
			[]string{BonusAlive, BonusBuildings}, 2 + 4},
		{"a builder lost: no Stayin' alive", 1,
			withLevels(`"00000", "01200", "00000", "11100", "00000"`, `"D2"`),
			[]string{BonusFirst, BonusBuildings}, 2 + 4},
		{"+2 levels only: no Buildings bonus (guards >= 3, not > 2 off by one)", 1,
			withLevels(`"00000", "01200", "00000", "11000", "00000"`, `"D2", "D4"`),
			[]string{BonusFirst, BonusAlive}, 2 + 4},
		{"levels moved, not added: the sum counts, not the count of buildings", 3,
			withLevels(`"00000", "00000", "00000", "30300", "00000"`, `"D4"`),
			[]string{BonusBuildings}, 2 + 2},
		{"nothing", 4,
			withLevels(`"00000", "01100", "00000", "00000", "00000"`, `"D4"`),
			[]string{}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Score(info, tt.attempt, tt.final)
			if !slices.Equal(s.Bonuses, tt.bonuses) {
				t.Errorf("bonuses = %q, want %q", s.Bonuses, tt.bonuses)
			}
			if s.Points != tt.points {
				t.Errorf("points = %d, want %d", s.Points, tt.points)
			}
			if s.Scenario != 3 || s.Name != "The Citadel" || s.Level != 2 || s.Attempts != tt.attempt {
				t.Errorf("score names %+v, want scenario 3 level 2 attempt %d", s, tt.attempt)
			}
		})
	}
}

func TestDifficultyPoints(t *testing.T) {
	tests := []struct {
		d    Difficulty
		want int
	}{{Normal, 0}, {Easy, -2}, {Expert, 2}}
	for _, tt := range tests {
		t.Run(string(tt.d), func(t *testing.T) {
			if got := DifficultyPoints(tt.d); got != tt.want {
				t.Errorf("DifficultyPoints(%s) = %d, want %d", tt.d, got, tt.want)
			}
		})
	}
}

func TestRank(t *testing.T) {
	tests := []struct {
		total int
		want  string
	}{
		{-2, "Novice"}, {0, "Novice"}, {9, "Novice"},
		{10, "Apprentice"}, {19, "Apprentice"},
		{20, "Assistant"}, {29, "Assistant"},
		{30, "Journeyman"}, {39, "Journeyman"},
		{40, "Master"}, {49, "Master"},
		{50, "Guild Master"}, {80, "Guild Master"},
	}
	for _, tt := range tests {
		if got := Rank(tt.total); got != tt.want {
			t.Errorf("Rank(%d) = %q, want %q", tt.total, got, tt.want)
		}
	}
}
