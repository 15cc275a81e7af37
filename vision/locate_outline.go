package vision

import (
	"math"
	"math/bits"
	"sort"
)

// Grids from the board's outline, for crowded boards. Towers hide the
// dividers and lean away from the camera over the far side of the frame,
// but the frame's near outer edge, its left and right outer edges and its
// near inner edge (the grid's near line) stay in view: on the check seeds'
// 133 boards with 15 or more built cells, step edges lay along those four
// lines of the true grid better than along the wrong grid chosen without
// them in 54 of 60. Three outer lines (near, left, right) and a camera
// (principal point at the frame's centre, a focal length tried) fix the
// board's square, far side included; the frame width is then the one
// whose inner near line is seen. Ranking grids by those four lines alone
// finds grids off by cells on strong table or tower edges, so the outline
// grids join the other proposals and the outline's support only tips the
// final choice (outlineWeight).

// outlineSearch is how outlineGrids searches: with the strongest lines
// of each family, the near side's triples or also the left and right
// sides' (sides), the best triples, and how many grids it gives.
type outlineSearch struct {
	lines   int
	perBin  int // lines of one orientation at most (outlineBinDeg), if > 0
	sides   bool
	triples int
	keep    int
}

// outlineNear is the first search: the near side with the left and right
// ones.
var outlineNear = outlineSearch{lines: 12, triples: 160, keep: 15}

// outlineWide is the second, whose grids join the first's: twice the
// lines, and the left and right sides with the near and far ones, for
// the boards whose towers hide a side's outer edge or leave it weaker
// than a dozen tower edges (seed 20208, and 20093 though its grid is not
// chosen: a side and the near and far edges seen, the other side not;
// 20017, 20243: all three seen, but not among the strongest twelve).
// Check seeds 20000-20299 / 21000-21199 cold, cells right 93.95 / 94.30 %
// with none: 95.32 / 95.44 % (refused boards 4 -> 1, 2 -> 1), for about
// 35 ms a crowded frame (BenchmarkRead 96 -> 131 ms); 250 triples, 95.29
// / 95.22 % for 25 ms; 16 lines and 250 triples, 94.39 % on the first;
// keeping 10 grids, 95.23 % on the first. Its grids in place of the first
// search's, not beside them: 92.45 % on the first (right grids of the
// first search crowded out).
//
// Its lines are of varied orientations (perBin): a plank table's seams or
// the many edges of a crowded board seen from above otherwise fill a
// family's strongest lines, the board's outer edges not among them (seed
// 20050: the near side the 33rd row line, behind 24 seams and tower
// edges). Check seeds 20000-20299 / 5000-5299 cold, cells right 95.29 /
// 95.71 % with the strongest 24, with at most 5 a 3° bin 95.89 / 95.93 %
// (21000-21199: 95.44 -> 95.46 %); 6 a bin, 95.72 % on the first, 8,
// 95.53 %. The first search's lines so too, 4 a bin: 95.75 / 95.91 %.
//
// It runs only where the corner networks gave no guess (a hint's search,
// a network that failed): their grids, candidates since, find those
// boards (TestSearchWithCornerGuessesFindsCrowdedBoards), and it was
// about a quarter of the search's time (about 23 ms of 90 a searched
// frame, one core). Five check sets cold, with it / without: 379 / 382
// cells wrong, 1824 / 1825 boards perfect; hold-outs 100000 and 200000
// (500 each) 108 / 109, 111 / 110 cells wrong, and 300000-300499 (training
// seeds, not a hold-out) 97 / 96.
var outlineWide = outlineSearch{lines: 24, perBin: 5, sides: true, triples: 400, keep: 5}

// outlinePool is how many lines of each family, strongest first, the
// searches choose from; outlineBinDeg the width of perBin's orientation
// bins.
const (
	outlinePool   = 60
	outlineBinDeg = 3
)

// outlineFocals are the focal lengths tried, in frame heights: 12 from
// 0.65 to 2 in equal ratios. The far side follows the focal length
// closely; with four (0.7, 0.95, 1.3, 1.8) a grid within a quarter pitch
// was among the outline grids of 19 of the check seeds' 56 crowded
// failures, with eight 26, with twelve 30; end to end, cells read right
// 86.2, 87.0 and 87.6 % on the check seeds (88.7 and 88.8 % with four
// and twelve on seeds 3000-3299), for about 10 ms a frame more.
var outlineFocals = func() []float64 {
	const n = 12
	out := make([]float64, n)
	for i := range out {
		out[i] = 0.65 * math.Pow(2/0.65, float64(i)/(n-1))
	}
	return out
}()

// outlineWidths are the frame widths tried (pitches, each side).
var outlineWidths = [...]float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// outlineOuterMargin is how far below the best outer support (three
// sides, 0 to 3) a square's may be for its frame width to be swept: the
// sweep and the far side add at most 1.4. Check seeds 20000-20299 cold,
// cells right 95.29 % with every square swept, at 1.0 the same (BenchmarkRead
// 125 -> 112 ms), at 0.7 95.12 %, at 0.5 94.63 %.
const outlineOuterMargin = 1.0

// outlineSamples is how many places along a side the proposals test (24
// instead of 40: 6 ms a frame less, 0.3 points fewer cells on the check
// seeds).
const outlineSamples = 40

// outlineFarWeight is the far side's support's weight in ranking the
// outline grids.
const outlineFarWeight = 0.1

// outlineFaceWeight weighs the block tops' agreement (faceAgreement) with
// an outline grid against its outline; outlineFaceTriples is how many
// triples, the best by their outline, have their grids weighed so. Cells
// read right with weights 0, 1, 1.5 and 2 (all triples): 90.20, 91.60,
// 91.95 and 91.95 % on the check seeds, 91.08, 92.08, 91.97 and 91.96 %
// on seeds 3000-3299, 93.01, 93.12, 93.00 and 92.72 % on seeds 4000-4299;
// at 1.5 with the best 20 triples, 91.97, 91.63 and 93.00 %, for 5 ms a
// frame instead of 50.
const (
	outlineFaceWeight  = 1.5
	outlineFaceTriples = 20
)

type vec3 = [3]float64

func unit3(a vec3) vec3 {
	n := norm3(a)
	if n == 0 {
		return a
	}
	return scale3(a, 1/n)
}

// homLine is line l as homogeneous coordinates (a, b, c): ax + by + c = 0.
func homLine(l hline) vec3 {
	return vec3{math.Cos(l.theta), math.Sin(l.theta), -l.rho}
}

// outlineGrids proposes grids (reduced frame) from the step-edge lines
// (rows and cols, strongest first), best first: by the support of three
// outer sides (the near one and its neighbours, or with o.sides also a
// left or right one and its neighbours) and the inner edge along the
// middle one, the fourth side breaking ties, and by the block tops on the
// cells.
func (r *Reader) outlineGrids(rows, cols []hline, o outlineSearch) []quadCand {
	w, h := r.gray.Cols(), r.gray.Rows()
	v, ok := r.stepView()
	if !ok || len(rows) < 1 || len(cols) < 2 {
		return nil
	}
	rows = refinedLines(&v, varied(rows, o.lines, o.perBin))
	cols = refinedLines(&v, varied(cols, o.lines, o.perBin))
	// A triple is a side of the board's outline (mid) and the lines of
	// its two neighbours (a, b), crossing it at pa and pb: the near side
	// with the left and right ones, or, where towers hide one of those,
	// the left or right side with the near and far ones.
	type triple struct {
		mid, a, b hline
		pa, pb    pt
		s         float64
		side      bool // mid is a column
	}
	var ts []triple
	fw, fh := float64(w), float64(h)
	for n := range rows {
		for a := range cols {
			for b := range cols {
				if a == b {
					continue
				}
				pl, ok1 := intersect(rows[n], cols[a])
				pr, ok2 := intersect(rows[n], cols[b])
				if !ok1 || !ok2 || pr.X-pl.X < 0.15*fw {
					continue
				}
				if pl.X < -0.2*fw || pr.X > 1.2*fw || pl.Y < 0 || pr.Y < 0 || pl.Y > 1.2*fh || pr.Y > 1.2*fh {
					continue
				}
				s := v.support(pl, pr, outlineSamples)
				if s < 0.3 {
					continue
				}
				ts = append(ts, triple{rows[n], cols[a], cols[b], pl, pr, s, false})
			}
		}
	}
	if o.sides {
		for c := range cols {
			for a := range rows {
				for b := range rows {
					if a == b {
						continue
					}
					// pa above pb.
					pa, ok1 := intersect(cols[c], rows[a])
					pb, ok2 := intersect(cols[c], rows[b])
					if !ok1 || !ok2 || pb.Y-pa.Y < 0.15*fh {
						continue
					}
					if pa.Y < -0.2*fh || pb.Y > 1.2*fh || pa.X < -0.2*fw || pb.X < -0.2*fw || pa.X > 1.2*fw || pb.X > 1.2*fw {
						continue
					}
					s := v.support(pa, pb, outlineSamples)
					if s < 0.3 {
						continue
					}
					ts = append(ts, triple{cols[c], rows[a], rows[b], pa, pb, s, true})
				}
			}
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].s > ts[j].s })
	if len(ts) > o.triples {
		ts = ts[:o.triples]
	}
	// Each triple's squares (a focal length each), with the support of
	// their outer sides; only those near the best go on to the frame
	// width's sweep, which costs seven supports more.
	type square struct {
		ti    int
		far   [2]pt
		outer float64
	}
	var sqs []square
	bestOuter := 0.0
	cx, cy := fw/2, fh/2
	for ti, t := range ts {
		for _, fk := range outlineFocals {
			f := fk * fh
			fars, oks := squareFar(homLine(t.a), homLine(t.b), homLine(t.mid), t.pa, t.pb, f, cx, cy)
			for k, far := range fars {
				// The near side's square lies above it; a left or right
				// side's on either side of it.
				if !oks[k] || !t.side && (far[0].Y >= t.pa.Y || far[1].Y >= t.pb.Y) {
					continue
				}
				outer := t.s + v.support(t.pa, far[0], outlineSamples) + v.support(t.pb, far[1], outlineSamples)
				sqs = append(sqs, square{ti, far, outer})
				bestOuter = math.Max(bestOuter, outer)
			}
		}
	}
	out := make([]quadCand, 0, len(sqs))
	from := make([]int, 0, len(sqs)) // each candidate's triple
	for _, sq := range sqs {
		if sq.outer < bestOuter-outlineOuterMargin {
			continue
		}
		t := ts[sq.ti]
		if q, ok := v.outlineGrid(t.pa, t.pb, sq.far, sq.outer, w, h); ok {
			if t.side {
				q.h, ok = canonical(q.h)
			}
			if ok {
				out = append(out, q)
				from = append(from, sq.ti)
			}
		}
	}
	// The far side follows the focal length, which the outline barely
	// fixes; the block tops on the cells do (faceAgreement), but cost
	// about 27 µs a grid: only the best triples' grids weigh them.
	best := make([]float64, len(ts))
	for i, q := range out {
		best[from[i]] = math.Max(best[from[i]], q.s)
	}
	order := make([]int, len(ts))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return best[order[i]] > best[order[j]] })
	top := make([]bool, len(ts))
	for _, ti := range order[:min(len(order), outlineFaceTriples)] {
		top[ti] = true
	}
	for i := range out {
		if top[from[i]] {
			out[i].s += outlineFaceWeight * r.faceAgreement(out[i].h)
		}
	}
	return distinctBest(out, o.keep)
}

// varied gives the first n lines of ls (strongest first), with at most
// perBin of each orientation (bins outlineBinDeg wide) if perBin > 0; if
// that leaves fewer than n, the strongest of the rest make up the number.
func varied(ls []hline, n, perBin int) []hline {
	if perBin <= 0 {
		return strongest(ls, n)
	}
	const bins = 180 / outlineBinDeg
	var count [bins]int
	out := make([]hline, 0, n)
	taken := make([]bool, len(ls))
	for i, l := range ls {
		if len(out) == n {
			break
		}
		deg := math.Mod(l.theta*180/math.Pi, 180)
		if deg < 0 {
			deg += 180
		}
		b := min(int(deg/outlineBinDeg), bins-1)
		if count[b] >= perBin {
			continue
		}
		count[b]++
		taken[i] = true
		out = append(out, l)
	}
	for i, l := range ls {
		if len(out) == n {
			break
		}
		if !taken[i] {
			out = append(out, l)
		}
	}
	return out
}

// squareFar gives the far-left and far-right outer corners of the board's
// square whose left and right sides lie on lines left and right and whose
// near side runs from pl to pr on line near, seen by a camera of focal
// length f with its principal point at (cx, cy): the square on either
// side of the near one (ok says which are in front of the camera). The
// names are the near side's case; any side and its neighbours will do.
func squareFar(left, right, near vec3, pl, pr pt, f, cx, cy float64) (far [2][2]pt, ok [2]bool) {
	// Back-projection: K^-1 of image points, K^T of image lines.
	back := func(x, y, w float64) vec3 { return vec3{(x - cx*w) / f, (y - cy*w) / f, w} }
	v1 := cross3(left, right) // the sides' vanishing point
	d1 := unit3(back(v1[0], v1[1], v1[2]))
	nNear := vec3{near[0] * f, near[1] * f, near[0]*cx + near[1]*cy + near[2]}
	d2 := unit3(cross3(nNear, d1))
	nb := unit3(cross3(d1, d2)) // the board's normal
	rl, rr := back(pl.X, pl.Y, 1), back(pr.X, pr.Y, 1)
	den := dot3(nb, rr)
	if math.Abs(den) < 1e-12 {
		return far, ok
	}
	xl := rl
	t := dot3(nb, xl) / den
	xr := vec3{t * rr[0], t * rr[1], t * rr[2]}
	if t <= 0 {
		return far, ok
	}
	side := norm3(sub3(xr, xl))
	project := func(p vec3) (pt, bool) {
		if p[2] <= 1e-9 {
			return pt{}, false
		}
		return pt{cx + f*p[0]/p[2], cy + f*p[1]/p[2]}, true
	}
	for k, sgn := range [2]float64{1, -1} {
		fl := vec3{xl[0] + sgn*side*d1[0], xl[1] + sgn*side*d1[1], xl[2] + sgn*side*d1[2]}
		fr := vec3{xr[0] + sgn*side*d1[0], xr[1] + sgn*side*d1[1], xr[2] + sgn*side*d1[2]}
		a, ok1 := project(fl)
		b, ok2 := project(fr)
		far[k], ok[k] = [2]pt{a, b}, ok1 && ok2
	}
	return far, ok
}

// outlineGrid is the grid inside the outer square pa, pb, far[1], far[0]
// (outer, the support of its sides but the far one): its frame is as wide
// as puts the grid's line along pa-pb where it is seen best. The grid's
// line 5 of rows runs along pa-pb. ok is false for no grid.
func (v *stepView) outlineGrid(pa, pb pt, far [2]pt, outer float64, w, h int) (quadCand, bool) {
	// The frame width whose inner edge along pa-pb is seen best.
	// The outer square, the unit square's image; a frame fw wide maps the
	// grid's board coordinates onto it.
	if turn(pa, pb, far[1]) > 0 {
		// A right side seen from pa down to pb: the unit square's image
		// would be mirrored.
		pa, pb, far[0], far[1] = pb, pa, far[1], far[0]
	}
	hu, ok := squareToQuad([4]pt{far[0], far[1], pb, pa})
	if !ok {
		return quadCand{}, false
	}
	inner, bestH := -1.0, homography{}
	for _, fw := range outlineWidths {
		k := 1 / (5 + 2*fw)
		hh := mul3(hu, homography{k, 0, fw * k, 0, k, fw * k, 0, 0, 1})
		if s := v.support(hh.apply(pt{0, 5}), hh.apply(pt{5, 5}), outlineSamples); s > inner {
			inner, bestH = s, hh
		}
	}
	if inner < 0 || !plausibleGrid(cornersOf(bestH), w, h) {
		return quadCand{}, false
	}
	// The far side, often behind towers, only breaks ties (a frame's
	// inner and outer edges both support a side).
	farS := v.support(far[0], far[1], outlineSamples)
	return quadCand{bestH, (outer+inner)/4 + outlineFarWeight*farS}, true
}

// canonical relabels grid h so that its corners run clockwise from the top
// left (orderCorners), as the other proposals' do.
func canonical(h homography) (homography, bool) {
	c := cornersOf(h)
	q, ok := orderCorners([4]pt{{c[0][0], c[0][1]}, {c[1][0], c[1][1]}, {c[2][0], c[2][1]}, {c[3][0], c[3][1]}})
	if !ok {
		return h, false
	}
	return quadHomography(q)
}

// outlineWeight is the outline's support's weight in the choice of grid
// (findGrid). Measured before the lines' refit (refineLine): cells read
// right on the check seeds 20000-20299, 83.0 % without the outline grids,
// 86.4 % with them at 0.25, 86.0 % at 0.5; on seeds 3000-3299, 84.2 %,
// 88.5 %, 88.4 %, and 86.1 % at 1 (29 boards refused against 17).
const outlineWeight = 0.25

// bestOutline is outlineScore at the frame width (outlineWidths) that
// fits best, and that width.
func (v *stepView) bestOutline(hh homography) (score, width float64) {
	score = -1
	for _, fw := range outlineWidths {
		if s := v.outlineScore(hh, fw); s > score {
			score, width = s, fw
		}
	}
	return max(score, 0), width
}

// outlineScore is the mean support, by step edges across them, of the
// frame's near, left and right outer edges and its near inner edge, for a
// frame fw pitches wide around grid hh (reduced frame).
func (v *stepView) outlineScore(hh homography, fw float64) float64 {
	lo, hi := -fw, 5+fw
	s := v.support(hh.apply(pt{lo, hi}), hh.apply(pt{hi, hi}), 40)
	s += v.support(hh.apply(pt{lo, lo}), hh.apply(pt{lo, hi}), 40)
	s += v.support(hh.apply(pt{hi, lo}), hh.apply(pt{hi, hi}), 40)
	s += v.support(hh.apply(pt{0, 5}), hh.apply(pt{5, 5}), 40)
	return s / 4
}

// stepView is the reduced frame's colour step edges (outlineEdges), grey
// and colours (BGR), as Go slices.
type stepView struct {
	ed, g, bgr []uint8
	w, h       int
	// gr and near index the step edges (indexEdges).
	gr   []stepGrad
	near []uint16
}

// stepGrad is a step-edge pixel's gradient (grad) and its norm. The
// components are small integers, exact in float32.
type stepGrad struct {
	gx, gy float32
	gn     float64
}

// grad is the image gradient at pixel o: of the grey or of the colour
// channel that changes most there (a blue frame on a brown table can be
// one grey).
func (v *stepView) grad(o int) (gx, gy float64) {
	gx = float64(v.g[o+1]) - float64(v.g[o-1])
	gy = float64(v.g[o+v.w]) - float64(v.g[o-v.w])
	if v.bgr == nil {
		return gx, gy
	}
	best := gx*gx + gy*gy
	for ch := 0; ch < 3; ch++ {
		cx := float64(v.bgr[3*(o+1)+ch]) - float64(v.bgr[3*(o-1)+ch])
		cy := float64(v.bgr[3*(o+v.w)+ch]) - float64(v.bgr[3*(o-v.w)+ch])
		if m := cx*cx + cy*cy; m > best {
			best, gx, gy = m, cx, cy
		}
	}
	return gx, gy
}

// stepView gives the current frame's step edges and grey; ok is false if
// they cannot be read.
func (r *Reader) stepView() (stepView, bool) {
	edges, _ := r.outlineEdges()
	ed, err1 := edges.DataPtrUint8()
	g, err2 := r.gray.DataPtrUint8()
	w, h := r.gray.Cols(), r.gray.Rows()
	if err1 != nil || err2 != nil || len(ed) != w*h || len(g) != w*h {
		return stepView{}, false
	}
	var bgr []uint8
	if r.px.w == w && r.px.h == h && len(r.px.bgr) == 3*w*h {
		bgr = r.px.bgr
	}
	v := stepView{ed: ed, g: g, bgr: bgr, w: w, h: h}
	if !r.gradsReady {
		r.stepGrads, r.stepNear = v.indexEdges(r.stepGrads, r.stepNear)
		r.gradsReady = true
	}
	v.gr, v.near = r.stepGrads, r.stepNear
	return v, true
}

// indexEdges gives, in the buffers, the gradient of every step-edge pixel
// off the frame's border (others are left stale) and, for every pixel, which
// of its 3x3 neighbours (bit 3*(dy+1)+dx+1) are such edges with a gradient:
// support and refineLine test thousands of segments a frame against the same
// pixels, most of support's places far from any edge.
func (v *stepView) indexEdges(grads []stepGrad, near []uint16) ([]stepGrad, []uint16) {
	n := v.w * v.h
	if cap(grads) < n {
		grads = make([]stepGrad, n)
	}
	if cap(near) < n {
		near = make([]uint16, n)
	}
	grads, near = grads[:n], near[:n]
	clear(near)
	off := v.nearOffsets()
	for y := 1; y < v.h-1; y++ {
		for o := y*v.w + 1; o < (y+1)*v.w-1; o++ {
			if v.ed[o] == 0 {
				continue
			}
			gx, gy := v.grad(o)
			gn := math.Hypot(gx, gy)
			grads[o] = stepGrad{float32(gx), float32(gy), gn}
			if gn == 0 {
				continue
			}
			for k, d := range off {
				near[o-d] |= 1 << k
			}
		}
	}
	return grads, near
}

// nearOffsets are the index offsets of a pixel's 3x3 neighbours, in the
// order of their bits in stepView.near.
func (v *stepView) nearOffsets() [9]int {
	var off [9]int
	for k := range off {
		off[k] = (k/3-1)*v.w + k%3 - 1
	}
	return off
}

// samplePlaces are support's n places along a segment (shares of its
// length); outlineTs are those of outlineSamples places, made once: the
// division is much of support's cost.
func samplePlaces(n int) []float64 {
	ts := make([]float64, n)
	for i := range ts {
		ts[i] = (float64(i) + 0.5) / float64(n)
	}
	return ts
}

var outlineTs = samplePlaces(outlineSamples)

// support is the share of n places along the image segment a-b (reduced
// frame) with a step edge within a pixel whose gradient (grad) runs across
// the segment; 0 when most of it is out of the frame.
func (v *stepView) support(a, b pt, n int) float64 {
	w, h := v.w, v.h
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l < 1 {
		return 0
	}
	dx, dy = dx/l, dy/l
	off := v.nearOffsets()
	ts := outlineTs
	if n != len(ts) {
		ts = samplePlaces(n)
	}
	hit, tot := 0, 0
	for _, t := range ts {
		x0, y0 := int(a.X+t*(b.X-a.X)), int(a.Y+t*(b.Y-a.Y))
		if x0 < 2 || y0 < 2 || x0 >= w-2 || y0 >= h-2 {
			continue
		}
		tot++
		c := y0*w + x0
		for m := v.near[c]; m != 0; m &= m - 1 {
			g := &v.gr[c+off[bits.TrailingZeros16(m)]]
			// Across: the gradient within about 70 degrees of the
			// segment's normal.
			if math.Abs(float64(g.gx)*dx+float64(g.gy)*dy) < 0.35*g.gn {
				hit++
				break
			}
		}
	}
	if tot < n/2 {
		return 0
	}
	return float64(hit) / float64(tot)
}

// refinedLines gives the lines refitted to their step edges (refineLine).
func refinedLines(v *stepView, ls []hline) []hline {
	out := make([]hline, len(ls))
	for i, l := range ls {
		out[i] = v.refineLine(l)
	}
	return out
}

// refineLine refits a Hough line to the step-edge pixels along it (within
// a pixel or two, their gradient across it): Hough's one-degree steps put
// the end of a long edge a few pixels off, and the square's far side,
// inferred from three sides, magnifies that.
func (v *stepView) refineLine(l hline) hline {
	for _, band := range [2]float64{2, 1} {
		c, s := math.Cos(l.theta), math.Sin(l.theta)
		// Along the line: direction (-s, c), through the foot (c*rho, s*rho).
		var n, sx, sy, sxx, sxy, syy float64
		span := float64(v.w + v.h)
		for t := -span; t <= span; t++ {
			bx, by := c*l.rho-s*t, s*l.rho+c*t
			if bx < 2 || by < 2 || bx >= float64(v.w-2) || by >= float64(v.h-2) {
				continue
			}
			for d := -band; d <= band; d++ {
				x, y := int(bx+c*d), int(by+s*d)
				if x < 1 || y < 1 || x >= v.w-1 || y >= v.h-1 {
					continue
				}
				o := y*v.w + x
				if v.ed[o] == 0 {
					continue
				}
				g := &v.gr[o]
				if gn := g.gn; gn == 0 || math.Abs(float64(g.gx)*c+float64(g.gy)*s) < 0.8*gn {
					continue
				}
				px, py := float64(x)+0.5, float64(y)+0.5
				n++
				sx, sy = sx+px, sy+py
				sxx, sxy, syy = sxx+px*px, sxy+px*py, syy+py*py
			}
		}
		if n < 20 {
			return l
		}
		mx, my := sx/n, sy/n
		cxx, cxy, cyy := sxx/n-mx*mx, sxy/n-mx*my, syy/n-my*my
		// The normal is the covariance's minor axis.
		phi := 0.5 * math.Atan2(2*cxy, cxx-cyy) // major axis angle
		theta := phi + math.Pi/2
		if math.Cos(theta-l.theta) < 0 {
			theta -= math.Pi
		}
		if math.Abs(math.Remainder(theta-l.theta, 2*math.Pi)) > 3*math.Pi/180 {
			return l
		}
		nl := l
		nl.theta = theta
		nl.rho = mx*math.Cos(theta) + my*math.Sin(theta)
		l = nl
	}
	return l
}

// turn is the cross product of b-a and c-b: negative when a, b, c turn as
// the near side's square does, left to right then up (y down).
func turn(a, b, c pt) float64 {
	return (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
}
