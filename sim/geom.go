package sim

import "math"

type primKind uint8

const (
	kindBox  primKind = iota // local x in [-a,a], y in [-b,b], z in [0,c]
	kindCone                 // local frustum on the z axis: radius a at z=0, b at z=c
	kindDome                 // local half ball of radius a on z=0, flat side down
	kindPoly                 // local convex polyhedron: planes
	kindBall                 // local ball of radius a about the origin
	kindGrid                 // the cell dividers: strips of half width b on x, y = k - 2.5, |x|, |y| <= a, z in [0,c]
)

// material says how a primitive is shaded.
type material uint8

const (
	matSlab material = iota // board slab: cells and frame on top, edge colour on the sides
	matPedestal
	matDivider
	matBlock
	matDome
	matPawn
	matDie
	matCard
	matSkin // a hand and forearm (and its sleeve): plain diffuse
)

// part says which piece a block primitive is, for its windows.
type part uint8

const (
	partNone part = iota
	partLevel1
	partLevel2
	partTower
	partMerlon
)

// plane is n·p <= d inside.
type plane struct {
	n vec3
	d float64
}

// prim is one primitive: a simple solid in its own local frame.
type prim struct {
	kind    primKind
	mat     material
	part    part
	rotated bool // else the frame is the world's, shifted
	fr      frame
	a, b, c float64
	planes  []plane
	lo, hi  vec3 // world bounding box
	col     col
	ks      float64 // specular strength
	shin    int     // specular exponent is 2^shin
	seed    uint32
	cell    int8  // board cell it stands on, or -1
	group   int32 // the piece it belongs to
}

// localBounds is the primitive's bounding box in its local frame.
func (p *prim) localBounds() (lo, hi vec3) {
	switch p.kind {
	case kindBox:
		return vec3{-p.a, -p.b, 0}, vec3{p.a, p.b, p.c}
	case kindCone:
		r := max(p.a, p.b)
		return vec3{-r, -r, 0}, vec3{r, r, p.c}
	case kindDome:
		return vec3{-p.a, -p.a, 0}, vec3{p.a, p.a, p.a}
	case kindBall:
		return vec3{-p.a, -p.a, -p.a}, vec3{p.a, p.a, p.a}
	case kindGrid:
		return vec3{-p.a, -p.a, 0}, vec3{p.a, p.a, p.c}
	}
	return vec3{-p.a, -p.a, 0}, vec3{p.a, p.a, p.c}
}

// finish computes the world bounding box and whether the frame turns.
func (p *prim) finish() {
	f := p.fr
	p.rotated = !(f.ex == vec3{1, 0, 0} && f.ey == vec3{0, 1, 0} && f.ez == vec3{0, 0, 1})
	lo, hi := p.localBounds()
	c := lo.add(hi).scale(0.5)
	e := hi.sub(lo).scale(0.5)
	wc := f.toWorld(c)
	we := vec3{
		math.Abs(f.ex.x)*e.x + math.Abs(f.ey.x)*e.y + math.Abs(f.ez.x)*e.z,
		math.Abs(f.ex.y)*e.x + math.Abs(f.ey.y)*e.y + math.Abs(f.ez.y)*e.z,
		math.Abs(f.ex.z)*e.x + math.Abs(f.ey.z)*e.y + math.Abs(f.ez.z)*e.z,
	}
	p.lo, p.hi = wc.sub(we), wc.add(we)
}

// intersect finds the first entry of the ray o + t d into p with tmin < t <
// tmax, and the local normal there. A ray starting inside misses.
func (p *prim) intersect(o, d vec3, tmin, tmax float64) (float64, vec3, bool) {
	var lo, ld vec3
	if p.rotated {
		lo, ld = p.fr.toLocal(o), p.fr.dirToLocal(d)
	} else {
		lo, ld = o.sub(p.fr.o), d
	}
	switch p.kind {
	case kindBox:
		return hitBox(lo, ld, p.a, p.b, p.c, tmin, tmax)
	case kindCone:
		return hitCone(lo, ld, p.a, p.b, p.c, tmin, tmax)
	case kindDome:
		return hitDome(lo, ld, p.a, tmin, tmax)
	case kindBall:
		return hitBall(lo, ld, p.a, tmin, tmax)
	case kindGrid:
		return hitGrid(lo, ld, p.a, p.b, p.c, tmin, tmax)
	}
	return hitPoly(lo, ld, p.planes, tmin, tmax)
}

// worldNormal turns a local normal into the world.
func (p *prim) worldNormal(n vec3) vec3 {
	if !p.rotated {
		return n
	}
	return p.fr.dirToWorld(n)
}

func (p *prim) local(w vec3) vec3 {
	if !p.rotated {
		return w.sub(p.fr.o)
	}
	return p.fr.toLocal(w)
}

// slab clips [t0, t1] to where o + t d lies in [lo, hi] on one axis; when
// it raises t0 it sets the hit face's normal n to s along axis.
func slab(o, d, lo, hi float64, axis int, t0, t1 *float64, n *vec3) bool {
	if d == 0 {
		return o >= lo && o <= hi
	}
	inv := 1 / d
	ta, tb := (lo-o)*inv, (hi-o)*inv
	s := -1.0
	if ta > tb {
		ta, tb = tb, ta
		s = 1
	}
	if ta > *t0 {
		*t0 = ta
		switch axis {
		case 0:
			*n = vec3{s, 0, 0}
		case 1:
			*n = vec3{0, s, 0}
		default:
			*n = vec3{0, 0, s}
		}
	}
	if tb < *t1 {
		*t1 = tb
	}
	return *t0 <= *t1
}

func hitBox(o, d vec3, a, b, c, tmin, tmax float64) (float64, vec3, bool) {
	t0, t1 := tmin, tmax
	var n vec3
	if !slab(o.x, d.x, -a, a, 0, &t0, &t1, &n) ||
		!slab(o.y, d.y, -b, b, 1, &t0, &t1, &n) ||
		!slab(o.z, d.z, 0, c, 2, &t0, &t1, &n) {
		return 0, vec3{}, false
	}
	if n == (vec3{}) {
		return 0, vec3{}, false // started inside
	}
	return t0, n, true
}

func hitCone(o, d vec3, r0, r1, h, tmin, tmax float64) (float64, vec3, bool) {
	best := tmax
	var n vec3
	found := false
	k := (r1 - r0) / h
	rz := r0 + k*o.z
	A := d.x*d.x + d.y*d.y - k*k*d.z*d.z
	B := 2 * (o.x*d.x + o.y*d.y - k*rz*d.z)
	C := o.x*o.x + o.y*o.y - rz*rz
	var roots [2]float64
	nr := 0
	if math.Abs(A) > 1e-12 {
		if disc := B*B - 4*A*C; disc >= 0 {
			sq := math.Sqrt(disc)
			t1, t2 := (-B-sq)/(2*A), (-B+sq)/(2*A)
			if t1 > t2 {
				t1, t2 = t2, t1
			}
			roots[0], roots[1], nr = t1, t2, 2
		}
	} else if B != 0 {
		roots[0], nr = -C/B, 1
	}
	for i := 0; i < nr; i++ {
		t := roots[i]
		if t <= tmin || t >= best {
			continue
		}
		z := o.z + t*d.z
		if z < 0 || z > h {
			continue
		}
		if r := r0 + k*z; r >= 0 {
			best, n, found = t, vec3{o.x + t*d.x, o.y + t*d.y, -k * r}, true
			break
		}
	}
	if t, ok := hitDisc(o, d, 0, r0, tmin, best); ok {
		best, n, found = t, vec3{0, 0, -1}, true
	}
	if t, ok := hitDisc(o, d, h, r1, tmin, best); ok {
		best, n, found = t, vec3{0, 0, 1}, true
	}
	if !found {
		return 0, vec3{}, false
	}
	return best, n.norm(), true
}

// hitDisc intersects the ray with the horizontal disc of radius r centred
// on the z axis at height z, for tmin < t < tmax.
func hitDisc(o, d vec3, z, r, tmin, tmax float64) (float64, bool) {
	if d.z == 0 {
		return 0, false
	}
	t := (z - o.z) / d.z
	if t <= tmin || t >= tmax {
		return 0, false
	}
	x, y := o.x+t*d.x, o.y+t*d.y
	return t, x*x+y*y <= r*r
}

func hitDome(o, d vec3, r, tmin, tmax float64) (float64, vec3, bool) {
	A := d.dot(d)
	B := o.dot(d)
	C := o.dot(o) - r*r
	disc := B*B - A*C
	if disc < 0 {
		return 0, vec3{}, false
	}
	sq := math.Sqrt(disc)
	best := tmax
	var n vec3
	found := false
	for _, t := range [2]float64{(-B - sq) / A, (-B + sq) / A} {
		if t > tmin && t < best && o.z+t*d.z >= 0 {
			best, n, found = t, o.addScaled(d, t).scale(1/r), true
			break
		}
	}
	if t, ok := hitDisc(o, d, 0, r, tmin, best); ok {
		best, n, found = t, vec3{0, 0, -1}, true
	}
	return best, n, found
}

func hitPoly(o, d vec3, planes []plane, tmin, tmax float64) (float64, vec3, bool) {
	t0, t1 := tmin, tmax
	var n vec3
	entered := false
	for i := range planes {
		pl := &planes[i]
		dn := pl.n.dot(d)
		dist := pl.d - pl.n.dot(o)
		if dn == 0 {
			if dist < 0 {
				return 0, vec3{}, false
			}
			continue
		}
		t := dist / dn
		if dn < 0 {
			if t > t0 {
				t0, n, entered = t, pl.n, true
			}
		} else if t < t1 {
			t1 = t
		}
		if t0 > t1 {
			return 0, vec3{}, false
		}
	}
	return t0, n, entered
}

func hitBall(o, d vec3, r, tmin, tmax float64) (float64, vec3, bool) {
	A := d.dot(d)
	B := o.dot(d)
	C := o.dot(o) - r*r
	disc := B*B - A*C
	if disc < 0 {
		return 0, vec3{}, false
	}
	t := (-B - math.Sqrt(disc)) / A
	if t <= tmin || t >= tmax {
		return 0, vec3{}, false
	}
	return t, o.addScaled(d, t).scale(1 / r), true
}

// onStrip reports whether v lies within hw of a grid line k - 2.5.
func onStrip(v, hw float64) bool {
	f := v + 2.5
	return math.Abs(f-math.Round(f)) <= hw
}

// hitGrid intersects the dividers: the layer z in [0, h] is thin, so the
// ray either enters a strip through its top or, within the layer, through
// the side of the first strip it meets.
func hitGrid(o, d vec3, ext, hw, h, tmin, tmax float64) (float64, vec3, bool) {
	if d.z == 0 {
		return 0, vec3{}, false
	}
	ta, tb := (h-o.z)/d.z, -o.z/d.z
	nz := 1.0
	if ta > tb {
		ta, tb, nz = tb, ta, -1
	}
	if ta <= tmin {
		ta, nz = tmin, 0 // starts within the layer
	}
	tb = min(tb, tmax)
	if ta > tb {
		return 0, vec3{}, false
	}
	in := func(x, y float64) bool { return math.Abs(x) <= ext && math.Abs(y) <= ext }
	x, y := o.x+d.x*ta, o.y+d.y*ta
	if nz != 0 && in(x, y) && (onStrip(x, hw) || onStrip(y, hw)) {
		return ta, vec3{0, 0, nz}, true
	}
	best := tb
	var n vec3
	found := false
	// The first strip side each coordinate meets after ta.
	side := func(p, dp, q, dq float64, axis int) {
		if dp == 0 {
			return
		}
		f := p + 2.5
		var edge, s float64
		if dp > 0 {
			edge, s = math.Floor(f+hw)+1-hw, -1 // left side of the next strip
		} else {
			edge, s = math.Ceil(f-hw)-1+hw, 1
		}
		t := ta + (edge-f)/dp
		if t <= ta || t >= best || edge < -hw || edge > 5+hw {
			return
		}
		if math.Abs(q+dq*(t-ta)) > ext {
			return
		}
		best, found = t, true
		if axis == 0 {
			n = vec3{s, 0, 0}
		} else {
			n = vec3{0, s, 0}
		}
	}
	side(x, d.x, y, d.y, 0)
	side(y, d.y, x, d.x, 1)
	return best, n, found
}
