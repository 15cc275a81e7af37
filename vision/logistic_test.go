package vision

import (
	"math"
	"math/rand"
	"testing"
)

// fitLogistic fits logistic weights (bias last) to inputs x, targets y in
// {0, 1} and sample weights sw by Newton's method, with a ridge penalty of
// l2 per unit of sample weight on the weights of the standardised inputs
// (so that it weighs every input alike whatever its scale); the weights
// given are for the raw inputs.
func fitLogistic(x [][]float64, y, sw []float64, l2 float64) []float64 {
	n := len(x[0]) + 1
	mean, sd := make([]float64, n-1), make([]float64, n-1)
	for _, r := range x {
		for a, v := range r {
			mean[a] += v / float64(len(x))
		}
	}
	for _, r := range x {
		for a, v := range r {
			sd[a] += (v - mean[a]) * (v - mean[a]) / float64(len(x))
		}
	}
	for a := range sd {
		sd[a] = math.Max(math.Sqrt(sd[a]), 1e-9)
	}
	z := make([][]float64, len(x))
	for i, r := range x {
		z[i] = make([]float64, n-1)
		for a, v := range r {
			z[i][a] = (v - mean[a]) / sd[a]
		}
	}
	w := fitNewton(z, y, sw, l2)
	for a := 0; a < n-1; a++ {
		w[a] /= sd[a]
		w[n-1] -= w[a] * mean[a]
	}
	return w
}

// fitNewton fits logistic weights (bias last) to inputs x as given,
// targets y in {0, 1} and sample weights sw by Newton's method, with a
// ridge penalty of l2 per unit of sample weight on all but the bias.
func fitNewton(x [][]float64, y, sw []float64, l2 float64) []float64 {
	n := len(x[0]) + 1
	w := make([]float64, n)
	row := make([]float64, n)
	total := 0.0
	for _, v := range sw {
		total += v
	}
	for iter := 0; iter < 50; iter++ {
		g := make([]float64, n)
		hm := make([][]float64, n)
		for a := range hm {
			hm[a] = make([]float64, n)
		}
		for i := range x {
			copy(row, x[i])
			row[n-1] = 1
			s := 0.0
			for a := range row {
				s += w[a] * row[a]
			}
			p := 1 / (1 + math.Exp(-s))
			for a := range row {
				g[a] += sw[i] * (p - y[i]) * row[a]
				for b := range row {
					hm[a][b] += sw[i] * p * (1 - p) * row[a] * row[b]
				}
			}
		}
		for a := 0; a < n-1; a++ {
			g[a] += l2 * total * w[a]
			hm[a][a] += l2 * total
		}
		d := make([]float64, n)
		if !solveRows(hm, g, d) {
			break
		}
		step := 0.0
		for a := range w {
			w[a] -= d[a]
			step = math.Max(step, math.Abs(d[a]))
		}
		if step < 1e-9 {
			break
		}
	}
	return w
}

// TestFitLogisticRecovers: weights drawn back from samples of a known
// logistic model whose inputs have very different scales and offsets (the
// standardisation must be undone exactly), with a ridge too small to bias
// them.
func TestFitLogisticRecovers(t *testing.T) {
	want := []float64{0.02, -3, 40, 1.5}
	rng := rand.New(rand.NewSource(2))
	var x [][]float64
	var y, sw []float64
	for i := 0; i < 20000; i++ {
		r := []float64{100 + 50*rng.NormFloat64(), rng.Float64(), 0.05 * rng.NormFloat64()}
		s := want[3]
		for a, v := range r {
			s += want[a] * v
		}
		p := 1 / (1 + math.Exp(-s))
		label := 0.0
		if rng.Float64() < p {
			label = 1
		}
		x, y, sw = append(x, r), append(y, label), append(sw, 1)
	}
	got := fitLogistic(x, y, sw, 1e-6)
	for a := range want {
		if math.Abs(got[a]-want[a]) > 0.1*math.Abs(want[a])+0.05 {
			t.Errorf("weight %d = %.4f, want %.4f", a, got[a], want[a])
		}
	}
}
