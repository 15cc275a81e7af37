package vision

import (
	"encoding/binary"
	"flag"
	"fmt"
	"image"
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
	seeds := exportSeeds(t, *cornerData, *cornerCheck, *cornerOnlyHas)
	out := createExport(t, *cornerOut, "_img.bin", "_corners.bin", "_seeds.txt")
	wi, wc, ws := out.w[0], out.w[1], out.w[2]
	small := gocv.NewMat()
	defer small.Close()
	n := 0
	for _, s := range seeds {
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
	out.close(t)
	t.Logf("%d frames written to %s_*", n, *cornerOut)
}
