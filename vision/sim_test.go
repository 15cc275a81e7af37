package vision

import (
	"fmt"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

// simFrame renders seed's scene and passes it through JPEG at the scene's
// quality, like a real frame; the caller must Close the Mat.
func simFrame(tb testing.TB, seed int64) (gocv.Mat, sim.Truth) {
	tb.Helper()
	m, truth, err := loadSimFrame(seed)
	if err != nil {
		tb.Fatal(err)
	}
	return m, truth
}

// loadSimFrame is simFrame for goroutines other than the test's.
func loadSimFrame(seed int64) (gocv.Mat, sim.Truth, error) {
	data, truth, err := sim.Frame(seed)
	return decodeSimFrame(seed, data, truth, err)
}

// decodeSimFrame decodes seed's JPEG bytes data (err: how getting them
// failed) with its truth.
func decodeSimFrame(seed int64, data []byte, truth sim.Truth, err error) (gocv.Mat, sim.Truth, error) {
	if err != nil {
		return gocv.Mat{}, truth, fmt.Errorf("seed %d: %w", seed, err)
	}
	m, err := DecodeBytes(data)
	if err != nil {
		return gocv.Mat{}, truth, fmt.Errorf("seed %d: %w", seed, err)
	}
	return m, truth, nil
}

// readSeedCold reads seed's frame cold with r; on an error it reports it
// (t.Errorf) and gives ok false.
func readSeedCold(t *testing.T, r *Reader, seed int64) (Result, sim.Truth, bool) {
	t.Helper()
	m, truth := simFrame(t, seed)
	defer m.Close()
	res, err := r.Read(m)
	if err != nil {
		t.Errorf("seed %d: %v", seed, err)
		return res, truth, false
	}
	return res, truth, true
}

// readSeedsNear reads each seed's frame cold and wants its worst corner
// within maxPitch of the truth and at most maxWrong cells wrong.
func readSeedsNear(t *testing.T, seeds []int64, maxPitch float64, maxWrong int) {
	t.Helper()
	r := NewReader()
	defer r.Close()
	for _, seed := range seeds {
		res, truth, ok := readSeedCold(t, r, seed)
		if !ok {
			continue
		}
		if e := pitchErr(res.Corners, truth.Corners); e > maxPitch {
			t.Errorf("seed %d: worst corner %.2f pitch off, want at most %.2f", seed, e, maxPitch)
		}
		if wrong := cellsWrong(res, truth); wrong > maxWrong {
			t.Errorf("seed %d: %d cells wrong, want at most %d", seed, wrong, maxWrong)
		}
	}
}

// seedCase is a frame to read cold: within maxPitch at its worst corner,
// at most maxWrong cells wrong.
type seedCase struct {
	name     string
	seed     int64
	maxPitch float64
	maxWrong int
}

// readSeedCases reads each case's frame in a subtest of its name.
func readSeedCases(t *testing.T, cases []seedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			readSeedsNear(t, []int64{tc.seed}, tc.maxPitch, tc.maxWrong)
		})
	}
}

// cellsWrong counts the cells res reads otherwise than the truth.
func cellsWrong(res Result, truth sim.Truth) int {
	n := 0
	for i := range res.Board {
		if res.Board[i] != truth.Board[i] {
			n++
		}
	}
	return n
}
