package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"companion/campaign"
	"companion/scenario"
)

type playOptions struct {
	IO     *streams
	Getenv func(string) string
	Now    func() time.Time

	Manual     bool
	Scenario   string // "", a built-in number 1-6, or a scenario file
	VirtualDie bool
	Difficulty campaign.Difficulty
	Save       string // "" for the default save file
	New        bool
	Resume     bool // a game in progress is resumed instead of refused
	Seed       uint64
	SeedSet    bool
	ASCII      bool
}

func newPlayCmd(io *streams, runF func(*playOptions) error) *cobra.Command {
	opts := &playOptions{IO: io, Getenv: os.Getenv, Now: time.Now}
	var expert, easy bool
	cmd := &cobra.Command{
		Use:   "play --manual [--scenario <n>|<file>] [--virtual-die] [--expert | --easy] [--save <file>] [--new | --resume] [--seed <n>]",
		Short: "Play a campaign (or one scenario) at the table, typing dice and turns",
		Long: `Play Santowerini at the table. The companion draws the board, tells you how
each enemy turns, attacks and moves, asks you to roll the die for each enemy
and type the number, then asks for your turn as FROM-TO BUILD (B2-C3 C4:
move the builder on B2 to C3, then build on C4).

Without --scenario you play the campaign, scenarios 1 to 6 in order; a lost
scenario is set up again and replayed. At any prompt type undo (take back
your last turn), board, help or quit. The game is saved after every step:
quit, or a crash, loses nothing; companion resume goes on.

A new game will not replace an unfinished or damaged save without --new;
with --resume it goes on with the unfinished one instead.`,
		Example: `  companion play --manual
  companion play --manual --expert
  companion play --manual --scenario 2 --virtual-die
  companion play --manual --scenario my-map.txt --save ~/games/mine.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !opts.Manual {
				return flagErrorf("play needs --manual: you type the dice and your turns (the camera mode is not there yet)")
			}
			switch {
			case expert && easy:
				return flagErrorf("--expert and --easy: choose one")
			case expert:
				opts.Difficulty = campaign.Expert
			case easy:
				opts.Difficulty = campaign.Easy
			default:
				opts.Difficulty = campaign.Normal
			}
			if opts.New && opts.Resume {
				return flagErrorf("--new and --resume: choose one")
			}
			opts.SeedSet = cmd.Flags().Changed("seed")
			if runF != nil {
				return runF(opts)
			}
			return playRun(opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Manual, "manual", false, "type the dice and your turns (required for now)")
	f.StringVar(&opts.Scenario, "scenario", "", "play one scenario: a campaign number 1-6, or a scenario file")
	f.BoolVar(&opts.VirtualDie, "virtual-die", false, "let the companion roll the dice")
	f.BoolVar(&expert, "expert", false, "expert game: +2 at the end of the campaign")
	f.BoolVar(&easy, "easy", false, "easy game: -2 at the end of the campaign")
	f.StringVar(&opts.Save, "save", "", "save file (default $XDG_STATE_HOME/companion/game.json)")
	f.BoolVar(&opts.New, "new", false, "replace an unfinished or damaged save")
	f.BoolVar(&opts.Resume, "resume", false, "if a game is in progress, go on with it (as companion resume)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the virtual die, to replay the same rolls")
	f.BoolVar(&opts.ASCII, "ascii", false, "draw the board with ASCII only")
	return cmd
}

func playRun(opts *playOptions) error {
	path, err := savePath(opts.Save, opts.Getenv)
	if err != nil {
		return err
	}
	co := campaign.Options{Difficulty: opts.Difficulty, VirtualDie: opts.VirtualDie, Seed: opts.Seed}
	if !opts.SeedSet {
		co.Seed = uint64(opts.Now().UnixNano())
	}
	if opts.Scenario != "" {
		s, file, err := pickScenario(opts.Scenario)
		if err != nil {
			return err
		}
		co.Scenario, co.File = &s, file
	}
	g, err := campaign.New(co)
	if err != nil {
		return err
	}
	kept, err := campaign.NewStore(path).Create(g, opts.New)
	var busy *campaign.InProgressError
	if errors.As(err, &busy) && opts.Resume {
		fmt.Fprintf(opts.IO.ErrOut, "companion: going on with the game in progress in %s (--new starts over)\n", path)
		return resumeRun(&resumeOptions{IO: opts.IO, Getenv: opts.Getenv, Save: opts.Save,
			VirtualDie: opts.VirtualDie, VirtualDieSet: opts.VirtualDie, ASCII: opts.ASCII})
	}
	if err != nil {
		return err
	}
	if kept != "" {
		fmt.Fprintf(opts.IO.ErrOut, "companion: the damaged save was kept as %s\n", kept)
	}
	return newSession(opts.IO, g, sessionConfig{
		style:    styleFor(opts.IO, opts.Getenv, opts.ASCII),
		savePath: path,
		resume:   resumeCommand(opts.Save),
		// Only a person at a terminal presses Ctrl-C; tests must not exit.
		watchInterrupt: opts.IO.InTTY || opts.IO.OutTTY,
	}).run(false)
}

// pickScenario reads --scenario: a campaign number, or else a file.
func pickScenario(arg string) (scenario.Scenario, string, error) {
	if n, err := strconv.Atoi(arg); err == nil {
		s, err := scenario.Get(n)
		return s, "", err
	}
	s, err := scenario.Load(arg)
	return s, arg, err
}

// savePath is --save, or the default save file.
func savePath(flag string, getenv func(string) string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	return campaign.DefaultPath(getenv)
}

// resumeCommand is what to type to go on with a game saved with --save flag.
func resumeCommand(flag string) string {
	if flag == "" {
		return "companion resume"
	}
	return "companion resume --save " + shellQuote(flag)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./+-:,@%=", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// styleFor draws in colour only on a terminal without NO_COLOR
// (no-color.org), and in Unicode only on a terminal.
func styleFor(io *streams, getenv func(string) string, ascii bool) boardStyle {
	return boardStyle{
		Color: io.OutTTY && getenv("NO_COLOR") == "",
		ASCII: ascii || !io.OutTTY,
	}
}
