package vision

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	gridStages    = flag.String("gridstages", "", "seeds a-b: write each frame's corner error at every stage of the read (TraceGrid) to -gridstagestsv")
	gridStagesTSV = flag.String("gridstagestsv", "", "with -gridstages: the file to write (seed, stage, the four corners' errors and the worst, in pitches)")
)

// TestTraceGridStages: a cold read passes its corners through the hook at
// each stage, ending with the corners it reports; a reader whose hook is
// removed passes nothing.
func TestTraceGridStages(t *testing.T) {
	m, truth, err := loadSimFrame(1000)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r := NewReader()
	defer r.Close()
	var stages []string
	var last [4][2]float64
	r.TraceGrid(func(stage string, c [4][2]float64) {
		stages = append(stages, stage)
		last = c
	})
	res, err := r.Read(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"grid", "onGrid", "final"} {
		if !slices.Contains(stages, want) {
			t.Errorf("stages %v: no %q", stages, want)
		}
	}
	if len(stages) == 0 || stages[len(stages)-1] != "final" || last != res.Corners {
		t.Errorf("stages %v end with %v, the read reports %v", stages, last, res.Corners)
	}
	if e := pitchErr(last, truth.Corners); e > 0.05 {
		t.Errorf("final corners %.3f pitch off", e)
	}
	r.TraceGrid(nil)
	stages = nil
	if _, err := r.Read(m); err != nil {
		t.Fatal(err)
	}
	if len(stages) != 0 {
		t.Errorf("hook removed, still called: %v", stages)
	}
}

// TestGridStages writes, for each cached frame of -gridstages, how far
// each stage's corners are from the truth (see TraceGrid): which stage
// undoes good corners. Development aid; skipped without the flag.
//
//	COMPANION_SIM_CACHE=/tmp/simcache go test -run TestGridStages \
//	  -gridstages 20000-20299 -gridstagestsv /tmp/stages.tsv ./vision
func TestGridStages(t *testing.T) {
	if *gridStages == "" {
		t.Skip("no -gridstages")
	}
	if *gridStagesTSV == "" {
		t.Fatal("-gridstages wants -gridstagestsv FILE")
	}
	a, b := seedRange(t, *gridStages, false)
	var seeds []int64
	for s := a; s <= b; s++ {
		seeds = append(seeds, s)
	}
	lines := overSeedList(t, seeds, func(r *Reader, seed int64, m gocv.Mat, truth sim.Truth) []string {
		var out []string
		r.TraceGrid(func(stage string, c [4][2]float64) {
			out = append(out, stageLine(seed, stage, c, truth.Corners))
		})
		defer r.TraceGrid(nil)
		if _, err := r.Read(m); err != nil {
			out = append(out, fmt.Sprintf("%d\trefused\t\t\t\t\t", seed))
		}
		return out
	})
	f, err := os.Create(*gridStagesTSV)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "seed\tstage\terr_a1\terr_a5\terr_e5\terr_e1\tworst")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lines for %d frames in %s", len(lines), len(seeds), *gridStagesTSV)
}

// stageLine is one TSV line: each corner's distance from the truth's and
// the worst, in pitches of the true grid.
func stageLine(seed int64, stage string, c, truth [4][2]float64) string {
	pitch := gridPitch(truth)
	s := fmt.Sprintf("%d\t%s", seed, stage)
	worst := 0.0
	for k := range c {
		e := math.Hypot(c[k][0]-truth[k][0], c[k][1]-truth[k][1]) / pitch
		worst = math.Max(worst, e)
		s += fmt.Sprintf("\t%.4f", e)
	}
	return s + fmt.Sprintf("\t%.4f", worst)
}
