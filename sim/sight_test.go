package sim

import (
	"testing"

	"companion/observation"
)

// TestSight checks the sight of a bare cell with a pawn behind a domed
// tower (B3 behind C3): hidden from a low camera straight ahead, seen from
// straight above, and the bare corner cells seen from above.
func TestSight(t *testing.T) {
	tests := []struct {
		name      string
		elevation float64
		hidden    bool
		figure    bool // some of the pawn in sight
	}{
		{"low camera", 45, true, false},
		{"top-down", 90, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := RandomScene(3)
			s.Board = observation.Board{}
			s.Board[7] = observation.Square{Occupant: observation.Dark}
			s.Board[12] = observation.Square{Level: 4}
			s.Camera.Elevation, s.Camera.Azimuth, s.Camera.Roll = tc.elevation, 0, 0
			fitCamera(&s, 0.7, 0.5, 0.5)
			got := Sight(s)
			if h := got[7].Hidden(); h != tc.hidden {
				t.Errorf("B3 hidden %v, want %v (sight %+v)", h, tc.hidden, got[7])
			}
			if got[7].Pawn < 0 || got[12].Pawn != -1 || got[12].Figure != -1 {
				t.Errorf("pawn shares B3 %+v C3 %+v: want shares and -1", got[7], got[12])
			}
			if f := got[7].Figure > 0; f != tc.figure {
				t.Errorf("B3's pawn in sight %v, want %v (sight %+v)", f, tc.figure, got[7])
			}
			if tc.elevation == 90 {
				for _, i := range []int{0, 4, 20, 24} {
					if c := got[i]; c.Top < 1 {
						t.Errorf("cell %d seen %v from straight above", i, c.Top)
					}
				}
			}
		})
	}
}

// TestSightOf: one cell's sight is what Sight gives for it among all.
func TestSightOf(t *testing.T) {
	for seed := int64(5000); seed < 5004; seed++ {
		s := RandomScene(seed)
		all := Sight(s)
		for i := range all {
			if got := SightOf(s, i); got != all[i] {
				t.Errorf("seed %d cell %d: SightOf %+v, Sight %+v", seed, i, got, all[i])
			}
		}
	}
}
