package vision

import "testing"

// The embedded file loads and gives four finite logits a cell, not the
// same for every input.
func TestPawnLookSizes(t *testing.T) {
	for _, n := range []cellLook{newPawnLook(), newHiddenLook()} {
		t.Run(n.name, func(t *testing.T) { checkCellLook(t, &n, 4, 0) })
	}
}

func TestPawnPair(t *testing.T) {
	for _, tc := range []struct {
		name              string
		best, second      int // the likeliest hypothesis, and the next on its level
		level, occ, other int
		ok                bool
	}{
		{"bare board, a light pawn next", 0, 2, 0, 0, 2, true},
		{"dark pawn on level 1, bare next", 7, 4, 1, 3, 0, true},
		{"blue pawn on level 3, dark next", 13, 15, 3, 1, 3, true},
		{"dome", 16, 12, 0, 0, 0, false},
	} {
		var lp [nHyp]float64
		for k := range lp {
			lp[k] = -10
		}
		lp[tc.best], lp[tc.second] = 0, -1
		// A likelier hypothesis on another level is not the runner-up.
		if tc.best < 16 {
			lp[(tc.best+4)%16] = -0.5
		}
		level, occ, other, ok := pawnPair(&lp)
		if ok != tc.ok || (ok && (level != tc.level || occ != tc.occ || other != tc.other)) {
			t.Errorf("%s: pawnPair = %d, %d, %d, %v; want %d, %d, %d, %v", tc.name, level, occ, other, ok, tc.level, tc.occ, tc.other, tc.ok)
		}
	}
}

// The pawn look finds pawns the reader missed on cells it sees (check-set
// frames read cold: 18095 C5 a light pawn on the board, 18213 A2 and
// 21119 C1 light pawns on level 3, 22074 B4 one on level 2, 18924 A1 a
// dark pawn on the board).
func TestPawnLookTurnsCells(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	withoutSoloLook(t) // it reads these cells too
	defer func(u bool) { usePawnLook = u }(usePawnLook)
	r := NewReader()
	defer r.Close()
	lookTurns(t, r, "pawns", &usePawnLook, [][2]int64{{18095, 14}, {18213, 1}, {21119, 10}, {22074, 8}, {18924, 0}})
}

// BenchmarkPawnLook times the pawn look's network on one cell (its
// sampling excluded): it runs once for each cell in sight unsure of its
// occupant.
func BenchmarkPawnLook(b *testing.B) {
	n := newPawnLook()
	benchCellLook(b, &n, 4)
}

// The pawn look's network for covered cells finds pawns behind towers
// the reader missed (check-set frames read cold: 18329 A1, 18791 B1,
// 18797 C1 and 5158 A2 light pawns, 18612 B5 a blue one, all on
// the board).
func TestHiddenLookTurnsCells(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	defer func(u bool) { useHiddenLook = u }(useHiddenLook)
	r := NewReader()
	defer r.Close()
	lookTurns(t, r, "hidden pawns", &useHiddenLook, [][2]int64{{18329, 0}, {18612, 9}, {18791, 5}, {18797, 10}, {5158, 1}})
}

// The cover masks mark where nearer pieces stand across a cell's planes:
// the nearest cell has none, and a cell whose top nearer pieces cover
// (cellCover, the hidden look's cells) has some on its body's plane
// (18168 A5, a light pawn behind taller pieces).
func TestCoverMask(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, 18168)
	defer m.Close()
	if _, err := r.Read(m); err != nil {
		t.Fatal(err)
	}
	c := &r.cc
	toFull := float64(r.full.w) / float64(r.px.w)
	const n, side = 3 * tierSide * tierSide, tierSide * tierSide
	pix := make([]uint8, tierPixels+tierPlanes*side)
	extra := make([]float32, pawnLookExtra)
	share := func(i int) float64 {
		c.samplePawn(&r.full, toFull, i, int(truth.Board[i].Level), 0, pix, extra)
		k := 0
		for _, v := range pix[2*n : 2*n+side] {
			if v == 255 {
				k++
			} else if v != 0 {
				t.Fatalf("cell %d: mask value %d, want 0 or 255", i, v)
			}
		}
		return float64(k) / side
	}
	nearest := 0
	for i := range c.rank {
		if c.rank[i] > c.rank[nearest] {
			nearest = i
		}
	}
	if s := share(nearest); s != 0 {
		t.Errorf("the nearest cell %d: %.2f of its plane covered, want none", nearest, s)
	}
	const a5 = 4
	if _, top := c.cellCover(a5, truth.Board[a5]); top < hiddenCover {
		t.Fatalf("A5: top cover %.2f, want it among the hidden look's cells (%.2f or more)", top, hiddenCover)
	}
	if s := share(a5); s < 0.1 {
		t.Errorf("A5: %.2f of its body's plane covered, want 0.1 or more", s)
	}
}
