package accuracy

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/vision"
)

var (
	seedsFlag   = flag.String("seeds", "", "run the harness on these seeds (e.g. 100000-100499) and print the report")
	trueCorners = flag.Bool("truecorners", false, "with -seeds: read with the true corners (measure the cell reading alone)")
	movedBy     = flag.Float64("movedby", 0, "with -truecorners: move each true corner at random by this many pitches (s.d. on each axis)")
	nearJitter  = flag.Float64("near", -1, "with -seeds: read near the true corners nudged by up to this many pitches (a known grid, a camera that stayed put)")
	tsvFlag     = flag.String("tsv", "", "with -seeds: also write one line per seed (seed, elevation, built cells, read, worst corner error in pitches, wrong cells, hidden cells and those wrong, each corner's error A1, A5, E5, E1 in pitches, recognition ms) to this file")
	trueFOV     = flag.Bool("truefov", false, "with -seeds: give the reader each frame's true field of view (a camera whose lens is known)")
	handsFlag   = flag.String("hands", "", "read these seeds' frames with a hand over the board (sim.AddHand) and print how many were refused, as TABLE.md wants")
	soloFlag    = flag.String("solo", "", "with -seeds: read the cells with the mean of these patch-only networks (comma-separated ONNX files from vision/solonet_train.py) in place of the reader's own reading (a development flag: OpenCV 4.6 aborts on a file it cannot parse)")
	stageTimes  = flag.Bool("stagetimes", false, "with -seeds: also print each stage's mean time a frame (vision.Reader.TraceTimes); under taskset -c 0 it is one core's")
	cellTSVFlag = flag.String("celltsv", "", "with -seeds: also write one line per cell of the boards read (seed, cell, truth, read, confidence, grid confidence, hidden, worst corner error, the shares of its top, its pawn and the whole pawn in sight (sim.Sight; -1 for no pawn)) to this file")
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

// TestHands prints the hand frames' report for -hands; skipped without it.
func TestHands(t *testing.T) {
	if *handsFlag == "" {
		t.Skip("run with -hands 100000-100199 to measure")
	}
	seeds, err := parseSeeds(*handsFlag)
	if err != nil {
		t.Fatal(err)
	}
	r := vision.NewReader()
	defer r.Close()
	rep, err := RunHands(seeds, r)
	if err != nil {
		t.Fatal(err)
	}
	rep.WriteText(os.Stdout)
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
	switch {
	case *movedBy < 0:
		t.Fatalf("-movedby %v: want a spread of 0 pitches or more", *movedBy)
	case *movedBy > 0 && !*trueCorners:
		t.Fatalf("-movedby %v moves the true corners: add -truecorners", *movedBy)
	}
	r := vision.NewReader()
	defer r.Close()
	if *soloFlag != "" {
		var files [][]byte
		for _, f := range strings.Split(*soloFlag, ",") {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatalf("-solo: %v", err)
			}
			files = append(files, b)
		}
		if err := r.UseCellNetworks(files...); err != nil {
			t.Fatalf("-solo %s: %v", *soloFlag, err)
		}
	}
	spent := vision.StageTotals{}
	if *stageTimes {
		r.TraceTimes(spent.Add)
	}
	var rep Report
	var opts []Option
	if *trueFOV {
		opts = append(opts, TrueFOV(r))
	}
	switch {
	case *trueCorners && *movedBy > 0:
		rep = RunWithMovedCorners(context.Background(), seeds, r, *movedBy, opts...)
	case *trueCorners:
		rep = RunWithTrueCorners(context.Background(), seeds, r, opts...)
	case *nearJitter >= 0:
		rep = RunNear(context.Background(), seeds, r, *nearJitter, opts...)
	default:
		rep = Run(context.Background(), seeds, r, opts...)
	}
	rep.WriteText(os.Stdout)
	if *stageTimes {
		writeStageTimes(os.Stdout, spent, len(rep.Samples))
	}
	if *tsvFlag != "" {
		if err := writeTSV(*tsvFlag, rep); err != nil {
			t.Fatal(err)
		}
	}
	if *cellTSVFlag != "" {
		if err := writeCellTSV(*cellTSVFlag, rep); err != nil {
			t.Fatal(err)
		}
	}
}

// writeStageTimes prints each stage's mean time over n frames, in the
// order they run (any other after them), and their sum; and how many
// times each ran (the search only where the corner network's grid did not
// stand; a second pass where Read fell back near its guess).
func writeStageTimes(w io.Writer, spent vision.StageTotals, n int) {
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\nstage times, mean ms a frame over %d frames (and times run):\n", n)
	// Any stage vision.Stages lacks still counts, after the known ones.
	order := slices.Clone(vision.Stages)
	for _, stage := range slices.Sorted(maps.Keys(spent)) {
		if !slices.Contains(order, stage) {
			order = append(order, stage)
		}
	}
	var total time.Duration
	for _, stage := range order {
		if s, ok := spent[stage]; ok {
			fmt.Fprintf(w, "  %-9s %7.1f %5d\n", stage, float64(s.Time.Microseconds())/1000/float64(n), s.Runs)
			total += s.Time
		}
	}
	fmt.Fprintf(w, "  %-9s %7.1f\n", "all", float64(total.Microseconds())/1000/float64(n))
}

// writeCellTSV writes one line per cell of the boards read, for studying
// how well the confidence tells right cells from wrong.
func writeCellTSV(path string, rep Report) error {
	var b strings.Builder
	b.WriteString("seed\tcell\ttruth\tread\tconfidence\tgrid_confidence\thidden\tworst_corner\ttop_seen\tpawn_seen\tfigure_seen\n")
	for _, s := range rep.Samples {
		if s.Err != nil {
			continue
		}
		worst := s.WorstCorner()
		for i := range s.Truth {
			v := s.Sight[i]
			fmt.Fprintf(&b, "%d\t%d\t%s\t%s\t%.4f\t%.4f\t%t\t%.4f\t%.2f\t%.2f\t%.2f\n", s.Seed, i, s.Truth[i], s.Read[i], s.Conf[i], s.GridConf, s.Hidden[i], worst, v.Top, v.Pawn, v.Figure)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing per-cell figures: %w", err)
	}
	return nil
}

// writeTSV writes one line per seed, for comparing two runs seed by seed.
func writeTSV(path string, rep Report) error {
	var b strings.Builder
	b.WriteString("seed\televation\tbuilt\tread\tworst_corner\twrong\thidden\thidden_wrong\tcorner_a1\tcorner_a5\tcorner_e5\tcorner_e1\tms\n")
	for _, s := range rep.Samples {
		worst := s.WorstCorner()
		hidden, hiddenWrong := 0, 0
		for i, h := range s.Hidden {
			if h {
				hidden++
				if s.Err != nil || s.Truth[i] != s.Read[i] {
					hiddenWrong++
				}
			}
		}
		fmt.Fprintf(&b, "%d\t%.0f\t%d\t%t\t%.4f\t%d\t%d\t%d", s.Seed, s.Elevation, s.Truth.Built(), s.Err == nil, worst, s.Wrong, hidden, hiddenWrong)
		for _, c := range s.CornerPx {
			e := 0.0
			if s.Err == nil && s.Pitch > 0 {
				e = c / s.Pitch
			}
			fmt.Fprintf(&b, "\t%.4f", e)
		}
		fmt.Fprintf(&b, "\t%.1f\n", s.Millis)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing per-seed figures: %w", err)
	}
	return nil
}

// TestAccuracy is the fixed regression suite: seeds 5000.. (never used for
// learning the colours, which uses seeds 1..80, nor for the acceptance
// figures, 100000..) with floors a little under the figures measured when
// it was written, so that a drop in accuracy fails the build. It checks the
// whole reading and, apart, the cell reading with the true corners and the
// reading near a known grid.
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
	full := Run(context.Background(), seeds, r)
	wantCells := minCellsShort
	if !testing.Short() {
		wantCells = minCells
	}
	cells := RunWithTrueCorners(context.Background(), seeds, r)
	near := RunNear(context.Background(), seeds, r, 0.1)
	checks := []struct {
		name      string
		got, want float64
		atMost    bool
	}{
		{"cells exactly right", full.All.CellAccuracy(), wantCells, false},
		{"boards not read", float64(full.All.Failed) / float64(full.All.Boards), maxFailed, true},
		{"median corner error / pitch, grids right", full.RightGridCornerQuantile(0.5), maxRightCornerMedian, true},
		{"cells exactly right, true corners", cells.All.CellAccuracy(), minCellsTrueCorners, false},
		{"levels right, true corners", ratio(cells.All.Level, cells.All.Cells), minLevelsTrueCorners, false},
		{"occupants right, true corners", ratio(cells.All.Occ, cells.All.Cells), minOccTrueCorners, false},
		{"cells right among those sure (taken without asking)", sureRight(full), minSureRight, false},
		{"share of the cells read that are sure", sureShare(full), minSureShare, false},
		{"cells exactly right, near a known grid", near.All.CellAccuracy(), minCellsNear, false},
		{"cells right among those sure, near a known grid", sureRight(near), minSureRight, false},
		{"share of the cells read that are sure, near a known grid", sureShare(near), minSureShare, false},
	}
	if !testing.Short() {
		// Over the boards read, wrong grids and all: ten boards are too
		// few for that median (one weak board read moves it by half).
		checks = append(checks, struct {
			name      string
			got, want float64
			atMost    bool
		}{"median corner error / pitch", full.All.CornerQuantile(0.5), maxCornerMedian, true})
	}
	for _, c := range checks {
		if (c.atMost && c.got > c.want) || (!c.atMost && c.got < c.want) {
			t.Errorf("%s = %.4f, want %s %.4f", c.name, c.got, map[bool]string{true: "at most", false: "at least"}[c.atMost], c.want)
		}
	}
	if t.Failed() || testing.Verbose() {
		var b strings.Builder
		full.WriteText(&b)
		b.WriteString("\n--- with the true corners ---\n")
		cells.WriteText(&b)
		b.WriteString("\n--- near the true corners knocked by up to 0.1 pitch ---\n")
		near.WriteText(&b)
		t.Log("\n" + b.String())
	}
}

// Floors of the regression suite, a little under the figures measured on
// seeds 5000..5039 (raised in the thirtieth session, with the refits of
// the crowded boards' corners, and the corners' in the thirty-first, with
// the refits on the places the reading shows bare, again in the
// thirty-fifth, with the corners lowered by half a divider's height and
// every crowded board's outline fitted, and in the thirty-sixth, with
// the dividers told apart by kind, and in the thirty-seventh, with the
// cells read again on the refitted corners): cells 93.3 % (92.9 %
// before), every board read, median corner error 1.0 % of a pitch over
// the boards read and 0.95 % over the grids right (1.7 and 1.6 % before
// the thirty-sixth session, 2.1 and 1.8 % before the thirty-fifth, 2.7
// and 2.5 % before the thirtieth); with the true corners cells 97.5 %,
// levels 98.0 %, occupants 99.2 %; near the true corners knocked by up
// to a tenth of a pitch cells 97.2 % (96.5 % before the thirty-seventh
// session). Cells at vision.SureConfidence or more: cold 61.3 % of the
// cells read, none wrong; near a known grid 65.4 %, none wrong. The
// first ten seeds (-short) are not easier: there cells 89.2 % (88.4 %;
// one grid of ten wrong), true corners 96.8 %, near 96.8 % (96.4 %).
//
// With the corner network (forty-eighth session) the 40 seeds read 94.6 %
// of cells cold (93.6 % before): the floor for all 40 is now 0.93; the
// first ten alone keep the old floor.
//
// The sure shortcut to 0.03 pitch (sixty-fifth session, sureShortcutSpread
// in vision/cornernet.go) moved the median corner error from 1.28 to 1.36 %
// of a pitch (1.30 % over the grids right): 5002 and 5023 take the
// corner network's grid 0.16 and 0.10 pitch off at one corner, where the
// search's was within 0.02, every cell read right either way. Over the
// 2100 boards of the five check sets the worst corner's median fell
// (0.0229 -> 0.0222 pitch) and the boards over 0.1 pitch off stayed 205 /
// 206, the hold-out's median 1.19 % of a pitch either way, for 11-18 %
// less time a frame: the corner ceilings rose to 0.014 and 0.0135.
//
// The second corner network's opinion (sixty-seventh session,
// useSecondCornerNet in vision/cornernet.go) reads 5007 right (22 cells
// wrong, 0.89 pitch off, before; now none, 0.18 off), which joins the
// grids right with its large corners, and moves a few others (5014 0.057
// -> 0.145, 5036 0.021 -> 0.038 pitch, every cell as before): the median
// corner error is 1.38 % of a pitch over the boards read and the grids
// right alike. Over the 2100 boards of the five check sets the corners
// are better (worst corner's median 0.0222 -> 0.0218 pitch; over 0.05 /
// 0.1 / 0.25 pitch off 534 / 206 / 14 -> 518 / 193 / 10; each corner's
// median 0.0109 either way): both ceilings are now 0.0145.
const (
	minCells             = 0.93
	minCellsShort        = 0.86
	maxFailed            = 0.15
	maxCornerMedian      = 0.0145
	maxRightCornerMedian = 0.0145
	minSureRight         = 0.995
	minSureShare         = 0.55
	minCellsTrueCorners  = 0.96
	minLevelsTrueCorners = 0.97
	minOccTrueCorners    = 0.98
	minCellsNear         = 0.966
)

// minSureCells is the fewest sure cells whose share right is checked.
const minSureCells = 100

// sureRight is the share of cells read right among those reported at
// vision.SureConfidence or more, which the companion takes without asking
// (1 when there are fewer than minSureCells).
func sureRight(rep Report) float64 {
	// Too few cells to judge a share: one wrong cell of a few dozen is
	// several per cent.
	if rep.Sure < minSureCells {
		return 1
	}
	return 1 - float64(rep.SureWrong)/float64(rep.Sure)
}

// sureShare is the share of the cells of the boards read that are sure:
// a confidence that flags every cell would never be wrong, and useless.
func sureShare(rep Report) float64 {
	read := 0
	for _, h := range rep.ConfHist {
		read += h[0] + h[1]
	}
	if read == 0 {
		return 0
	}
	return float64(rep.Sure) / float64(read)
}

// TestWriteStageTimes: the stages print in the order they run, as means
// over the frames, with their sum.
func TestWriteStageTimes(t *testing.T) {
	var b strings.Builder
	writeStageTimes(&b, vision.StageTotals{
		vision.StageFirst:   {Time: 60 * time.Millisecond, Runs: 2},
		vision.StagePrepare: {Time: 4 * time.Millisecond, Runs: 2},
		vision.StageSearch:  {Time: 20 * time.Millisecond, Runs: 1},
		"unheard":           {Time: 2 * time.Millisecond, Runs: 3},
	}, 2)
	want := "\nstage times, mean ms a frame over 2 frames (and times run):\n" +
		"  prepare       2.0     2\n" +
		"  search       10.0     1\n" +
		"  first        30.0     2\n" +
		"  unheard       1.0     3\n" +
		"  all          43.0\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
