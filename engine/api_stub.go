package engine

// TEMPORARY: signatures agreed between the engine and the CLI/campaign work.
// The engine helper replaces this file with the real implementation, split
// into enemy.go, player.go, outcome.go, legal.go, infer.go, diff.go, event.go.

import (
	"errors"

	"companion/observation"
)

var errTODO = errors.New("engine: not implemented yet")

// Phase of an enemy-turn event.
type Phase string

const (
	PhaseOrientation Phase = "orientation"
	PhaseAttack      Phase = "attack"
	PhaseMove        Phase = "move"
)

// Event is one thing a person applies by hand during the enemy turn.
type Event struct {
	Phase  Phase
	Pawn   Pawn
	Facing Dir    // orientation: the new facing; move: the facing at the end
	Turned bool   // orientation: whether the facing changed
	Target Cell   // attack: the cell attacked (NoCell: off the board)
	Effect string // attack: what happens, in short contract words
	Roll   int    // move: the die
	Path   []Cell // move: the cells entered, in order (empty: stays)
	Text   string // plain words for a person
}

// Outcome of a scenario.
type Outcome uint8

const (
	Playing Outcome = iota
	Won
	Lost
)

func (o Outcome) String() string { return [...]string{"playing", "won", "lost"}[o] }

// Result is the outcome and, when the scenario ended, why in plain words.
type Result struct {
	Outcome Outcome
	Reason  string
}

// Turn is a player turn: move a builder From-To, then build on Build.
type Turn struct{ From, To, Build Cell }

// RuleError names the rule a player turn breaks.
type RuleError struct {
	Rule string // short rule name, e.g. "move-up-too-high"
	Cell Cell
	Msg  string // plain words
}

func (e *RuleError) Error() string { return e.Msg }

// EnemyTurn resolves one whole enemy turn (RULES.md "Enemy turn") with one
// die per enemy in resolution order.
func EnemyTurn(p Position, dice []int) (Position, []Event, Result, error) {
	return p, nil, Result{}, errTODO
}

// PlayerTurn checks and applies one player turn; an illegal one is a *RuleError.
func PlayerTurn(p Position, t Turn) (Position, Result, error) { return p, Result{}, errTODO }

// ParseTurn reads "B2-C3 C4" (move B2 to C3, build C4).
func ParseTurn(s string) (Turn, error) { return Turn{}, errTODO }

// LegalTurns lists every legal player turn.
func LegalTurns(p Position) []Turn { return nil }

// Status checks the end conditions of a position (RULES.md "End of a scenario").
func Status(p Position) Result { return Result{} }

// InferTurn finds the legal turns that turn before into what the camera saw.
func InferTurn(before Position, seen observation.Board) ([]Turn, error) { return nil, errTODO }

// Diff says, in words a person can act on, where seen differs from expected.
func Diff(expected, seen observation.Board) []string { return nil }
