package vision

import "testing"

// The embedded file loads and gives a finite correction a cell, bounded,
// not the same for every input.
func TestDomeLookSizes(t *testing.T) {
	n := newDomeLook()
	checkCellLook(t, &n, 1, domeLookBound)
}

func TestDomeOdds(t *testing.T) {
	for _, tc := range []struct {
		name         string
		best, second int
		odds         float64
		ok           bool
	}{
		{"dome, blue pawn on level 3 next", hypDome, hypBlueOnThree, 1, true},
		{"blue pawn on level 3, dome next", hypBlueOnThree, hypDome, -1, true},
		{"dome, bare level 3 next", hypDome, 12, 10, true},
		{"light pawn on level 3", 14, hypDome, 0, false},
		{"blue pawn on level 2", 9, hypDome, 0, false},
	} {
		var lp [nHyp]float64
		for k := range lp {
			lp[k] = -10
		}
		lp[tc.best], lp[tc.second] = 0, -1
		odds, ok := domeOdds(&lp)
		if ok != tc.ok || (ok && odds != tc.odds) {
			t.Errorf("%s: domeOdds = %v, %v; want %v, %v", tc.name, odds, ok, tc.odds, tc.ok)
		}
	}
}

// BenchmarkDomeLook times the dome look's network on one cell (its
// sampling excluded): it runs once for each cell unsure between a dome and
// a blue pawn on level 3.
func BenchmarkDomeLook(b *testing.B) {
	n := newDomeLook()
	benchCellLook(b, &n, 1)
}

// The dome look finds blue pawns on level 3 the reader took for domes
// (check-set frames read cold: 18265 C4, 18384 E5, 20045 B2 and B5; 18489
// A4 too until its grid, found by the wide outline search, was 0.24 pitch
// off without it).
func TestDomeLookTurnsCells(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	withoutSoloLook(t) // it reads these cells too
	defer func(u bool) { useDomeLook = u }(useDomeLook)
	r := NewReader()
	defer r.Close()
	lookTurns(t, r, "domes", &useDomeLook, [][2]int64{{18265, 13}, {18384, 24}, {20045, 6}, {20045, 9}})
}
