package vision

import (
	"encoding/binary"
	"math"
)

// pieceSet is a set's proportions in cell pitches. defaultSet holds
// TABLE.md's middle values; tiers are modelled as prisms (square, or
// octagonal for level 3 and the pawn) and the dome as a half sphere: what
// matters is their outline in the image.
type pieceSet struct {
	tier1Top, tier2Top, tier3Top       float64
	tier1Width, tier2Width, tier3Width float64
	domeWidth, pawnWidth, pawnHeight   float64
}

// pawnHeadShare is a pawn's width at its head over its width at its base.
const pawnHeadShare = 0.45

var defaultSet = pieceSet{
	tier1Top: 0.55, tier2Top: 1.05, tier3Top: 1.38,
	tier1Width: 0.95, tier2Width: 0.80, tier3Width: 0.72,
	domeWidth: 0.64, pawnWidth: 0.42, pawnHeight: 0.72,
}

// part names what a pixel of the rendered hypothesis shows.
type part uint8

const (
	partBoard part = iota // the cell, or whatever is behind: nothing placed
	partBlock             // a block's side (any tier)
	partTop               // a block's top face
	partDome
	partPawn
)

// poly is a convex polygon in image pixels.
type poly []pt

// hull gives the convex hull of the points (monotone chain), reusing buf.
func hull(p []pt, buf poly) poly {
	// Insertion sort: a few dozen points, no allocation.
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && (p[j].X < p[j-1].X || (p[j].X == p[j-1].X && p[j].Y < p[j-1].Y)); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	return chainHull(p, buf)
}

// chainHull is the monotone chain over points sorted by x then y, into buf.
func chainHull(p []pt, buf poly) poly {
	h := buf[:0]
	cross := func(o, a, b pt) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	for _, q := range p {
		for len(h) >= 2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	lo := len(h) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(h) >= lo && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	if len(h) > 1 {
		h = h[:len(h)-1]
	}
	return h
}

var octagon = func() [8][2]float64 {
	var o [8][2]float64
	for i := range o {
		a := (float64(i) + 0.5) * math.Pi / 4
		o[i] = [2]float64{math.Cos(a) / math.Cos(math.Pi/8) / 2, math.Sin(a) / math.Cos(math.Pi/8) / 2}
	}
	return o
}()

// prism gives the image outline of a vertical prism over cell (row, col):
// a square (sides 8 = false) or octagon of width w, from height z0 to z1.
func prism(c *camera, row, col int, w, z0, z1 float64, oct bool, tmp []pt, buf poly) poly {
	return frustum(c, row, col, w, w, z0, z1, oct, tmp, buf)
}

// frustum is prism with width w0 at the bottom and w1 at the top.
func frustum(c *camera, row, col int, w0, w1, z0, z1 float64, oct bool, tmp []pt, buf poly) poly {
	w := w0
	cx, cy := float64(col)+0.5, float64(row)+0.5
	tmp = tmp[:0]
	if oct {
		for _, o := range octagon {
			tmp = append(tmp, c.project(cx+o[0]*w0, cy+o[1]*w0, z0))
			tmp = append(tmp, c.project(cx+o[0]*w1, cy+o[1]*w1, z1))
		}
	} else {
		for _, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			for _, z := range [2]float64{z0, z1} {
				tmp = append(tmp, c.project(cx+d[0]*w/2, cy+d[1]*w/2, z))
			}
		}
	}
	return hull(tmp, buf)
}

// face gives the image outline of the horizontal square (or octagon) of
// width w at height z over cell (row, col).
func face(c *camera, row, col int, w, z float64, oct bool, tmp []pt, buf poly) poly {
	cx, cy := float64(col)+0.5, float64(row)+0.5
	tmp = tmp[:0]
	if oct {
		for _, o := range octagon {
			tmp = append(tmp, c.project(cx+o[0]*w, cy+o[1]*w, z))
		}
	} else {
		for _, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			tmp = append(tmp, c.project(cx+d[0]*w/2, cy+d[1]*w/2, z))
		}
	}
	return hull(tmp, buf)
}

// dome gives the image outline of a half sphere of diameter w on height z0.
func dome(c *camera, row, col int, w, z0 float64, tmp []pt, buf poly) poly {
	cx, cy := float64(col)+0.5, float64(row)+0.5
	tmp = tmp[:0]
	r := w / 2
	for _, el := range [3]float64{0, math.Pi / 6, math.Pi / 3} {
		rr, z := r*math.Cos(el), z0+r*math.Sin(el)
		for i := 0; i < 8; i++ {
			a := float64(i) * math.Pi / 4
			tmp = append(tmp, c.project(cx+rr*math.Cos(a), cy+rr*math.Sin(a), z))
		}
	}
	tmp = append(tmp, c.project(cx, cy, z0+r))
	return hull(tmp, buf)
}

// stackTop gives the height of a stack of the given level's top (where a
// pawn stands); level 4 (dome) has no standing place.
func (ps *pieceSet) stackTop(level int) float64 {
	switch level {
	case 1:
		return ps.tier1Top
	case 2:
		return ps.tier2Top
	case 3, 4:
		return ps.tier3Top
	}
	return 0
}

// shape is one drawn part of a hypothesis: its outline and what it shows.
type shape struct {
	outline poly
	part    part
}

// cellShapes appends the outlines of a cell's stack of the given level with
// or without a pawn, in drawing order (lower parts first).
// Outlines are stored in slab when it has room (see polyBuf).
func (ps *pieceSet) cellShapes(c *camera, row, col, level int, pawn bool, out []shape, tmp []pt, slab *[]pt) []shape {
	// Each tier: its sides, then its top face over them.
	if level >= 1 {
		out = append(out, shape{prism(c, row, col, ps.tier1Width, 0, ps.tier1Top, false, tmp, polyBuf(slab)), partBlock})
		out = append(out, shape{face(c, row, col, ps.tier1Width, ps.tier1Top, false, tmp, polyBuf(slab)), partTop})
	}
	if level >= 2 {
		out = append(out, shape{prism(c, row, col, ps.tier2Width, ps.tier1Top, ps.tier2Top, false, tmp, polyBuf(slab)), partBlock})
		out = append(out, shape{face(c, row, col, ps.tier2Width, ps.tier2Top, false, tmp, polyBuf(slab)), partTop})
	}
	if level >= 3 {
		out = append(out, shape{prism(c, row, col, ps.tier3Width, ps.tier2Top, ps.tier3Top, true, tmp, polyBuf(slab)), partBlock})
		out = append(out, shape{face(c, row, col, ps.tier3Width, ps.tier3Top, true, tmp, polyBuf(slab)), partTop})
	}
	if level >= 4 {
		out = append(out, shape{dome(c, row, col, ps.domeWidth, ps.tier3Top, tmp, polyBuf(slab)), partDome})
	} else if pawn {
		out = append(out, ps.pawnShape(c, row, col, level, tmp, slab))
	}
	return out
}

// pawnShape is the outline of a pawn standing on a cell's stack of the
// given level (0 to 3), as cellShapes draws it.
func (ps *pieceSet) pawnShape(c *camera, row, col, level int, tmp []pt, slab *[]pt) shape {
	// A pawn narrows from its base to its head.
	z := ps.stackTop(level)
	return shape{frustum(c, row, col, ps.pawnWidth, pawnHeadShare*ps.pawnWidth, z, z+ps.pawnHeight, true, tmp, polyBuf(slab)), partPawn}
}

// polyBufLen bounds a drawn outline's vertices (a dome's hull has at most
// 25).
const polyBufLen = 32

// polyBuf takes room for one outline from slab, or gives nil (allocate)
// when it is full, so that preparing a frame's hypotheses does not
// allocate.
func polyBuf(slab *[]pt) poly {
	if slab == nil {
		return nil
	}
	n := len(*slab)
	if cap(*slab)-n < polyBufLen {
		return nil
	}
	*slab = (*slab)[:n+polyBufLen]
	return poly((*slab)[n : n : n+polyBufLen])
}

// edgeSpans sets lo[y-ya] and hi[y-ya], for each row y from ya to yb, to
// the least and greatest crossing of its centre line by the convex
// polygon p's edges (+Inf and -Inf where none crosses), edge by edge over
// the rows each edge spans.
func edgeSpans(p poly, ya, yb int, lo, hi []float64) {
	for y := range lo {
		lo[y], hi[y] = math.Inf(1), math.Inf(-1)
	}
	n := len(p)
	fya, fyb := float64(ya), float64(yb)
	for i := 0; i < n; i++ {
		a := p[i]
		b := p[0]
		if i+1 < n {
			b = p[i+1]
		}
		if a.Y == b.Y {
			continue // crosses no row's centre line
		}
		// The rows it may cross, a row wider each way than the exact
		// test below (which decides).
		ys, ye := ya, yb
		if v := math.Floor(math.Min(a.Y, b.Y) - 0.5); v > fyb {
			continue
		} else if v > fya {
			ys = int(v)
		}
		if v := math.Ceil(math.Max(a.Y, b.Y) - 0.5); v < fya {
			continue
		} else if v < fyb {
			ye = int(v)
		}
		for y := ys; y <= ye; y++ {
			fy := float64(y) + 0.5
			if (a.Y <= fy && b.Y > fy) || (b.Y <= fy && a.Y > fy) {
				x := a.X + (fy-a.Y)*(b.X-a.X)/(b.Y-a.Y)
				if x < lo[y-ya] {
					lo[y-ya] = x
				}
				if x > hi[y-ya] {
					hi[y-ya] = x
				}
			}
		}
	}
}

// rowSpan is the pixels [lo, hi] of a row drawn on (none when lo > hi).
type rowSpan struct{ lo, hi int32 }

// setBytes sets every byte of b to v, eight at a time.
func setBytes(b []uint8, v uint8) {
	w := uint64(v) * 0x0101010101010101
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, w)
		b = b[8:]
	}
	for i := range b {
		b[i] = v
	}
}
