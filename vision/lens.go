package vision

import "math"

// Lens distortion and the grid's corners. A webcam's lens bends straight
// lines a little (radial distortion): at 1280x720 a grid line bows by a few
// pixels, so a homography, which keeps lines straight, misplaces the
// corners by as much. The reported corners are refitted with the
// distortion estimated from the dividers themselves: the amount that makes
// the points found along each grid line most nearly straight.
//
// The model is the usual first radial term about the frame's centre: a
// point seen at p lies on the straight-line image at c + (p-c)(1+kappa
// |p-c|^2); kappa, in units of the frame height's square, is searched over
// what webcams show (k1 between -0.08 and 0.04 for fields of view 40-65°).

// kappaSteps are the distortions tried, in units of 1/height².
var kappaSteps = func() []float64 {
	var k []float64
	for v := -0.14; v <= 0.07001; v += 0.005 {
		k = append(k, v)
	}
	return k
}()

// maxLensMove is the most (the worst corner, in pitches) the lens refit
// may move the grid's corners. The sim's lenses bow a board's edge by a
// few hundredths of a pitch; on crowded boards lines fitted to blocks'
// edges moved right grids' corners 0.15-0.25 pitch off (check seeds 20054,
// 20216, 20224, 20260).
const maxLensMove = 0.1

// minLinePoints is how many divider points a grid line needs to count
// towards the distortion estimate.
const minLinePoints = 8

// lensCorners gives the grid's outer corners (A1, A5, E5, E1) for grid h
// on the full-resolution frame, allowing for lens distortion; ok is false
// when too few dividers are seen to say.
func (r *Reader) lensCorners(h homography, places placeFilter) ([4][2]float64, bool) {
	var out [4][2]float64
	img, ok := r.fullGrayImg()
	if !ok {
		return out, false
	}
	w, hh := img.w, img.h
	// The divider points along each line that lie on its robust fit.
	var lines [12][]pt
	used := 0
	// The points of each line, of the board's main kind (dividerObs):
	// with both kinds (until the thirty-sixth session), median corner
	// error cold 17000-17999 1.22 -> 1.12 %, 18000-18999 1.35 -> 1.23 %,
	// 20000-20299 1.20 -> 1.10 %, 21000-21199 1.18 -> 1.03 %, 5000-5299
	// 1.13 -> 1.01 %.
	var linePts [12][]pt
	var lineWts [12][]float64
	for _, o := range dividerObs(img, h, 1, places, nil) {
		i := o.fam*6 + int(math.Round(o.target+2.5))
		linePts[i] = append(linePts[i], o.img)
		lineWts[i] = append(lineWts[i], o.wt)
	}
	for fam := 0; fam < 2; fam++ {
		for k := 0; k <= 5; k++ {
			pts, wts := linePts[fam*6+k], lineWts[fam*6+k]
			if len(pts) < minLinePoints {
				continue
			}
			l, _, ok := robustLine(pts, wts)
			if !ok {
				continue
			}
			var in []pt
			for _, p := range pts {
				if math.Abs(l.nx*p.X+l.ny*p.Y-l.d) < 2.5 {
					in = append(in, p)
				}
			}
			if len(in) >= minLinePoints {
				lines[fam*6+k] = in
				used++
			}
		}
	}
	// Two lines of each family at least, or the corners are guesses.
	if used < 6 {
		return out, false
	}
	c := pt{float64(w) / 2, float64(hh) / 2}
	norm := 1 / float64(hh*hh)
	undistort := func(p pt, kappa float64) pt {
		dx, dy := p.X-c.X, p.Y-c.Y
		s := 1 + kappa*norm*(dx*dx+dy*dy)
		return pt{c.X + dx*s, c.Y + dy*s}
	}
	var buf []pt
	straight := func(ln []pt, kappa float64) []pt {
		buf = buf[:0]
		for _, p := range ln {
			buf = append(buf, undistort(p, kappa))
		}
		return buf
	}
	bestK, bestR := 0.0, math.Inf(1)
	for _, kappa := range kappaSteps {
		res := 0.0
		for _, ln := range lines {
			if ln != nil {
				res += lineResidual(straight(ln, kappa))
			}
		}
		if res < bestR {
			bestK, bestR = kappa, res
		}
	}
	// The straight lines in the undistorted frame, their crossings, the
	// homography through them, and its corners seen through the lens.
	var fit [12]fitLine
	for i, ln := range lines {
		if ln != nil {
			fit[i] = totalLeastSquares(straight(ln, bestK))
		}
	}
	src, dst := gridCrossings([6]fitLine(fit[:6]), [6]fitLine(fit[6:]))
	if len(src) < 4 {
		return out, false
	}
	hu, ok := fitHomography(src, dst)
	if !ok {
		return out, false
	}
	for i, b := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		p := distortPoint(hu.apply(b), c, bestK*norm)
		out[i] = [2]float64{p.X, p.Y}
	}
	return out, true
}

// distortPoint is the inverse of the undistortion: the point seen through
// the lens whose straight-line image is p (kappa per pixel squared).
func distortPoint(p, c pt, kappa float64) pt {
	dx, dy := p.X-c.X, p.Y-c.Y
	ru := math.Hypot(dx, dy)
	if ru == 0 || kappa == 0 {
		return p
	}
	// Solve rd (1 + kappa rd²) = ru by Newton's method from rd = ru.
	rd := ru
	for i := 0; i < 8; i++ {
		f := rd*(1+kappa*rd*rd) - ru
		df := 1 + 3*kappa*rd*rd
		if df <= 0 {
			break
		}
		rd -= f / df
	}
	s := rd / ru
	return pt{c.X + dx*s, c.Y + dy*s}
}

// totalLeastSquares fits a line to points by orthogonal regression.
func totalLeastSquares(p []pt) fitLine {
	var mx, my float64
	for _, q := range p {
		mx += q.X
		my += q.Y
	}
	n := float64(len(p))
	mx /= n
	my /= n
	var sxx, sxy, syy float64
	for _, q := range p {
		dx, dy := q.X-mx, q.Y-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	th := 0.5 * math.Atan2(2*sxy, sxx-syy)
	nx, ny := -math.Sin(th), math.Cos(th)
	return fitLine{nx, ny, nx*mx + ny*my, true}
}

// lineResidual is the sum of squared distances of the points from their
// total-least-squares line.
func lineResidual(p []pt) float64 {
	l := totalLeastSquares(p)
	r := 0.0
	for _, q := range p {
		d := l.nx*q.X + l.ny*q.Y - l.d
		r += d * d
	}
	return r
}
