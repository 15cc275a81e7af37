package vision

import (
	"math"
	"testing"

	"gocv.io/x/gocv"
)

func TestDistortPointInvertsUndistort(t *testing.T) {
	c := pt{640, 360}
	for _, kappa := range []float64{-0.12 / (720 * 720), 0.05 / (720 * 720)} {
		for _, p := range []pt{{100, 50}, {640, 360}, {1200, 700}, {700, 400}} {
			dx, dy := p.X-c.X, p.Y-c.Y
			s := 1 + kappa*(dx*dx+dy*dy)
			u := pt{c.X + dx*s, c.Y + dy*s}
			if q := distortPoint(u, c, kappa); math.Hypot(q.X-p.X, q.Y-p.Y) > 1e-6 {
				t.Errorf("kappa %g: %v -> %v -> %v", kappa, p, u, q)
			}
		}
	}
}

// TestLensCorners draws a flat board through a barrel lens and checks that
// the refitted corners land where the lens shows them, closer than the
// straight-line grid's.
func TestLensCorners(t *testing.T) {
	for _, kappa := range []float64{-0.1, 0.05} {
		corners := [4][2]float64{{420, 130}, {860, 150}, {900, 600}, {380, 580}}
		h, _ := homographyFromCorners(corners)
		img := drawnBoardLens(1280, 720, h, kappa, 3)
		m, err := gocv.ImageToMatRGB(img)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader()
		if _, _, err := r.prepare(m); err != nil {
			t.Fatal(err)
		}
		// Where the lens shows the true corners.
		c, norm := pt{640, 360}, kappa/(720*720)
		var want [4][2]float64
		for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
			q := distortPoint(h.apply(p), c, norm)
			want[i] = [2]float64{q.X, q.Y}
		}
		hr, _ := r.refineDividers(h, 2, linePoints)
		got, ok := r.lensCorners(hr, nil)
		if !ok {
			t.Fatalf("kappa %g: no corners", kappa)
		}
		plain := cornerErr(cornersOf(hr), want)
		lens := cornerErr(got, want)
		t.Logf("kappa %g: straight grid off by %.2f px, lens corners by %.2f px", kappa, plain, lens)
		if lens > 1 || lens >= plain {
			t.Errorf("kappa %g: lens corners off by %.2f px (straight grid %.2f px)", kappa, lens, plain)
		}
		r.Close()
		m.Close()
	}
}
