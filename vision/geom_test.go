package vision

import (
	"math"
	"testing"
)

func TestSquareToQuad(t *testing.T) {
	unit := []pt{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	cases := []struct {
		name string
		q    [4]pt
		ok   bool
	}{
		{"parallelogram", [4]pt{{10, 20}, {110, 30}, {120, 130}, {20, 120}}, true},
		{"perspective", [4]pt{{400, 200}, {800, 210}, {1000, 650}, {250, 640}}, true},
		{"mirrored", [4]pt{{800, 210}, {400, 200}, {250, 640}, {1000, 650}}, true},
		{"collapsed", [4]pt{{5, 5}, {5, 5}, {5, 5}, {5, 5}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, ok := squareToQuad(c.q)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			for i, u := range unit {
				p := h.apply(u)
				if math.Hypot(p.X-c.q[i].X, p.Y-c.q[i].Y) > 1e-6 {
					t.Errorf("corner %d maps to %v, want %v", i, p, c.q[i])
				}
			}
			// An inner point agrees with the least-squares fit.
			ref, ok := fitHomography(unit, c.q[:])
			if !ok {
				t.Fatal("fitHomography failed")
			}
			a, b := h.apply(pt{0.3, 0.7}), ref.apply(pt{0.3, 0.7})
			if math.Hypot(a.X-b.X, a.Y-b.Y) > 1e-6 {
				t.Errorf("(0.3, 0.7) maps to %v, fitHomography to %v", a, b)
			}
		})
	}
}
