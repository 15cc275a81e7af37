package accuracy

import (
	"errors"
	"strings"
	"testing"

	"companion/observation"
)

// boardWith gives a board whose first n cells are built (level 1).
func boardWith(n int) observation.Board {
	var b observation.Board
	for i := 0; i < n; i++ {
		b[i].Level = 1
	}
	return b
}

func TestDensity(t *testing.T) {
	for _, c := range []struct {
		built int
		want  string
	}{
		{0, "00-09"}, {9, "00-09"}, {10, "10-14"}, {14, "10-14"},
		{15, "15-19"}, {19, "15-19"}, {20, "20-25"}, {25, "20-25"},
	} {
		if got := Density(boardWith(c.built)); got != c.want {
			t.Errorf("%d built cells: band %q, want %q", c.built, got, c.want)
		}
	}
	// Pawns alone do not make a cell built.
	var b observation.Board
	for i := 0; i < 10; i++ {
		b[i].Occupant = observation.Blue
	}
	if got := Density(b); got != "00-09" {
		t.Errorf("ten pawns on the ground: band %q, want 00-09", got)
	}
}

// TestSummariseDensities: each sample counts in its density's group, a
// frame not read with all its cells wrong.
func TestSummariseDensities(t *testing.T) {
	sparse, crowded := boardWith(3), boardWith(22)
	misread := crowded
	misread[0].Level = 2
	rep := Report{Samples: []Sample{
		{Truth: sparse, Read: sparse},
		{Truth: crowded, Read: misread, Wrong: 1},
		{Truth: crowded, Err: errors.New("no grid"), Wrong: 25},
	}}
	rep.summarise()
	if len(rep.Densities) != 2 {
		t.Fatalf("groups %+v, want two", rep.Densities)
	}
	sp, cr := rep.Densities[0], rep.Densities[1]
	if sp.Name != "built cells 00-09" || sp.Boards != 1 || sp.Perfect != 1 || sp.Tokens != 25 {
		t.Errorf("sparse group %+v", sp)
	}
	if cr.Name != "built cells 20-25" || cr.Boards != 2 || cr.Failed != 1 || cr.Perfect != 0 || cr.Tokens != 24 || cr.Cells != 50 {
		t.Errorf("crowded group %+v", cr)
	}
}

// TestSummariseHidden: hidden cells leave the seen figures, a board whose
// only wrong cell is hidden counts as right on its seen cells, and hidden
// cells read surely are counted, right or wrong.
func TestSummariseHidden(t *testing.T) {
	truth := boardWith(5)
	misread := truth
	misread[0].Level, misread[1].Level = 2, 0
	var hidden [25]bool
	hidden[0], hidden[2] = true, true
	var conf [25]float64
	conf[0], conf[1], conf[2] = 0.995, 0.5, 0.99
	var allSure [25]float64
	for i := range allSure {
		allSure[i] = 1
	}
	rep := Report{Samples: []Sample{
		{Truth: truth, Read: misread, Wrong: 2, Hidden: hidden, Conf: conf},
		{Truth: truth, Read: truth, Hidden: hidden, Conf: conf},
		{Truth: truth, Err: errors.New("no grid"), Wrong: 25, Hidden: hidden},
		{Truth: truth, Read: truth, Conf: allSure},
	}}
	rep.summarise()
	a := rep.All
	if a.Seen != 94 || a.SeenTokens != 70 || a.SeenPerfect != 2 {
		t.Errorf("seen %d, right %d, boards right on them %d: want 94, 70, 2", a.Seen, a.SeenTokens, a.SeenPerfect)
	}
	// Board by board: the misread one asks 23 cells and takes a wrong one
	// surely; the right one asks 23; the last is taken whole.
	if rep.Asked != 46 || rep.SilentWrong != 1 || rep.AllSure != 1 || rep.AllSureWrong != 0 || rep.Sure != 29 || rep.SureWrong != 1 {
		t.Errorf("asked %d, silent wrong %d, all sure %d (%d wrong), sure %d (%d wrong): want 46, 1, 1 (0), 29 (1)", rep.Asked, rep.SilentWrong, rep.AllSure, rep.AllSureWrong, rep.Sure, rep.SureWrong)
	}
	if rep.Hidden != 4 || rep.HiddenRight != 3 || rep.HiddenSure != 4 || rep.HiddenSureWrong != 1 {
		t.Errorf("hidden %d right %d sure %d sure wrong %d: want 4, 3, 4, 1", rep.Hidden, rep.HiddenRight, rep.HiddenSure, rep.HiddenSureWrong)
	}
}

// TestReportUnseen: pawns wholly out of sight are counted on every board,
// read or not, and the report gives the most a reader could read.
func TestReportUnseen(t *testing.T) {
	truth := boardWith(5)
	var one, two [25]bool
	one[3] = true
	two[3], two[9] = true, true
	rep := Report{Samples: []Sample{
		{Truth: truth, Read: truth, Unseen: one},
		{Truth: truth, Err: errors.New("no grid"), Wrong: 25, Unseen: two},
		{Truth: truth, Read: truth},
		{Truth: truth, Read: truth},
	}}
	rep.summarise()
	if rep.Unseen != 3 || rep.UnseenBoards != 2 {
		t.Errorf("unseen pawns %d on %d boards: want 3 on 2", rep.Unseen, rep.UnseenBoards)
	}
	var out strings.Builder
	rep.WriteText(&out)
	if want := "pawns wholly out of the camera's sight: 3, on 2 boards; a reader right on every other cell reads at most 97.00% of cells and 50.0% of boards perfect"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
}

// TestReportSaysWhetherHoldOut: a report on seeds trainers may have seen
// says it is no hold-out, so such figures are never quoted as one.
func TestReportSaysWhetherHoldOut(t *testing.T) {
	truth := boardWith(5)
	for _, tc := range []struct {
		name  string
		seeds []int64
		want  string
	}{
		{"hold-out", []int64{150000, 150001}, "seeds: all 2 seeds in the hold-outs' span 100000-299999 (never trained on)\n"},
		{"training seeds", []int64{300000, 300001}, "seeds: no seed in the hold-outs' span 100000-299999: training may have seen these scenes, so this is no hold-out\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rep Report
			for _, s := range tc.seeds {
				rep.Samples = append(rep.Samples, Sample{Seed: s, Truth: truth, Read: truth})
			}
			rep.summarise()
			var out strings.Builder
			rep.WriteText(&out)
			if !strings.HasPrefix(out.String(), tc.want) {
				t.Errorf("report starts %q, want %q", strings.SplitAfter(out.String(), "\n")[0], tc.want)
			}
		})
	}
}
