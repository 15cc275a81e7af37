package vision

import (
	_ "embed"
)

// The crowded grids' verifier. Where no grid shows its dividers surely,
// the candidates are ranked by hand-made cues (crowdedScore), and on
// crowded boards a grid a cell off can outscore the right one. A small
// network, trained on simulated frames' candidates (TestTrainGridNet),
// looks at each candidate's view (gridView) and its cues and adds a
// correction to its crowdedScore: it learned what a board's frame and a
// grid's cells look like where a right grid puts them.

const (
	gridCues = 6
	// gridNetStride takes every other sample of the view each way: the
	// network saw half a cell between samples (a finer lattice read no
	// better and has four times the weights to learn).
	gridNetStride = 2
	gridNetSide   = (viewSteps + gridNetStride - 1) / gridNetStride
	gridNetView   = gridNetSide * gridNetSide * viewChannels
	gridNetInputs = gridNetView + gridCues
	gridNetHidden = 16
	gridNetMagic  = "GNET"
)

// gridNet is a one-hidden-layer perceptron over standardised inputs with
// one output: the log-odds to add to a candidate's crowdedScore.
type gridNet struct {
	mean, sd []float32 // input standardisation
	w1       []float32 // gridNetHidden x gridNetInputs
	b1       []float32
	w2       []float32 // gridNetHidden
}

// gridNetFile is the file form: the magic, the input and hidden sizes,
// then little-endian float32 arrays (mean, sd, w1, b1, w2).
var gridNetFile = netFile{
	magic: gridNetMagic, name: "grid network",
	dims:  []uint32{gridNetInputs, gridNetHidden},
	sizes: []int{gridNetInputs, gridNetInputs, gridNetHidden * gridNetInputs, gridNetHidden, gridNetHidden},
}

// MarshalBinary gives the file form (gridNetFile).
func (n *gridNet) MarshalBinary() ([]byte, error) {
	return gridNetFile.marshal(n.mean, n.sd, n.w1, n.b1, n.w2)
}

// UnmarshalBinary reads MarshalBinary's form; sizes other than this
// build's are an error (the view changed: train again).
func (n *gridNet) UnmarshalBinary(data []byte) error {
	arrays, err := gridNetFile.unmarshal(data)
	if err != nil {
		return err
	}
	n.mean, n.sd, n.w1, n.b1, n.w2 = arrays[0], arrays[1], arrays[2], arrays[3], arrays[4]
	return nil
}

// score gives the correction for input x (gridNetInputs: the view, then
// the cues), using xs (gridNetInputs) as scratch.
func (n *gridNet) score(x, xs []float32) float64 {
	for i, v := range x {
		xs[i] = (v - n.mean[i]) / n.sd[i]
	}
	var out float32
	for j := 0; j < gridNetHidden; j++ {
		s := n.b1[j]
		row := n.w1[j*gridNetInputs : (j+1)*gridNetInputs]
		for i, v := range xs {
			s += row[i] * v
		}
		if s > 0 {
			out += n.w2[j] * s
		}
	}
	return float64(out)
}

// gridNetInput fills x (gridNetInputs) with a candidate's view of the
// blurred reduced frame p (every gridNetStride-th sample each way of
// gridView, which is filled as scratch: the colours are standardised over
// the whole lattice, as the network was trained) and its cues.
func gridNetInput(p *pixels, hs homography, cues [gridCues]float64, view, x []float32) {
	gridView(p, hs, view)
	k := 0
	for i := 0; i < viewSteps; i += gridNetStride {
		for j := 0; j < viewSteps; j += gridNetStride {
			k += copy(x[k:k+viewChannels], view[(i*viewSteps+j)*viewChannels:])
		}
	}
	for i, c := range cues {
		x[k+i] = float32(c)
	}
}

//go:embed gridnet.bin
var gridNetBin []byte

// builtinGridNet is the trained verifier, or nil when gridnet.bin does not
// fit this build (crowdedScore then ranks alone).
var builtinGridNet = func() *gridNet {
	var n gridNet
	if err := n.UnmarshalBinary(gridNetBin); err != nil {
		return nil
	}
	return &n
}()
