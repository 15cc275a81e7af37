package sim

import "math"

// camera is Camera prepared for one image size.
type camera struct {
	pos     vec3
	f, r, u vec3 // forward, right and up unit vectors
	focal   float64
	cx, cy  float64
	k1      float64
}

func rad(deg float64) float64 { return deg * math.Pi / 180 }

// axes gives the camera's forward, right and up vectors.
func (c Camera) axes() (f, r, u vec3) {
	se, ce := math.Sincos(rad(c.Elevation))
	sa, ca := math.Sincos(rad(c.Azimuth))
	f = vec3{-sa * ce, ca * ce, -se}
	r0 := vec3{ca, sa, 0}
	u0 := r0.cross(f)
	sr, cr := math.Sincos(rad(c.Roll))
	r = r0.scale(cr).add(u0.scale(sr))
	u = u0.scale(cr).sub(r0.scale(sr))
	return f, r, u
}

func newCamera(c Camera, w, h int) camera {
	f, r, u := c.axes()
	t := vec3{c.Target[0], c.Target[1], c.Target[2]}
	return camera{
		pos:   t.sub(f.scale(c.Distance)),
		f:     f,
		r:     r,
		u:     u,
		focal: float64(h) / 2 / math.Tan(rad(c.FOV)/2),
		cx:    float64(w) / 2,
		cy:    float64(h) / 2,
		k1:    c.Distortion,
	}
}

// ray is the unit direction seen at image point (px, py); pixel (i, j)
// covers px in [i, i+1).
func (c *camera) ray(px, py float64) vec3 {
	xd := (px - c.cx) / c.focal
	yd := (c.cy - py) / c.focal
	s := 1 + c.k1*(xd*xd+yd*yd)
	return c.f.addScaled(c.r, xd*s).addScaled(c.u, yd*s).norm()
}

// project gives the image point where p is seen, the exact inverse of ray;
// ok is false behind the camera.
func (c *camera) project(p vec3) (px, py float64, ok bool) {
	d := p.sub(c.pos)
	z := d.dot(c.f)
	if z <= 1e-9 {
		return 0, 0, false
	}
	xu, yu := d.dot(c.r)/z, d.dot(c.u)/z
	ru := math.Hypot(xu, yu)
	s := 1.0
	if ru > 0 {
		s = c.distort(ru) / ru
	}
	return c.cx + xu*s*c.focal, c.cy - yu*s*c.focal, true
}

// gridCorners are the outer corners of the 5x5 grid at the board top, in
// Truth order: A1, A5, E5, E1.
func gridCorners(top float64) [4]vec3 {
	return [4]vec3{{-2.5, 2.5, top}, {2.5, 2.5, top}, {2.5, -2.5, top}, {-2.5, -2.5, top}}
}

// distort gives the image radius rd (in focal lengths) at which a ray at
// undistorted radius ru is seen: the solution of rd (1 + k1 rd²) = ru.
func (c *camera) distort(ru float64) float64 {
	if c.k1 == 0 {
		return ru
	}
	if c.k1 < 0 {
		// rd (1 + k1 rd²) peaks at rmax; rays beyond it are far outside
		// the image, so place them beyond rmax.
		rmax := math.Sqrt(-1 / (3 * c.k1))
		if fmax := rmax * 2 / 3; ru >= fmax {
			return rmax + ru - fmax
		}
	}
	// Newton's method from rd = ru converges monotonically: the curve is
	// concave (k1 < 0) or convex (k1 > 0).
	rd := ru
	for i := 0; i < 20; i++ {
		g := rd*(1+c.k1*rd*rd) - ru
		rd -= g / (1 + 3*c.k1*rd*rd)
	}
	return rd
}
