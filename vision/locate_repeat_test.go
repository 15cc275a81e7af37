package vision

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// planeImage renders a flat pattern (colour at plane point u, v, in the
// pattern's units) filling a w x h frame, seen from el degrees above the
// plane, turned by rot radians, with scale pattern units per ten plane
// units in front of the camera, and a little sensor noise.
func planeImage(w, h int, el, scale, rot float64, seed int64, pattern func(u, v float64) color.RGBA) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewSource(seed))
	t := el * math.Pi / 180
	f := float64(h) / (2 * math.Tan(25*math.Pi/180))
	cr, sr := math.Cos(rot), math.Sin(rot)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := (float64(x)-float64(w)/2)/f, (float64(y)-float64(h)/2)/f
			fwd := dy*math.Sin(t) + math.Cos(t) // along the plane, away
			down := -dy*math.Cos(t) + math.Sin(t)
			c := color.RGBA{90, 90, 100, 255} // above the horizon
			if down > 0.01 {
				u, v := dx*10/down, fwd*10/down
				c = pattern((cr*u-sr*v)/scale, (sr*u+cr*v)/scale)
			}
			n := rng.Intn(7) - 3
			c.R = uint8(max(0, min(255, int(c.R)+n)))
			c.G = uint8(max(0, min(255, int(c.G)+n)))
			c.B = uint8(max(0, min(255, int(c.B)+n)))
			img.Set(x, y, c)
		}
	}
	return img
}

// gridPattern is square tiles of side 1 with grout lines of width line.
func gridPattern(line float64, grout, tile color.RGBA) func(u, v float64) color.RGBA {
	return func(u, v float64) color.RGBA {
		if u-math.Floor(u) < line || v-math.Floor(v) < line {
			return grout
		}
		return tile
	}
}

// TestReadRepeatingGrid: photos of tiles and squared paper, whose lines
// run on past any 5x5 grid, are no board (ErrGridRunsOn, an ErrNoGrid).
// Before sidesRunOn, 20 to 24 of 24 such views each were read as boards,
// nearly all at full grid confidence.
func TestReadRepeatingGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	squared := func(u, v float64) color.RGBA {
		switch {
		case u-math.Floor(u) < 0.02 || v-math.Floor(v) < 0.02:
			return color.RGBA{90, 140, 200, 255}
		case 5*u-math.Floor(5*u) < 0.05 || 5*v-math.Floor(5*v) < 0.05:
			return color.RGBA{150, 190, 220, 255}
		}
		return color.RGBA{245, 245, 240, 255}
	}
	tests := []struct {
		name     string
		pattern  func(u, v float64) color.RGBA
		maxRead  int
		minRunOn int // views refused as ErrGridRunsOn
	}{
		{"light grout, blue tiles", gridPattern(0.06, color.RGBA{220, 220, 215, 255}, color.RGBA{120, 160, 190, 255}), 0, 7},
		{"dark grout, beige tiles", gridPattern(0.05, color.RGBA{60, 60, 60, 255}, color.RGBA{200, 190, 170, 255}), 0, 7},
		{"squared paper", squared, 1, 5},
	}
	r := NewReader()
	defer r.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read, runOn := 0, 0
			for i, el := range []float64{45, 60, 75, 88} {
				for j, rot := range []float64{0, 0.2} {
					img := planeImage(960, 540, el, 1, rot, int64(10*i+j), tt.pattern)
					res, err := r.ReadImage(img)
					switch {
					case err == nil:
						read++
						t.Logf("%.0f degrees, turned %.1f: read as a board (grid confidence %.2f): %v", el, rot, res.GridConfidence, res.Board.Tokens())
					case errors.Is(err, ErrGridRunsOn):
						runOn++
					case !errors.Is(err, ErrNoGrid):
						t.Errorf("%.0f degrees, turned %.1f: %v, want ErrNoGrid", el, rot, err)
					}
				}
			}
			// Read near where a board seen from about 60 degrees up would be.
			hint := [4][2]float64{{300, 110}, {660, 110}, {720, 450}, {240, 450}}
			m, err := gocv.ImageToMatRGB(planeImage(960, 540, 60, 1, 0.1, 99, tt.pattern))
			if err != nil {
				t.Fatal(err)
			}
			if res, err := r.ReadNear(m, hint); err == nil && tt.maxRead == 0 {
				t.Errorf("read near a hint as a board (grid confidence %.2f): %v", res.GridConfidence, res.Board.Tokens())
			} else if err != nil && !errors.Is(err, ErrNoGrid) {
				t.Errorf("read near a hint: %v, want ErrNoGrid", err)
			}
			m.Close()
			if read > tt.maxRead {
				t.Errorf("%d of 8 views read as boards, want at most %d", read, tt.maxRead)
			}
			if runOn < tt.minRunOn {
				t.Errorf("%d of 8 views refused as lines running on, want at least %d", runOn, tt.minRunOn)
			}
		})
	}
}

// TestSidesRunOnBoards: on simulated boards' true grids the lines stop at
// the frame (no side runs on, and the surest side stays well under
// repeatShare), while on tiles seen alike every side runs on.
func TestSidesRunOnBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	for seed := int64(5000); seed < 5012; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			m, truth := simFrame(t, seed)
			defer m.Close()
			_, scale, err := r.prepare(m)
			if err != nil {
				t.Fatal(err)
			}
			h, ok := homographyFromCorners(truth.Corners)
			if !ok {
				t.Fatal("truth corners form no grid")
			}
			n, share := r.sidesRunOn(scaleHomography(h, scale))
			if n != 0 {
				t.Errorf("%d sides run on (shares %.2f), want none", n, share)
			}
		})
	}
	t.Run("tiles", func(t *testing.T) {
		img := planeImage(960, 540, 60, 1, 0.1, 1, gridPattern(0.06, color.RGBA{220, 220, 215, 255}, color.RGBA{120, 160, 190, 255}))
		res, err := r.ReadImage(img)
		if !errors.Is(err, ErrGridRunsOn) {
			t.Fatalf("ReadImage = %v, %v; want ErrGridRunsOn", res.Board.Tokens(), err)
		}
		// The grid found before the refusal lies on the tiles' lines.
		m, err := gocv.ImageToMatRGB(img)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		_, scale, err := r.prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		g, _, _, found := r.locateGrid(scale, m.Cols(), m.Rows())
		if !found {
			t.Fatal("no grid found on the tiles")
		}
		if n, share := r.sidesRunOn(scaleHomography(g, scale)); n < 4 {
			t.Errorf("%d sides run on (shares %.2f), want all 4", n, share)
		}
	})
}

// linedSheet is a sheet of n x n squares of side cell pixels, ruled with
// lines line pixels wide in ink.
func linedSheet(n, cell, line int, paper, ink color.RGBA) image.Image {
	sz := n * cell
	img := image.NewRGBA(image.Rect(0, 0, sz, sz))
	for y := 0; y < sz; y++ {
		for x := 0; x < sz; x++ {
			c := paper
			if x%cell < line || y%cell < line {
				c = ink
			}
			img.Set(x, y, c)
		}
	}
	return img
}

// laidOn is src seen in perspective with its corners at quad (clockwise
// from its top left) in a w x h frame of colour bg.
func laidOn(t *testing.T, src image.Image, quad [4]image.Point, w, h int, bg color.RGBA) gocv.Mat {
	t.Helper()
	m, err := gocv.ImageToMatRGB(src)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b := src.Bounds()
	from := gocv.NewPointVectorFromPoints([]image.Point{{0, 0}, {b.Dx(), 0}, {b.Dx(), b.Dy()}, {0, b.Dy()}})
	defer from.Close()
	to := gocv.NewPointVectorFromPoints(quad[:])
	defer to.Close()
	tr := gocv.GetPerspectiveTransform(from, to)
	defer tr.Close()
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(m, &out, tr, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{bg.B, bg.G, bg.R, 255})
	return out
}

// TestReadRuledSheetNoBoard: squared paper filling the frame, its lines
// running on past every side, is no board. The search's grid there stood
// between the paper's lines (one side running on); refitted, the reported
// corners lay on them, and the sheet was read as a board with two light
// pawns until the refitted corners were checked for lines running on too.
func TestReadRuledSheetNoBoard(t *testing.T) {
	r := NewReader()
	defer r.Close()
	paper, blue := color.RGBA{235, 235, 230, 255}, color.RGBA{120, 150, 200, 255}
	table := color.RGBA{150, 110, 70, 255}
	m := laidOn(t, linedSheet(12, 40, 2, paper, blue), [4]image.Point{{100, 0}, {1180, 0}, {1280, 720}, {0, 720}}, 1280, 720, table)
	defer m.Close()
	res, err := r.Read(m)
	if !errors.Is(err, ErrGridRunsOn) {
		t.Fatalf("Read = %v (corners %.0f), %v; want ErrGridRunsOn", res.Board.Tokens(), res.Corners, err)
	}
}
