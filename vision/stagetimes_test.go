package vision

import (
	"math"
	"slices"
	"testing"
	"time"
)

// TestTraceTimes: each path of a read reports its own stages, in order,
// and their times add up to the read's.
func TestTraceTimes(t *testing.T) {
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, 5000)
	defer m.Close()
	grid := []string{StagePrepare, StageHand, StageCorner, StageShortcut}
	after := []string{StageChecks, StageRefine, StageLooks, StageFinish}
	cases := []struct {
		name     string
		shortcut bool
		read     func() (Result, error)
		want     []string
	}{
		{"shortcut on", true, func() (Result, error) { return r.Read(m) },
			slices.Concat(grid, []string{StageFirst}, after)},
		{"shortcut off", false, func() (Result, error) { return r.Read(m) },
			slices.Concat(grid, []string{StageSearch, StageFirst, StagePick}, after)},
		{"corners given", true, func() (Result, error) { return r.ReadWithCorners(m, truth.Corners) },
			[]string{StagePrepare, StageHand, StageFirst, StageLooks, StageFinish}},
		{"hint", true, func() (Result, error) { return r.ReadNear(m, truth.Corners) },
			[]string{StagePrepare, StageHand, StageNear, StageFirst, StageChecks, StageLooks, StageFinish}},
	}
	defer func(s bool) { useCornerShortcut = s }(useCornerShortcut)
	calls := 0
	for _, c := range cases {
		useCornerShortcut = c.shortcut
		var got []string
		var sum time.Duration
		r.TraceTimes(func(stage string, d time.Duration) {
			got = append(got, stage)
			sum += d
			calls++
		})
		res, err := c.read()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: stages %v, want %v", c.name, got, c.want)
		}
		// The stages cover the read but for the last few statements.
		if ms := float64(sum.Microseconds()) / 1000; math.Abs(ms-res.Millis) > 1 {
			t.Errorf("%s: stages add up to %.2f ms, the read took %.2f ms", c.name, ms, res.Millis)
		}
	}
	r.TraceTimes(nil)
	before := calls
	if _, err := r.Read(m); err != nil {
		t.Fatal(err)
	}
	if calls != before {
		t.Errorf("TraceTimes(nil) left the hook on: %d more stages", calls-before)
	}
}
