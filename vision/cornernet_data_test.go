package vision

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

var (
	cornerData    = flag.String("cornerdata", "", "write the corner network's training frames for these sim seeds (ranges a-b,c-d) to -cornerout")
	cornerOut     = flag.String("cornerout", "", "with -cornerdata: the files' prefix (PREFIX_img.bin, PREFIX_corners.bin, PREFIX_seeds.txt)")
	cornerCheck   = flag.Bool("cornercheck", false, "with -cornerdata: the seeds are check seeds (any seeds but the hold-out may be written)")
	cornerOnlyHas = flag.Bool("cornercached", true, "with -cornerdata: skip seeds not in COMPANION_SIM_CACHE rather than render them")
)

// TestCornerNetData writes the corner network's training or check frames
// (development step; scripts/train-cornernet.sh runs it): each seed's
// frame shrunk to cornerNetW x cornerNetH as the reader shrinks it (BGR
// bytes, one frame after another), its grid's corners in the shrunk
// frame's pixels (little-endian float32, A1 A5 E5 E1, x then y) and the
// seeds, one a line.
func TestCornerNetData(t *testing.T) {
	if *cornerData == "" || *cornerOut == "" {
		t.Skip("run with -cornerdata A-B[,C-D] -cornerout PREFIX")
	}
	var seeds []int64
	for _, rg := range strings.Split(*cornerData, ",") {
		a, b := seedRange(t, rg, !*cornerCheck)
		if b >= 100000 {
			t.Fatal("seeds from 100000 are the hold-out: never look at them while training")
		}
		for s := a; s <= b; s++ {
			seeds = append(seeds, s)
		}
	}
	cache := os.Getenv("COMPANION_SIM_CACHE")
	create := func(suffix string) (*os.File, *bufio.Writer) {
		f, err := os.Create(*cornerOut + suffix)
		if err != nil {
			t.Fatal(err)
		}
		return f, bufio.NewWriter(f)
	}
	fi, wi := create("_img.bin")
	fc, wc := create("_corners.bin")
	fs, ws := create("_seeds.txt")
	small := gocv.NewMat()
	defer small.Close()
	n := 0
	for _, s := range seeds {
		if *cornerOnlyHas && cache != "" {
			if _, err := os.Stat(fmt.Sprintf("%s/seed-%d.jpg", cache, s)); err != nil {
				continue
			}
		}
		m, truth, err := loadSimFrame(s)
		if err != nil {
			t.Fatal(err)
		}
		gocv.Resize(m, &small, image.Pt(cornerNetW, cornerNetH), 0, 0, gocv.InterpolationArea)
		sx, sy := float64(cornerNetW)/float64(m.Cols()), float64(cornerNetH)/float64(m.Rows())
		m.Close()
		wi.Write(small.ToBytes())
		var c [8]float32
		for k, p := range truth.Corners {
			c[2*k] = float32((p[0]+0.5)*sx - 0.5)
			c[2*k+1] = float32((p[1]+0.5)*sy - 0.5)
		}
		if err := binary.Write(wc, binary.LittleEndian, c); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(ws, s)
		n++
	}
	for _, x := range []struct {
		w *bufio.Writer
		f *os.File
	}{{wi, fi}, {wc, fc}, {ws, fs}} {
		if err := x.w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := x.f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d frames written to %s_*", n, *cornerOut)
}
