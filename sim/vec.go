package sim

import "math"

// vec3 is a point or direction in table space: units of one cell pitch,
// x to the right (columns 1..5), y away from the player (towards row A), z up.
type vec3 struct{ x, y, z float64 }

func (a vec3) add(b vec3) vec3      { return vec3{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a vec3) sub(b vec3) vec3      { return vec3{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a vec3) scale(s float64) vec3 { return vec3{a.x * s, a.y * s, a.z * s} }
func (a vec3) dot(b vec3) float64   { return a.x*b.x + a.y*b.y + a.z*b.z }
func (a vec3) length() float64      { return math.Sqrt(a.dot(a)) }
func (a vec3) mul(b vec3) vec3      { return vec3{a.x * b.x, a.y * b.y, a.z * b.z} }
func (a vec3) addScaled(b vec3, s float64) vec3 {
	return vec3{a.x + b.x*s, a.y + b.y*s, a.z + b.z*s}
}

func (a vec3) cross(b vec3) vec3 {
	return vec3{a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x}
}

func (a vec3) norm() vec3 {
	l := a.length()
	if l == 0 {
		return a
	}
	return a.scale(1 / l)
}

// frame is a rigid transform: the world directions of a local frame's axes
// and its origin. Local coordinates are (p-o)·ex, (p-o)·ey, (p-o)·ez.
type frame struct {
	ex, ey, ez vec3
	o          vec3
}

// uprightFrame is a frame at o turned by angle radians about the vertical.
func uprightFrame(o vec3, angle float64) frame {
	s, c := math.Sincos(angle)
	return frame{ex: vec3{c, s, 0}, ey: vec3{-s, c, 0}, ez: vec3{0, 0, 1}, o: o}
}

func (f frame) toLocal(p vec3) vec3 {
	d := p.sub(f.o)
	return vec3{d.dot(f.ex), d.dot(f.ey), d.dot(f.ez)}
}

func (f frame) dirToLocal(d vec3) vec3 { return vec3{d.dot(f.ex), d.dot(f.ey), d.dot(f.ez)} }

func (f frame) dirToWorld(d vec3) vec3 {
	return f.ex.scale(d.x).add(f.ey.scale(d.y)).add(f.ez.scale(d.z))
}

func (f frame) toWorld(p vec3) vec3 { return f.o.add(f.dirToWorld(p)) }

// child is a frame placed at local point p of f, turned by angle about f's z.
func (f frame) child(p vec3, angle float64) frame {
	s, c := math.Sincos(angle)
	return frame{
		ex: f.ex.scale(c).add(f.ey.scale(s)),
		ey: f.ey.scale(c).sub(f.ex.scale(s)),
		ez: f.ez,
		o:  f.toWorld(p),
	}
}
