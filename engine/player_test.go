package engine

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// ruleBoard is the position of TestPlayerTurnRules:
//
//	     1  2  3  4  5
//	A    0  0  0  0  0
//	B    4  0  2D 0  0     B1 a dome; the dark male on B3 (level 2)
//	C    2  0B 0  4  0     the builder on C2; C4 a dome
//	D    W  1  0L 0  0     D1 water; the light female on D3
//	E    0B 0  T  0  0     a builder on E1; E3 a target zone
func ruleBoard(t testing.TB) Position {
	return pos(t, "..... ..... ..... W.... ..T..", "00000 40200 20040 01000 00000", "C2 E1", "dark-male B3 S, light-female D3 N")
}

// TestPlayerTurnRules: one illegal turn per rule of RULES.md "Player turn".
func TestPlayerTurnRules(t *testing.T) {
	board := ruleBoard(t)
	tests := []struct {
		name string
		p    Position
		turn string
		rule string
		cell string
		msg  string // the whole message, when not empty
	}{
		{"no builder on From", board, "A1-A2 A3", RuleNoBuilder, "A1", "there is no builder on A1: a turn moves one of the player's builders."},
		{"move two cells away", board, "C2-A2 A3", RuleMoveNotAdjacent, "A2", "A2 is not next to C2: a builder moves to one of the 8 cells next to it."},
		{"move to its own cell", board, "C2-C2 C3", RuleMoveNotAdjacent, "C2", ""},
		{"move onto an enemy", board, "C2-D3 D4", RuleMoveOntoPawn, "D3", "D3 holds the light female: a builder cannot move onto a pawn."},
		{"move onto a builder", pos(t, flat, "10000 00000 00000 00000 00000", "B2 C2", "light-female E5 N"), "B2-C2 C3", RuleMoveOntoPawn, "C2", "C2 holds a builder: a builder cannot move onto a pawn."},
		{"move onto water", board, "C2-D1 C1", RuleMoveOntoWater, "D1", "D1 is water: a builder cannot move onto water."},
		{"move onto a dome", board, "C2-B1 A1", RuleMoveOntoDome, "B1", "B1 has a dome: a builder cannot move onto a dome."},
		{"move up two levels", board, "C2-C1 B2", RuleMoveUpTooHigh, "C1", "C1 is two levels higher than C2: a builder moves up at most one level."},
		{"build two cells away", board, "C2-D2 B2", RuleBuildNotAdjacent, "B2", "B2 is not next to D2: a builder builds on one of the 8 cells next to it."},
		{"build under itself", board, "C2-D2 D2", RuleBuildNotAdjacent, "D2", ""},
		{"build on water", board, "C2-D2 D1", RuleBuildOnWater, "D1", "D1 is water: nothing is built on water."},
		{"build on a target zone", board, "C2-D2 E3", RuleBuildOnTargetZone, "E3", "E3 is a target zone: nothing is built on a target zone."},
		{"build on a dome", board, "C2-B2 B1", RuleBuildOnDome, "B1", "B1 has a dome: nothing is built on a dome."},
		{"build on the other builder", board, "C2-D2 E1", RuleBuildOnBuilder, "E1", "E1 holds a builder: nothing is built on a builder's cell."},
		{"build on a higher enemy", board, "C2-B2 B3", RuleBuildOnEnemyNotLower, "B3", ""},
		{"build on an enemy at the same level", pos(t, flat, "00000 00000 01100 00000 00000", "B2 E5", "light-female C3 N"), "B2-C2 C3", RuleBuildOnEnemyNotLower, "C3",
			"C3 (level 1, the light female) is not lower than C2 (level 1), where the builder stands: a builder builds on an enemy's cell only when that cell is lower than its own."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.p.Clone()
			got, _, err := PlayerTurn(tt.p, turn(t, tt.turn))
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a *RuleError", err)
			}
			if re.Rule != tt.rule || re.Cell != cell(t, tt.cell) {
				t.Errorf("rule %s at %v, want %s at %s (%s)", re.Rule, re.Cell, tt.rule, tt.cell, re.Msg)
			}
			if tt.msg != "" && re.Msg != tt.msg {
				t.Errorf("message\n  got  %q\n  want %q", re.Msg, tt.msg)
			}
			if !strings.Contains(re.Msg, tt.cell) || re.Error() != re.Msg {
				t.Errorf("message %q does not name %s", re.Msg, tt.cell)
			}
			if !reflect.DeepEqual(got, before) || !reflect.DeepEqual(tt.p, before) {
				t.Errorf("an illegal turn changed the position")
			}
		})
	}
}

// TestPlayerTurnLegal: what a legal turn does (RULES.md "Player turn").
func TestPlayerTurnLegal(t *testing.T) {
	tests := []struct {
		name     string
		p        Position
		turn     string
		levels   string
		builders string
		enemies  string
		outcome  Outcome
	}{
		{"move up one level, build on an enemy lower down: it is defeated", ruleBoard(t), "C2-D2 D3",
			"00000 40200 20040 01100 00000", "D2 E1", "dark-male B3 S", Playing},
		{"build on the cell just left", ruleBoard(t), "C2-D2 C2",
			"00000 40200 21040 01000 00000", "D2 E1", "light-female D3 N, dark-male B3 S", Playing},
		{"level 3 plus a block is a dome", pos(t, flat, "00000 00300 00000 00000 00000", "C3 E5", "light-female E1 N"), "C3-C2 B3",
			"00000 00400 00000 00000 00000", "C2 E5", "light-female E1 N", Playing},
		{"move down three levels, dome the tower left", pos(t, flat, "00000 00000 00300 00000 00000", "C3 E5", "light-female E1 N"), "C3-C2 C3",
			"00000 00000 00400 00000 00000", "C2 E5", "light-female E1 N", Playing},
		{"a builder may stand on a target zone", pos(t, "..... ..... .T... ..... .....", "00000 00000 00100 00000 00000", "C3", "light-female E1 N"), "C3-C2 C3",
			"00000 00000 00200 00000 00000", "C2", "light-female E1 N", Playing},
		{"the last enemy defeated: won", pos(t, flat, "00000 00000 00000 01000 00000", "C2 E1", "light-female D3 N"), "C2-D2 D3",
			"00000 00000 00000 01100 00000", "D2 E1", "", Won},
		{"the second builder moves", ruleBoard(t), "E1-E2 E1",
			"00000 40200 20040 01000 10000", "C2 E2", "light-female D3 N, dark-male B3 S", Playing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.p.Clone()
			got, res, err := PlayerTurn(tt.p, turn(t, tt.turn))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tt.p, before) {
				t.Errorf("PlayerTurn changed its input position")
			}
			if s := levelsString(got); s != tt.levels {
				t.Errorf("levels %s, want %s", s, tt.levels)
			}
			if s := buildersString(got); s != tt.builders {
				t.Errorf("builders %q, want %q", s, tt.builders)
			}
			if s := enemiesString(got); s != tt.enemies {
				t.Errorf("enemies %q, want %q", s, tt.enemies)
			}
			if res.Outcome != tt.outcome {
				t.Errorf("outcome %v (%s), want %v", res.Outcome, res.Reason, tt.outcome)
			}
			if res.Outcome == Won && res.Reason != ReasonNoEnemy {
				t.Errorf("reason %q, want %q", res.Reason, ReasonNoEnemy)
			}
		})
	}
}

func TestPlayerTurnNotPlayedOn(t *testing.T) {
	tests := []struct {
		name string
		p    Position
		want string
	}{
		{"won", pos(t, flat, "00000 00000 00000 01000 00000", "C2", ""), "already won"},
		{"lost: enemy on a target zone", pos(t, "..... ..... ..... ..... ....T", "00000 00000 00000 01000 00000", "C2", "dark-male E5 N"), "already lost"},
		{"lost: no building", pos(t, flat, "00000 00000 00000 00000 00000", "C2", "dark-male E5 N"), "already lost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := PlayerTurn(tt.p, turn(t, "C2-C3 C4"))
			var re *RuleError
			if err == nil || errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want a plain error containing %q", err, tt.want)
			}
		})
	}
}

// TestRuleIDs: every rule has a distinct kebab-case id.
func TestRuleIDs(t *testing.T) {
	seen := map[string]bool{}
	for r := ruleNoBuilder; int(r) < len(ruleIDs); r++ {
		id := ruleIDs[r]
		if id == "" || strings.Trim(id, "abcdefghijklmnopqrstuvwxyz-") != "" || seen[id] {
			t.Errorf("rule %d: id %q empty, not kebab-case or repeated", r, id)
		}
		seen[id] = true
	}
}
