package sim

import (
	"math"

	"companion/observation"
)

// Shading tags, combined with the primitive index into a pixel's id; a
// pixel whose id differs from a neighbour's is anti-aliased.
const (
	tagRecess = 1 << 3 // a window or door
)

// shade gives the linear radiance seen along the ray o + t d that hit h,
// and the pixel id for edge detection. Shadows are hard (one ray to the
// lamp's centre) except for the lamps with their bit set in soft, whose
// light is estimated with up to ns rays spread over the lamp.
func (tr *tracer) shade(o, d vec3, h hit, soft uint8, ns int) (col, uint32) {
	w := tr.w
	if h.idx == hitNothing {
		bg := w.s.Table.Background.lin()
		k := 0.75 + 0.25*vnoise(d.x*4, d.z*4+d.y*2, w.seed+9)
		return bg.mul(w.refLight()).scale(0.6 * k), 0
	}
	p := o.addScaled(d, h.t)
	n := h.n
	if n.dot(d) > 0 {
		n = n.scale(-1)
	}
	sn := n // shading normal, may be bumpy
	var alb col
	ks, shin := 0.0, 3
	var tag uint32
	id := uint32(h.idx + 2)
	ao := 1.0
	if h.idx == hitTable {
		tb := &w.s.Table
		alb = w.tableAlbedo(p.x, p.y)
		ks, shin = tb.Gloss, 5
		ao = w.tableContact(p)
	} else {
		pr := &w.prims[h.idx]
		ks, shin = pr.ks, pr.shin
		switch pr.mat {
		case matSlab:
			if n.z > 0.5 {
				var cell int
				alb, cell = w.boardTop(p.x, p.y)
				if cell >= 0 {
					ao = w.contact(p, w.feet[cell])
					id = uint32(len(w.prims) + 2 + cell) // one id per cell print
				}
			} else {
				alb = w.s.Style.SideColour.lin().scale(0.9 + 0.15*vnoise(p.x*5+p.y*5, p.z*9, w.seed+3))
			}
		case matPedestal:
			alb, sn = w.rock(p, n)
		case matDivider:
			alb = pr.col.scale(0.93 + 0.12*vnoise(p.x*9+p.y*9, p.z*20, w.seed+4))
		case matBlock:
			var recess bool
			alb, recess = w.block(pr, p, n)
			if pr.kind == kindBox {
				sn = bevel(pr, p, n)
			}
			if recess {
				ks = 0
				tag |= tagRecess
			}
			if n.z > 0.9 && pr.cell >= 0 {
				ao = w.contact(p, w.feet[pr.cell])
			}
		case matDie:
			alb = die(pr, p, n)
			sn = bevel(pr, p, n)
		case matCard:
			alb = card(pr, p, n)
		default: // dome, pawn
			alb = pr.col
		}
	}
	c, mask := tr.light(p, n, sn, d.scale(-1), alb, ks, shin, ao, soft, ns)
	return c, id<<4 | tag | mask
}

// refLight is the light reaching the board centre from all sources.
func (w *world) refLight() col {
	l := w.ambient
	for _, lt := range w.lights {
		l = l.add(lt.col)
	}
	return l
}

// light sums ambient, diffuse and specular light at p with geometric
// normal gn and shading normal n seen from direction v; mask has bit 0..2
// set for each lamp in shadow.
func (tr *tracer) light(p, gn, n, v vec3, alb col, ks float64, shin int, ao float64, soft uint8, ns int) (col, uint32) {
	w := tr.w
	hemi := (0.6 + 0.4*n.z) * ao
	out := alb.mul(w.ambient).scale(hemi)
	q := p.addScaled(gn, 1e-4)
	var mask uint32
	for li := range w.lights {
		l := &w.lights[li]
		L, dist, irr := l.pos, math.Inf(1), l.col
		if !l.directional {
			dv := l.pos.sub(q)
			d2 := dv.dot(dv)
			dist = math.Sqrt(d2)
			L = dv.scale(1 / dist)
			irr = irr.scale(l.ref2 / d2)
		}
		ndl := n.dot(L)
		if ndl <= 0 || gn.dot(L) <= 0 {
			continue
		}
		k := 0
		if soft&(1<<li) != 0 {
			k = ns
		}
		vis := tr.visible(q, L, dist, l, k)
		if vis < 0.5 {
			mask |= 1 << li
		}
		if vis == 0 {
			continue
		}
		c := alb
		if ks > 0 {
			hv := L.add(v).norm()
			if nh := n.dot(hv); nh > 0 {
				for k := 0; k < shin; k++ {
					nh *= nh
				}
				s := ks * nh
				c = col{c.r + s, c.g + s, c.b + s}
			}
		}
		out = out.add(c.mul(irr).scale(ndl * vis))
	}
	return out, mask & 7
}

// visible is the share of lamp l seen from q, L and dist being the
// direction and distance to its centre: 0 or 1 with ns = 0, else estimated
// with rays to points of the lamp on a golden-angle spiral, turned at
// random per pixel: the four outermost first, and only when they disagree
// (in a penumbra) the other ns - 4.
func (tr *tracer) visible(q, L vec3, dist float64, l *light, ns int) float64 {
	if ns == 0 || l.size == 0 {
		if tr.occluded(q, L, dist) {
			return 0
		}
		return 1
	}
	turn := 2 * math.Pi * unit(tr.rnd)
	seen := 0
	for k := ns - 1; k >= 0; k-- {
		if k == ns-5 && (seen == 0 || seen == 4) {
			return float64(seen) / 4
		}
		r := l.size * math.Sqrt((float64(k)+0.5)/float64(ns))
		sn, cs := math.Sincos(turn + 2.399963*float64(k))
		off := l.e1.scale(r * cs).add(l.e2.scale(r * sn))
		if l.directional {
			if !tr.occluded(q, L.add(off).norm(), dist) {
				seen++
			}
			continue
		}
		sd := l.pos.add(off).sub(q)
		sl := sd.length()
		if !tr.occluded(q, sd.scale(1/sl), sl) {
			seen++
		}
	}
	return float64(seen) / float64(ns)
}

// contact darkens a flat surface near the feet of pieces standing on it
// (the light a real contact hides from the room).
func (w *world) contact(p vec3, feet []footprint) float64 {
	ao := 1.0
	for i := range feet {
		f := &feet[i]
		if math.Abs(f.z-p.z) > 0.01 {
			continue
		}
		if d := footDist(f, p); d < 0.25 {
			ao *= 1 - 0.5*math.Exp(-d/0.045)
		}
	}
	return ao
}

func footDist(f *footprint, p vec3) float64 {
	dx, dy := p.x-f.fr.o.x, p.y-f.fr.o.y
	if f.round {
		return max(math.Hypot(dx, dy)-f.hx, 0)
	}
	lx := math.Abs(dx*f.fr.ex.x+dy*f.fr.ex.y) - f.hx
	ly := math.Abs(dx*f.fr.ey.x+dy*f.fr.ey.y) - f.hy
	return math.Hypot(max(lx, 0), max(ly, 0))
}

func (w *world) tableContact(p vec3) float64 {
	ao := w.contact(p, w.spare)
	st := &w.s.Style
	r := w.half + st.Overhang + (st.Flare[0]+st.Flare[2]+st.Flare[4]+st.Flare[6])/4
	d := max(math.Abs(p.x), math.Abs(p.y)) - r
	if d < 1.5 {
		ao *= 1 - 0.45*math.Exp(-max(d, 0)/0.25)
	}
	return ao
}

// tableAlbedo is the table top's colour at (x, y).
func (w *world) tableAlbedo(x, y float64) col {
	tb := &w.s.Table
	s := w.seed + 100
	switch tb.Kind {
	case Wood:
		sa, ca := w.grainSin, w.grainCos
		u, v := x*ca+y*sa, -x*sa+y*ca // along and across the grain
		pw := tb.Scale
		k := math.Floor(v / pw)
		f := v/pw - k
		ks := uint32(int32(k))
		// Growth rings: a wavy triangle wave across the grain.
		ph := v*2.2 + 3*vnoise(u*0.05, v*0.7+float64(ks)*3, s+1)
		ring := math.Abs(2*(ph-math.Floor(ph)) - 1)
		ring = ring * ring * (3 - 2*ring)
		t := clamp01(0.45*ring + 0.45*vnoise(u*0.3+float64(ks)*7.3, v*9, s+2))
		c := lerpCol(tb.Colour.lin(), tb.Colour2.lin(), t)
		c = c.scale(0.85 + 0.3*unit(hash3(ks, s, 3)))
		if f < 0.006 || f > 0.994 {
			c = c.scale(0.45) // gap between planks
		}
		return c
	case Cloth:
		weave := 0.5 + 0.25*(math.Sin(x*tb.Scale)+math.Sin(y*tb.Scale))
		m := vnoise(x*0.4, y*0.4, s)
		c := lerpCol(tb.Colour.lin(), tb.Colour2.lin(), 0.3*m+0.15*weave)
		return c.scale(0.9 + 0.12*vnoise(x*25, y*25, s+1))
	}
	m := fbm(x*0.35/tb.Scale, y*0.35/tb.Scale, s)
	return lerpCol(tb.Colour.lin(), tb.Colour2.lin(), 0.5*m).scale(0.95 + 0.08*vnoise(x*9, y*9, s+2))
}

// boardTop is the colour printed on the board top at (x, y) and the cell
// there (-1 on the frame).
func (w *world) boardTop(x, y float64) (col, int) {
	st := &w.s.Style
	s := w.seed + 200
	if math.Abs(x) >= 2.5 || math.Abs(y) >= 2.5 {
		k := 0.88 + 0.16*fbm(x*2.2, y*2.2, s) + 0.06*(vnoise(x*17, y*17, s+1)-0.5)
		return st.FrameColour.lin().scale(k), -1
	}
	c := min(int(x+2.5), observation.Size-1)
	r := min(int(2.5-y), observation.Size-1)
	cell := r*observation.Size + c
	base := st.CellColour.lin().mul(w.tone[cell])
	t := fbm(x*4.5, y*4.5, s+2)
	t2 := vnoise(x*23, y*23, s+3)
	switch st.Cells {
	case Grass:
		k := 0.78 + 0.34*t + 0.2*(t2-0.5)
		g := base.scale(k)
		if vnoise(x*31+7, y*31, s+4) > 0.8 { // tufts and flowers
			g = lerpCol(g, col{0.7, 0.68, 0.4}, 0.25)
		}
		return g, cell
	case Sand:
		return base.scale(0.9 + 0.14*t + 0.12*(t2-0.5)), cell
	}
	// Stone paving: irregular slabs with darker joints.
	j := math.Abs(vnoise(x*3.3, y*3.3, s+5) - 0.5)
	k := 0.85 + 0.2*t + 0.1*(t2-0.5)
	if j < 0.035 {
		k *= 0.72
	}
	return base.scale(k), cell
}

// rock is the pedestal's cliff colour and a bumpy normal.
func (w *world) rock(p, n vec3) (col, vec3) {
	st := &w.s.Style
	s := w.seed + 300
	a := p.x*0.7 - p.y*0.7
	if math.Abs(n.x) > math.Abs(n.y) {
		a = p.y
	}
	strata := fbm(a*1.2, p.z*4, s)
	c := lerpCol(st.RockColour.lin(), st.RockColour2.lin(), strata)
	c = c.scale(0.7 + 0.5*vnoise(a*7, p.z*9, s+1))
	if n.z < 0.5 {
		t := vec3{-n.y, n.x, 0}.norm()
		b1 := vnoise(a*5, p.z*5, s+2) - 0.5
		b2 := vnoise(a*5+3, p.z*5+7, s+3) - 0.5
		n = n.addScaled(t, b1*0.9).add(vec3{0, 0, b2 * 0.9}).norm()
	}
	return c, n
}

// block is a block's colour at p, with dark windows and doors on its sides.
func (w *world) block(pr *prim, p, n vec3) (col, bool) {
	lp := pr.local(p)
	ln := n
	if pr.rotated {
		ln = pr.fr.dirToLocal(n)
	}
	if math.Abs(ln.z) > 0.5 {
		return pr.col.scale(0.95 + 0.07*vnoise(lp.x*20, lp.y*20, pr.seed)), false
	}
	c := pr.col.scale(0.95 + 0.07*vnoise(lp.x*20+lp.y*20, lp.z*20, pr.seed))
	if pr.part == partMerlon {
		return c, false
	}
	var in bool
	switch pr.part {
	case partLevel1, partLevel2:
		var u, half float64
		var face uint32
		if math.Abs(ln.x) > math.Abs(ln.y) {
			u, half, face = lp.y, pr.b, 0
			if ln.x < 0 {
				u, face = -u, 2
			}
		} else {
			u, half, face = -lp.x, pr.a, 1
			if ln.y < 0 {
				u, face = -u, 3
			}
		}
		style := hash3(pr.seed, face, 11) % 4
		in = facade(pr.part == partLevel1, style, u, lp.z, half, pr.c)
	case partTower:
		r := pr.a
		if pr.kind == kindPoly {
			r *= math.Cos(math.Pi / float64(w.s.Pieces.TowerSides))
		}
		a := math.Atan2(lp.y, lp.x)
		off := unit(pr.seed) * 2 * math.Pi
		for k := 0; k < 3; k++ {
			da := math.Remainder(a-off-float64(k)*2*math.Pi/3, 2*math.Pi)
			if archRect(da*r, lp.z-0.45*pr.c, 0.045, min(0.09, 0.28*pr.c)) {
				in = true
			}
		}
	}
	if in {
		return w.s.Pieces.WindowColour.lin().scale(0.85 + 0.3*vnoise(lp.x*30, lp.z*30+lp.y*30, pr.seed+1)), true
	}
	return c, false
}

// archRect reports whether (u, v) lies in an arched opening centred at the
// origin, half width hw and half height hh (the top is a half circle).
func archRect(u, v, hw, hh float64) bool {
	if math.Abs(u) > hw || v < -hh {
		return false
	}
	top := hh - hw
	if v <= top {
		return true
	}
	dv := v - top
	return u*u+dv*dv <= hw*hw
}

// facade reports whether face coordinate u (across, centre 0, half width
// half) and height z on a block face of height h lie in a window or door.
func facade(level1 bool, style uint32, u, z, half, h float64) bool {
	win := func(uc float64) bool {
		return archRect(u-uc, z-0.58*h, 0.065, min(0.09, 0.22*h))
	}
	door := func(uc float64) bool {
		dh := min(0.62*h, 0.36)
		return archRect(u-uc, z-dh/2, 0.095, dh/2)
	}
	off := 0.45 * half
	if level1 {
		switch style {
		case 0:
			return door(0)
		case 1:
			return win(-off) || win(off)
		case 2:
			return door(-off) || win(off)
		}
		return win(0)
	}
	switch style {
	case 0, 3:
		return win(0)
	case 1:
		return win(-off) || win(off)
	}
	return win(off)
}

// bevel rounds a block's edges: within bw of a face's edge the shading
// normal leans towards the neighbouring face, as on a real, slightly worn
// block (a thin highlight or shade along each edge).
func bevel(pr *prim, p, n vec3) vec3 {
	const bw = 0.022
	lp := pr.local(p)
	ln := n
	if pr.rotated {
		ln = pr.fr.dirToLocal(n)
	}
	half := [3]float64{pr.a, pr.b, pr.c / 2}
	pos := [3]float64{lp.x, lp.y, lp.z - pr.c/2}
	nn := [3]float64{ln.x, ln.y, ln.z}
	out := ln
	for ax := 0; ax < 3; ax++ {
		if math.Abs(nn[ax]) > 0.5 {
			continue // the face's own axis
		}
		d := half[ax] - math.Abs(pos[ax])
		if d >= bw || ax == 2 && pos[ax] < 0 {
			continue // far from the edge, or the bottom edge (it stands on something)
		}
		k := 0.8 * (1 - d/bw)
		e := [3]float64{}
		e[ax] = math.Copysign(k, pos[ax])
		out = out.add(vec3{e[0], e[1], e[2]})
	}
	if out == ln {
		return n
	}
	out = out.norm()
	if pr.rotated {
		return pr.fr.dirToWorld(out)
	}
	return out
}

// pips are the pip positions of die faces 1-6, in face coordinates -1..1.
var pips = [7][][2]float64{
	1: {{0, 0}},
	2: {{-0.5, -0.5}, {0.5, 0.5}},
	3: {{-0.5, -0.5}, {0, 0}, {0.5, 0.5}},
	4: {{-0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}},
	5: {{-0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {0, 0}},
	6: {{-0.5, -0.6}, {-0.5, 0}, {-0.5, 0.6}, {0.5, -0.6}, {0.5, 0}, {0.5, 0.6}},
}

// die is a die's colour at p: its faces carry the pips of a real die
// (opposite faces add up to seven) with pr.seed up.
func die(pr *prim, p, n vec3) col {
	lp := pr.local(p)
	ln := n
	if pr.rotated {
		ln = pr.fr.dirToLocal(n)
	}
	top := int(pr.seed)
	side := 1 + (top % 6)
	if side == top || side == 7-top {
		side = 1 + (side % 6)
	}
	if side == top || side == 7-top {
		side = 1 + (side % 6)
	}
	h := pr.a
	var v int
	var u, w float64
	switch {
	case ln.z > 0.5:
		v, u, w = top, lp.x/h, lp.y/h
	case ln.z < -0.5:
		v, u, w = 7-top, lp.x/h, lp.y/h
	case math.Abs(ln.x) > 0.5:
		v, u, w = side, lp.y/h, lp.z/h-1
		if ln.x < 0 {
			v = 7 - side
		}
	default:
		v, u, w = remaining(top, side), lp.x/h, lp.z/h-1
		if ln.y < 0 {
			v = 7 - v
		}
	}
	for _, q := range pips[v] {
		du, dw := u-q[0], w-q[1]
		if du*du+dw*dw < 0.05 {
			if pr.col.r+pr.col.g+pr.col.b > 1.2 {
				return col{0.02, 0.02, 0.03}
			}
			return col{0.85, 0.85, 0.83}
		}
	}
	return pr.col
}

// remaining is the smaller face of the pair that is neither top's nor side's.
func remaining(top, side int) int {
	for v := 1; v <= 6; v++ {
		if v != top && v != 7-top && v != side && v != 7-side {
			return v
		}
	}
	return 1
}

// card is a card's back: a border and a mottled field.
func card(pr *prim, p, n vec3) col {
	lp := pr.local(p)
	if math.Abs(n.z) < 0.5 {
		return col{0.8, 0.8, 0.78} // the paper's edge
	}
	if pr.a-math.Abs(lp.x) < 0.07 || pr.b-math.Abs(lp.y) < 0.07 {
		return lerpCol(pr.col, col{0.85, 0.8, 0.6}, 0.7)
	}
	return pr.col.scale(0.85 + 0.3*vnoise(lp.x*6, lp.y*6, 7))
}
