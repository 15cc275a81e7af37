package vision

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

var (
	handData = flag.String("handdata", "", "write the hand network's frames for these sim seeds (ranges a-b,c-d) to -handout")
	handDir  = flag.String("handdir", "", "with -handdata: the folder of renders (seed-N.jpg, and seed-N-hand.jpg from `companion render --hand`)")
	handOut  = flag.String("handout", "", "with -handdata: the files' prefix (PREFIX_img.bin, PREFIX_label.bin)")
)

// TestHandNetData writes the hand network's training or check frames
// (development step; scripts/train-handnet.sh runs it): each render of
// the seeds found in -handdir, with a hand over the board and without,
// shrunk to cornerNetW x cornerNetH as the reader shrinks a frame for its
// networks (BGR bytes, one frame after another), and its label (one byte:
// 1 with a hand).
func TestHandNetData(t *testing.T) {
	if *handData == "" || *handDir == "" || *handOut == "" {
		t.Skip("run with -handdata A-B[,C-D] -handdir DIR -handout PREFIX")
	}
	seeds := exportSeeds(t, *handData, false, false)
	out := createExport(t, *handOut, "_img.bin", "_label.bin")
	small := gocv.NewMat()
	defer small.Close()
	counts := [2]int{}
	for _, s := range seeds {
		for label, name := range []string{"seed-%d.jpg", "seed-%d-hand.jpg"} {
			data, err := os.ReadFile(filepath.Join(*handDir, fmt.Sprintf(name, s)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			m, err := DecodeBytes(data)
			if err != nil {
				t.Fatalf("seed %d: %v", s, err)
			}
			gocv.Resize(m, &small, image.Pt(cornerNetW, cornerNetH), 0, 0, gocv.InterpolationArea)
			m.Close()
			out.w[0].Write(small.ToBytes())
			out.w[1].WriteByte(byte(label))
			counts[label]++
		}
	}
	out.close(t)
	t.Logf("%d frames without a hand, %d with, written to %s_*", counts[0], counts[1], *handOut)
}
