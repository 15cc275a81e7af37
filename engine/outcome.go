package engine

import "fmt"

// Outcome of a scenario.
type Outcome uint8

const (
	Playing Outcome = iota
	Won
	Lost
)

// String gives CONTRACT.md's word: "playing", "won" or "lost".
func (o Outcome) String() string {
	switch o {
	case Playing:
		return "playing"
	case Won:
		return "won"
	case Lost:
		return "lost"
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// MarshalText writes the outcome as its contract word, so that JSON holds
// "playing", "won" or "lost".
func (o Outcome) MarshalText() ([]byte, error) {
	if o > Lost {
		return nil, fmt.Errorf("outcome %d: want playing, won or lost", uint8(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText reads "playing", "won" or "lost".
func (o *Outcome) UnmarshalText(b []byte) error {
	switch string(b) {
	case "playing":
		*o = Playing
	case "won":
		*o = Won
	case "lost":
		*o = Lost
	default:
		return fmt.Errorf("outcome %q: want playing, won or lost", b)
	}
	return nil
}

// Result is the outcome and, when the scenario ended, why in plain words.
type Result struct {
	Outcome Outcome
	Reason  string
}

// Reasons a scenario ends (Result.Reason), RULES.md "End of a scenario".
const (
	ReasonNoEnemy    = "the last enemy is defeated"
	ReasonNoBuilding = "no building is left on the board"
	ReasonNoBuilder  = "no builder is left"
	ReasonStuck      = "no builder can move and then build"
)

// reasonTarget is the loss by an enemy on a target zone: entered during the
// enemy turn, or standing there in a static position.
func reasonTarget(e Enemy, entered bool) string {
	if entered {
		return "the " + e.Pawn.String() + " entered the target zone " + e.Cell.String()
	}
	return "the " + e.Pawn.String() + " is on the target zone " + e.Cell.String()
}

// Status checks the end conditions a position shows by itself (RULES.md
// "End of a scenario"), in this order:
//   - lost: no building is left on the board;
//   - lost: an enemy stands on a target zone;
//   - lost: no builder is left;
//   - won: no enemy is left.
//
// Losses come first: the board can only show a loss condition if the loss
// happened when it arose (losses are checked whenever the board changes), and
// nothing is played after a loss, so no win can follow it.
//
// Status does not run the start-of-player-turn check ("can any builder move
// and then build?"): that check belongs to one moment only, the end of the
// enemy turn (RULES.md "Rulings"), and EnemyTurn runs it; a position after
// the player's turn whose builders are hemmed in is still playing, since the
// enemy turn comes first and may free them. CanPlayerAct is that check.
//
// Status does not validate p; for a position that fails Validate the answer
// is meaningless.
func Status(p Position) Result {
	if p.BuildingCount() == 0 {
		return Result{Lost, ReasonNoBuilding}
	}
	for _, e := range p.Enemies {
		if e.Cell.Valid() && p.Terrain[e.Cell] == Target {
			return Result{Lost, reasonTarget(e, false)}
		}
	}
	if len(p.Builders) == 0 {
		return Result{Lost, ReasonNoBuilder}
	}
	if len(p.Enemies) == 0 {
		return Result{Won, ReasonNoEnemy}
	}
	return Result{Playing, ""}
}

// playable returns an error unless p is a valid position still being
// played: "a position that is already lost or won is not played on"
// (RULES.md "Rulings").
func playable(p *Position) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if r := Status(*p); r.Outcome != Playing {
		return fmt.Errorf("the scenario is already %v (%s): a finished position is not played on", r.Outcome, r.Reason)
	}
	return nil
}
