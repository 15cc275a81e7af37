package vision

import (
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	cornerData    = flag.String("cornerdata", "", "write the corner network's training frames for these sim seeds (ranges a-b,c-d) to -cornerout")
	cornerONNX    = flag.String("corneronnx", "", "with BenchmarkCornerNet: the network file to try (default: the embedded cornernet.onnx)")
	cornerOut     = flag.String("cornerout", "", "with -cornerdata: the files' prefix (PREFIX_img.bin, PREFIX_corners.bin, PREFIX_seeds.txt)")
	cornerCheck   = flag.Bool("cornercheck", false, "with -cornerdata: the seeds are check seeds (any seeds but the hold-out may be written)")
	cornerOnlyHas = flag.Bool("cornercached", true, "with -cornerdata: skip seeds not in COMPANION_SIM_CACHE rather than render them")
	cornerRenderW = flag.Int("cornerrenderw", 0, "with -cornerdata: render each seed afresh this many pixels wide (the scene's aspect kept, JPEG at its quality), caching nothing; the network sees frames shrunk to a fifth of 1280, so a 640-wide render costs a quarter and looks much the same")
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
	seeds := exportSeeds(t, *cornerData, *cornerCheck, *cornerOnlyHas && *cornerRenderW == 0)
	out := createExport(t, *cornerOut, "_img.bin", "_corners.bin", "_seeds.txt")
	wi, wc, ws := out.w[0], out.w[1], out.w[2]
	small := gocv.NewMat()
	defer small.Close()
	n := 0
	for _, s := range seeds {
		m, truth, err := trainingFrame(s, *cornerRenderW)
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

// trainingFrame is seed's frame: the cached or rendered one at its own size
// when w is 0, else rendered afresh w pixels wide.
func trainingFrame(seed int64, w int) (gocv.Mat, sim.Truth, error) {
	if w == 0 {
		return loadSimFrame(seed)
	}
	sc := sim.RandomScene(seed)
	sc.Width, sc.Height = w, (w*sc.Height+sc.Width/2)/sc.Width
	data, truth, err := sim.RenderJPEG(sc)
	return decodeSimFrame(seed, data, truth, err)
}
