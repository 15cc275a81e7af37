package vision

import (
	"math"
)

// A candidate grid's view: the reduced frame sampled on a lattice over
// the grid and a cell's margin round it, in board coordinates, so that a
// verifier sees the board's frame (or its absence) where the grid puts it.
// On crowded boards the dividers are hidden and a grid a cell off is
// ranked by hand-made cues only; what lies just outside the grid tells a
// board's frame from a row of towers.

const (
	viewMargin   = 1.0  // cells sampled outside the grid, each side
	viewStep     = 0.25 // cells between samples
	viewSteps    = 29   // (5 + 2 viewMargin) / viewStep + 1
	viewChannels = 4    // r, g, b standardised over the view, and inside the frame
	viewPixels   = viewSteps * viewSteps * viewChannels
)

// gridView fills out (viewPixels long) with grid hs's view of the blurred
// reduced frame p (hs maps board coordinates to p's pixels). Colours are
// standardised over the samples inside the frame, per channel, so that the
// lamp's strength and tint do not matter; samples outside the frame are 0
// with their inside flag 0.
func gridView(p *pixels, hs homography, out []float32) {
	var sum, sum2 [3]float64
	n := 0
	k := 0
	for i := 0; i < viewSteps; i++ {
		v := -viewMargin + float64(i)*viewStep
		for j := 0; j < viewSteps; j++ {
			u := -viewMargin + float64(j)*viewStep
			q := hs.apply(pt{u, v})
			x, y := int(math.Round(q.X)), int(math.Round(q.Y))
			if q.X != q.X || x < 0 || y < 0 || x >= p.w || y >= p.h {
				out[k], out[k+1], out[k+2], out[k+3] = 0, 0, 0, 0
				k += viewChannels
				continue
			}
			r, g, b := p.at(x, y)
			out[k], out[k+1], out[k+2], out[k+3] = float32(r), float32(g), float32(b), 1
			for c, val := range [3]float64{r, g, b} {
				sum[c] += val
				sum2[c] += val * val
			}
			n++
			k += viewChannels
		}
	}
	if n == 0 {
		return
	}
	var mean, inv [3]float32
	for c := range mean {
		m := sum[c] / float64(n)
		sd := math.Sqrt(math.Max(0, sum2[c]/float64(n)-m*m))
		mean[c] = float32(m)
		inv[c] = float32(1 / math.Max(sd, 4))
	}
	for k := 0; k < len(out[:viewPixels]); k += viewChannels {
		if out[k+3] == 0 {
			continue
		}
		for c := 0; c < 3; c++ {
			v := (out[k+c] - mean[c]) * inv[c]
			out[k+c] = max(-viewClip, min(viewClip, v))
		}
	}
}

// viewClip bounds the standardised colours.
const viewClip = 4
