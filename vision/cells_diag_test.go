package vision

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// Development aids for the cell reading, with the true corners.
var diagWrong = flag.String("diagwrong", "", "seeds a-b: for each cell read wrong, the colour and edge scores of the truth and of the reading")

func TestDiagWrong(t *testing.T) {
	if *diagWrong == "" {
		t.Skip()
	}
	var a, b int64
	fmt.Sscanf(*diagWrong, "%d-%d", &a, &b)
	r := NewReader()
	defer r.Close()
	for s := a; s <= b; s++ {
		m, truth := simFrame(t, s)
		res, err := r.ReadWithCorners(m, truth.Corners)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		c := &r.cc
		for i := range res.Board {
			if res.Board[i] == truth.Board[i] {
				continue
			}
			kt, kc := hypIndex(truth.Board[i]), hypIndex(res.Board[i])
			c.drawBase(i)
			sc := func(k int) (float64, float64) {
				all := c.score(i, k, c.model)
				g := c.gray
				c.gray.p = nil
				col := c.score(i, k, c.model)
				c.gray = g
				j := 0
				if sq := hypSquare(k); sq.Occupant > 1 {
					j = int(sq.Occupant) - 1
				}
				return col[j], all[j] - col[j]
			}
			tc, te := sc(kt)
			cc, ce := sc(kc)
			fmt.Printf("seed %d %c%d %v->%v: truth col %.0f edge %.0f | chosen col %.0f edge %.0f | area %d\n", s, 'A'+i/5, i%5+1, truth.Board[i], res.Board[i], tc, te, cc, ce, c.region[i].Dx()*c.region[i].Dy())
		}
	}
}

var diagPNG = flag.Int64("diagpng", 0, "write /tmp/diag-N.png: seed N, its reading drawn over it, and its truth drawn over it")

func TestDiagPNG(t *testing.T) {
	if *diagPNG == 0 {
		t.Skip()
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, *diagPNG)
	res, err := r.ReadWithCorners(m, truth.Corners)
	m.Close()
	if err != nil {
		t.Fatal(err)
	}
	_ = res
	c := &r.cc
	w, h := r.px.w, r.px.h
	out := image.NewRGBA(image.Rect(0, 0, 3*w, h))
	pal := [...]color.RGBA{{0, 0, 0, 0}, {255, 160, 0, 255}, {0, 80, 255, 255}, {0, 0, 200, 255}, {255, 255, 0, 255}, {128, 0, 128, 255}, {255, 0, 0, 255}}
	paint := func(off int) {
		c.draw(image.Rect(0, 0, w, h), -1, 0)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				rr, g, b := r.px.at(x, y)
				l := c.lab[y*w+x]
				col := color.RGBA{uint8(rr), uint8(g), uint8(b), 255}
				if l != labBoard && int(l) < len(pal) {
					p := pal[l]
					col = color.RGBA{uint8((int(col.R) + int(p.R)) / 2), uint8((int(col.G) + int(p.G)) / 2), uint8((int(col.B) + int(p.B)) / 2), 255}
				}
				out.Set(off+x, y, col)
			}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			rr, g, b := r.px.at(x, y)
			out.Set(x, y, color.RGBA{uint8(rr), uint8(g), uint8(b), 255})
		}
	}
	paint(w)
	for i := range c.hyp {
		c.hyp[i] = hypIndex(truth.Board[i])
	}
	paint(2 * w)
	f, _ := os.Create(fmt.Sprintf("/tmp/diag-%d.png", *diagPNG))
	png.Encode(f, out)
	f.Close()
}
