package vision

import (
	"math"
	"sort"
)

// Grids from the blocks. On crowded boards seen low, the towers hide most
// dividers and much of the frame, but the blocks' top faces stay in view:
// bright flat patches, squares (levels 1 and 2) or round (level 3), each
// over the centre of its cell at its level's height. One square top face,
// taken for a level's top on some cell, fixes a camera (a square of known
// size at a known height, seen by a pinhole camera of a typical focal
// length); the other faces then vote: each that back-projects onto a cell
// centre, at some level's height and of that level's size, agrees. The
// best-agreed cameras are refitted to all their faces, and the board's
// plane (z = 0) is projected for each placement of the 5x5 grid that holds
// all the faces; the placements best supported by dividers and the frame
// are proposed.

// Nominal proportions (pitches; TABLE.md's ranges, mid-way) of the tops
// of levels 1, 2 and 3. (Bare light cells look like tops too, but letting
// them vote as tops at height 0 lost more frames than it won.)
var blockTop = [3]float64{0.55, 1.05, 1.4}
var blockSize = [3]float64{0.94, 0.8, 0.72}

const (
	// faceMinArea and faceMaxArea bound a top face's area, in pixels of
	// half the reduced frame (pitches of about 10 to 35 such pixels).
	faceMinArea = 40
	faceMaxArea = 1400
	// faceHyp is how many square faces, the largest, fix cameras.
	faceHyp = 10
	// latticeTol is how far (pitches) a face's centre may be from a cell
	// centre to agree.
	latticeTol = 0.22
	// blockHyps is how many of the best-agreed cameras are refitted.
	blockHyps = 3
	// blockKeep is how many grids are proposed.
	blockKeep = 4
)

// topFace is a candidate top face (reduced-frame pixels).
type topFace struct {
	c      pt    // centroid
	q      [4]pt // corners TL, TR, BR, BL, when square
	area   float64
	square bool // a solid quadrilateral, else a solid round blob
}

// topFaces finds the bright, flat, compact regions of the reduced frame
// that could be block tops: bright grey pixels, cut apart by the step
// edges and the dark grooves between neighbouring blocks (the regions of
// flat colour at half size run from one top to the next).
func (r *Reader) topFaces() []topFace {
	w, h := r.px.w, r.px.h
	g, ed, ok := r.faceInputs()
	if !ok {
		return nil
	}
	thr := faceThreshold(g)
	n := w * h
	if cap(r.faceLabels) < n {
		r.faceLabels = make([]int32, n)
		r.faceMask = make([]bool, n)
	}
	lab, mask := r.faceLabels[:n], r.faceMask[:n]
	for i := range lab {
		lab[i] = -1
	}
	faceMask(g, ed, r.px.bgr, w, h, thr, mask)
	var out []topFace
	stack, pix := r.faceStack[:0], r.facePix[:0]
	region := int32(0)
	for i0, open := range mask {
		if !open {
			continue
		}
		// Flood fill (4-connected); a pixel taken leaves the mask.
		pix = pix[:0]
		size := 0 // pix holds only a region small enough to be a face
		mask[i0], lab[i0] = false, region
		stack = append(stack, int32(i0), int32(i0%w))
		for len(stack) > 0 {
			i, x := int(stack[len(stack)-2]), int(stack[len(stack)-1])
			stack = stack[:len(stack)-2]
			if size++; size <= 4*faceMaxArea {
				pix = append(pix, int32(i))
			}
			// The stack holds each pixel with its column, sparing a division.
			if x > 0 && mask[i-1] {
				mask[i-1], lab[i-1] = false, region
				stack = append(stack, int32(i-1), int32(x-1))
			}
			if x < w-1 && mask[i+1] {
				mask[i+1], lab[i+1] = false, region
				stack = append(stack, int32(i+1), int32(x+1))
			}
			if i >= w && mask[i-w] {
				mask[i-w], lab[i-w] = false, region
				stack = append(stack, int32(i-w), int32(x))
			}
			if i+w < n && mask[i+w] {
				mask[i+w], lab[i+w] = false, region
				stack = append(stack, int32(i+w), int32(x))
			}
		}
		region++
		if size < 4*faceMinArea || size > 4*faceMaxArea {
			continue
		}
		if f, good := faceOf(pix, w); good {
			out = append(out, f)
		}
	}
	r.faceStack, r.facePix = stack, pix
	return out
}

// faceInputs gives the reduced grey frame and its step edges (nil when
// they do not fit it) for topFaces; ok is false without the grey frame.
func (r *Reader) faceInputs() (g, ed []uint8, ok bool) {
	w, h := r.px.w, r.px.h
	g, err := r.gray.DataPtrUint8()
	if err != nil || len(g) != w*h {
		return nil, nil, false
	}
	if e := r.stepEdges(); e.Rows() == h && e.Cols() == w {
		ed, _ = e.DataPtrUint8()
	}
	return g, ed, true
}

// faceThreshold is the least grey a top face's pixel may have: 0.72 of
// the whitest pixels' (the 98th percentile of every third pixel).
func faceThreshold(g []uint8) uint8 {
	var hist [256]int
	for i := 0; i < len(g); i += 3 {
		hist[g[i]]++
	}
	want, v := len(g)/3/50, 255
	for c := 0; v > 0; v-- {
		if c += hist[v]; c >= want {
			break
		}
	}
	return uint8(0.72 * float64(v))
}

// faceMask marks the pixels of a w x h grey frame g (step edges ed, nil
// for none; colour bgr) that may belong to a top face: at least thr
// bright, off the step edges, flat, not at the bottom of a groove
// between neighbouring blocks, and grey.
func faceMask(g, ed, bgr []uint8, w, h int, thr uint8, mask []bool) {
	const groove = 10
	const faceStep = 14
	for y := 0; y < h; y++ {
		row := y * w
		for x := 0; x < w; x++ {
			i := row + x
			c := int(g[i])
			mask[i] = false
			if g[i] < thr || ed != nil && ed[i] != 0 {
				continue
			}
			if x >= 1 && y >= 1 && x+1 < w && y+1 < h && abs(int(g[i+1])-int(g[i-1]))+abs(int(g[i+w])-int(g[i-w])) > faceStep {
				continue
			}
			if x >= 2 && x+2 < w && int(g[i-2])-c > groove && int(g[i+2])-c > groove {
				continue
			}
			if y >= 2 && y+2 < h && int(g[i-2*w])-c > groove && int(g[i+2*w])-c > groove {
				continue
			}
			p := bgr[3*i : 3*i+3]
			mx := max(p[0], p[1], p[2])
			mn := min(p[0], p[1], p[2])
			mask[i] = float64(mx-mn) < 0.3*float64(mx)
		}
	}
}

// frameFaces is topFaces of the current frame, found once: the hint's
// refinement (nearGrid), run up to three times a frame, and the search's
// block grids all screen grids by them.
func (r *Reader) frameFaces() []topFace {
	if !r.facesReady {
		r.faces = r.topFaces()
		r.facesReady = true
	}
	return r.faces
}

// faceOf fits a face to a region's pixels: solid, and a quadrilateral or
// a round blob.
func faceOf(pix []int32, w int) (topFace, bool) {
	y0, y1 := math.MaxInt, -1
	var cx, cy float64
	for _, i := range pix {
		x, y := int(i)%w, int(i)/w
		y0, y1 = min(y0, y), max(y1, y)
		cx += float64(x) + 0.5
		cy += float64(y) + 0.5
	}
	lo := make([]int, y1-y0+1)
	hi := make([]int, y1-y0+1)
	for k := range lo {
		lo[k], hi[k] = math.MaxInt, -1
	}
	for _, i := range pix {
		x, y := int(i)%w, int(i)/w
		lo[y-y0], hi[y-y0] = min(lo[y-y0], x), max(hi[y-y0], x)
	}
	var p []pt
	for k := range lo {
		y := float64(y0 + k)
		p = append(p, pt{float64(lo[k]), y}, pt{float64(lo[k]), y + 1}, pt{float64(hi[k] + 1), y}, pt{float64(hi[k] + 1), y + 1})
	}
	sort.Slice(p, func(i, j int) bool { return p[i].X < p[j].X || p[i].X == p[j].X && p[i].Y < p[j].Y })
	hull := simplify(monotoneHull(p), 0.7)
	if len(hull) < 4 {
		return topFace{}, false
	}
	ha := polyArea(hull)
	if float64(len(pix)) < 0.85*ha {
		return topFace{}, false // not solid: a ring, an L, a face with windows
	}
	f := topFace{c: pt{cx / float64(len(pix)), cy / float64(len(pix))}}
	if q, ok := largestQuad(hull); ok && polyArea(q[:]) > 0.9*ha {
		if q, ok = orderCorners(q); ok {
			f.square = true
			f.q = q
		}
	}
	// The region lacks its edge pixels: grow it by about one pixel all
	// round.
	k := 1 + 2/math.Sqrt(ha)
	f.area = ha * k * k
	if f.square {
		for i := range f.q {
			f.q[i] = pt{f.c.X + k*(f.q[i].X-f.c.X), f.c.Y + k*(f.q[i].Y-f.c.Y)}
		}
	}
	return f, true
}

// polyArea is the area of a simple polygon.
func polyArea(p []pt) float64 {
	a := 0.0
	for i := range p {
		q := p[(i+1)%len(p)]
		a += p[i].X*q.Y - q.X*p[i].Y
	}
	return math.Abs(a) / 2
}

// projMat is the 3x4 projection of a camera, rows; board (x, y, z, 1).
type projMat [12]float64

func projOf(c *camera) projMat {
	var p projMat
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			p[4*i+j] = c.r[3*i+j]
		}
		p[4*i+3] = c.t[i]
	}
	for j := 0; j < 4; j++ {
		p[j] = c.f*p[j] + c.cx*p[8+j]
		p[4+j] = c.f*p[4+j] + c.cy*p[8+j]
	}
	return p
}

// plane gives the homography of the plane z, offset by (ox, oy).
func (p *projMat) plane(z, ox, oy float64) homography {
	var h homography
	for i := 0; i < 3; i++ {
		h[3*i] = p[4*i]
		h[3*i+1] = p[4*i+1]
		h[3*i+2] = p[4*i+3] + z*p[4*i+2] + ox*p[4*i] + oy*p[4*i+1]
	}
	return h
}

// faceMatch is a face placed on the lattice: its cell offset from the
// seed face's cell and its level.
type faceMatch struct {
	f     int
	a, b  int
	level int
}

// blockHyp is a camera (board origin at the seed face's centre, z = 0 at
// the seed's level) and the faces that agree with it.
type blockHyp struct {
	cam   camera
	level int // the seed face's level
	m     []faceMatch
	s     float64
}

// agree places every face on the lattice of camera cam, whose z = 0 is
// at level lv: the score and the matches.
func agree(cam *camera, lv int, faces []topFace) (float64, []faceMatch) {
	p := projOf(cam)
	var ms []faceMatch
	score := 0.0
	for fi, f := range faces {
		best, bm := 0.0, faceMatch{}
		for l := 0; l < 3; l++ {
			if f.square == (l == 2) {
				continue
			}
			a, bb, s := faceOnLevel(p.plane(blockTop[l]-blockTop[lv], 0, 0), f, l)
			if s > best && math.Abs(a) <= 4 && math.Abs(bb) <= 4 {
				best, bm = s, faceMatch{fi, int(a), int(bb), l}
			}
		}
		if best > 0 {
			score += best
			ms = append(ms, bm)
		}
	}
	return score, ms
}

// blockGrids proposes grids (reduced frame, w x h) from the pieces
// standing on the board, for crowded boards whose dividers and frame are
// mostly hidden.
func (r *Reader) blockGrids(w, h int) []quadCand {
	faces := r.frameFaces()
	if len(faces) < 3 {
		return nil
	}
	var seeds []int
	for i, f := range faces {
		if f.square {
			seeds = append(seeds, i)
		}
	}
	sort.Slice(seeds, func(i, j int) bool { return faces[seeds[i]].area > faces[seeds[j]].area })
	if len(seeds) > faceHyp {
		seeds = seeds[:faceHyp]
	}
	cx, cy, f0 := float64(w)/2, float64(h)/2, float64(h)
	var hyps []blockHyp
	for _, si := range seeds {
		sf := faces[si]
		for lv := 0; lv < 2; lv++ {
			hs := blockSize[lv] / 2
			src := []pt{{-hs, -hs}, {hs, -hs}, {hs, hs}, {-hs, hs}}
			g, ok := fitHomography(src, sf.q[:])
			if !ok {
				continue
			}
			// One face cannot tell the focal length: a typical one (a
			// vertical field of view of 53 degrees), refitted later.
			cam := poseWithFocal(g, cx, cy, f0)
			s, ms := agree(&cam, lv, faces)
			if len(ms) >= 3 {
				hyps = append(hyps, blockHyp{cam, lv, ms, s})
			}
		}
	}
	sort.Slice(hyps, func(i, j int) bool { return hyps[i].s > hyps[j].s })
	scale := float64(w) / float64(max(1, r.fullGray.Cols()))
	var out []quadCand
	// The best-agreed cameras, refitted; those whose grids repeat an
	// earlier one's are dropped (a set of faces on one level is seen alike
	// by the cameras taking it for level 1 and for level 2: both stay, and
	// the dividers and the frame choose).
	var seen []homography
	tried := 0
	for _, hp := range hyps {
		if len(seen) >= blockHyps || tried >= 3*blockHyps {
			break
		}
		tried++
		cam := hp.cam
		ms := hp.m
		for it := 0; it < 2; it++ {
			cam = fitCamera(cam, hp.level, faces, ms)
			_, ms = agree(&cam, hp.level, faces)
		}
		if len(ms) < 3 {
			continue
		}
		amin, amax, bmin, bmax := 9, -9, 9, -9
		for _, m := range ms {
			amin, amax = min(amin, m.a), max(amax, m.a)
			bmin, bmax = min(bmin, m.b), max(bmax, m.b)
		}
		if amax-amin > 4 || bmax-bmin > 4 {
			continue
		}
		p := projOf(&cam)
		// The lattice, placed with the seed on cell (0, 0), to compare.
		lat := p.plane(-blockTop[hp.level], -0.5-float64(amin), -0.5-float64(bmin))
		dup := false
		for _, o := range seen {
			if sameGridTol(o, lat, 0.25) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		seen = append(seen, lat)
		var cands []quadCand
		for i := -amin; i <= 4-amax; i++ {
			for j := -bmin; j <= 4-bmax; j++ {
				hg := p.plane(-blockTop[hp.level], -float64(i)-0.5, -float64(j)-0.5)
				if !plausibleGrid(cornersOf(hg), w, h) {
					continue
				}
				sc := r.ridgeSupportN(hg, w, h, 8) + r.frameEvidence(scaleHomography(hg, 1/scale))
				cands = append(cands, quadCand{hg, sc})
			}
		}
		out = append(out, bestOf(cands, 2)...)
	}
	return bestOf(out, blockKeep)
}

// fitCamera refits camera c (z = 0 at level lv) to the matched faces'
// centres and corners by a few Gauss-Newton steps over the focal length,
// the rotation and the translation.
func fitCamera(c camera, lv int, faces []topFace, ms []faceMatch) camera {
	var o []camObs
	for _, m := range ms {
		f := faces[m.f]
		z := blockTop[m.level] - blockTop[lv]
		o = append(o, camObs{float64(m.a), float64(m.b), z, f.c, 1})
		if f.square {
			hs := blockSize[m.level] / 2
			for k, d := range [4]pt{{-hs, -hs}, {hs, -hs}, {hs, hs}, {-hs, hs}} {
				o = append(o, camObs{float64(m.a) + d.X, float64(m.b) + d.Y, z, f.q[k], 0.5})
			}
		}
	}
	return fitCameraTo(c, o, 6)
}

// camObs is a board point (x, y, z; pitches) seen at image point p,
// weighted wt.
type camObs struct {
	x, y, z float64
	p       pt
	wt      float64
}

// fitCameraTo refits camera c to observations o by iters Gauss-Newton
// steps over the focal length, the rotation and the translation, robustly
// after the first two.
func fitCameraTo(c camera, o []camObs, iters int) camera {
	apply := func(c camera, d [7]float64) camera {
		c.f *= math.Exp(d[0])
		rot := rodrigues(d[1], d[2], d[3])
		var nr [9]float64
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				nr[3*i+j] = rot[3*i]*c.r[j] + rot[3*i+1]*c.r[3+j] + rot[3*i+2]*c.r[6+j]
			}
		}
		c.r = nr
		tn := norm3(c.t)
		c.t = [3]float64{c.t[0] + d[4]*tn, c.t[1] + d[5]*tn, c.t[2] + d[6]*tn}
		return c
	}
	// Robust weights (Cauchy, scale a fifth of a pitch), set from each
	// step's residuals: a face cut by a tower in front, or placed on the
	// wrong level, must not pull the camera.
	rw := make([]float64, len(o))
	for i := range rw {
		rw[i] = 1
	}
	res := func(c camera) []float64 {
		out := make([]float64, 0, 2*len(o)+1)
		for i, q := range o {
			p := c.project(q.x, q.y, q.z)
			wt := q.wt * rw[i]
			out = append(out, wt*(p.X-q.p.X), wt*(p.Y-q.p.Y))
		}
		return out
	}
	reweight := func(c camera) {
		p0, p1 := c.project(0, 0, 0), c.project(1, 0, 0)
		sig := 0.2 * math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
		for i, q := range o {
			p := c.project(q.x, q.y, q.z)
			e := math.Hypot(p.X-q.p.X, p.Y-q.p.Y) / sig
			rw[i] = 1 / math.Sqrt(1+e*e)
		}
	}
	// A weak prior on the focal length keeps it sane with few faces.
	f0 := c.f
	for it := 0; it < iters; it++ {
		if it >= 2 {
			reweight(c)
		}
		r0 := res(c)
		var jt [7][]float64
		for k := 0; k < 7; k++ {
			var d [7]float64
			d[k] = 1e-4
			rk := res(apply(c, d))
			jt[k] = make([]float64, len(r0))
			for i := range r0 {
				jt[k][i] = (rk[i] - r0[i]) / 1e-4
			}
		}
		var a [7][7]float64
		var g [7]float64
		for k := 0; k < 7; k++ {
			for l := 0; l < 7; l++ {
				for i := range r0 {
					a[k][l] += jt[k][i] * jt[l][i]
				}
			}
			for i := range r0 {
				g[k] -= jt[k][i] * r0[i]
			}
		}
		lam := 1e-3
		for k := 0; k < 7; k++ {
			a[k][k] *= 1 + lam
		}
		pw := float64(len(o)) * 2
		a[0][0] += pw
		g[0] -= pw * math.Log(c.f/f0)
		d, ok := solve7(a, g)
		if !ok {
			break
		}
		c = apply(c, d)
	}
	return c
}

// rodrigues gives the rotation by vector (a, b, c).
func rodrigues(a, b, c float64) [9]float64 {
	th := math.Sqrt(a*a + b*b + c*c)
	if th < 1e-12 {
		return [9]float64{1, -c, b, c, 1, -a, -b, a, 1}
	}
	x, y, z := a/th, b/th, c/th
	s, co := math.Sin(th), math.Cos(th)
	t := 1 - co
	return [9]float64{
		t*x*x + co, t*x*y - s*z, t*x*z + s*y,
		t*x*y + s*z, t*y*y + co, t*y*z - s*x,
		t*x*z - s*y, t*y*z + s*x, t*z*z + co,
	}
}

// solve7 solves a 7x7 system: solve8's, with an eighth unknown fixed at 0.
func solve7(a [7][7]float64, b [7]float64) ([7]float64, bool) {
	var a8 [8][8]float64
	var b8 [8]float64
	for i := 0; i < 7; i++ {
		copy(a8[i][:7], a[i][:])
		b8[i] = b[i]
	}
	a8[7][7] = 1
	x8, ok := solve8(a8, b8)
	var x [7]float64
	copy(x[:], x8[:7])
	return x, ok
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// faceAgreement is how well the top faces fit grid hr (reduced frame): the
// camera seen from the grid, each face's best match to a cell centre at a
// level's height and size, summed. Faces are counted in the grid's favour
// only when they sit on its cells.
func (r *Reader) faceAgreement(hr homography) float64 {
	if len(r.faces) < 3 {
		return 0
	}
	w, h := float64(r.px.w), float64(r.px.h)
	f, _ := focalLength(hr, w/2, h/2, h)
	cam := poseWithFocal(hr, w/2, h/2, f)
	p := projOf(&cam)
	// The set's blocks may be a little taller or shorter than the nominal
	// ones: the heights that fit best, all scaled alike. With the nominal
	// heights alone, a set of tall blocks fits a grid a little too large
	// better than the true one.
	best := 0.0
	for _, hk := range faceHeightScales {
		var planes [3]homography
		for l := range planes {
			planes[l] = p.plane(hk*blockTop[l], 0.5, 0.5)
		}
		score := 0.0
		for _, fc := range r.faces {
			fb := 0.0
			for l := 0; l < 3; l++ {
				if fc.square == (l == 2) {
					continue
				}
				// Integer (a, b) are the cell centres at level l's top.
				a, bb, s := faceOnLevel(planes[l], fc, l)
				if a >= 0 && a <= 4 && bb >= 0 && bb <= 4 {
					fb = math.Max(fb, s)
				}
			}
			score += fb
		}
		best = math.Max(best, score)
	}
	return best / float64(len(r.faces))
}

// faceHeightScales are the scalings of the nominal block heights tried.
var faceHeightScales = []float64{0.88, 1, 1.12}

// faceOnLevel places face f on the lattice of hz, the homography of level
// l's top (integer points at cell centres): the nearest lattice point and
// how well the face fits there, by distance and by size (0: not at all).
// Sizes tell the levels apart (a level-2 top is 0.8 of a level-1 top
// across), so they weigh in.
func faceOnLevel(hz homography, f topFace, l int) (a, b, s float64) {
	c := hz.inverse().apply(f.c)
	a, b = math.Round(c.X), math.Round(c.Y)
	d := math.Hypot(c.X-a, c.Y-b)
	if d > latticeTol {
		return a, b, 0
	}
	q0, q1, q2 := hz.apply(pt{a - 0.5, b - 0.5}), hz.apply(pt{a + 0.5, b - 0.5}), hz.apply(pt{a - 0.5, b + 0.5})
	cell := math.Abs((q1.X-q0.X)*(q2.Y-q0.Y) - (q1.Y-q0.Y)*(q2.X-q0.X))
	want := cell * blockSize[l] * blockSize[l]
	if l == 2 {
		want *= math.Pi / 4
	}
	ratio := f.area / want
	if ratio < 0.6 || ratio > 1.6 {
		return a, b, 0
	}
	lr := math.Log(ratio) / 0.15
	return a, b, (1 - d/latticeTol) * math.Exp(-lr*lr/2)
}
