package engine

import (
	"encoding/json"
	"fmt"
)

// Phase of an enemy-turn event: the three phases of RULES.md "Enemy turn".
type Phase string

const (
	PhaseOrientation Phase = "orientation" // 1. Orientation
	PhaseAttack      Phase = "attack"      // 2. Attack
	PhaseMove        Phase = "move"        // 3. Movement
)

// Effect words of an attack event, CONTRACT.md's "effect" field: what the
// attacked cell does, in short stable words (RULES.md "Enemy turn", 2. Attack).
const (
	// EffectNothing: the attacked cell is level 0 (land or target zone) with
	// no builder on it; an enemy may stand there ("on level 0, nothing
	// happens"). Nothing changes.
	EffectNothing = "nothing"
	// EffectOffBoard: the enemy faces the board's edge. Nothing changes.
	EffectOffBoard = "off-board"
	// EffectWater: the attacked cell is water. Nothing changes.
	EffectWater = "water"
	// EffectBuilderDefeated: a builder stood there and is removed for the
	// rest of the scenario; the building under it is untouched.
	EffectBuilderDefeated = "builder-defeated"
	// EffectEnemyLowered: an enemy stands on a building there; the building
	// loses its top floor and the enemy stays, one level lower.
	EffectEnemyLowered = "enemy-lowered"
	// EffectTopFloorRemoved: an empty building of level 1-3 loses its top block.
	EffectTopFloorRemoved = "top-floor-removed"
	// EffectDomeRemoved: a dome is a floor, so a dome loses it: level 4 -> 3.
	EffectDomeRemoved = "dome-removed"
)

// Event is one thing a person applies by hand during the enemy turn. Every
// enemy on the board gets one event per phase, even when nothing happens,
// until the scenario is lost (a loss ends the turn at once).
type Event struct {
	Phase  Phase
	Pawn   Pawn
	Facing Dir    // orientation: the new facing; attack: the facing it attacks along; move: the facing at the end
	Turned bool   // orientation: whether the facing changed
	Target Cell   // attack: the cell attacked (NoCell: off the board)
	Effect string // attack: what happens, one of the Effect words
	Roll   int    // move: the die
	Path   []Cell // move: the cells entered, in order (empty: stays)
	Text   string // plain words for a person

	// Defeated lists the cells of the builders this event defeats: the
	// attacked cell (attack, EffectBuilderDefeated), or cells entered (move).
	Defeated []Cell
	// Blocked counts the advances of a move that did not happen (off the
	// board, water, a dome, too high, another enemy).
	Blocked int
	// Undone counts the rotations of a move that were undone because the
	// enemy would have faced the board's edge.
	Undone int
}

// MarshalJSON writes CONTRACT.md's event: "phase" and "pawn" first, then
// orientation: "facing", "turned"; attack: "target" (a cell, or null off
// the board), "effect"; move: "roll", "path" ([] when the enemy stays),
// "facing", and when not zero "defeated", "blocked", "undone"; last "text".
func (e Event) MarshalJSON() ([]byte, error) {
	switch e.Phase {
	case PhaseOrientation:
		return json.Marshal(struct {
			Phase  Phase  `json:"phase"`
			Pawn   string `json:"pawn"`
			Facing string `json:"facing"`
			Turned bool   `json:"turned"`
			Text   string `json:"text,omitempty"`
		}{e.Phase, e.Pawn.String(), e.Facing.String(), e.Turned, e.Text})
	case PhaseAttack:
		var target *string
		if e.Target.Valid() {
			s := e.Target.String()
			target = &s
		}
		return json.Marshal(struct {
			Phase    Phase    `json:"phase"`
			Pawn     string   `json:"pawn"`
			Target   *string  `json:"target"`
			Effect   string   `json:"effect"`
			Defeated []string `json:"defeated,omitempty"`
			Text     string   `json:"text,omitempty"`
		}{e.Phase, e.Pawn.String(), target, e.Effect, cellNames(e.Defeated), e.Text})
	case PhaseMove:
		path := cellNames(e.Path)
		if path == nil {
			path = []string{}
		}
		return json.Marshal(struct {
			Phase    Phase    `json:"phase"`
			Pawn     string   `json:"pawn"`
			Roll     int      `json:"roll"`
			Path     []string `json:"path"`
			Facing   string   `json:"facing"`
			Defeated []string `json:"defeated,omitempty"`
			Blocked  int      `json:"blocked,omitempty"`
			Undone   int      `json:"undone,omitempty"`
			Text     string   `json:"text,omitempty"`
		}{e.Phase, e.Pawn.String(), e.Roll, path, e.Facing.String(), cellNames(e.Defeated), e.Blocked, e.Undone, e.Text})
	}
	return nil, fmt.Errorf("event: unknown phase %q", e.Phase)
}

// cellNames gives the names of cells, nil for none.
func cellNames(cs []Cell) []string {
	if len(cs) == 0 {
		return nil
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
	}
	return names
}
