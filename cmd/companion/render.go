package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"companion/sim"
)

type renderOptions struct {
	IO    *streams
	Seed  int64
	Count int
	Out   string
	Hand  bool
	// MinElevation and MaxElevation skip the seeds whose camera stands
	// lower or higher (degrees): training data for the reader's views from
	// near above, or from low down where towers hide cells.
	MinElevation, MaxElevation float64
	// Lighting, when set, skips the seeds lit otherwise: more training
	// frames of the light the reader finds hardest (one lamp's hard shadows).
	Lighting string
}

// renderLightings are the sim's lightings, as --lighting names them.
var renderLightings = []string{"one-lamp", "two-lamps", "daylight"}

func newRenderCmd(io *streams, runF func(*renderOptions) error) *cobra.Command {
	opts := &renderOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "render --seed <n> --out <dir> [--count <k>] [--hand]",
		Short: "Render simulated camera frames of the table, with their ground truth",
		Long: `Render what a webcam would see of a Santorini board: a seeded random
position, camera angle, lamps, board edition and table, drawn by the
simulated table (a small ray tracer). Each seed gives seed-<n>.jpg and
seed-<n>.json: the true board in CONTRACT.md's token form and the grid's
pixel corners (A1, A5, E5, E1). The same seed always gives the same frame.
With --hand the same scene has a player's hand over the board (a frame
that is not settled, which the reader must refuse), written as
seed-<n>-hand.jpg and seed-<n>-hand.json ("hand": true). With
--min-elevation only the seeds whose camera stands that high or more are
rendered, with --max-elevation only those that stand that high or less
(the rest are skipped, not renumbered). With --lighting only the seeds
lit that way are rendered (one-lamp, two-lamps or daylight), skipped
likewise.`,
		Example: `  companion render --seed 7 --out frames
  companion render --seed 100 --count 20 --out frames
  companion render --seed 7 --hand --out frames
  companion render --seed 66000 --count 5000 --min-elevation 73 --out frames
  companion render --seed 81000 --count 5000 --max-elevation 60 --out frames
  companion render --seed 31000 --count 9000 --min-elevation 73 --lighting one-lamp --out frames`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Count < 1 || opts.Count > 100000 {
				return flagErrorf("--count %d: want 1 to 100000", opts.Count)
			}
			if opts.MinElevation < 0 || opts.MinElevation > 90 {
				return flagErrorf("--min-elevation %g: want 0 to 90 degrees", opts.MinElevation)
			}
			if opts.MaxElevation < opts.MinElevation || opts.MaxElevation > 90 {
				return flagErrorf("--max-elevation %g: want %g (the --min-elevation) to 90 degrees", opts.MaxElevation, opts.MinElevation)
			}
			if opts.Lighting != "" && !slices.Contains(renderLightings, opts.Lighting) {
				return flagErrorf("--lighting %q: want one of %s", opts.Lighting, strings.Join(renderLightings, ", "))
			}
			if runF != nil {
				return runF(opts)
			}
			return renderRun(opts)
		},
	}
	cmd.Flags().Int64Var(&opts.Seed, "seed", 1, "the first scene's seed")
	cmd.Flags().IntVar(&opts.Count, "count", 1, "how many consecutive seeds to render")
	cmd.Flags().StringVar(&opts.Out, "out", "", "folder to write into, made if missing (required)")
	cmd.Flags().BoolVar(&opts.Hand, "hand", false, "put a player's hand over the board")
	cmd.Flags().Float64Var(&opts.MinElevation, "min-elevation", 0, "render only the seeds whose camera stands this many degrees or more above the board")
	cmd.Flags().Float64Var(&opts.MaxElevation, "max-elevation", 90, "render only the seeds whose camera stands this many degrees or less above the board")
	cmd.Flags().StringVar(&opts.Lighting, "lighting", "", "render only the seeds lit this way: "+strings.Join(renderLightings, ", "))
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func renderRun(opts *renderOptions) error {
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return fmt.Errorf("making %s: %w", opts.Out, err)
	}
	for i := 0; i < opts.Count; i++ {
		seed := opts.Seed + int64(i)
		if opts.MinElevation > 0 || opts.MaxElevation < 90 || opts.Lighting != "" {
			scene := sim.RandomScene(seed)
			if elev := scene.Camera.Elevation; elev < opts.MinElevation || elev > opts.MaxElevation {
				continue
			}
			if opts.Lighting != "" && scene.Lighting != opts.Lighting {
				continue
			}
		}
		write := sim.WriteSample
		if opts.Hand {
			write = sim.WriteHandSample
		}
		img, truth, err := write(opts.Out, seed)
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.Out, "%s %s\n", img, truth)
	}
	return nil
}
