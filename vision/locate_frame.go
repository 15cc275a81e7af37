package vision

import (
	"math"
	"sort"
)

// Grids from the board's frame as a region. On crowded boards, seen low,
// the towers hide most dividers and most straight edges belong to blocks or
// to the table's grain; but the frame, a band of one flat colour around the
// grid, stays one large region whose outline is the board's outline. The
// reduced frame is halved again and split into flat regions (neighbouring
// pixels of nearly the same colour, away from edges); each large region's
// outer outline is fitted with a quadrilateral, four lines fitted to the
// outline's points (so that a tower over part of a side does not bend it);
// the grid is then the quadrilateral shrunk by the frame's width, which is
// found by trying widths and scoring each grid by its frame and dividers.

// useFrameRegions adds the frame regions' grids to locate's candidates.
const useFrameRegions = true

// segJoin is the largest colour step (sum over R, G, B, 0-255) between
// neighbouring half-size pixels of one region.
const segJoin = 14

// segMinShare is the least share of the image a region must cover to be
// taken for a frame.
const segMinShare = 0.01

// segPiece is the least size (half-size pixels) of a piece of a frame.
const segPiece = 20

// sameMaterial reports whether two regions' mean colours (sums over n
// pixels) could be one paint under different light: the same chromaticity,
// a brightness within a factor of about 1.5.
func sameMaterial(a [3]float64, na int, b [3]float64, nb int) bool {
	sa, sb := a[0]+a[1]+a[2], b[0]+b[1]+b[2]
	if sa <= 0 || sb <= 0 {
		return false
	}
	ratio := (sa / float64(na)) / (sb / float64(nb))
	if ratio < 0.5 || ratio > 2 {
		return false
	}
	// Dark colours have noisy chromaticity: allow more.
	tol := 0.05 + 6/(math.Min(sa/float64(na), sb/float64(nb))+1)
	return math.Abs(a[0]/sa-b[0]/sb)+math.Abs(a[1]/sa-b[1]/sb)+math.Abs(a[2]/sa-b[2]/sb) < tol
}

// segRegions is how many of the largest regions are tried.
const segRegions = 12

// frameKeep is how many grids the frame regions add to locate's candidates.
const frameKeep = 3

// segImage is the reduced frame at half size, and its regions.
type segImage struct {
	w, h   int
	rgb    []float32 // 3 per pixel
	parent []int32
	size   []int32
	edge   []bool  // pixels on edges, in no region
	sum4   []int32 // 4 * rgb (the four pixels' sums), for exact integer steps
	// Scratch of frameOutlines: each pixel's region (its root), the
	// member regions of a material, its like pixels, each root's stats.
	root    []int32
	memb    []bool
	like    []bool
	statIdx []int32
}

func (s *segImage) find(i int32) int32 {
	for s.parent[i] != i {
		s.parent[i] = s.parent[s.parent[i]]
		i = s.parent[i]
	}
	return i
}

func (s *segImage) union(a, b int32) {
	a, b = s.find(a), s.find(b)
	if a == b {
		return
	}
	if s.size[a] < s.size[b] {
		a, b = b, a
	}
	s.parent[b] = a
	s.size[a] += s.size[b]
}

// build halves px and splits it into flat regions.
func (s *segImage) build(px *pixels) {
	s.w, s.h = px.w/2, px.h/2
	n := s.w * s.h
	if cap(s.rgb) < 3*n {
		s.rgb = make([]float32, 3*n)
		s.parent = make([]int32, n)
		s.size = make([]int32, n)
	}
	if cap(s.sum4) < 3*n {
		s.sum4 = make([]int32, 3*n)
	}
	s.rgb, s.parent, s.size, s.sum4 = s.rgb[:3*n], s.parent[:n], s.size[:n], s.sum4[:3*n]
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			i := 3 * (y*s.w + x)
			for c := 0; c < 3; c++ {
				a := int(px.bgr[(2*y*px.w+2*x)*3+2-c]) + int(px.bgr[(2*y*px.w+2*x+1)*3+2-c]) +
					int(px.bgr[((2*y+1)*px.w+2*x)*3+2-c]) + int(px.bgr[((2*y+1)*px.w+2*x+1)*3+2-c])
				s.rgb[i+c] = float32(a) / 4
				s.sum4[i+c] = int32(a)
			}
		}
	}
	for i := range s.parent {
		s.parent[i] = int32(i)
		s.size[i] = 1
	}
	// A pixel on an edge (a big step to a neighbour, or across it: soft
	// edges spread their step over two pixels) joins no region, so that
	// regions do not leak through soft corners of their outlines.
	if cap(s.edge) < n {
		s.edge = make([]bool, n)
	}
	s.edge = s.edge[:n]
	clear(s.edge)
	w := s.w
	// diff(i, j) >= segJoin, in whole units of sum4 (the quarters rgb holds
	// are exact in float32, so the two tests agree).
	const join4 = 4 * segJoin
	q := s.sum4
	step := func(i, j int) bool {
		a, b := q[3*i:3*i+3], q[3*j:3*j+3]
		return abs32(a[0]-b[0])+abs32(a[1]-b[1])+abs32(a[2]-b[2]) >= join4
	}
	for y := 0; y < s.h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			if x+1 < w && step(i, i+1) {
				s.edge[i], s.edge[i+1] = true, true
			}
			if y+1 < s.h && step(i, i+w) {
				s.edge[i], s.edge[i+w] = true, true
			}
			if x > 0 && x+1 < w && step(i-1, i+1) {
				s.edge[i] = true
			}
			if y > 0 && y+1 < s.h && step(i-w, i+w) {
				s.edge[i] = true
			}
		}
	}
	for y := 0; y < s.h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			if s.edge[i] {
				continue
			}
			if x > 0 && !s.edge[i-1] {
				s.union(int32(i), int32(i-1))
			}
			if y > 0 && !s.edge[i-w] {
				s.union(int32(i), int32(i-w))
			}
		}
	}
}

// frameRegion is a candidate frame: the outer outline (corners A1, A5, E5,
// E1 in half-size pixels) of a group of flat regions of one material.
type frameRegion struct {
	outer [4]pt
	mask  []bool // the material's half-size pixels
}

// materialMask marks the pixels of the member regions (memb, by root)
// and, within the box, those of the same material that joined no region (a
// far side of the frame seen so thin that all its pixels are on edges),
// when a neighbour is of the material too. s.root holds every pixel's
// region.
func (s *segImage) materialMask(memb []bool, sum [3]float64, n int, x0, y0, x1, y1 int) []bool {
	mask := make([]bool, s.w*s.h)
	if len(s.like) != s.w*s.h {
		s.like = make([]bool, s.w*s.h)
	}
	like := s.like // all false outside the box, cleared again below
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, s.w-1), min(y1, s.h-1)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			i := y*s.w + x
			root := s.root[i]
			if memb[root] {
				mask[i], like[i] = true, true
				continue
			}
			if s.size[root] < segPiece {
				c := [3]float64{float64(s.rgb[3*i]), float64(s.rgb[3*i+1]), float64(s.rgb[3*i+2])}
				like[i] = sameMaterial(sum, n, c, 1)
			}
		}
	}
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			i := y*s.w + x
			if like[i] && !mask[i] && (x > 0 && like[i-1] || x+1 < s.w && like[i+1] || y > 0 && like[i-s.w] || y+1 < s.h && like[i+s.w]) {
				mask[i] = true
			}
		}
	}
	for y := y0; y <= y1; y++ {
		clear(like[y*s.w+x0 : y*s.w+x1+1])
	}
	return mask
}

// frameOutlines gives the largest flat regions as candidate frames.
func (r *Reader) frameOutlines() []frameRegion {
	s := &r.seg
	s.build(&r.px)
	r.segReady = true
	if s.w < 16 || s.h < 16 {
		return nil
	}
	type region struct {
		root int32
		size int32
	}
	var regs []region
	// Only pieces of segPiece pixels or more get their statistics below:
	// on a small frame the share alone would let smaller regions through.
	minSize := max(int32(segMinShare*float64(s.w*s.h)), segPiece)
	for i := range s.parent {
		if s.parent[i] == int32(i) && s.size[i] >= minSize {
			regs = append(regs, region{int32(i), s.size[i]})
		}
	}
	sort.Slice(regs, func(i, j int) bool { return regs[i].size > regs[j].size })
	if len(regs) > segRegions {
		regs = regs[:segRegions]
	}
	// Each region's mean colour and bounding box, for the pieces of a
	// frame cut apart by towers standing over it.
	type stats struct {
		root                   int32
		sum                    [3]float64
		n                      int
		minX, minY, maxX, maxY int
	}
	n := len(s.parent)
	if len(s.root) != n {
		s.root, s.memb, s.statIdx = make([]int32, n), make([]bool, n), make([]int32, n)
	}
	for i := range s.statIdx {
		s.statIdx[i] = -1
	}
	var st []stats // in order of first pixel; s.statIdx[root] indexes it
	for i := range s.parent {
		root := s.find(int32(i))
		s.root[i] = root
		if s.size[root] < segPiece {
			continue
		}
		x, y := i%s.w, i/s.w
		k := s.statIdx[root]
		if k < 0 {
			k = int32(len(st))
			s.statIdx[root] = k
			st = append(st, stats{root: root, minX: x, minY: y, maxX: x, maxY: y})
		}
		a := &st[k]
		for c := 0; c < 3; c++ {
			a.sum[c] += float64(s.rgb[3*i+c])
		}
		a.n++
		a.minX, a.maxX = min(a.minX, x), max(a.maxX, x)
		a.minY, a.maxY = min(a.minY, y), max(a.maxY, y)
	}
	var out []frameRegion
	for _, rg := range regs {
		a := &st[s.statIdx[rg.root]]
		mx, my := (a.maxX-a.minX)/10, (a.maxY-a.minY)/10
		for k := range st {
			b := &st[k]
			if sameMaterial(a.sum, a.n, b.sum, b.n) && b.minX >= a.minX-mx && b.maxX <= a.maxX+mx && b.minY >= a.minY-my && b.maxY <= a.maxY+my {
				s.memb[b.root] = true
			}
		}
		mask := s.materialMask(s.memb, a.sum, a.n, a.minX-mx, a.minY-my, a.maxX+mx, a.maxY+my)
		for k := range st {
			s.memb[st[k].root] = false
		}
		q, ok := s.outline(mask)
		if !ok {
			continue
		}
		out = append(out, frameRegion{q, mask})
	}
	return out
}

// outline fits a quadrilateral to the outer outline of region root: the
// hull of its extreme pixels, the largest quadrilateral on that hull, then
// each side refitted to the outline points near it.
func (s *segImage) outline(mask []bool) ([4]pt, bool) {
	var q [4]pt
	// The region's extreme pixels along each row and column: the hull
	// of the region, and the points its outer sides are fitted to.
	var edge []pt
	x0, x1 := make([]int, s.h), make([]int, s.h)
	y0, y1 := make([]int, s.w), make([]int, s.w)
	for y := range x0 {
		x0[y], x1[y] = -1, -1
	}
	for x := range y0 {
		y0[x], y1[x] = -1, -1
	}
	minX, maxX, minY, maxY := s.w, -1, s.h, -1
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			if !mask[y*s.w+x] {
				continue
			}
			if x0[y] < 0 {
				x0[y] = x
			}
			x1[y] = x
			if y0[x] < 0 {
				y0[x] = y
			}
			y1[x] = y
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	// A frame spans a good part of the image both ways.
	if maxX-minX < s.w/6 || maxY-minY < s.h/5 {
		return q, false
	}
	for y := range x0 {
		if x0[y] >= 0 {
			edge = append(edge, pt{float64(x0[y]) + 0.5, float64(y) + 0.5}, pt{float64(x1[y]) + 0.5, float64(y) + 0.5})
		}
	}
	for x := range y0 {
		if y0[x] >= 0 {
			edge = append(edge, pt{float64(x) + 0.5, float64(y0[x]) + 0.5}, pt{float64(x) + 0.5, float64(y1[x]) + 0.5})
		}
	}
	hp := append([]pt(nil), edge...)
	sort.Slice(hp, func(i, j int) bool { return hp[i].X < hp[j].X || hp[i].X == hp[j].X && hp[i].Y < hp[j].Y })
	hv := simplify(monotoneHull(hp), 1.5)
	if len(hv) < 4 {
		return q, false
	}
	q, ok := largestQuad(hv)
	if !ok {
		return q, false
	}
	// Refit each side to the outline points close to it.
	var lines [4]fitLine
	for k := 0; k < 4; k++ {
		a, b := q[k], q[(k+1)%4]
		l, ok := fitSide(edge, a, b)
		if !ok {
			// Too little of this side is seen: keep the hull's side.
			nx, ny := a.Y-b.Y, b.X-a.X
			n := math.Hypot(nx, ny)
			l = fitLine{nx / n, ny / n, (nx*a.X + ny*a.Y) / n, true}
		}
		lines[k] = l
	}
	for k := 0; k < 4; k++ {
		p, ok := lines[(k+3)%4].intersect(lines[k])
		if !ok {
			return q, false
		}
		q[k] = p
	}
	return orderCorners(q)
}

// fitSide fits a line to the points within a few pixels of segment a-b,
// away from its ends.
func fitSide(p []pt, a, b pt) (fitLine, bool) {
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l < 4 {
		return fitLine{}, false
	}
	ux, uy := dx/l, dy/l
	var near []pt
	tol := math.Max(1.5, 0.02*l)
	for _, q := range p {
		t := (q.X-a.X)*ux + (q.Y-a.Y)*uy
		d := -(q.X-a.X)*uy + (q.Y-a.Y)*ux
		if t > 0.05*l && t < 0.95*l && math.Abs(d) < tol {
			near = append(near, q)
		}
	}
	if len(near) < 6 {
		return fitLine{}, false
	}
	w := make([]float64, len(near))
	for i := range w {
		w[i] = 1
	}
	fl, _, ok := robustLine(near, w)
	return fl, ok
}

// monotoneHull gives the convex hull of points sorted by x then y.
func monotoneHull(p []pt) []pt {
	if len(p) < 3 {
		return p
	}
	return chainHull(p, make(poly, 0, 2*len(p)))
}

// simplify drops hull vertices closer than tol to the line through their
// neighbours, least significant first, so that a few dozen remain at most.
func simplify(h []pt, tol float64) []pt {
	h = append([]pt(nil), h...)
	for len(h) > 4 {
		best, bi := math.Inf(1), -1
		for i := range h {
			a, b, c := h[(i+len(h)-1)%len(h)], h[i], h[(i+1)%len(h)]
			l := math.Hypot(c.X-a.X, c.Y-a.Y)
			if l == 0 {
				best, bi = 0, i
				break
			}
			d := math.Abs((c.X-a.X)*(b.Y-a.Y)-(c.Y-a.Y)*(b.X-a.X)) / l
			if d < best {
				best, bi = d, i
			}
		}
		if best > tol && len(h) <= 24 {
			break
		}
		h = append(h[:bi], h[bi+1:]...)
	}
	return h
}

// largestQuad gives the largest-area quadrilateral on the hull's vertices.
func largestQuad(h []pt) ([4]pt, bool) {
	n := len(h)
	area := func(a, b, c pt) float64 { return math.Abs((b.X-a.X)*(c.Y-a.Y)-(b.Y-a.Y)*(c.X-a.X)) / 2 }
	best := -1.0
	var q [4]pt
	for i := 0; i < n; i++ {
		for k := i + 2; k < n; k++ {
			// The best j between i and k, and l beyond k, are independent.
			bj, bl := -1.0, -1.0
			var pj, pl pt
			for j := i + 1; j < k; j++ {
				if a := area(h[i], h[j], h[k]); a > bj {
					bj, pj = a, h[j]
				}
			}
			for l := k + 1; l < n+i; l++ {
				if a := area(h[i], h[k], h[l%n]); a > bl {
					bl, pl = a, h[l%n]
				}
			}
			if bj >= 0 && bl >= 0 && bj+bl > best {
				best = bj + bl
				q = [4]pt{h[i], pj, h[k], pl}
			}
		}
	}
	return q, best > 0
}

// orderCorners puts a quadrilateral's corners clockwise (y down) from the
// top left: A1, A5, E5, E1. The top side is the one whose middle is highest.
func orderCorners(q [4]pt) ([4]pt, bool) {
	var o [4]pt
	cross := (q[1].X-q[0].X)*(q[2].Y-q[1].Y) - (q[1].Y-q[0].Y)*(q[2].X-q[1].X)
	if cross < 0 {
		q[1], q[3] = q[3], q[1]
	}
	top, best := 0, math.Inf(1)
	for k := 0; k < 4; k++ {
		if m := q[k].Y + q[(k+1)%4].Y; m < best {
			top, best = k, m
		}
	}
	for k := 0; k < 4; k++ {
		o[k] = q[(top+k)%4]
	}
	return o, convex(o[:])
}

// frameGrids proposes grids (in the reduced frame) from the frame regions:
// the outline shrunk on each side to where the frame's material ends.
func (r *Reader) frameGrids(w, h int) []quadCand {
	var out, byColour []quadCand
	for _, fr := range r.frameOutlines() {
		hq, ok := quadHomography(fr.outer)
		if !ok {
			continue
		}
		// The frame width that best fits a frame's colours around the grid.
		if best := r.bestInset(hq, 1.0, math.Inf(1), w, h); best.s > 0 {
			byColour = append(byColour, best)
		}
		in, contrast, ok := r.seg.insets(hq, fr.mask)
		if !ok {
			continue
		}
		// The grid [left, 5-right] x [top, 5-bottom] of the outline's
		// coordinates, then half-size pixels to reduced-frame pixels.
		sx, sy := (5-in[1]-in[3])/5, (5-in[0]-in[2])/5
		hg := mul3(hq, homography{sx, 0, in[3], 0, sy, in[0], 0, 0, 1})
		hg = scaleHomography(hg, 2)
		if !plausibleGrid(cornersOf(hg), w, h) {
			continue
		}
		out = append(out, quadCand{hg, contrast})
	}
	return append(bestOf(out, frameKeep), bestOf(byColour, frameKeep)...)
}

// bestInset gives the grid (reduced frame, w x h) inset uniformly from the
// outline hq (half-size pixels, the outline 5 wide) by 0.3 to maxIn
// pitches that the frame's colours (a frame as wide as the inset, at most
// maxFrame) and the dividers fit best; its score is 0 or less when none
// fits.
func (r *Reader) bestInset(hq homography, maxIn, maxFrame float64, w, h int) quadCand {
	hr := scaleHomography(hq, 2) // half-size to reduced-frame pixels
	best := quadCand{s: -1}
	for in := 0.3; in <= maxIn+0.0001; in += 0.05 {
		k := 5 / (5 + 2*in)
		hg := mul3(hr, homography{k, 0, in * k, 0, k, in * k, 0, 0, 1})
		if !plausibleGrid(cornersOf(hg), w, h) {
			continue
		}
		if s := r.frameFit(hg, math.Min(in, maxFrame), 12) + 0.5*r.ridgeSupportN(hg, w, h, 10); s > best.s {
			best = quadCand{hg, s}
		}
	}
	return best
}

// quadHomography maps the grid's [0,5]^2 to quadrilateral q (corners A1,
// A5, E5, E1).
func quadHomography(q [4]pt) (homography, bool) {
	return homographyFromCorners([4][2]float64{{q[0].X, q[0].Y}, {q[1].X, q[1].Y}, {q[2].X, q[2].Y}, {q[3].X, q[3].Y}})
}

// bestOf keeps the n best-scoring candidates.
func bestOf(c []quadCand, n int) []quadCand {
	sort.Slice(c, func(i, j int) bool { return c[i].s > c[j].s })
	if len(c) > n {
		c = c[:n]
	}
	return c
}

// insetSteps is the resolution of the inset search (outline units, the
// outline being 5 wide).
const insetSteps = 40

// insets finds, on each side of the outline hq (half-size pixels; sides
// top, right, bottom, left), how far in the frame's material reaches: the
// share of the material along lines parallel to the side, from the outline
// inwards, is high across the frame (less where towers stand over it) and
// low beyond, over the cells. It also gives how clearly that is so (the
// mean share in the frame less the mean beyond).
func (s *segImage) insets(hq homography, mask []bool) ([4]float64, float64, bool) {
	var in [4]float64
	const maxInset = 1.2 // a frame 1.1 pitches wide, in outline units
	const along = 32
	contrast := 0.0
	for side := 0; side < 4; side++ {
		var share [insetSteps]float64
		for k := 0; k < insetSteps; k++ {
			d := (float64(k) + 0.5) * maxInset / insetSteps
			n, hit := 0, 0
			for i := 0; i < along; i++ {
				t := 0.6 + (float64(i)+0.5)*3.8/along
				var b pt
				switch side {
				case 0:
					b = pt{t, d}
				case 1:
					b = pt{5 - d, t}
				case 2:
					b = pt{t, 5 - d}
				default:
					b = pt{d, t}
				}
				p := hq.apply(b)
				x, y := int(p.X), int(p.Y)
				if x < 0 || y < 0 || x >= s.w || y >= s.h {
					continue
				}
				n++
				if mask[y*s.w+x] {
					hit++
				}
			}
			if n > 0 {
				share[k] = float64(hit) / float64(n)
			}
		}
		peak := 0.0
		for _, v := range share {
			peak = math.Max(peak, v)
		}
		if peak < 0.2 {
			continue // hidden: the other sides tell the width
		}
		// The inset that best splits the profile into a high part (the frame)
		// and a low part (the cells).
		theta := peak / 2
		best, bestK, run := 0.0, -1, 0.0
		for k, v := range share {
			run += v - theta
			if run > best {
				best, bestK = run, k
			}
		}
		if bestK < 0 {
			continue
		}
		in[side] = float64(bestK+1) * maxInset / insetSteps
		var hi, lo float64
		for k, v := range share {
			if k <= bestK {
				hi += v / float64(bestK+1)
			} else {
				lo += v / (float64(insetSteps-bestK-1) + 1e-9)
			}
		}
		contrast += (hi - lo) / 4
	}
	// The frame is equally wide all round, and the outline is the board's,
	// so the insets are equal in the outline's units. Towers over the frame
	// only make a side's frame look narrower; the near side may look wider,
	// when the board's edge below the frame is of the same paint.
	w := math.Max(in[0], math.Max(in[1], in[3]))
	if w == 0 {
		return in, 0, false
	}
	in[0], in[1], in[3] = w, w, w
	in[2] = math.Max(in[2], w)
	return in, contrast, true
}

// locate proposes grids (in the reduced frame) from the divider lines, the frame's
// edges and the frame regions.
func (r *Reader) locate() []homography {
	out := r.locateLines()
	var extra []quadCand
	if useFrameRegions {
		extra = r.frameGrids(r.gray.Cols(), r.gray.Rows())
	}
	extra = append(extra, r.blockGrids(r.gray.Cols(), r.gray.Rows())...)
	return appendNewGrids(out, extra, 0)
}
