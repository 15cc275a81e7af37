package engine

import (
	"encoding/json"
	"testing"
)

func TestEventJSON(t *testing.T) {
	c3, c4 := Cell(12), Cell(13)
	tests := []struct {
		name string
		e    Event
		want string
	}{
		{"orientation", Event{Phase: PhaseOrientation, Pawn: LightFemale, Facing: E, Turned: true, Text: "Light female: turn to face east."},
			`{"phase":"orientation","pawn":"light-female","facing":"E","turned":true,"text":"Light female: turn to face east."}`},
		{"attack", Event{Phase: PhaseAttack, Pawn: DarkMale, Target: c4, Effect: EffectTopFloorRemoved},
			`{"phase":"attack","pawn":"dark-male","target":"C4","effect":"top-floor-removed"}`},
		{"attack off the board", Event{Phase: PhaseAttack, Pawn: DarkMale, Target: NoCell, Effect: EffectOffBoard},
			`{"phase":"attack","pawn":"dark-male","target":null,"effect":"off-board"}`},
		{"attack on a builder", Event{Phase: PhaseAttack, Pawn: LightMale, Target: c4, Effect: EffectBuilderDefeated, Defeated: []Cell{c4}},
			`{"phase":"attack","pawn":"light-male","target":"C4","effect":"builder-defeated","defeated":["C4"]}`},
		{"move", Event{Phase: PhaseMove, Pawn: DarkFemale, Roll: 5, Path: []Cell{c3, c4}, Facing: S, Blocked: 0, Undone: 1},
			`{"phase":"move","pawn":"dark-female","roll":5,"path":["C3","C4"],"facing":"S","undone":1}`},
		{"move that stays", Event{Phase: PhaseMove, Pawn: DarkFemale, Roll: 1, Facing: W, Blocked: 1},
			`{"phase":"move","pawn":"dark-female","roll":1,"path":[],"facing":"W","blocked":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.e)
			if err != nil || string(b) != tt.want {
				t.Errorf("json.Marshal = %s, %v\n  want %s", b, err, tt.want)
			}
		})
	}
	if _, err := json.Marshal(Event{Phase: "dance"}); err == nil {
		t.Errorf("an event of an unknown phase marshalled")
	}
}
