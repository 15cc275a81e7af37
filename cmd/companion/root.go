package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// newRootCmd builds the command tree. Each command lives in its own file
// and is added here with one line.
func newRootCmd(io *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "companion <command> [flags]",
		Short: "Run the enemies of Santowerini for a solo player at a real table",
		Long: `companion runs the enemies of Santowerini, Sem Brys's tower-defence solo
mode for Santorini: it tells you how each enemy turns, attacks and moves,
checks your turns, keeps the score and saves the game after every step.`,
		Example: `  companion play --manual                 # the campaign, scenarios 1 to 6
  companion play --manual --scenario 3    # one scenario
  companion resume                        # go on where you stopped
  companion enemy-turn --state pos.json --dice 3,5
  companion player-turn --state pos.json --move B2-C3 --build C4`,
		Version:       version,
		SilenceErrors: true, // run prints the one error line
		SilenceUsage:  true, // and the usage, only for flag errors
	}
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{err} })

	root.AddCommand(newEnemyTurnCmd(io, nil))
	root.AddCommand(newPlayerTurnCmd(io, nil))
	root.AddCommand(newPlayCmd(io, nil))
	root.AddCommand(newResumeCmd(io, nil))
	root.AddCommand(newReadCmd(io, nil))
	root.AddCommand(newCalibrateCmd(io, nil))
	root.AddCommand(newRenderCmd(io, nil))
	root.AddCommand(newAccuracyCmd(io, nil))
	return root
}

// run executes the command line args and maps the outcome to an exit code:
// 0 on success; 1 with one line "companion: <error>" on ErrOut otherwise,
// followed by the usage only when the command was called wrongly.
func run(args []string, io *streams) (code int) {
	// A panic is a bug, never the player's fault; the game on disk is safe
	// (saved before every step), so say so in one line rather than a trace.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(io.ErrOut, "companion: internal error (please report it): %v\n", r)
			code = 1
		}
	}()
	root := newRootCmd(io)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	// Cobra reports these two calling mistakes as plain errors, not through
	// the flag error func: only their words tell them apart.
	if strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "required flag") {
		err = &flagError{err}
	}
	fmt.Fprintf(io.ErrOut, "companion: %s\n", oneLine(err.Error()))
	var fe *flagError
	if errors.As(err, &fe) && cmd != nil {
		fmt.Fprintf(io.ErrOut, "\n%s", cmd.UsageString())
	}
	return 1
}

// oneLine keeps an error on one line, whatever a wrapped error contains.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// noArgs rejects positional arguments as a flag error, naming them.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return flagErrorf("%s takes no arguments, got %q", cmd.CommandPath(), strings.Join(args, " "))
	}
	return nil
}

// readInput reads a file, or stdin for "-", capped so a wrong file (a photo,
// a device) fails quickly instead of filling memory.
func readInput(io *streams, path string) ([]byte, error) {
	const limit = 1 << 20
	var data []byte
	var err error
	if path == "-" {
		data, err = readLimited(io.In, limit)
	} else {
		var f *os.File
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
		defer f.Close()
		data, err = readLimited(f, limit)
	}
	return data, err
}
