package vision

import (
	"math"
	"testing"
)

// The embedded file loads and gives one bounded, finite correction a
// cell, and not the same one for every input.
func TestTierNetSizes(t *testing.T) {
	var n tierNet
	defer n.close()
	if err := n.load(); err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, fill := range []uint8{0, 128, 255} {
		for i := range n.pix {
			n.pix[i] = fill
		}
		for i := range n.extra {
			n.extra[i] = 0
		}
		n.extra[1] = 1
		corr, err := n.run.run(n.pix, n.extra, 1)
		if err != nil {
			t.Fatal(err)
		}
		v := float64(corr[0])
		if math.IsNaN(v) || math.Abs(v) > tierBound+1e-6 {
			t.Fatalf("correction %v for patches of %d: want within %v", v, fill, tierBound)
		}
		got = append(got, v)
	}
	if got[0] == got[1] && got[1] == got[2] {
		t.Errorf("the same correction %v for every patch: the network ignores its input", got[0])
	}
}

func TestTierPair(t *testing.T) {
	for _, tc := range []struct {
		name string
		best int
		occ  int
		ok   bool
	}{
		{"bare board", 0, 0, false},
		{"plain level 1", 4, 0, true},
		{"level 1 under a dark pawn", 7, 3, true},
		{"level 2 under a blue pawn", 9, 1, true},
		{"plain level 3", 12, 0, false},
		{"dome", 16, 0, false},
	} {
		var lp [nHyp]float64
		for k := range lp {
			lp[k] = -10
		}
		lp[tc.best] = 0
		occ, ok := tierPair(&lp)
		if ok != tc.ok || (ok && occ != tc.occ) {
			t.Errorf("%s: tierPair = %d, %v; want %d, %v", tc.name, occ, ok, tc.occ, tc.ok)
		}
	}
}

// BenchmarkTierNet times the tier network on one cell (its sampling
// excluded): the tier look runs it once for each unsure cell read as
// level 1 or 2 on frames seen from near above.
func BenchmarkTierNet(b *testing.B) {
	var n tierNet
	defer n.close()
	if err := n.load(); err != nil {
		b.Fatal(err)
	}
	for i := range n.pix {
		n.pix[i] = uint8(i * 7)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := n.run.run(n.pix, n.extra, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// The tier look turns cells the reader read a level off from near above
// (check-set frames read cold: 18043 E4 read 1 for 2, 18098 E1 2 for 1,
// 18172 C1 and 18892 C1 2 for 1).
func TestTierLookTurnsLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	defer func(u bool) { useTierNet = u }(useTierNet)
	r := NewReader()
	defer r.Close()
	turned := 0
	for _, tc := range []struct {
		seed int64
		cell int
	}{{18043, 23}, {18098, 20}, {18172, 10}, {18892, 10}} {
		m, truth := simFrame(t, tc.seed)
		var got [2]string
		for k, on := range []bool{false, true} {
			useTierNet = on
			res, err := r.Read(m)
			if err != nil {
				m.Close()
				t.Fatalf("seed %d: %v", tc.seed, err)
			}
			got[k] = res.Board[tc.cell].String()
		}
		m.Close()
		want := truth.Board[tc.cell].String()
		if got[1] != want {
			t.Errorf("seed %d cell %d: read %s with the tier look (%s without), want %s", tc.seed, tc.cell, got[1], got[0], want)
		}
		if got[0] != want {
			turned++
		}
	}
	if turned < 2 {
		t.Errorf("the tier look turned %d of the 4 cells (the rest read right without it): pick cells it still turns", turned)
	}
}
