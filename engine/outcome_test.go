package engine

import (
	"encoding/json"
	"testing"
)

func TestStatus(t *testing.T) {
	tests := []struct {
		name string
		p    Position
		want Result
	}{
		{"playing", pos(t, flat, "10000 00000 00000 00000 00000", "C3", "light-female E5 N"), Result{Playing, ""}},
		{"won: no enemy left", pos(t, flat, "10000 00000 00000 00000 00000", "C3", ""), Result{Won, ReasonNoEnemy}},
		{"lost: no building", pos(t, flat, "00000 00000 00000 00000 00000", "C3", "light-female E5 N"), Result{Lost, ReasonNoBuilding}},
		{"lost: an enemy on a target zone", pos(t, "..... ..... ..... ..... ....T", "10000 00000 00000 00000 00000", "C3", "light-female E5 N"), Result{Lost, "the light-female is on the target zone E5"}},
		{"lost: no builder", pos(t, flat, "10000 00000 00000 00000 00000", "", "light-female E5 N"), Result{Lost, ReasonNoBuilder}},
		{"a loss comes before a win", pos(t, flat, "00000 00000 00000 00000 00000", "C3", ""), Result{Lost, ReasonNoBuilding}},
		{"hemmed-in builders still playing: the enemy turn comes first", pos(t, flat, "04000 44000 00000 00000 00000", "A1", "light-female E5 N"), Result{Playing, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Status(tt.p); got != tt.want {
				t.Errorf("Status = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCanPlayerAct(t *testing.T) {
	tests := []struct {
		name string
		p    Position
		want bool
	}{
		{"open board", pos(t, flat, "10000 00000 00000 00000 00000", "C3", "light-female E5 N"), true},
		{"hemmed in by domes", pos(t, flat, "04000 44000 00000 00000 00000", "A1", "light-female E5 N"), false},
		{"one builder stuck, the other free", pos(t, flat, "04000 44000 00000 00000 00000", "A1 E1", "light-female E5 N"), true},
		{"hemmed in by pawns and a cliff", pos(t, flat, "02000 00000 00000 00000 00000", "A1 B1", "light-female B2 N"), true},
		{"no builder", pos(t, flat, "10000 00000 00000 00000 00000", "", "light-female E5 N"), false},
		{"not a position", Position{Builders: []Cell{30}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CanPlayerAct(tt.p); got != tt.want {
				t.Errorf("CanPlayerAct = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOutcomeText(t *testing.T) {
	for _, o := range []Outcome{Playing, Won, Lost} {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil || back != o {
			t.Errorf("%v: JSON %s read back as %v, %v", o, b, back, err)
		}
	}
	if _, err := json.Marshal(Outcome(7)); err == nil {
		t.Errorf("outcome 7 marshalled")
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("draw")); err == nil {
		t.Errorf("\"draw\" read as an outcome")
	}
	if s := Outcome(7).String(); s != "outcome(7)" {
		t.Errorf("Outcome(7).String() = %q", s)
	}
}
