package vision

import (
	"math"
	"math/rand"
	"testing"
)

// fillTrackRef is how outlines were drawn before they were rasterised
// once a pose (raster.go), kept as the reference: it sets lab[y*stride+x]
// = l for each pixel centre inside the convex polygon p, clipped to
// [x0,x1) x [y0,y1), and widens spans (one per row from y0, least
// and greatest x) over the pixels it sets, when spans is not nil.
func fillTrackRef(p poly, x0, y0, x1, y1 int, lab []uint8, stride int, l uint8, buf *[]float64, spans []rowSpan) {
	if len(p) < 3 {
		return
	}
	minY, maxY := p[0].Y, p[0].Y
	for _, q := range p {
		minY = math.Min(minY, q.Y)
		maxY = math.Max(maxY, q.Y)
	}
	ya := max(y0, int(math.Ceil(minY-0.5)))
	yb := min(y1-1, int(math.Floor(maxY-0.5)))
	if ya > yb {
		return
	}
	// Each row's span: the least and greatest crossing of its centre line
	// by the edges, edge by edge over the rows each edge spans.
	rows := yb - ya + 1
	if cap(*buf) < 2*rows {
		*buf = make([]float64, 2*rows)
	}
	lo, hi := (*buf)[:rows], (*buf)[rows:2*rows]
	edgeSpans(p, ya, yb, lo, hi)
	for y := ya; y <= yb; y++ {
		xa := max(x0, int(math.Ceil(lo[y-ya]-0.5)))
		xb := min(x1-1, int(math.Floor(hi[y-ya]-0.5)))
		if xa > xb {
			continue
		}
		setBytes(lab[y*stride+xa:y*stride+xb+1], l)
		if spans != nil {
			sp := &spans[y-y0]
			sp.lo, sp.hi = min(sp.lo, int32(xa)), max(sp.hi, int32(xb))
		}
	}
}

// TestRasterAsFill: a rasterised outline sets the same pixels as drawing it
// afresh, and widens the same rows' spans, whatever the clip rectangle:
// polygons inside the frame, across its edges, wholly outside it, thin,
// degenerate, and with a vertex far off.
func TestRasterAsFill(t *testing.T) {
	const w, h = 97, 61
	rng := rand.New(rand.NewSource(3))
	c := &cellCtx{w: w, h: h}
	var buf []float64
	got, want := make([]uint8, w*h), make([]uint8, w*h)
	for trial := 0; trial < 3000; trial++ {
		// A convex polygon: points on an ellipse, in order.
		n := 3 + rng.Intn(6)
		cx, cy := rng.Float64()*1.6*w-0.3*w, rng.Float64()*1.6*h-0.3*h
		rx, ry := rng.Float64()*w*0.6, rng.Float64()*h*0.6
		if trial%7 == 0 {
			ry = rng.Float64() * 1.5 // thin
		}
		a0 := rng.Float64() * 2 * math.Pi
		p := make(poly, n)
		for k := range p {
			a := a0 + 2*math.Pi*float64(k)/float64(n)
			p[k] = pt{cx + rx*math.Cos(a), cy + ry*math.Sin(a)}
		}
		switch trial % 11 {
		case 3:
			p[0] = pt{cx + 1e6, cy} // a vertex far off
		case 5:
			p = p[:2] // no area
		case 8:
			for k := range p { // on pixel centres exactly
				p[k] = pt{math.Floor(p[k].X) + 0.5, math.Floor(p[k].Y) + 0.5}
			}
		}
		x0, y0 := rng.Intn(w), rng.Intn(h)
		x1, y1 := x0+rng.Intn(w-x0+1), y0+rng.Intn(h-y0+1)
		if trial%5 == 0 {
			x0, y0, x1, y1 = 0, 0, w, h
		}
		c.forgetRasters()
		r := c.rasterise(p)
		for i := range got {
			got[i], want[i] = 0, 0
		}
		sg, sw := make([]rowSpan, h), make([]rowSpan, h)
		for i := range sg {
			sg[i], sw[i] = rowSpan{math.MaxInt32, -1}, rowSpan{math.MaxInt32, -1}
		}
		c.fillRaster(r, x0, y0, x1, y1, got, 7, sg[:max(0, y1-y0)])
		fillTrackRef(p, x0, y0, x1, y1, want, w, 7, &buf, sw[:max(0, y1-y0)])
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("trial %d: polygon %v clipped to (%d,%d)-(%d,%d): pixel (%d,%d) is %d, drawn afresh %d", trial, p, x0, y0, x1, y1, i%w, i/w, got[i], want[i])
			}
		}
		for i := range sg {
			if sg[i] != sw[i] {
				t.Fatalf("trial %d: row %d's span %v, drawn afresh %v", trial, i, sg[i], sw[i])
			}
		}
	}
}
