package vision

import (
	_ "embed"
	"math"
)

// colours.bin holds the learned colour histograms written by
// TestLearnColours: for the board label then each object label, nBins
// little-endian float32 log-probabilities (Colours' binary form).
//
//go:embed colours.bin
var coloursBin []byte

// builtin is the zero-set-up colour model, learned on simulated frames.
var builtin = func() Colours {
	var c Colours
	if err := c.UnmarshalBinary(coloursBin); err != nil {
		// No learned model: flat histograms.
		for l := range c.obj {
			for k := range c.obj[l] {
				c.obj[l][k] = float32(-math.Log(nBins))
			}
		}
		for k := range c.bg {
			c.bg[k] = -math.Log(nBins)
		}
	}
	return c
}()
