package vision

import (
	"math"
)

// ringScore measures how much the band just outside the grid looks like a
// board frame: one even colour all round (the frame is one colour; pieces
// stand inside the grid). It samples the band at two depths inside the
// narrowest frame (0.4 pitch) along the four sides and gives the share of
// samples near the band's median colour. hh maps to the reduced frame.
func (r *Reader) ringScore(hh homography) float64 {
	const per = 16
	var cols [4 * 2 * per][3]float64
	n := 0
	for _, d := range [2]float64{0.12, 0.28} {
		for i := 0; i < per; i++ {
			t := -d + (float64(i)+0.5)*(5+2*d)/per
			for _, b := range [4]pt{{t, -d}, {5 + d, t}, {t, 5 + d}, {-d, t}} {
				p := hh.apply(b)
				if p.X < 0 || p.Y < 0 || p.X >= float64(r.px.w) || p.Y >= float64(r.px.h) {
					continue
				}
				rr, g, bb := r.px.at(int(p.X), int(p.Y))
				cols[n] = [3]float64{rr, g, bb}
				n++
			}
		}
	}
	if n < len(cols)/2 {
		return 0
	}
	var med [3]float64
	var tmp [len(cols)]float64
	for c := 0; c < 3; c++ {
		for i := 0; i < n; i++ {
			tmp[i] = cols[i][c]
		}
		// The median (a quickselect: the same value a sort gives).
		med[c] = nthSmallest(tmp[:n], n/2)
	}
	near := 0
	tol := 18 + 0.12*(med[0]+med[1]+med[2])/3
	for i := 0; i < n; i++ {
		d := math.Abs(cols[i][0]-med[0]) + math.Abs(cols[i][1]-med[1]) + math.Abs(cols[i][2]-med[2])
		if d < tol {
			near++
		}
	}
	return float64(near) / float64(len(cols))
}

// Weights and offsets of the frame evidence (tuned on sim seeds 2000-2059,
// checked on 3000-3059).
const (
	ringEvWeight = 0.5
	ringEvOffset = 0.6
	fitEvWeight  = 0.8
	fitEvOffset  = 0.7
)

// frameEvidence is what the colours around the grid h (full-resolution
// frame) add to the share of dividers found: positive when an even band of
// one colour, different from the table beyond it and the cells within it,
// surrounds the grid, negative when not.
func (r *Reader) frameEvidence(h homography) float64 {
	if r.fullGray.Cols() == 0 || r.px.w == 0 {
		return 0
	}
	hs := scaleHomography(h, float64(r.px.w)/float64(r.fullGray.Cols()))
	return ringEvWeight*(r.ringScore(hs)-ringEvOffset) + fitEvWeight*(r.bestFrameFit(hs, 12)-fitEvOffset)
}
