package main

import (
	"errors"

	"github.com/spf13/cobra"

	"companion/engine"
)

type playerTurnOptions struct {
	IO    *streams
	State string
	Turn  engine.Turn
}

// playerTurnOutput is CONTRACT.md's answer to player-turn; rule is extra:
// the stable id of the rule an illegal turn breaks.
type playerTurnOutput struct {
	Legal   bool            `json:"legal"`
	Error   string          `json:"error"`
	Rule    string          `json:"rule,omitempty"`
	State   engine.Position `json:"state"`
	Outcome string          `json:"outcome"`
	Reason  string          `json:"reason"`
}

func newPlayerTurnCmd(io *streams, runF func(*playerTurnOptions) error) *cobra.Command {
	opts := &playerTurnOptions{IO: io}
	var move, build string
	cmd := &cobra.Command{
		Use:   "player-turn --state <file> --move <from-to> --build <cell>",
		Short: "Check and apply one player turn and print the result as JSON",
		Long: `Check and apply one player turn to the position in --state: move the builder
on FROM to TO, then build on CELL. Prints one JSON object:

  {"legal": true, "error": "", "state": {...}, "outcome": "playing", "reason": ""}

An illegal turn prints "legal": false, an "error" naming the rule it breaks
(and its id in "rule"), the unchanged state, and still exits 0: an illegal
turn is an answer, not a failure of the command.`,
		Example: `  companion player-turn --state pos.json --move B2-C3 --build C4
  cat pos.json | companion player-turn --state - --move d2-d3 --build d4`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.Turn, err = parseMove(move, build); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return playerTurnRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.State, "state", "", "position JSON file, or - for stdin (required)")
	cmd.Flags().StringVar(&move, "move", "", "the builder's move FROM-TO, like B2-C3 (required)")
	cmd.Flags().StringVar(&build, "build", "", "the cell to build on after the move, like C4 (required)")
	_ = cmd.MarkFlagRequired("state")
	_ = cmd.MarkFlagRequired("move")
	_ = cmd.MarkFlagRequired("build")
	return cmd
}

func playerTurnRun(opts *playerTurnOptions) error {
	p, err := readPosition(opts.IO, opts.State)
	if err != nil {
		return err
	}
	after, res, err := engine.PlayerTurn(p, opts.Turn)
	var re *engine.RuleError
	if errors.As(err, &re) {
		st := engine.Status(p)
		return writeJSON(opts.IO, playerTurnOutput{
			Error:   re.Rule + ": " + re.Msg,
			Rule:    re.Rule,
			State:   p,
			Outcome: st.Outcome.String(),
			Reason:  st.Reason,
		})
	}
	if err != nil {
		return err
	}
	return writeJSON(opts.IO, playerTurnOutput{Legal: true, State: after, Outcome: res.Outcome.String(), Reason: res.Reason})
}
