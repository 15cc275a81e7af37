package vision

import (
	"math"
)

// pt is a 2D point (image pixels or board units).
type pt struct{ X, Y float64 }

// homography maps board-plane points (X along columns 1..5, Y along rows
// A..E, one cell pitch = 1, grid from (0,0) at A1's outer corner to (5,5))
// to image pixels. Row-major 3x3.
type homography [9]float64

func (h homography) apply(p pt) pt {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	return pt{(h[0]*p.X + h[1]*p.Y + h[2]) / w, (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

func (h homography) inverse() homography {
	a, b, c, d, e, f, g, k, i := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	A := e*i - f*k
	B := -(d*i - f*g)
	C := d*k - e*g
	det := a*A + b*B + c*C
	if det == 0 {
		return homography{}
	}
	return homography{
		A / det, -(b*i - c*k) / det, (b*f - c*e) / det,
		B / det, (a*i - c*g) / det, -(a*f - c*d) / det,
		C / det, -(a*k - b*g) / det, (a*e - b*d) / det,
	}
}

// squareToQuad is the homography taking the unit square's corners (0,0),
// (1,0), (1,1), (0,1) to q[0..3], in closed form: the outline search fits
// tens of thousands of these a frame, and solving fitHomography's normal
// equations for each cost about 4 ms. ok is false for a degenerate quad.
func squareToQuad(q [4]pt) (homography, bool) {
	sx := q[0].X - q[1].X + q[2].X - q[3].X
	sy := q[0].Y - q[1].Y + q[2].Y - q[3].Y
	dx1, dx2 := q[1].X-q[2].X, q[3].X-q[2].X
	dy1, dy2 := q[1].Y-q[2].Y, q[3].Y-q[2].Y
	den := dx1*dy2 - dx2*dy1
	if den == 0 {
		return homography{}, false
	}
	g := (sx*dy2 - dx2*sy) / den
	k := (dx1*sy - sx*dy1) / den
	h := homography{
		q[1].X - q[0].X + g*q[1].X, q[3].X - q[0].X + k*q[3].X, q[0].X,
		q[1].Y - q[0].Y + g*q[1].Y, q[3].Y - q[0].Y + k*q[3].Y, q[0].Y,
		g, k, 1,
	}
	for _, v := range h {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return homography{}, false
		}
	}
	return h, true
}

// fitHomography finds the homography taking src[i] to dst[i] (at least 4
// pairs) by the normalised DLT solved as least squares with h[8] = 1.
func fitHomography(src, dst []pt) (homography, bool) {
	n := len(src)
	if n < 4 || len(dst) != n {
		return homography{}, false
	}
	ns, ts := normaliser(src)
	nd, td := normaliser(dst)
	var ata [8][8]float64
	var atb [8]float64
	for i := 0; i < n; i++ {
		x, y := (src[i].X-ts.X)*ns, (src[i].Y-ts.Y)*ns
		u, v := (dst[i].X-td.X)*nd, (dst[i].Y-td.Y)*nd
		r1 := [8]float64{x, y, 1, 0, 0, 0, -u * x, -u * y}
		r2 := [8]float64{0, 0, 0, x, y, 1, -v * x, -v * y}
		for a := 0; a < 8; a++ {
			for b := 0; b < 8; b++ {
				ata[a][b] += r1[a]*r1[b] + r2[a]*r2[b]
			}
			atb[a] += r1[a]*u + r2[a]*v
		}
	}
	sol, ok := solve8(ata, atb)
	if !ok {
		return homography{}, false
	}
	hn := homography{sol[0], sol[1], sol[2], sol[3], sol[4], sol[5], sol[6], sol[7], 1}
	// Undo the normalisations: H = Td^-1 * Hn * Ts.
	Ts := homography{ns, 0, -ns * ts.X, 0, ns, -ns * ts.Y, 0, 0, 1}
	TdInv := homography{1 / nd, 0, td.X, 0, 1 / nd, td.Y, 0, 0, 1}
	h := mul3(TdInv, mul3(hn, Ts))
	if h[8] != 0 {
		for i := range h {
			h[i] /= h[8]
		}
	}
	return h, true
}

func normaliser(p []pt) (float64, pt) {
	var c pt
	for _, q := range p {
		c.X += q.X
		c.Y += q.Y
	}
	c.X /= float64(len(p))
	c.Y /= float64(len(p))
	var d float64
	for _, q := range p {
		d += math.Hypot(q.X-c.X, q.Y-c.Y)
	}
	d /= float64(len(p))
	if d == 0 {
		d = 1
	}
	return math.Sqrt2 / d, c
}

func mul3(a, b homography) homography {
	var r homography
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i*3+j] = a[i*3]*b[j] + a[i*3+1]*b[3+j] + a[i*3+2]*b[6+j]
		}
	}
	return r
}

// solve8 solves an 8x8 linear system by Gaussian elimination with pivoting.
func solve8(a [8][8]float64, b [8]float64) ([8]float64, bool) {
	var rows [8][]float64
	for i := range rows {
		rows[i] = a[i][:]
	}
	var x [8]float64
	if !solveRows(rows[:], b[:], x[:]) {
		return b, false
	}
	return x, true
}

// solveRows solves a x = b (a square, by rows) by Gaussian elimination
// with partial pivoting, overwriting a and b; it reports false for a
// singular system.
func solveRows(a [][]float64, b, x []float64) bool {
	n := len(a)
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return true
}

// squareConstraints are the conditions for grid h to be the view of a
// square by a camera of focal length f and principal point (cx, cy), as
// a*w + b = 0 with w = 1/f^2, and the homography's first two columns
// about the principal point (h1, h2):
//
//	orthogonality: (h1x h2x + h1y h2y)/f^2 + h1z h2z = 0 (a1, b1),
//	equal norms:   (h1x^2+h1y^2 - h2x^2-h2y^2)/f^2 + h1z^2 - h2z^2 = 0 (a2, b2).
func squareConstraints(h homography, cx, cy float64) (h1, h2 [3]float64, a1, b1, a2, b2 float64) {
	h1 = [3]float64{h[0] - cx*h[6], h[3] - cy*h[6], h[6]}
	h2 = [3]float64{h[1] - cx*h[7], h[4] - cy*h[7], h[7]}
	a1 = h1[0]*h2[0] + h1[1]*h2[1]
	b1 = h1[2] * h2[2]
	a2 = h1[0]*h1[0] + h1[1]*h1[1] - h2[0]*h2[0] - h2[1]*h2[1]
	b2 = h1[2]*h1[2] - h2[2]*h2[2]
	return h1, h2, a1, b1, a2, b2
}

// camera is a pinhole camera posed over the board: K = [f 0 cx; 0 f cy; 0 0 1],
// board point (X, Y, Z) with Z up (towards the camera), in cell pitches.
type camera struct {
	f, cx, cy float64
	r         [9]float64 // rotation, board to camera, row-major
	t         [3]float64
}

// project gives the image point of board point (x, y, z).
func (c *camera) project(x, y, z float64) pt {
	r := &c.r
	X := r[0]*x + r[1]*y + r[2]*z + c.t[0]
	Y := r[3]*x + r[4]*y + r[5]*z + c.t[1]
	Z := r[6]*x + r[7]*y + r[8]*z + c.t[2]
	if Z < 1e-6 {
		Z = 1e-6
	}
	return pt{c.f*X/Z + c.cx, c.f*Y/Z + c.cy}
}

// centre gives the camera centre in board coordinates.
func (c *camera) centre() [3]float64 {
	r := &c.r
	t := c.t
	return [3]float64{
		-(r[0]*t[0] + r[3]*t[1] + r[6]*t[2]),
		-(r[1]*t[0] + r[4]*t[1] + r[7]*t[2]),
		-(r[2]*t[0] + r[5]*t[1] + r[8]*t[2]),
	}
}

// elevation gives the angle (degrees) between the board plane and the ray
// from the board centre to the camera.
func (c *camera) elevation() float64 {
	o := c.centre()
	dx, dy, dz := o[0]-2.5, o[1]-2.5, o[2]
	return math.Atan2(dz, math.Hypot(dx, dy)) * 180 / math.Pi
}

// poseFromHomography recovers the camera from the board homography, with the
// principal point at the image centre and the focal length from focalLength.
func poseFromHomography(h homography, cx, cy, defaultF float64) camera {
	f, _ := focalLength(h, cx, cy, defaultF)
	return poseWithFocal(h, cx, cy, f)
}

// focalLength estimates the focal length from the rotation's orthonormality,
// which fixes it when the view is oblique enough; it falls back to defaultF
// as the view nears top-down. sure (0..1) says how much the estimate is
// the image's rather than the default's.
func focalLength(h homography, cx, cy, defaultF float64) (f, sure float64) {
	// Least squares for w = 1/f^2 over both constraints.
	h1, h2, a1, b1, a2, b2 := squareConstraints(h, cx, cy)
	f = defaultF
	den := a1*a1 + a2*a2
	if den > 0 {
		w := -(a1*b1 + a2*b2) / den
		// Strength: the perspective terms relative to the affine ones.
		n := math.Sqrt((h1[0]*h1[0]+h1[1]*h1[1])*(h2[0]*h2[0]+h2[1]*h2[1])) / (defaultF * defaultF)
		s := math.Hypot(b1, b2) / (n + 1e-30)
		if w > 0 && s > 0.02 {
			fe := 1 / math.Sqrt(w)
			if fe > 0.4*defaultF && fe < 3*defaultF {
				// Blend towards the default as the view nears top-down.
				sure = math.Min(1, (s-0.02)/0.08)
				f = sure*fe + (1-sure)*defaultF
			}
		}
	}
	return f, sure
}

// poseWithFocal recovers the camera from the board homography given the
// focal length.
func poseWithFocal(h homography, cx, cy, f float64) camera {
	h1 := [3]float64{h[0] - cx*h[6], h[3] - cy*h[6], h[6]}
	h2 := [3]float64{h[1] - cx*h[7], h[4] - cy*h[7], h[7]}
	h3 := [3]float64{h[2] - cx*h[8], h[5] - cy*h[8], h[8]}
	k1 := [3]float64{h1[0] / f, h1[1] / f, h1[2]}
	k2 := [3]float64{h2[0] / f, h2[1] / f, h2[2]}
	k3 := [3]float64{h3[0] / f, h3[1] / f, h3[2]}
	l := 2 / (norm3(k1) + norm3(k2))
	if k3[2] < 0 {
		l = -l // the board is in front of the camera
	}
	r1 := scale3(k1, l)
	r2 := scale3(k2, l)
	t := scale3(k3, l)
	// Orthonormalise r1, r2 (split the error), r3 = r1 x r2 points into the
	// board for a right-handed image frame; Z up is -r3.
	r1 = scale3(r1, 1/norm3(r1))
	r2 = sub3(r2, scale3(r1, dot3(r1, r2)))
	r2 = scale3(r2, 1/norm3(r2))
	r3 := cross3(r1, r2)
	cam := camera{f: f, cx: cx, cy: cy, t: t}
	cam.r = [9]float64{r1[0], r2[0], r3[0], r1[1], r2[1], r3[1], r1[2], r2[2], r3[2]}
	if cam.centre()[2] < 0 {
		cam.r[2], cam.r[5], cam.r[8] = -r3[0], -r3[1], -r3[2]
	}
	return cam
}

func norm3(a [3]float64) float64                { return math.Sqrt(dot3(a, a)) }
func dot3(a, b [3]float64) float64              { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func scale3(a [3]float64, s float64) [3]float64 { return [3]float64{a[0] * s, a[1] * s, a[2] * s} }
func sub3(a, b [3]float64) [3]float64           { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
