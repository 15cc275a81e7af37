package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// matFromImage converts a drawn image to a BGR Mat; close it when done.
func matFromImage(t *testing.T, img image.Image) gocv.Mat {
	t.Helper()
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// viewCamera is a pinhole camera of focal length f (pixels) centred on a
// w x h frame, looking at the board's centre from elevation el and azimuth
// az (degrees) at distance d (pitches), the near side (row E) at the bottom.
func viewCamera(w, h int, f, el, az, d float64) camera {
	e, a := el*math.Pi/180, az*math.Pi/180
	target := [3]float64{2.5, 2.5, 0}
	centre := [3]float64{2.5 + d*math.Cos(e)*math.Sin(a), 2.5 + d*math.Cos(e)*math.Cos(a), d * math.Sin(e)}
	zc := scale3(sub3(target, centre), 1/norm3(sub3(target, centre)))
	up := [3]float64{0, 0, 1}
	xc := cross3(up, zc)
	xc = scale3(xc, 1/norm3(xc))
	yc := cross3(xc, zc)
	cam := camera{f: f, cx: float64(w) / 2, cy: float64(h) / 2}
	cam.r = [9]float64{xc[0], xc[1], xc[2], yc[0], yc[1], yc[2], zc[0], zc[1], zc[2]}
	for i := 0; i < 3; i++ {
		cam.t[i] = -(cam.r[3*i]*centre[0] + cam.r[3*i+1]*centre[1] + cam.r[3*i+2]*centre[2])
	}
	return cam
}

// lineThrough is the Hough line through image points p and q.
func lineThrough(p, q pt) hline {
	dx, dy := q.X-p.X, q.Y-p.Y
	n := math.Hypot(dx, dy)
	nx, ny := -dy/n, dx/n
	return hline{rho: nx*p.X + ny*p.Y, theta: math.Atan2(ny, nx)}
}

func TestSquareFar(t *testing.T) {
	tests := []struct {
		name       string
		el, az, fk float64
	}{
		{"top-down", 88, 0, 0.9},
		{"oblique", 50, 0, 0.9},
		{"oblique turned", 55, 18, 1.2},
		{"steep long lens", 70, -12, 1.8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, h := 1280, 720
			f := tt.fk * float64(h)
			cam := viewCamera(w, h, f, tt.el, tt.az, 9)
			a1, a5, e5, e1 := cam.project(0, 0, 0), cam.project(5, 0, 0), cam.project(5, 5, 0), cam.project(0, 5, 0)
			// The near side with the left and right ones; the left side
			// with the far and near ones (towers hiding the right side).
			for _, c := range []struct {
				name                 string
				a, b, mid            [2]pt
				pa, pb, wantA, wantB pt
			}{
				{"near", [2]pt{a1, e1}, [2]pt{a5, e5}, [2]pt{e1, e5}, e1, e5, a1, a5},
				{"left", [2]pt{a1, a5}, [2]pt{e1, e5}, [2]pt{a1, e1}, a1, e1, a5, e5},
			} {
				fars, oks := squareFar(homLine(lineThrough(c.a[0], c.a[1])), homLine(lineThrough(c.b[0], c.b[1])), homLine(lineThrough(c.mid[0], c.mid[1])), c.pa, c.pb, f, cam.cx, cam.cy)
				found := false
				for k, far := range fars {
					if oks[k] && math.Hypot(far[0].X-c.wantA.X, far[0].Y-c.wantA.Y) < 0.01 && math.Hypot(far[1].X-c.wantB.X, far[1].Y-c.wantB.Y) < 0.01 {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: neither square %v (valid %v) has its far corners at %v, %v", c.name, fars, oks, c.wantA, c.wantB)
				}
			}
		})
	}
}

// drawnSlab draws a board whose cells show no dividers (as when towers
// cover them) seen through h: one pale colour within the grid, a dark
// frame 0.6 pitch wide, a wooden table, with noise.
func drawnSlab(w, hgt int, h homography, seed int64) *image.RGBA {
	inv := h.inverse()
	rng := rand.New(rand.NewSource(seed))
	img := image.NewRGBA(image.Rect(0, 0, w, hgt))
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			b := inv.apply(pt{float64(x) + 0.5, float64(y) + 0.5})
			c := [3]float64{220, 215, 205} // cells under blocks
			switch {
			case b.X < -0.6 || b.Y < -0.6 || b.X > 5.6 || b.Y > 5.6:
				c = [3]float64{150, 110, 70} // table
			case b.X < 0 || b.Y < 0 || b.X > 5 || b.Y > 5:
				c = [3]float64{60, 55, 50} // frame
			}
			n := rng.NormFloat64() * 3
			img.Set(x, y, color.RGBA{clamp8(c[0] + n), clamp8(c[1] + n), clamp8(c[2] + n), 255})
		}
	}
	return img
}

// TestOutlineGridsFindDrawnBoard checks that the outline proposals find a
// drawn board with no dividers in view, its grid within a tenth of a pitch
// (a proposal, refined after; the focal lengths tried are a few percent
// apart).
func TestOutlineGridsFindDrawnBoard(t *testing.T) {
	r := NewReader()
	defer r.Close()
	for _, el := range []float64{52, 70, 85} {
		w, h := 1280, 720
		cam := viewCamera(w, h, 0.95*float64(h), el, 10, 11)
		truth := [4][2]float64{}
		for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
			q := cam.project(p.X, p.Y, 0)
			truth[i] = [2]float64{q.X, q.Y}
		}
		hg, ok := homographyFromCorners(truth)
		if !ok {
			t.Fatal("bad corners")
		}
		m := matFromImage(t, drawnSlab(w, h, hg, 2))
		_, scale, err := r.prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		_, lines := r.outlineEdges()
		rows, cols := familyLines(lines, r.gray.Cols(), r.gray.Rows(), outlineNear.lines)
		grids := r.outlineGrids(rows, cols, outlineNear)
		best := math.Inf(1)
		for _, g := range grids {
			best = math.Min(best, pitchErr(cornersOf(scaleHomography(g.h, 1/scale)), truth))
		}
		if best > 0.1 {
			t.Errorf("elevation %.0f: nearest of %d outline grids %.3f pitches off, want within 0.1", el, len(grids), best)
		}
		m.Close()
	}
}

func TestVaried(t *testing.T) {
	deg := func(d ...float64) []hline {
		var out []hline
		for i, x := range d {
			out = append(out, hline{rho: float64(i), theta: x * math.Pi / 180})
		}
		return out
	}
	rhos := func(ls []hline) []float64 {
		var out []float64
		for _, l := range ls {
			out = append(out, l.rho)
		}
		return out
	}
	cases := []struct {
		name      string
		ls        []hline
		n, perBin int
		want      []float64 // the lines taken, by their place in ls
	}{
		{"no cap", deg(90, 90.5, 91, 120), 3, 0, []float64{0, 1, 2}},
		{"capped bin", deg(90, 90.5, 91, 120), 3, 2, []float64{0, 1, 3}},
		{"filled from the rest", deg(90, 90.5, 91, 91.5), 3, 2, []float64{0, 1, 2}},
		{"fewer than n", deg(10, 50), 5, 1, []float64{0, 1}},
		{"bins split at 3 degrees", deg(89.9, 90.1, 90.2), 2, 1, []float64{0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := rhos(varied(c.ls, c.n, c.perBin))
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("varied = %v, want %v", got, c.want)
			}
		})
	}
}
