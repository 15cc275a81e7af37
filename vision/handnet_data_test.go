package vision

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

var (
	handData = flag.String("handdata", "", "write the hand network's frames for these sim seeds (ranges a-b,c-d) to -handout")
	handDir  = flag.String("handdir", "", "with -handdata: the folder of renders (seed-N.jpg, and seed-N-hand.jpg from `companion render --hand`)")
	handOut  = flag.String("handout", "", "with -handdata: the files' prefix (PREFIX_img.bin, PREFIX_label.bin)")
	// Frames of spare pieces on a table with no board (sparesScene) must
	// not pass for hands either: a player shown no board is told so.
	handSpares = flag.String("handspares", "", "with -handdata or -handlogits: also these seeds' frames of spare pieces with no board (sparesScene; ranges a-b,c-d), as clear frames")
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
	eachHandFrame(t, seeds, func(_ int64, label int, m gocv.Mat) {
		gocv.Resize(m, &small, image.Pt(cornerNetW, cornerNetH), 0, 0, gocv.InterpolationArea)
		out.w[0].Write(small.ToBytes())
		out.w[1].WriteByte(byte(label))
		counts[label]++
	})
	eachSparesFrame(t, func(_ int64, m gocv.Mat) {
		gocv.Resize(m, &small, image.Pt(cornerNetW, cornerNetH), 0, 0, gocv.InterpolationArea)
		out.w[0].Write(small.ToBytes())
		out.w[1].WriteByte(0)
		counts[0]++
	})
	out.close(t)
	t.Logf("%d frames without a hand, %d with, written to %s_*", counts[0], counts[1], *handOut)
}

// eachSparesFrame calls fn with each -handspares seed's frame of spare
// pieces with no board; fn must not keep the frame.
func eachSparesFrame(t *testing.T, fn func(seed int64, m gocv.Mat)) {
	if *handSpares == "" {
		return
	}
	for _, rg := range strings.Split(*handSpares, ",") {
		a, b := seedRange(t, rg, false)
		for s := a; s <= b; s++ {
			m := sparesFrame(t, s)
			fn(s, m)
			m.Close()
		}
	}
}

// eachHandFrame calls fn with each of seeds' frames found in -handdir,
// seed-N.jpg (label 0) and seed-N-hand.jpg (label 1), decoded; fn must
// not keep m.
func eachHandFrame(t *testing.T, seeds []int64, fn func(seed int64, label int, m gocv.Mat)) {
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
			fn(s, label, m)
			m.Close()
		}
	}
}

var (
	handLogits = flag.String("handlogits", "", "print the hand network's logit for these seeds' frames (ranges a-b,c-d) in -handdir, with a hand and without, and the threshold's figures")
	handONNX   = flag.String("handonnx", "", "with -handlogits or BenchmarkHandNet: the network file to try (default: the embedded handnet.onnx)")
)

// onnxFlag is the network file a flag names (nil, the embedded file, when
// it names none).
func onnxFlag(tb testing.TB, path string) []byte {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// TestHandLogits prints the hand network's logits (development step: how
// its threshold is chosen). Each seed's frames in -handdir, seed-N.jpg and
// seed-N-hand.jpg, where present, are scored; the clear frames' highest
// logit is the one the threshold must stand above. The hold-out may be
// scored here (nothing is trained on it), but a threshold chosen on it is
// not unseen evidence.
func TestHandLogits(t *testing.T) {
	if *handLogits == "" || *handDir == "" {
		t.Skip("run with -handlogits A-B[,C-D] -handdir DIR [-handonnx FILE]")
	}
	n := &handNet{onnx: onnxFlag(t, *handONNX)}
	defer n.close()
	var clear, hand []float64
	top, topSeed := math.Inf(-1), int64(0)
	var seeds []int64
	for _, rg := range strings.Split(*handLogits, ",") {
		a, b := seedRange(t, rg, false)
		for s := a; s <= b; s++ {
			seeds = append(seeds, s)
		}
	}
	eachHandFrame(t, seeds, func(s int64, label int, m gocv.Mat) {
		z, err := n.logit(m)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%d\t%d\t%.3f\n", s, label, z)
		if label == 1 {
			hand = append(hand, z)
			return
		}
		clear = append(clear, z)
		if z > top {
			top, topSeed = z, s
		}
	})
	spareTop, spareSeed := math.Inf(-1), int64(0)
	eachSparesFrame(t, func(s int64, m gocv.Mat) {
		z, err := n.logit(m)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%d\tspares\t%.3f\n", s, z)
		if z > spareTop {
			spareTop, spareSeed = z, s
		}
	})
	if *handSpares != "" {
		t.Logf("no-board frames: highest logit %.2f (spares seed %d)", spareTop, spareSeed)
	}
	above := func(zs []float64, th float64) int {
		k := 0
		for _, z := range zs {
			if z > th {
				k++
			}
		}
		return k
	}
	t.Logf("clear frames %d, highest logit %.2f (seed %d), above handThreshold %.2f: %d", len(clear), top, topSeed, handThreshold, above(clear, handThreshold))
	// The rule: 0.6 above the highest clear frame, board or none.
	rule := math.Max(top, spareTop) + 0.6
	for _, th := range []float64{top, rule, 2.5, handThreshold, 4} {
		t.Logf("hand frames above %.2f: %d of %d", th, above(hand, th), len(hand))
	}
}
