package main

import (
	"context"
	"math"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"companion/accuracy"
	"companion/vision"
)

type accuracyOptions struct {
	IO    *streams
	From  int64
	Count int
	Near  float64 // < 0: the zero-set-up read; else hints nudged this far
}

func newAccuracyCmd(io *streams, runF func(*accuracyOptions) error) *cobra.Command {
	opts := &accuracyOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "accuracy [--from <seed>] [--n <count>]",
		Short: "Measure how well the camera reader reads simulated frames",
		Long: `Render --n seeded scenes from the simulated table (seeds --from onwards,
across the whole camera and lighting envelope), read each one with the
zero-set-up reader and compare with the truth. Prints per-cell accuracy
(level, occupant, whole token), the share of boards read perfectly, corner
error in pixels and as a share of the cell pitch, a confusion table, the
figures per camera elevation band and lighting type, and the seeds that
failed (render them with "companion render --seed N" to look).

With --near J each frame is read near its true grid knocked by up to J
cell pitches (read --near, or read --calib with the camera unmoved): how
well the reader does when the grid's place is known from earlier.

Seeds below 10000 are the ones the reader was tuned on; measure on others.`,
		Example: `  companion accuracy --from 100000 --n 500
  companion accuracy --from 100000 --n 500 --near 0.1`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Count < 1 || opts.Count > 1000000 {
				return flagErrorf("--n %d: want 1 to 1000000", opts.Count)
			}
			if cmd.Flags().Changed("near") && (opts.Near < 0 || opts.Near > 1 || math.IsNaN(opts.Near)) {
				return flagErrorf("--near %v: want 0 to 1 cell pitches", opts.Near)
			}
			if runF != nil {
				return runF(opts)
			}
			return accuracyRun(opts)
		},
	}
	cmd.Flags().Int64Var(&opts.From, "from", 100000, "the first seed")
	cmd.Flags().IntVar(&opts.Count, "n", 100, "how many scenes")
	cmd.Flags().Float64Var(&opts.Near, "near", -1, "read near the true grid knocked by up to this many pitches (a known grid)")
	return cmd
}

func accuracyRun(opts *accuracyOptions) error {
	// Ctrl-C stops early and still prints what was measured.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	seeds := make([]int64, opts.Count)
	for i := range seeds {
		seeds[i] = opts.From + int64(i)
	}
	r := vision.NewReader()
	defer r.Close()
	var rep accuracy.Report
	if opts.Near >= 0 {
		rep = accuracy.RunNear(ctx, seeds, r, opts.Near)
	} else {
		rep = accuracy.Run(ctx, seeds, r)
	}
	rep.WriteText(opts.IO.Out)
	return nil
}
