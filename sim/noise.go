package sim

import "math"

// hash32 is a 32-bit integer mixer (lowbias32); all randomness inside a
// render derives from it, so pixels never depend on evaluation order.
func hash32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

func hash3(a, b, c uint32) uint32 { return hash32(a ^ hash32(b+0x9e3779b9^hash32(c+0x632be5ab))) }

// hash2 is a cheaper hash of a lattice point, for noise.
func hash2(x, y, seed uint32) uint32 {
	return hash32(x*0x8da6b343 ^ y*0xd8163841 ^ seed*0xcb1ab31f)
}

func unit(h uint32) float64 { return float64(h) / 4294967296.0 }

// vnoise is smooth value noise in [0,1] on the plane.
func vnoise(x, y float64, seed uint32) float64 {
	fx, fy := math.Floor(x), math.Floor(y)
	ix, iy := uint32(int32(fx)), uint32(int32(fy))
	tx, ty := x-fx, y-fy
	tx = tx * tx * (3 - 2*tx)
	ty = ty * ty * (3 - 2*ty)
	h00 := unit(hash2(ix, iy, seed))
	h10 := unit(hash2(ix+1, iy, seed))
	h01 := unit(hash2(ix, iy+1, seed))
	h11 := unit(hash2(ix+1, iy+1, seed))
	a := h00 + (h10-h00)*tx
	b := h01 + (h11-h01)*tx
	return a + (b-a)*ty
}

// fbm is two octaves of value noise, in [0,1].
func fbm(x, y float64, seed uint32) float64 {
	return 0.65*vnoise(x, y, seed) + 0.35*vnoise(x*2.13+5.2, y*2.13+1.7, seed+1)
}

// gauss is an approximately standard normal number from a hash (Irwin-Hall
// sum of four bytes).
func gauss(h uint32) float64 {
	s := float64(h&0xff) + float64(h>>8&0xff) + float64(h>>16&0xff) + float64(h>>24)
	return (s - 510) / 147.8
}
