package vision

import (
	"math"
	"testing"

	"companion/observation"
)

// TestBoardFeatures: the board test's features count what was read
// (without pawnCountPrior) and take the grid's scores from the evidence the search left.
func TestBoardFeatures(t *testing.T) {
	r := NewReader()
	defer r.Close()
	r.evidence = gridEvidence{g: scoredGrid{s: 0.4, base: 0.1, frame: -0.2, outlined: true}, ridge: 0.07}
	var res Result
	res.Board[0] = observation.Square{Level: 2, Occupant: observation.Blue}
	res.Board[6] = observation.Square{Level: 4}
	res.Board[7] = observation.Square{Level: 1}
	res.Board[12] = observation.Square{Occupant: observation.Dark}
	for i := range res.Confidence {
		res.Confidence[i] = 1
	}
	res.Confidence[3], res.Confidence[4] = 0.5, 0.7
	// The board test reads the cells as the networks alone read them: a
	// pawn that pawnCountPrior added is not counted.
	res.plainBoard, res.plainConf = res.Board, res.Confidence
	res.Board[20] = observation.Square{Occupant: observation.Light}
	// A grid 360 pixels high in a 1280x720 frame, seen square on.
	res.Corners = [4][2]float64{{460, 180}, {820, 180}, {820, 540}, {460, 540}}
	f := r.boardFeatures(&res, 0.5, 1280, 720)
	want := map[int]float64{
		bfScore: 0.4, bfBase: 0.1, bfFrame: -0.2, bfFaces: 0.3, bfOutlined: 1, bfRidge: 0.07,
		bfBuilt: 3.0 / 25, bfMeanProb: 24.2 / 25, bfLowShare: 2.0 / 25,
		bfHeight: 0.5, bfPawns: 2.0 / 25, bfDomes: 1.0 / 25,
	}
	for i, v := range want {
		if math.Abs(f[i]-v) > 1e-9 {
			t.Errorf("feature %d = %.4f, want %.4f", i, f[i], v)
		}
	}
	if f[bfElevation] < 0.9 || f[bfElevation] > 1 {
		t.Errorf("a square grid seen square on: elevation %.3f right angles, want about 1", f[bfElevation])
	}
}

// TestBoardTestSeparates: readings on weak grids collected from frames
// (TestCollectBoardness) of boards pass the shipped board test and those of
// spare pieces on a table, read as boards before it, are refused.
func TestBoardTestSeparates(t *testing.T) {
	cases := []struct {
		name  string
		board bool
		f     [nBoardFeatures]float64
	}{
		{"17000, crowded, every cell right", true, [nBoardFeatures]float64{0.52876, -0.12146, -0.34229, 0.65021, 1, 0.31, 0.56, 0.99794, 0, 0.72366, 0.10417, 0.72981, 0.12, 0.04}},
		{"17010, crowded, every cell right", true, [nBoardFeatures]float64{0.39335, -0.18648, -0.28231, 0.57982, 1, -0.03944, 0.68, 0.98738, 0.04, 0.58508, 0.10417, 0.68569, 0.2, 0.16}},
		{"18717, empty but for five pawns, small in the frame", true, [nBoardFeatures]float64{0.27516, 0.27516, 0.02099, 0, 0, 0.24944, 0, 0.98848, 0.04, 0.72995, 0.07317, 0.50859, 0.2, 0}},
		{"spares 1021, a grid on one block", false, [nBoardFeatures]float64{0.12498, -0.14594, -0.42094, 0.27092, 0, 0.04444, 0.04, 0.98508, 0.04, 0.88069, 0.10417, 0.51071, 0, 0}},
		{"spares 1030, 21 cells read built, unsure", false, [nBoardFeatures]float64{0.27542, 0.27542, -0.14542, 0, 0, 0.05833, 0.84, 0.64431, 0.96, 0.47178, 0.16667, 0.27, 0.04, 0}},
		{"spares 1629, a plank table's seams", false, [nBoardFeatures]float64{0.35849, 0.35849, -0.09151, 0, 0, 0.12833, 0, 0.94667, 0.08, 0.34623, 0.52083, 0.22808, 0, 0}},
		{"spares 5165, ridges as a board's", false, [nBoardFeatures]float64{0.00823, 0.00823, -0.2501, 0, 0, 0.25556, 0.08, 0.9373, 0.12, 0.44154, 0.20833, 0.47835, 0, 0}},
	}
	for _, c := range cases {
		l := boardLogit(c.f, boardTestWeights)
		if (l >= boardTestFloor) != c.board {
			t.Errorf("%s: logit %.2f against the floor %.2f, board %v", c.name, l, boardTestFloor, c.board)
		}
	}
}

// BenchmarkBoardFeatures is the board test's cost on a weak grid's
// reading (a crowded board read cold at 1280x720): its features and logit.
func BenchmarkBoardFeatures(b *testing.B) {
	r := NewReader()
	defer r.Close()
	m, _ := simFrame(b, 17000)
	defer m.Close()
	res, err := r.Read(m)
	if err != nil || !r.boardWeak {
		b.Skipf("seed 17000 not read on a weak grid (%v)", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := r.boardFeatures(&res, 0.5, m.Cols(), m.Rows())
		if boardLogit(f, boardTestWeights) < boardTestFloor {
			b.Fatal("seed 17000 refused")
		}
	}
}
