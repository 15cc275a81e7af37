package vision

import (
	"errors"
	"math/rand"
	"testing"

	"companion/observation"
	"companion/sim"

	"gocv.io/x/gocv"
)

// sparesScene is a simulated frame of the table beside the board, the
// board out of view: spare blocks, domes and pawns, standing or lying,
// and the scene's dice and cards.
func sparesScene(seed int64, w, h int) sim.Scene {
	sc := sim.RandomScene(seed)
	sc.Width, sc.Height = w, h
	rng := rand.New(rand.NewSource(seed))
	const away = 16 // pitches: the board is well out of view
	sc.Camera.Target[0] += away
	for k := range sc.Props {
		sc.Props[k].X += away
	}
	sc.Spares = nil
	for n := 4 + rng.Intn(9); n > 0; n-- {
		sc.Spares = append(sc.Spares, sim.Spare{
			Kind:     sim.SpareKind(rng.Intn(5)),
			Occupant: observation.Occupant(1 + rng.Intn(3)),
			Female:   rng.Intn(2) == 0,
			X:        away + 6*(rng.Float64()-0.5),
			Y:        4 * (rng.Float64() - 0.5),
			Rot:      360 * rng.Float64(),
			Lying:    rng.Intn(3) == 0,
		})
	}
	return sc
}

// sparesFrame renders sparesScene at 960x540 as a frame to read.
func sparesFrame(t *testing.T, seed int64) gocv.Mat {
	t.Helper()
	img, _ := sim.Render(sparesScene(seed, 960, 540))
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReadSparesNoBoard: spare pieces on a table, with no board in view,
// are refused (ErrNoGrid), not read as a crowded board from their tops or
// from a plank table's seams. Of 200 such frames at 1280x720, 47 were read
// before weak grids with no divider ridges had to read crowded (boardShown,
// minBuiltUnsure), 4 after; 9 of these 40 were. Of seeds 1-200 as rendered
// here (960x540) 15 were read before grids seen from under 28 degrees up
// were refused (minViewElevation), 8 after; of these 40, seed 5. With
// the board test (boardLogit), one of the 200 (TestReadSparesBoardTest).
func TestReadSparesNoBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	const n = 40
	read := 0
	for seed := int64(1); seed <= n; seed++ {
		m := sparesFrame(t, seed)
		res, err := r.Read(m)
		m.Close()
		switch {
		case err == nil:
			read++
			t.Logf("seed %d read as a board (grid confidence %.2f): %v", seed, res.GridConfidence, res.Board.Tokens())
			if res.GridConfidence > 0.1 {
				t.Errorf("seed %d: a board read with grid confidence %.2f from spare pieces", seed, res.GridConfidence)
			}
		case !errors.Is(err, ErrNoGrid):
			t.Errorf("seed %d: %v, want ErrNoGrid", seed, err)
		}
	}
	if read > n/20 {
		t.Errorf("%d of %d frames with no board were read as boards (at most %d allowed)", read, n, n/20)
	}
}

// TestReadNearSparesNoBoard: reading near a hint where the board was, with
// the board gone from view and spare pieces on the table, is refused, not
// read as a board at the hint. Before a weak hint with no divider ridges
// had to read crowded, 38 of these 40 frames were read; after, 5. With
// the board test judging a weak hint's reading too (evidenceAt), none is:
// the highest logit is -3.34 (seed 5), under the floor's -2.8.
func TestReadNearSparesNoBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	// Where a board seen from about 60 degrees up would have been.
	hint := [4][2]float64{{300, 110}, {660, 110}, {720, 450}, {240, 450}}
	const n = 40
	read := 0
	for seed := int64(1); seed <= n; seed++ {
		m := sparesFrame(t, seed)
		_, err := r.ReadNear(m, hint)
		m.Close()
		switch {
		case err == nil:
			read++
		case !errors.Is(err, ErrNoGrid):
			t.Errorf("seed %d: %v, want ErrNoGrid", seed, err)
		}
	}
	if read > 0 {
		t.Errorf("%d of %d frames with no board were read as boards near the hint, want none", read, n)
	}
}

// TestReadSparesLowView: frames of spare pieces on a table that were read
// as boards seen from 7 to 19 degrees up (viewElevation) are refused, and
// the lowest true views of seeds 17000-17999 stay above the floor.
func TestReadSparesLowView(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	for _, seed := range []int64{72, 91, 143, 147, 165} {
		m := sparesFrame(t, seed)
		res, err := r.Read(m)
		m.Close()
		if !errors.Is(err, ErrNoGrid) {
			t.Errorf("seed %d: read as a board (corners %v, error %v), want ErrNoGrid", seed, res.Corners, err)
		}
	}
	for _, seed := range []int64{17857, 17848, 17908} {
		m, truth := simFrame(t, seed)
		if el := viewElevation(truth.Corners, m.Cols(), m.Rows()); el < minViewElevation+3 {
			t.Errorf("seed %d: true corners seen from %.1f degrees, too near the floor %d", seed, el, minViewElevation)
		}
		m.Close()
	}
}

// TestReadSparesBoardTest: the frames of spare pieces of seeds 1-200
// (960x540) that passed every other check and were read as boards are
// refused by the board test (boardLogit), but for seed 88 (its logit -2.39
// over the floor). They are not among the frames it was trained on.
func TestReadSparesBoardTest(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	for _, seed := range []int64{5, 53, 64, 99, 107, 116, 155, 191} {
		m := sparesFrame(t, seed)
		res, err := r.Read(m)
		m.Close()
		if !errors.Is(err, ErrNoGrid) {
			t.Errorf("seed %d: read as a board (%v, grid confidence %.2f, error %v), want ErrNoGrid", seed, res.Board.Tokens(), res.GridConfidence, err)
		}
	}
}
