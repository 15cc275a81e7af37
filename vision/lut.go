package vision

import (
	_ "embed"
	"encoding/binary"
	"math"
)

// colours.bin holds the learned colour histograms written by
// TestLearnColours: for the board label then each object label, nBins
// little-endian float32 log-probabilities.
//
//go:embed colours.bin
var coloursBin []byte

var (
	objLUT [nLab - 1][nBins]float32
	bgLUT  [nBins]float64
)

func init() {
	if len(coloursBin) != nLab*nBins*4 {
		// No learned model: flat histograms.
		for c := range objLUT {
			for k := range objLUT[c] {
				objLUT[c][k] = float32(-math.Log(nBins))
			}
		}
		for k := range bgLUT {
			bgLUT[k] = -math.Log(nBins)
		}
		return
	}
	for k := 0; k < nBins; k++ {
		bgLUT[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(coloursBin[4*k:])))
	}
	for c := range objLUT {
		for k := 0; k < nBins; k++ {
			o := 4 * ((c+1)*nBins + k)
			objLUT[c][k] = math.Float32frombits(binary.LittleEndian.Uint32(coloursBin[o:]))
		}
	}
}
