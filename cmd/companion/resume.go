package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"companion/campaign"
)

type resumeOptions struct {
	IO     *streams
	Getenv func(string) string

	Save          string
	VirtualDie    bool
	VirtualDieSet bool // --virtual-die given: switch the saved game's die
	ASCII         bool
}

func newResumeCmd(io *streams, runF func(*resumeOptions) error) *cobra.Command {
	opts := &resumeOptions{IO: io, Getenv: os.Getenv}
	cmd := &cobra.Command{
		Use:   "resume [--save <file>] [--virtual-die[=false]]",
		Short: "Go on with the saved game, at the exact step it stopped",
		Long: `Go on with the saved game where it stopped: in the middle of an enemy turn
it asks for the next die, announcing again what that turn has done so far.
--virtual-die switches to the companion's die, --virtual-die=false back to
yours.`,
		Example: `  companion resume
  companion resume --save ~/games/mine.json
  companion resume --virtual-die`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.VirtualDieSet = cmd.Flags().Changed("virtual-die")
			if runF != nil {
				return runF(opts)
			}
			return resumeRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Save, "save", "", "save file (default $XDG_STATE_HOME/companion/game.json)")
	cmd.Flags().BoolVar(&opts.VirtualDie, "virtual-die", false, "let the companion roll the dice from now on")
	cmd.Flags().BoolVar(&opts.ASCII, "ascii", false, "draw the board with ASCII only")
	return cmd
}

func resumeRun(opts *resumeOptions) error {
	path, err := savePath(opts.Save, opts.Getenv)
	if err != nil {
		return err
	}
	g, err := campaign.NewStore(path).Load()
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w; start a game with `companion play --manual`", err)
	}
	if err != nil {
		return err
	}
	if opts.VirtualDieSet {
		if err := g.SetVirtualDie(opts.VirtualDie); err != nil {
			return err
		}
	}
	return newSession(opts.IO, g, sessionConfig{
		style:    styleFor(opts.IO, opts.Getenv, opts.ASCII),
		savePath: path,
		resume:   resumeCommand(opts.Save),
		// Only a person at a terminal presses Ctrl-C; tests must not exit.
		watchInterrupt: opts.IO.InTTY || opts.IO.OutTTY,
	}).run(true)
}
