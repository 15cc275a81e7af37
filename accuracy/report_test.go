package accuracy

import (
	"errors"
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
