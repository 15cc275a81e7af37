package main

import (
	"context"
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

Seeds below 10000 are the ones the reader was tuned on; measure on others.`,
		Example: `  companion accuracy --from 100000 --n 500`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Count < 1 || opts.Count > 1000000 {
				return flagErrorf("--n %d: want 1 to 1000000", opts.Count)
			}
			if runF != nil {
				return runF(opts)
			}
			return accuracyRun(opts)
		},
	}
	cmd.Flags().Int64Var(&opts.From, "from", 100000, "the first seed")
	cmd.Flags().IntVar(&opts.Count, "n", 100, "how many scenes")
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
	rep := accuracy.Run(ctx, seeds, r)
	rep.WriteText(opts.IO.Out)
	return nil
}
