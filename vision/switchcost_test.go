package vision

import (
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"companion/sim"
)

var (
	switchName  = flag.String("switch", "", "TestSwitchCost: the reader's switch to measure ("+strings.Join(switchNames(), ", ")+")")
	switchSeeds = flag.String("switchseeds", "20000-20149", "TestSwitchCost: the seeds read (a-b; never the hold-outs'), from COMPANION_SIM_CACHE when rendered there")
	switchDiff  = flag.Bool("switchdiff", false, "TestSwitchCost: also list the seeds on which the two settings leave different numbers of cells wrong, with each reading's cells wrong and asked, grid confidence and time")
)

// readerSwitches are the reader's parts that can be switched off, by the
// names TestSwitchCost takes.
var readerSwitches = map[string]*bool{
	"cornernet":       &useCornerNet,
	"cornershortcut":  &useCornerShortcut,
	"secondcornernet": &useSecondCornerNet,
	"cornerfallback":  &useCornerFallback,
	"handnet":         &useHandNet,
	"refinenet":       &useRefineNet,
	"secondreading":   &useSecondReading,
	"patchnet":        &usePatchNet,
	"tiernet":         &useTierNet,
	"tier23net":       &useTier23Net,
	"pawnlook":        &usePawnLook,
	"hiddenlook":      &useHiddenLook,
	"domelook":        &useDomeLook,
	"sololook":        &useSoloLook,
	"lookmirror":      &lookMirror,
	"surelookpass":    &passSureCells,
	"ownconvnet":      &useOwnConvNet,
	"owncornernets":   &useOwnCornerNets,
	"ownhandnet":      &useOwnHandNet,
	"owncanny":        &useOwnCanny,
}

func switchNames() []string {
	var names []string
	for n := range readerSwitches {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// switchTally is one setting's reads: time, cells wrong and boards
// perfect against the truth, and frames refused.
type switchTally struct {
	wrong, perfect, refused int
	perFrame                []float64 // ms, frame by frame
	last                    string    // the last frame's reading, for -switchdiff
	lastWrong               int
}

func (s *switchTally) add(res Result, err error, truth sim.Truth, d time.Duration) {
	s.perFrame = append(s.perFrame, float64(d.Microseconds())/1000)
	if err != nil {
		s.refused++
		s.wrong += len(truth.Board)
		s.last, s.lastWrong = "refused", len(truth.Board)
		return
	}
	w := cellsWrong(res, truth)
	s.wrong += w
	asked := 0
	for _, c := range res.Confidence {
		if c < SureConfidence {
			asked++
		}
	}
	s.last = fmt.Sprintf("%d wrong, %d asked, grid %.2f, %.0f ms", w, asked, res.GridConfidence, float64(d.Microseconds())/1000)
	s.lastWrong = w
	if w == 0 {
		s.perfect++
	}
}

// pairedSpread gives the mean of b's times less a's, frame by frame, and
// its standard error.
func pairedSpread(a, b []float64) (mean, se float64) {
	n := float64(len(a))
	if n < 2 {
		return 0, math.Inf(1)
	}
	var s, s2 float64
	for i := range a {
		d := b[i] - a[i]
		s += d
		s2 += d * d
	}
	mean = s / n
	return mean, math.Sqrt(math.Max(0, s2/n-mean*mean) / (n - 1))
}

// TestSwitchCost measures what one part of the reader costs and buys: each
// frame of -switchseeds is read with the part on and off in turn, in one
// process, the order alternating frame by frame, so that this machine's
// speed, which drifts by a third within a session, falls on both alike
// (timing two builds one after the other cannot show a few ms). Every
// read is cold (no hint); a frame refused counts all its cells wrong.
// For one core run it under taskset -c 0:
//
//	COMPANION_SIM_CACHE=/tmp/simcache taskset -c 0 go test -run TestSwitchCost -count=1 -v ./vision -switch tiernet -switchseeds 20000-20149
func TestSwitchCost(t *testing.T) {
	if *switchName == "" {
		t.Skip("run with -switch NAME to measure a part of the reader")
	}
	sw, ok := readerSwitches[*switchName]
	if !ok {
		t.Fatalf("unknown switch %q: want one of %s", *switchName, strings.Join(switchNames(), ", "))
	}
	a, b := seedRange(t, *switchSeeds, false)
	if sim.TouchesHoldOut(a, b) {
		t.Fatalf("seeds %d-%d touch the hold-outs (%d-%d): never choose on them", a, b, sim.HoldOutFirst, sim.HoldOutLast)
	}
	was := *sw
	defer func() { *sw = was }()
	r := NewReader()
	defer r.Close()
	var tally [2]switchTally // off, on
	for seed := a; seed <= b; seed++ {
		data, truth, err := sim.Frame(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		img, err := DecodeBytes(data)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for j := 0; j < 2; j++ {
			k := (int(seed-a) + j) % 2 // 1: on
			*sw = k == 1
			start := time.Now()
			res, err := r.Read(img)
			tally[k].add(res, err, truth, time.Since(start))
		}
		img.Close()
		if *switchDiff && tally[0].lastWrong != tally[1].lastWrong {
			t.Logf("seed %d: off %s; on %s", seed, tally[0].last, tally[1].last)
		}
	}
	for k, name := range []string{"off", "on"} {
		s := &tally[k]
		var ms float64
		for _, v := range s.perFrame {
			ms += v
		}
		t.Logf("%s %-3s: %.1f ms a frame, %d cells wrong, %d of %d boards perfect, %d refused",
			*switchName, name, ms/float64(len(s.perFrame)), s.wrong, s.perfect, len(s.perFrame), s.refused)
	}
	d, se := pairedSpread(tally[0].perFrame, tally[1].perFrame)
	t.Logf("%s on costs %.2f ms a frame (standard error %.2f) and saves %d cells wrong, %d boards perfect more",
		*switchName, d, se, tally[0].wrong-tally[1].wrong, tally[1].perfect-tally[0].perfect)
}

func TestPairedSpread(t *testing.T) {
	cases := []struct {
		name     string
		a, b     []float64
		mean, se float64
	}{
		{"same difference every frame", []float64{10, 20, 30}, []float64{12, 22, 32}, 2, 0},
		{"differences 1 and 3", []float64{5, 5}, []float64{6, 8}, 2, 1},
		{"slower frames cancel", []float64{10, 100}, []float64{11, 99}, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mean, se := pairedSpread(tc.a, tc.b)
			if math.Abs(mean-tc.mean) > 1e-9 || math.Abs(se-tc.se) > 1e-9 {
				t.Errorf("pairedSpread = %.3f ± %.3f, want %.3f ± %.3f", mean, se, tc.mean, tc.se)
			}
		})
	}
	if _, se := pairedSpread([]float64{1}, []float64{2}); !math.IsInf(se, 1) {
		t.Errorf("one frame: standard error %v, want +Inf", se)
	}
}

func TestReaderSwitchesAreDistinct(t *testing.T) {
	seen := map[*bool]string{}
	for name, p := range readerSwitches {
		if other, ok := seen[p]; ok {
			t.Errorf("switches %q and %q are the same variable", name, other)
		}
		seen[p] = name
	}
}
