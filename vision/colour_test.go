package vision

import (
	"math"
	"math/rand"
	"sort"
	"testing"
)

// TestMedianMatchesSort: median, selecting past a few dozen values, gives
// the value sorting puts in the middle, for counts even and odd up to a
// board's samples, with the many equal values quantised colours have.
func TestMedianMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, n := range []int{1, 2, 31, 32, 33, 34, 100, 257, 4000, 7777} {
		for _, levels := range []int{3, 50, 1 << 20} {
			v := make([]float64, n)
			for i := range v {
				v[i] = math.Log(float64(8+rng.Intn(levels))) - 3
			}
			sorted := append([]float64(nil), v...)
			sort.Float64s(sorted)
			if got, want := median(v), sorted[n/2]; got != want {
				t.Fatalf("n %d, %d levels: median %v, sorted middle %v", n, levels, got, want)
			}
		}
	}
}

// BenchmarkMedianBoardSamples times median on a board's worth of samples
// (boardFromMap's, a few thousand, with repeats).
func BenchmarkMedianBoardSamples(b *testing.B) {
	rng := rand.New(rand.NewSource(9))
	v, w := make([]float64, 5000), make([]float64, 5000)
	for i := range v {
		v[i] = float64(rng.Intn(400)) / 997
	}
	for i := 0; i < b.N; i++ {
		copy(w, v)
		median(w)
	}
}
