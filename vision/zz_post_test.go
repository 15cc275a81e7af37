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

var zzPost = flag.Int64("zzpost", 0, "")

func TestZZPost(t *testing.T) {
	if *zzPost == 0 {
		t.Skip()
	}
	r := NewReader()
	defer r.Close()
	m, truth := simFrame(t, *zzPost)
	res, err := r.ReadWithCorners(m, truth.Corners)
	m.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Board)
	w, h := r.px.w, r.px.h
	out := image.NewRGBA(image.Rect(0, 0, 2*w, h))
	pal := [...]color.RGBA{{0, 0, 0, 0}, {255, 160, 0, 255}, {0, 80, 255, 255}, {0, 0, 200, 255}, {255, 255, 0, 255}, {128, 0, 128, 255}, {255, 0, 0, 255}}
	mm := &r.model
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			rr, g, b := r.px.at(x, y)
			col := color.RGBA{uint8(rr), uint8(g), uint8(b), 255}
			out.Set(x, y, col)
			o := y*w + x
			if len(mm.ll[0]) <= o {
				continue
			}
			best := 0
			for l := 1; l < nPlanes; l++ {
				if mm.ll[l][o] > mm.ll[best][o] {
					best = l
				}
			}
			if best != labBoard {
				p := pal[best]
				col = color.RGBA{uint8((int(col.R) + int(p.R)) / 2), uint8((int(col.G) + int(p.G)) / 2), uint8((int(col.B) + int(p.B)) / 2), 255}
			}
			out.Set(w+x, y, col)
		}
	}
	f, _ := os.Create(fmt.Sprintf("/tmp/post-%d.png", *zzPost))
	png.Encode(f, out)
	f.Close()
}
