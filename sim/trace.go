package sim

import "math"

// Hit targets that are not primitives.
const (
	hitNothing = -2 // beyond the table
	hitTable   = -1
)

type hit struct {
	t   float64
	idx int32 // primitive index, hitTable or hitNothing
	n   vec3  // world normal (primitives only)
}

// tracer traces rays through a world; one per goroutine.
type tracer struct {
	w     *world
	stamp []uint32 // per group: the last ray that tested it
	ray   uint32
	rnd   uint32 // seed of the current pixel sample, for soft shadows
}

func newTracer(w *world) *tracer {
	return &tracer{w: w, stamp: make([]uint32, len(w.groups))}
}

const eps = 1e-6

// closest finds the first thing the ray o + t d (t > 0) hits.
func (tr *tracer) closest(o, d vec3) hit {
	w := tr.w
	h := hit{t: math.Inf(1), idx: hitNothing}
	if d.z < 0 {
		t := -o.z / d.z
		p := o.addScaled(d, t)
		tb := &w.s.Table
		if math.Abs(p.x) < tb.HalfWidth && p.y < tb.Far {
			h = hit{t: t, idx: hitTable, n: vec3{0, 0, 1}}
		}
	}
	inv := vec3{1 / d.x, 1 / d.y, 1 / d.z}
	if boxTest(w.baseLo, w.baseHi, o, inv, h.t) {
		// Dividers and slab first: the pedestal below is then quickly
		// culled by the shorter tmax.
		for i := w.nBase - 1; i >= 0; i-- {
			if t, n, ok := w.prims[i].intersect(o, d, eps, h.t); ok {
				h = hit{t: t, idx: int32(i), n: w.prims[i].worldNormal(n)}
			}
		}
	}
	for gi := range w.grids {
		tr.walk(&w.grids[gi], o, d, inv, &h, false)
	}
	return h
}

// occluded reports whether anything lies on o + t d for eps < t < tmax.
func (tr *tracer) occluded(o, d vec3, tmax float64) bool {
	w := tr.w
	inv := vec3{1 / d.x, 1 / d.y, 1 / d.z}
	// Rays rising from above the base cannot meet it.
	if !(d.z > 0 && o.z >= w.baseHi.z) && boxTest(w.baseLo, w.baseHi, o, inv, tmax) {
		for i := 0; i < w.nBase; i++ {
			if _, _, ok := w.prims[i].intersect(o, d, eps, tmax); ok {
				return true
			}
		}
	}
	h := hit{t: tmax, idx: hitNothing}
	for gi := range w.grids {
		if tr.walk(&w.grids[gi], o, d, inv, &h, true) {
			return true
		}
	}
	return false
}

// walk steps the ray through the grid's columns, testing the primitives of
// each, until the best hit lies within the column being walked. With any
// set it returns at the first hit.
func (tr *tracer) walk(g *grid, o, d, inv vec3, h *hit, any bool) bool {
	w := tr.w
	t0, t1 := eps, h.t
	if !clip(o.x, inv.x, g.x0, g.x0+float64(g.nx)*g.cs, &t0, &t1) ||
		!clip(o.y, inv.y, g.y0, g.y0+float64(g.ny)*g.cs, &t0, &t1) ||
		!clip(o.z, inv.z, -1, g.top, &t0, &t1) {
		return false
	}
	tr.ray++ // a new stamp per walk: a group is in one grid only
	if tr.ray == 0 {
		clear(tr.stamp)
		tr.ray = 1
	}
	px, py := o.x+d.x*t0, o.y+d.y*t0
	ix := min(max(int((px-g.x0)/g.cs), 0), g.nx-1)
	iy := min(max(int((py-g.y0)/g.cs), 0), g.ny-1)
	inf := math.Inf(1)
	stepX, stepY := 0, 0
	nextX, nextY, dX, dY := inf, inf, inf, inf
	if d.x > 0 {
		stepX, nextX, dX = 1, (g.x0+float64(ix+1)*g.cs-o.x)/d.x, g.cs/d.x
	} else if d.x < 0 {
		stepX, nextX, dX = -1, (g.x0+float64(ix)*g.cs-o.x)/d.x, -g.cs/d.x
	}
	if d.y > 0 {
		stepY, nextY, dY = 1, (g.y0+float64(iy+1)*g.cs-o.y)/d.y, g.cs/d.y
	} else if d.y < 0 {
		stepY, nextY, dY = -1, (g.y0+float64(iy)*g.cs-o.y)/d.y, -g.cs/d.y
	}
	tc := t0
	for {
		tn := min(nextX, nextY, t1)
		c := iy*g.nx + ix
		if min(o.z+d.z*tc, o.z+d.z*tn) <= g.zmax[c] {
			for _, gi := range g.items[g.start[c]:g.start[c+1]] {
				if tr.stamp[gi] == tr.ray {
					continue
				}
				tr.stamp[gi] = tr.ray
				gr := &w.groups[gi]
				if !boxTest(gr.lo, gr.hi, o, inv, h.t) {
					continue
				}
				for pi := gr.first; pi < gr.end; pi++ {
					p := &w.prims[pi]
					if gr.end-gr.first > 1 && !boxTest(p.lo, p.hi, o, inv, h.t) {
						continue
					}
					if t, n, ok := p.intersect(o, d, eps, h.t); ok {
						if any {
							return true
						}
						h.t, h.idx, h.n = t, pi, p.worldNormal(n)
					}
				}
			}
		}
		if h.t <= tn || tn >= t1 {
			return false
		}
		if nextX < nextY {
			ix += stepX
			if ix < 0 || ix >= g.nx {
				return false
			}
			tc, nextX = nextX, nextX+dX
		} else {
			iy += stepY
			if iy < 0 || iy >= g.ny {
				return false
			}
			tc, nextY = nextY, nextY+dY
		}
	}
}

// boxTest reports whether the ray o + t d, inv = 1/d, meets the box
// [lo, hi] for eps < t < tmax.
func boxTest(lo, hi, o, inv vec3, tmax float64) bool {
	t0, t1 := eps, tmax
	a, b := (lo.x-o.x)*inv.x, (hi.x-o.x)*inv.x
	if a > b {
		a, b = b, a
	}
	if a > t0 {
		t0 = a
	}
	if b < t1 {
		t1 = b
	}
	if t0 > t1 {
		return false
	}
	a, b = (lo.y-o.y)*inv.y, (hi.y-o.y)*inv.y
	if a > b {
		a, b = b, a
	}
	if a > t0 {
		t0 = a
	}
	if b < t1 {
		t1 = b
	}
	if t0 > t1 {
		return false
	}
	a, b = (lo.z-o.z)*inv.z, (hi.z-o.z)*inv.z
	if a > b {
		a, b = b, a
	}
	return max(a, t0) <= min(b, t1)
}

// clip narrows [t0, t1] to where the ray lies in [lo, hi] on one axis,
// inv being 1/d on that axis; it reports whether anything is left.
func clip(o, inv, lo, hi float64, t0, t1 *float64) bool {
	a, b := (lo-o)*inv, (hi-o)*inv
	if a > b {
		a, b = b, a
	}
	if a > *t0 {
		*t0 = a
	}
	if b < *t1 {
		*t1 = b
	}
	return *t0 <= *t1
}
