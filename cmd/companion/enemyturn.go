package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"companion/engine"
)

type enemyTurnOptions struct {
	IO    *streams
	State string
	Dice  []int
}

// enemyTurnOutput is CONTRACT.md's answer to enemy-turn.
type enemyTurnOutput struct {
	Events  []engine.Event  `json:"events"`
	State   engine.Position `json:"state"`
	Outcome string          `json:"outcome"`
	Reason  string          `json:"reason"`
}

func newEnemyTurnCmd(io *streams, runF func(*enemyTurnOptions) error) *cobra.Command {
	opts := &enemyTurnOptions{IO: io}
	var dice string
	cmd := &cobra.Command{
		Use:   "enemy-turn --state <file> --dice <d1,d2,...>",
		Short: "Resolve one whole enemy turn and print it as JSON",
		Long: `Resolve one whole enemy turn (orientation, attack, movement) of the position
in --state, with one die per enemy on the board in the fixed enemy order:
light-female, dark-male, light-male, dark-female (skipping those not on the
board). Prints one JSON object:

  {"events": [...], "state": {...}, "outcome": "playing", "reason": ""}

outcome is playing, won or lost; reason says why when the scenario ended.`,
		Example: `  companion enemy-turn --state pos.json --dice 3,5
  cat pos.json | companion enemy-turn --state - --dice 6`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.Dice, err = parseDice(dice); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return enemyTurnRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.State, "state", "", "position JSON file, or - for stdin (required)")
	cmd.Flags().StringVar(&dice, "dice", "", "one die 1-6 per enemy, in enemy order, comma-separated (required)")
	_ = cmd.MarkFlagRequired("state")
	_ = cmd.MarkFlagRequired("dice")
	return cmd
}

func enemyTurnRun(opts *enemyTurnOptions) error {
	p, err := readPosition(opts.IO, opts.State)
	if err != nil {
		return err
	}
	if len(opts.Dice) != len(p.Enemies) {
		return fmt.Errorf("--dice has %d dice for %d enemies: want one die per enemy on the board, in the order %s",
			len(opts.Dice), len(p.Enemies), pawnList(p))
	}
	after, events, res, err := engine.EnemyTurn(p, opts.Dice)
	if err != nil {
		return err
	}
	if events == nil {
		events = []engine.Event{}
	}
	return writeJSON(opts.IO, enemyTurnOutput{events, after, res.Outcome.String(), res.Reason})
}

// pawnList names the enemies on the board in resolution order.
func pawnList(p engine.Position) string {
	if len(p.Enemies) == 0 {
		return "(no enemy on the board)"
	}
	s := ""
	for i, e := range p.Enemies {
		if i > 0 {
			s += ", "
		}
		s += e.Pawn.String()
	}
	return s
}

// writeJSON prints v as one line of JSON on Out.
func writeJSON(io *streams, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("writing the answer: %w", err)
	}
	data = append(data, '\n')
	if _, err := io.Out.Write(data); err != nil {
		return fmt.Errorf("writing the answer: %w", err)
	}
	return nil
}
