package vision

import (
	"math"
	"slices"
	"testing"

	"companion/observation"
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
		{"blue pawn on 3 just behind a dome", sq(4, observation.Empty), sq(3, observation.Blue), 0.3, sq(3, observation.Blue)},
		{"blue pawn on 2 just behind", sq(2, observation.Empty), sq(2, observation.Blue), 0.3, sq(2, observation.Empty)},
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
			var board observation.Board
			var conf [25]float64
			c.decide(&board, &conf)
			if board[12] != tt.want {
				t.Errorf("read %v, want %v", board[12], tt.want)
			}
			if conf[12] <= 0 || conf[12] >= 1 {
				t.Errorf("confidence %v, want within (0, 1)", conf[12])
			}
		})
	}
}
