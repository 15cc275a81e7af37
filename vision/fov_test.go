package vision

import (
	"math"
	"testing"
)

func TestSetFieldOfView(t *testing.T) {
	tests := []struct {
		deg float64
		ok  bool
	}{
		{0, true}, {20, true}, {50, true}, {120, true},
		{19.9, false}, {120.1, false}, {-50, false}, {math.NaN(), false}, {math.Inf(1), false},
	}
	for _, tt := range tests {
		r := &Reader{}
		err := r.SetFieldOfView(tt.deg)
		if (err == nil) != tt.ok {
			t.Errorf("SetFieldOfView(%g): error %v, want ok %t", tt.deg, err, tt.ok)
			continue
		}
		if f, known := r.knownFocal(720); tt.ok && known != (tt.deg != 0) {
			t.Errorf("SetFieldOfView(%g): focal known %t (%g)", tt.deg, known, f)
		}
	}
	// A 90-degree field of view: the focal length is half the frame height.
	r := &Reader{}
	if err := r.SetFieldOfView(90); err != nil {
		t.Fatal(err)
	}
	if f, _ := r.knownFocal(720); math.Abs(f-360) > 1e-9 {
		t.Errorf("90 degrees on 720 rows: focal %g, want 360", f)
	}
}

// TestKnownFOVReadsTopDown: seed 17688, seen from 87 degrees, read with its
// true corners: the lenses tried put a blue pawn on a level-2 block (D3) a
// level up; its true field of view reads every cell right. (The seeds it
// used before, 17756, 17550 and 17054, read right either way since the
// third look's retrainings in the fifty-ninth to sixty-first sessions.)
func TestKnownFOVReadsTopDown(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a frame")
	}
	withoutSoloLook(t) // it reads these cells too
	m, truth := simFrame(t, 17688)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	wrong := func() int {
		res, err := r.ReadWithCorners(m, truth.Corners)
		if err != nil {
			t.Fatal(err)
		}
		return cellsWrong(res, truth)
	}
	guessed := wrong()
	if err := r.SetFieldOfView(truth.FOV); err != nil {
		t.Fatal(err)
	}
	known := wrong()
	if known != 0 || guessed == 0 {
		t.Errorf("cells wrong: %d with the lens guessed, %d with its field of view known (%.1f°); want some, then none", guessed, known, truth.FOV)
	}
}
