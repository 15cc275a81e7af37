package vision

import (
	"companion/observation"
	"companion/sim"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

var learn = flag.Int("learn", 0, "learn the colour histograms from this many sim frames (seeds 1..N, all below 10000) and rewrite colours.bin")

// TestLearnColours learns the colour histograms of each label from
// simulated frames whose truth is known: the truth board is drawn with the
// model's shapes from the true corners, and every pixel well inside a drawn
// label (its neighbours two pixels away agree) counts for that label.
func TestLearnColours(t *testing.T) {
	if *learn == 0 {
		t.Skip("run with -learn N to relearn colours.bin")
	}
	counts := new([nLab][nBins]float64)
	r := NewReader()
	defer r.Close()
	for seed := int64(1); seed <= int64(*learn); seed++ {
		m, truth := simFrame(t, seed)
		err := r.countLabels(m, truth.Corners, truth.Board, counts)
		m.Close()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	out := make([]byte, 0, nLab*nBins*4)
	for l := 0; l < nLab; l++ {
		sm := smooth(counts[l][:])
		var tot float64
		for _, v := range sm {
			tot += v
		}
		t.Logf("label %d: %.0f pixels", l, tot)
		for _, v := range sm {
			p := (v + 0.02) / (tot + 0.02*nBins)
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(math.Log(p))))
		}
	}
	if err := os.WriteFile("colours.bin", out, 0o644); err != nil {
		t.Fatal(err)
	}
}

var diagSeeds = flag.String("diagcells", "", "trace the cell reading on these seeds (a-b)")

// TestDiagCells traces the cell reading with the true corners (development aid).
func TestDiagCells(t *testing.T) {
	if *diagSeeds == "" {
		t.Skip("run with -diagcells A-B")
	}
	var a, b int64
	fmt.Sscanf(*diagSeeds, "%d-%d", &a, &b)
	r := NewReader()
	defer r.Close()
	traceCells = func(f string, args ...any) { t.Logf(f, args...) }
	defer func() { traceCells = nil }()
	for s := a; s <= b; s++ {
		m, truth := simFrame(t, s)
		sc := sim.RandomScene(s)
		t.Logf("seed %d el %.0f cells %v %v block %v light %v", s, truth.Elevation, sc.Style.Cells, sc.Style.CellColour, sc.Pieces.BlockColour, sc.Pieces.LightColour)
		res, err := r.ReadWithCorners(m, truth.Corners)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		wrong := 0
		for i := range res.Board {
			if res.Board[i] != truth.Board[i] {
				wrong++
			}
		}
		t.Logf("  truth %v wrong %d\n  read  %v conf %.2f", hypsOf(truth.Board), wrong, hypsOf(res.Board), res.Confidence)
	}
}

func hypsOf(b observation.Board) []int {
	var out []int
	for _, sq := range b {
		out = append(out, hypIndex(sq))
	}
	return out
}

// BenchmarkReadCells times reading with the true corners (the grid given,
// so mostly the cell reading) on tuning frames.
func BenchmarkReadCells(b *testing.B) {
	r := NewReader()
	defer r.Close()
	type frame struct {
		m       gocv.Mat
		corners [4][2]float64
	}
	var frames []frame
	for s := int64(20000); s < 20016; s++ {
		m, truth := simFrame(b, s)
		defer m.Close()
		frames = append(frames, frame{m, truth.Corners})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := frames[i%len(frames)]
		if _, err := r.ReadWithCorners(f.m, f.corners); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBoardCandidatesMerge: cells of one surface lit unevenly (two groups
// a little apart in brightness) make one candidate; block tops far whiter
// than the cells make a second.
func TestBoardCandidatesMerge(t *testing.T) {
	var cells [25][3]float64
	for i := range cells {
		switch {
		case i < 10:
			cells[i] = [3]float64{4.78, 0.005, 0.035} // shaded cells
		case i < 20:
			cells[i] = [3]float64{4.92, 0.005, 0.033} // lit cells
		default:
			cells[i] = [3]float64{5.45, 0.0, 0.01} // block tops
		}
	}
	means, _ := boardCandidates(cells)
	if len(means) != 2 {
		t.Fatalf("got %d candidates %v, want 2 (cells, block tops)", len(means), means)
	}
	if means[0][0] < 4.7 || means[0][0] > 5 || means[1][0] < 5.4 {
		t.Errorf("candidates %v: want the cells first, then the block tops", means)
	}
}

// TestEdgeCueLevels: near top-down, where colour cannot tell a tier's top
// from the one below, the tiers' outlines must tell the built levels apart:
// with the edge cue the cell reading gets clearly more built cells' levels
// right than without it, on frames where built cells were misread (2 as 1).
func TestEdgeCueLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	var frames []gocv.Mat
	var truths []sim.Truth
	for _, s := range []int64{20110, 20156, 20175, 20143} {
		m, truth := simFrame(t, s)
		defer m.Close()
		frames, truths = append(frames, m), append(truths, truth)
	}
	count := func(weight float64) (right int) {
		defer func(w float64) { edgeWeight = w }(edgeWeight)
		edgeWeight = weight
		for f, m := range frames {
			res, err := r.ReadWithCorners(m, truths[f].Corners)
			if err != nil {
				t.Fatal(err)
			}
			for i, sq := range truths[f].Board {
				if sq.Level > 0 && res.Board[i].Level == sq.Level {
					right++
				}
			}
		}
		return right
	}
	without, with := count(0), count(edgeWeight)
	t.Logf("built cells' level right: %d without the edge cue, %d with", without, with)
	if with < without+4 {
		t.Errorf("edge cue: %d built levels right, want at least %d (%d without)", with, without+4, without)
	}
}
