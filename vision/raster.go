package vision

import "math"

// The render and compare search draws each cell's hypotheses, and the
// cells about it, many times over for one pose: every sweep, every board
// colour and lens tried, and the scene drawn whole after each. The
// outlines do not change until the pose does (cellCtx.prepare), so each
// is rasterised once, on the whole frame, into its rows' spans, and drawn
// after by setting those spans clipped to the rectangle asked for: the
// same pixels as fill would set, since fill's spans do not depend on its
// clip rectangle.

// raster is an outline's rows y0 .. y0+n-1 as fill sets them on the whole
// frame: cellCtx.rows[off+y-y0] is row y's [lo, hi], or lo > hi for none.
type raster struct{ y0, off, n int32 }

// noSpan is a row that sets no pixel, whatever the clip.
var noSpan = rowSpan{1, 0}

// shapeRasters gives the rasters of cell i's hypothesis k's outlines, in
// drawing order, making them on first use for the current pose. The slice
// is valid until the next call.
func (c *cellCtx) shapeRasters(i, k int) []raster {
	if !c.rastered[i][k] {
		c.rasterFirst[i][k] = int32(len(c.rasters))
		for _, d := range c.shapes[i][k] {
			c.rasters = append(c.rasters, c.partRaster(i, d))
		}
		c.rastered[i][k] = true
	}
	f := int(c.rasterFirst[i][k])
	return c.rasters[f : f+len(c.shapes[i][k])]
}

// partRaster gives the raster of cell i's outline d, made on first use for
// the current pose: the hypotheses share their outlines by part id (a
// level-2 tower's lower tier is the level-1 block's), so each is
// rasterised once rather than once a hypothesis.
func (c *cellCtx) partRaster(i int, d drawn) raster {
	if c.rDone[i]&(1<<d.id) == 0 {
		c.rOf[i][d.id] = c.rasterise(d.outline)
		c.rDone[i] |= 1 << d.id
	}
	return c.rOf[i][d.id]
}

// forgetRasters drops the rasters of the last pose.
func (c *cellCtx) forgetRasters() {
	c.rastered = [25][nHyp]bool{}
	c.rDone = [25]uint16{}
	c.rasters = c.rasters[:0]
	c.rows = c.rows[:0]
}

// rasterise gives the convex polygon p's rows as fillTrack would set them
// over the whole w x h frame, each row's span worked out exactly as there.
func (c *cellCtx) rasterise(p poly) raster {
	off := int32(len(c.rows))
	if len(p) < 3 {
		return raster{off: off}
	}
	minY, maxY := p[0].Y, p[0].Y
	for _, q := range p {
		minY = min(minY, q.Y)
		maxY = max(maxY, q.Y)
	}
	ya := max(0, int(math.Ceil(minY-0.5)))
	yb := min(c.h-1, int(math.Floor(maxY-0.5)))
	if ya > yb {
		return raster{off: off}
	}
	rows := yb - ya + 1
	buf := &c.fillBuf
	if cap(*buf) < 2*rows {
		*buf = make([]float64, 2*rows)
	}
	lo, hi := (*buf)[:rows], (*buf)[rows:2*rows]
	edgeSpans(p, ya, yb, lo, hi)
	for y := range lo {
		xa := max(0, int(math.Ceil(lo[y]-0.5)))
		xb := min(c.w-1, int(math.Floor(hi[y]-0.5)))
		if xa > xb {
			c.rows = append(c.rows, noSpan)
		} else {
			c.rows = append(c.rows, rowSpan{int32(xa), int32(xb)})
		}
	}
	return raster{y0: int32(ya), off: off, n: int32(rows)}
}

// fillRaster is fillTrack for a rasterised outline: it sets the raster's
// pixels inside [x0,x1) x [y0,y1) (within the frame) to l in lab (the
// frame's size), widening spans (one per row from y0) when not nil.
func (c *cellCtx) fillRaster(r raster, x0, y0, x1, y1 int, lab []uint8, l uint8, spans []rowSpan) {
	ya := max(y0, int(r.y0))
	yb := min(y1-1, int(r.y0+r.n)-1)
	w := c.w
	for y := ya; y <= yb; y++ {
		sp := c.rows[int(r.off)+y-int(r.y0)]
		xa := max(x0, int(sp.lo))
		xb := min(x1-1, int(sp.hi))
		if xa > xb {
			continue
		}
		setBytes(lab[y*w+xa:y*w+xb+1], l)
		if spans != nil {
			s := &spans[y-y0]
			s.lo, s.hi = min(s.lo, int32(xa)), max(s.hi, int32(xb))
		}
	}
}
