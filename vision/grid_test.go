package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// drawnBoard draws a flat board (no pieces) seen through h: green cells,
// pale dividers 0.06 pitch wide on the grid lines, a dark frame 0.6 pitch
// wide, a wooden table, with noise.
func drawnBoard(w, hgt int, h homography, seed int64) *image.RGBA {
	return drawnBoardLens(w, hgt, h, 0, seed)
}

// drawnBoardLens is drawnBoard seen through a lens of radial distortion
// kappa (per frame height squared, about the frame's centre).
func drawnBoardLens(w, hgt int, h homography, kappa float64, seed int64) *image.RGBA {
	inv := h.inverse()
	cx, cy, norm := float64(w)/2, float64(hgt)/2, kappa/float64(hgt*hgt)
	rng := rand.New(rand.NewSource(seed))
	img := image.NewRGBA(image.Rect(0, 0, w, hgt))
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			// 2x2 supersampling.
			var acc [3]float64
			for s := 0; s < 4; s++ {
				px, py := float64(x)+0.25+0.5*float64(s%2), float64(y)+0.25+0.5*float64(s/2)
				k := 1 + norm*((px-cx)*(px-cx)+(py-cy)*(py-cy))
				b := inv.apply(pt{cx + (px-cx)*k, cy + (py-cy)*k})
				var c [3]float64
				switch {
				case b.X < -0.6 || b.Y < -0.6 || b.X > 5.6 || b.Y > 5.6:
					c = [3]float64{150, 110, 70} // table
				case b.X < -0.03 || b.Y < -0.03 || b.X > 5.03 || b.Y > 5.03:
					c = [3]float64{60, 55, 50} // frame
				default:
					dx := math.Abs(b.X - math.Round(b.X))
					dy := math.Abs(b.Y - math.Round(b.Y))
					if dx < 0.03 || dy < 0.03 {
						c = [3]float64{200, 190, 170}
					} else {
						c = [3]float64{70, 130, 60}
					}
				}
				for k := range acc {
					acc[k] += c[k] / 4
				}
			}
			n := rng.NormFloat64() * 3
			img.Set(x, y, color.RGBA{clamp8(acc[0] + n), clamp8(acc[1] + n), clamp8(acc[2] + n), 255})
		}
	}
	return img
}

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }

func TestLocateDrawnBoard(t *testing.T) {
	tests := []struct {
		name    string
		corners [4][2]float64
	}{
		{"top-down", [4][2]float64{{440, 160}, {840, 160}, {840, 560}, {440, 560}}},
		{"oblique", [4][2]float64{{480, 170}, {800, 170}, {900, 590}, {380, 590}}},
		{"turned", [4][2]float64{{470, 150}, {830, 190}, {860, 600}, {390, 560}}},
	}
	r := NewReader()
	defer r.Close()
	// The cells are read by render and compare alone: the cell network has
	// only been taught simulated photos, and a flat drawing is unlike any
	// (it sees pawns and towers on it).
	defer func(f func() cellNets) { cellNetInUse = f }(cellNetInUse)
	cellNetInUse = func() cellNets { return nil }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := homographyFromCorners(tt.corners)
			if !ok {
				t.Fatal("bad corners")
			}
			img := drawnBoard(1280, 720, h, 1)
			res, err := r.ReadImage(img)
			if err != nil {
				t.Fatalf("ReadImage: %v", err)
			}
			pitch := math.Hypot(tt.corners[1][0]-tt.corners[0][0], tt.corners[1][1]-tt.corners[0][1]) / 5
			for i := range res.Corners {
				d := math.Hypot(res.Corners[i][0]-tt.corners[i][0], res.Corners[i][1]-tt.corners[i][1])
				t.Logf("corner %d off by %.2f px (%.1f%% pitch) dx %.2f dy %.2f", i, d, 100*d/pitch, res.Corners[i][0]-tt.corners[i][0], res.Corners[i][1]-tt.corners[i][1])
				if d > 0.03*pitch {
					t.Errorf("corner %d at %.1f,%.1f, want %.1f,%.1f (%.1f px off)", i, res.Corners[i][0], res.Corners[i][1], tt.corners[i][0], tt.corners[i][1], d)
				}
			}
			for i, sq := range res.Board {
				if sq.Level != 0 || sq.Occupant != 0 {
					t.Errorf("cell %d read %v on an empty board", i, sq)
				}
			}
		})
	}
}

func TestNthSmallest(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for n := 1; n < 40; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.Intn(10))
		}
		sorted := append([]float64(nil), v...)
		sort.Float64s(sorted)
		for k := 0; k < n; k++ {
			w := append([]float64(nil), v...)
			if got := nthSmallest(w, k); got != sorted[k] {
				t.Fatalf("n %d k %d: got %v, want %v (from %v)", n, k, got, sorted[k], v)
			}
		}
	}
}
