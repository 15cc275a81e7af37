package vision

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"companion/observation"
	"companion/sim"
)

func TestLimitPawns(t *testing.T) {
	sq := func(level uint8, o observation.Occupant) observation.Square {
		return observation.Square{Level: level, Occupant: o}
	}
	type cell struct {
		i     int
		probs map[observation.Square]float64 // the rest share what is left
	}
	tests := []struct {
		name    string
		cells   []cell // cells not listed read bare level 0 surely
		want    map[int]observation.Square
		changed []int
	}{
		{
			name: "two of a colour stay",
			cells: []cell{
				{0, map[observation.Square]float64{sq(0, observation.Blue): 0.9}},
				{7, map[observation.Square]float64{sq(2, observation.Blue): 0.8}},
			},
			want: map[int]observation.Square{0: sq(0, observation.Blue), 7: sq(2, observation.Blue)},
		},
		{
			name: "the least sure third pawn goes bare",
			cells: []cell{
				{0, map[observation.Square]float64{sq(0, observation.Light): 0.9}},
				{5, map[observation.Square]float64{sq(1, observation.Light): 0.55, sq(1, observation.Empty): 0.4}},
				{9, map[observation.Square]float64{sq(0, observation.Light): 0.95}},
			},
			want:    map[int]observation.Square{0: sq(0, observation.Light), 5: sq(1, observation.Empty), 9: sq(0, observation.Light)},
			changed: []int{5},
		},
		{
			name: "a third dark pawn that could be light becomes light",
			cells: []cell{
				{1, map[observation.Square]float64{sq(0, observation.Dark): 0.9}},
				{2, map[observation.Square]float64{sq(0, observation.Dark): 0.9}},
				{3, map[observation.Square]float64{sq(3, observation.Dark): 0.5, sq(3, observation.Light): 0.45}},
			},
			want:    map[int]observation.Square{3: sq(3, observation.Light)},
			changed: []int{3},
		},
		{
			name: "no room in the next colour: bare instead",
			cells: []cell{
				{1, map[observation.Square]float64{sq(0, observation.Dark): 0.9}},
				{2, map[observation.Square]float64{sq(0, observation.Dark): 0.9}},
				{3, map[observation.Square]float64{sq(3, observation.Dark): 0.5, sq(3, observation.Light): 0.3, sq(3, observation.Empty): 0.15}},
				{4, map[observation.Square]float64{sq(0, observation.Light): 0.99}},
				{6, map[observation.Square]float64{sq(0, observation.Light): 0.99}},
			},
			want:    map[int]observation.Square{3: sq(3, observation.Empty)},
			changed: []int{3},
		},
		{
			name: "four of a colour: two go",
			cells: []cell{
				{10, map[observation.Square]float64{sq(0, observation.Blue): 0.6}},
				{11, map[observation.Square]float64{sq(0, observation.Blue): 0.99}},
				{12, map[observation.Square]float64{sq(0, observation.Blue): 0.7}},
				{13, map[observation.Square]float64{sq(0, observation.Blue): 0.98}},
			},
			want:    map[int]observation.Square{10: sq(0, observation.Empty), 12: sq(0, observation.Empty), 11: sq(0, observation.Blue), 13: sq(0, observation.Blue)},
			changed: []int{10, 12},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var lp [25][nHyp]float64
			for i := range lp {
				for k := range lp[i] {
					lp[i][k] = math.Log(0.001)
				}
				lp[i][hypIndex(sq(0, observation.Empty))] = math.Log(0.99)
			}
			for _, c := range tc.cells {
				rest := 1.0
				for _, p := range c.probs {
					rest -= p
				}
				for k := range lp[c.i] {
					lp[c.i][k] = math.Log(rest / float64(nHyp-len(c.probs)))
				}
				for s, p := range c.probs {
					lp[c.i][hypIndex(s)] = math.Log(p)
				}
			}
			var best [25]int
			for i := range lp {
				for k := range lp[i] {
					if lp[i][k] > lp[i][best[i]] {
						best[i] = k
					}
				}
			}
			changed := limitPawns(&lp, &best)
			slices.Sort(changed)
			if !slices.Equal(changed, tc.changed) {
				t.Errorf("changed cells %v, want %v", changed, tc.changed)
			}
			for i, want := range tc.want {
				if got := hypSquare(best[i]); got != want {
					t.Errorf("cell %d reads %v, want %v", i, got, want)
				}
			}
		})
	}
}

// A light pawn on a tower, or a blue one on level 3, close behind the
// bare tower (or the dome) is read; one further behind is not, and the
// bonus leaves other cells alone.
func TestDecideTowerPawnBonus(t *testing.T) {
	sq := func(level uint8, o observation.Occupant) observation.Square {
		return observation.Square{Level: level, Occupant: o}
	}
	tests := []struct {
		name        string
		best, other observation.Square // the networks' first and second
		behind      float64            // how far the second is behind
		want        observation.Square
	}{
		{"light pawn on 3 just behind", sq(3, observation.Empty), sq(3, observation.Light), 0.3, sq(3, observation.Light)},
		{"light pawn on 3 well behind", sq(3, observation.Empty), sq(3, observation.Light), 0.7, sq(3, observation.Empty)},
		{"light pawn on 1 just behind", sq(1, observation.Empty), sq(1, observation.Light), 0.3, sq(1, observation.Light)},
		{"light pawn on 0 just behind", sq(0, observation.Empty), sq(0, observation.Light), 0.3, sq(0, observation.Empty)},
		// A first builder gets 0.32 from pawnCountPrior on any cell, so the
		// blue cases stand further behind.
		{"blue pawn on 3 just behind a dome", sq(4, observation.Empty), sq(3, observation.Blue), 0.6, sq(3, observation.Blue)},
		{"blue pawn on 2 just behind", sq(2, observation.Empty), sq(2, observation.Blue), 0.6, sq(2, observation.Empty)},
		{"dark pawn on 3 just behind", sq(3, observation.Empty), sq(3, observation.Dark), 0.3, sq(3, observation.Empty)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c cellCtx
			c.netIn = make([]float32, 25*netInputs) // render and compare vetoes nothing
			for i := range c.netLP {
				for k := range c.netLP[i] {
					c.netLP[i][k] = -20
				}
				c.netLP[i][hypIndex(sq(0, observation.Empty))] = 0
			}
			c.netLP[12][hypIndex(sq(0, observation.Empty))] = -20
			c.netLP[12][hypIndex(tt.best)] = 0
			c.netLP[12][hypIndex(tt.other)] = -tt.behind
			var res Result
			c.decide(&res)
			board, conf := res.Board, res.Confidence
			if board[12] != tt.want {
				t.Errorf("read %v, want %v", board[12], tt.want)
			}
			if conf[12] <= 0 || conf[12] >= 1 {
				t.Errorf("confidence %v, want within (0, 1)", conf[12])
			}
		})
	}
}

// A pawn the networks find a little less likely than a bare cell is read
// when the board's other cells show one pawn of its colour (the second
// builder is likely on the board), not when they show none or two, nor
// when the one they show is unsure; the bonus is smaller for the
// enemies, who are more often off the board.
func TestPawnCountPrior(t *testing.T) {
	sq := func(level uint8, o observation.Occupant) observation.Square {
		return observation.Square{Level: level, Occupant: o}
	}
	const cell = 12
	tests := []struct {
		name   string
		pawn   observation.Occupant
		others int     // cells read with a pawn of that colour
		lead   float64 // how far their pawn leads the bare cell
		behind float64 // how far this cell's pawn is behind the bare cell
		want   observation.Square
	}{
		{"second builder just behind", observation.Blue, 1, 5, 0.9, sq(1, observation.Blue)},
		{"second builder well behind", observation.Blue, 1, 5, 1.5, sq(1, observation.Empty)},
		{"the builder elsewhere unsure", observation.Blue, 1, 0.3, 0.9, sq(1, observation.Empty)},
		{"no builder elsewhere", observation.Blue, 0, 5, 0.9, sq(1, observation.Empty)},
		{"first builder just behind", observation.Blue, 0, 5, 0.2, sq(1, observation.Blue)},
		{"second light enemy just behind", observation.Light, 1, 5, 0.4, sq(1, observation.Light)},
		{"second light enemy behind as far as a builder", observation.Light, 1, 5, 0.9, sq(1, observation.Empty)},
		{"third dark pawn", observation.Dark, 2, 5, 0.1, sq(1, observation.Empty)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var lp [25][nHyp]float64
			for i := range lp {
				for k := range lp[i] {
					lp[i][k] = -20 // the other cells read bare surely
				}
				lp[i][hypIndex(sq(0, observation.Empty))] = 0
			}
			for n := 0; n < tc.others; n++ {
				lp[n][hypIndex(sq(0, tc.pawn))] = tc.lead
			}
			lp[cell][hypIndex(sq(1, observation.Empty))] = 0.5
			lp[cell][hypIndex(sq(1, tc.pawn))] = 0.5 - tc.behind
			adj := lp
			var best [25]int
			for i := range lp {
				for k := range lp[i] {
					if lp[i][k] > lp[i][best[i]] {
						best[i] = k
					}
				}
			}
			pawnCountPrior(&lp, &adj, &best)
			if adj != lp {
				t.Error("adj and lp were given the same bonus yet differ")
			}
			if got := hypSquare(best[cell]); got != tc.want {
				t.Errorf("cell reads %v, want %v", got, tc.want)
			}
			for n := 0; n < tc.others && tc.lead > 1; n++ {
				if got := hypSquare(best[n]); got != sq(0, tc.pawn) {
					t.Errorf("cell %d, read surely, now reads %v", n, got)
				}
			}
		})
	}
}

// The prior's chances are the simulator's: boards drawn by
// sim.RandomBoard hold 0, 1 or 2 pawns of each colour as often as
// pawnCountChances says (dense boards lack free cells now and then).
func TestPawnCountChancesMatchSim(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const boards = 20000
	var seen [4][pawnsPerColour + 1]float64
	for b := 0; b < boards; b++ {
		var count [4]int
		for _, sq := range sim.RandomBoard(rng) {
			count[sq.Occupant]++
		}
		for o := observation.Blue; o <= observation.Dark; o++ {
			if count[o] > pawnsPerColour {
				t.Fatalf("a board with %d pawns of colour %v", count[o], o)
			}
			seen[o][count[o]] += 1.0 / boards
		}
	}
	for o := observation.Blue; o <= observation.Dark; o++ {
		for n, want := range pawnCountChances[o] {
			if math.Abs(seen[o][n]-want) > 0.015 {
				t.Errorf("colour %v: %d pawns on %.3f of the boards, pawnCountChances says %.3f", o, n, seen[o][n], want)
			}
		}
	}
}

// With every other cell read surely, the forward and backward sums give
// the closed form: one builder elsewhere on a board of 25 free cells,
// the odds of the second on this cell are P(2)/P(1) * 2/24, against the
// networks' trained odds.
func TestPawnCountPriorClosedForm(t *testing.T) {
	var lp [25][nHyp]float64
	for i := range lp {
		for k := range lp[i] {
			lp[i][k] = -60
		}
		lp[i][hypIndex(observation.Square{})] = 0
	}
	blue1 := hypIndex(observation.Square{Occupant: observation.Blue})
	lp[0][blue1] = 60
	lp[12][blue1] = 0 // as likely as bare to the networks
	adj := lp
	var best [25]int
	best[0] = blue1
	pawnCountPrior(&lp, &adj, &best)
	p := pawnCountChances[observation.Blue]
	trained := trainedOccupants(25)
	want := math.Log(p[2] / p[1] * 2 / 24 / (trained[observation.Blue] / trained[observation.Empty]))
	if got := lp[12][blue1] - lp[12][hypIndex(observation.Square{})]; math.Abs(got-want) > 1e-6 {
		t.Errorf("the second builder's bonus is %.6f nats, want %.6f", got, want)
	}
}

// Whatever the networks give, vetoed hypotheses (-Inf) and whole cells
// of them included, the prior leaves no NaN, keeps vetoed hypotheses
// vetoed, and picks each cell's best.
func TestPawnCountPriorFinite(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for n := 0; n < 2000; n++ {
		var lp [25][nHyp]float64
		for i := range lp {
			for k := range lp[i] {
				lp[i][k] = -rng.Float64() * 12
				if rng.Intn(30) == 0 || i == 7 && k > 0 {
					lp[i][k] = math.Inf(-1)
				}
			}
		}
		var best [25]int
		for i := range lp {
			for k := range lp[i] {
				if lp[i][k] > lp[i][best[i]] {
					best[i] = k
				}
			}
		}
		before, adj := lp, lp
		pawnCountPrior(&lp, &adj, &best)
		for i := range lp {
			for k, v := range lp[i] {
				if math.IsNaN(v) || math.IsNaN(adj[i][k]) {
					t.Fatalf("trial %d: cell %d hypothesis %d is NaN", n, i, k)
				}
				if math.IsInf(before[i][k], -1) && !math.IsInf(v, -1) {
					t.Fatalf("trial %d: cell %d hypothesis %d was vetoed, now %v", n, i, k, v)
				}
				if v > lp[i][best[i]] {
					t.Fatalf("trial %d: cell %d picks %d, but %d is likelier", n, i, best[i], k)
				}
			}
		}
	}
}
