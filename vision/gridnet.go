package vision

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
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

// gridNetSizes are the lengths of the arrays in the file form.
var gridNetSizes = []int{gridNetInputs, gridNetInputs, gridNetHidden * gridNetInputs, gridNetHidden, gridNetHidden}

// gridNetFileSize is the length of the file form.
var gridNetFileSize = func() int {
	total := 0
	for _, s := range gridNetSizes {
		total += s
	}
	return 12 + 4*total
}()

// MarshalBinary gives the file form: the magic, the input and hidden
// sizes, then little-endian float32 arrays.
func (n *gridNet) MarshalBinary() ([]byte, error) {
	out := []byte(gridNetMagic)
	out = binary.LittleEndian.AppendUint32(out, gridNetInputs)
	out = binary.LittleEndian.AppendUint32(out, gridNetHidden)
	arrays := [][]float32{n.mean, n.sd, n.w1, n.b1, n.w2}
	for k, a := range arrays {
		if len(a) != gridNetSizes[k] {
			return nil, fmt.Errorf("grid network: array %d has %d values, want %d", k, len(a), gridNetSizes[k])
		}
	}
	return appendFloats(out, arrays...), nil
}

// UnmarshalBinary reads MarshalBinary's form; sizes other than this
// build's are an error (the view changed: train again).
func (n *gridNet) UnmarshalBinary(data []byte) error {
	if len(data) < 12 || string(data[:4]) != gridNetMagic {
		return errors.New("grid network: not a network file")
	}
	in, hid := binary.LittleEndian.Uint32(data[4:]), binary.LittleEndian.Uint32(data[8:])
	if in != gridNetInputs || hid != gridNetHidden {
		return fmt.Errorf("grid network: sizes %dx%d, this build needs %dx%d (train it again)", in, hid, gridNetInputs, gridNetHidden)
	}
	if len(data) != gridNetFileSize {
		return fmt.Errorf("grid network: %d bytes, want %d", len(data), gridNetFileSize)
	}
	arrays, err := readFloats(data[12:], gridNetSizes)
	if err != nil {
		return fmt.Errorf("grid network: %w", err)
	}
	for _, sd := range arrays[1] {
		if sd <= 0 {
			return errors.New("grid network: a standard deviation is not positive")
		}
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
