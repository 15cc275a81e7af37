package vision

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"companion/sim"
)

var (
	boardTSV   = flag.String("boardtsv", "", "TestCollectBoardness: write the board test's features of every frame read to this file")
	spareFrom  = flag.Int64("sparefrom", 0, "TestCollectBoardness: first seed of frames of spare pieces with no board")
	spareCount = flag.Int("sparecount", 0, "TestCollectBoardness: how many frames of spare pieces")
	spareWidth = flag.Int("sparewidth", 960, "TestCollectBoardness: width of the spare pieces' frames (height 9/16 of it)")
	boardFrom  = flag.Int64("boardfrom", 0, "TestCollectBoardness: first sim seed of boards")
	boardCount = flag.Int("boardcount", 0, "TestCollectBoardness: how many boards")
	boardNear  = flag.Float64("boardnear", 0, "TestCollectBoardness: read the boards near their true corners knocked this far (pitches, as the harness's -near) instead of cold")
)

// TestCollectBoardness reads frames of spare pieces with no board and
// frames of boards cold (or near a hint, -boardnear), and writes each reading's board test features
// (boardFeatures) with what the frame was, for learning the board test
// (development aid).
func TestCollectBoardness(t *testing.T) {
	if *boardTSV == "" {
		t.Skip("run with -boardtsv FILE and -sparefrom/-sparecount and/or -boardfrom/-boardcount")
	}
	f, err := os.Create(*boardTSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := bufio.NewWriter(f)
	defer out.Flush()
	fmt.Fprint(out, "kind\tseed\tread\tweak\twrong")
	for k := 0; k < nBoardFeatures; k++ {
		fmt.Fprintf(out, "\tf%d", k)
	}
	fmt.Fprintln(out)
	// Every weak grid's reading is collected, the board test off.
	defer func(floor float64) { boardTestFloor = floor }(boardTestFloor)
	boardTestFloor = math.Inf(-1)
	r := NewReader()
	defer r.Close()
	write := func(kind string, seed int64, res Result, err error, wrong int) {
		fmt.Fprintf(out, "%s\t%d\t%v\t%v\t%d", kind, seed, err == nil, r.boardWeak, wrong)
		for _, v := range r.boardIn {
			if !r.boardWeak {
				v = 0
			}
			fmt.Fprintf(out, "\t%.5f", v)
		}
		fmt.Fprintln(out)
	}
	sw := *spareWidth
	for s := *spareFrom; s < *spareFrom+int64(*spareCount); s++ {
		img, _ := sim.Render(sparesScene(s, sw, sw*9/16))
		m, err := gocv.ImageToMatRGB(img)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Read(m)
		m.Close()
		write("spare", s, res, err, 25)
	}
	for s := *boardFrom; s < *boardFrom+int64(*boardCount); s++ {
		m, truth := simFrame(t, s)
		var res Result
		if *boardNear > 0 {
			res, err = r.ReadNear(m, sim.Nudge(truth.Corners, *boardNear, rand.New(rand.NewSource(s))))
		} else {
			res, err = r.Read(m)
		}
		m.Close()
		wrong := 25
		if err == nil {
			wrong = 0
			for i := range res.Board {
				if res.Board[i] != truth.Board[i] {
					wrong++
				}
			}
		}
		write("board", s, res, err, wrong)
	}
}
