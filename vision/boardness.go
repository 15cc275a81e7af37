package vision

import (
	"math"

	"companion/observation"
)

// gridEvidence is what a grid showed of a board, the search's settled on
// (settleGrid) or a hint's (evidenceAt): its scores and the divider
// ridges along its lines.
type gridEvidence struct {
	g     scoredGrid
	ridge float64
}

// The features of a weak grid's reading that tell a board from spare
// pieces on a table (boardFeatures), in order.
const (
	bfScore     = iota // the grid's whole score (dividers, frame, tops)
	bfBase             // its dividers and frame
	bfFrame            // the frame's share of base
	bfFaces            // the block tops' agreement (score less base)
	bfOutlined         // 1 when the board's outline is seen all round
	bfRidge            // divider ridge support along its lines
	bfBuilt            // built cells read, in twenty-fifths
	bfMeanProb         // the networks' mean probability of their picks
	bfLowShare         // share of cells read under 0.9
	bfElevation        // the view's elevation (viewElevation), in right angles
	bfRunOn            // the surest side's share of lines running on past it
	bfHeight           // the grid's height, a share of the frame's
	bfPawns            // pawns read, in twenty-fifths
	bfDomes            // domes read, in twenty-fifths
	nBoardFeatures
)

// boardFeatures are the features of the cells res read on a weak grid
// (its evidence r.evidence) of a w x hh frame, whose corners are res's.
func (r *Reader) boardFeatures(res *Result, scale float64, w, hh int) [nBoardFeatures]float64 {
	var f [nBoardFeatures]float64
	ev := r.evidence
	f[bfScore], f[bfBase], f[bfFrame] = ev.g.s, ev.g.base, ev.g.frame
	f[bfFaces] = ev.g.s - ev.g.base
	if ev.g.outlined {
		f[bfOutlined] = 1
	}
	f[bfRidge] = ev.ridge
	// The cells as read without pawnCountPrior, as the test was trained.
	board, conf := res.plainBoard, res.plainConf
	f[bfBuilt] = float64(board.Built()) / 25
	low, pawns, domes := 0.0, 0.0, 0.0
	for i, p := range conf {
		f[bfMeanProb] += p / 25
		if p < 0.9 {
			low++
		}
		if board[i].Occupant != observation.Empty {
			pawns++
		}
		if board[i].Level == 4 {
			domes++
		}
	}
	f[bfLowShare], f[bfPawns], f[bfDomes] = low/25, pawns/25, domes/25
	f[bfElevation] = viewElevation(res.Corners, w, hh) / 90
	if hs, ok := homographyFromCorners(res.Corners); ok {
		_, share := r.sidesRunOn(scaleHomography(hs, scale))
		for _, s := range share {
			f[bfRunOn] = math.Max(f[bfRunOn], s)
		}
	}
	top := math.Min(res.Corners[0][1], res.Corners[1][1])
	bottom := math.Max(res.Corners[2][1], res.Corners[3][1])
	f[bfHeight] = (bottom - top) / float64(hh)
	return f
}

// The board test. Spare pieces on a table can pass every rule of
// boardShown on a weak grid: block tops to fit a grid to, a plank table's
// seams for dividers. What the whole reading shows then tells them apart:
// the frame's colours about the grid, a board's outline seen all round,
// divider ridges, many built cells read surely, pawns and domes on them. A
// logistic model over boardFeatures (TestTrainBoardTest, on readings of
// frames of boards and of spare pieces) gives a weak grid's reading a
// logit; under boardTestFloor it is refused as no board.
//
// boardTestWeights are the model's weights, the bias last.
var boardTestWeights = [nBoardFeatures + 1]float64{1.2205, 0.5932, 0.2591, 1.5011, 1.4143, 8.8019, 4.3477, 3.3499, -0.9851, 0.1373, 3.6740, 2.9384, 13.0211, 11.9282, -11.4124}

// boardTestFloor is the least logit of a weak grid's reading kept as a
// board.
var boardTestFloor = -2.8

// boardLogit is the board test's logit for a weak grid's reading's
// features f.
func boardLogit(f [nBoardFeatures]float64, w [nBoardFeatures + 1]float64) float64 {
	s := w[nBoardFeatures]
	for i, v := range f {
		s += w[i] * v
	}
	return s
}
