package vision

import (
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// Board localisation, with no markers: Hough lines on a map of thin ridges
// and grooves (the dividers) and on Canny edges of the reduced frame; the
// lines split into the two families of the grid (rows, near horizontal, and
// columns); in each family a search for six lines whose positions on two
// transversals follow a projective equal spacing (the image of six equally
// spaced parallel lines); every pairing of the best row and column sequences
// gives a homography, scored by the ridges along the twelve grid lines
// against those halfway between; the best few are polished by local search
// on that score. refine then fits them to the full-resolution frame (the
// dividers found across each line, a robust line fit, a homography from the
// 36 intersections) and the reader keeps the one whose dividers it finds
// most often, refusing the frame (ErrNoGrid) when that is under 45 %.
// On crowded boards, where blocks hide most dividers, two more sources
// help (locate_quad.go, locate_ring.go): grids proposed from the board
// frame's outline (long step-edge lines), and a frame evidence added to
// the divider share, which favours grids surrounded by an even band of one
// colour and counts against grids with none.

type hline struct {
	rho, theta float64
	weight     float64
	pos, pos2  float64 // where it crosses the family's two transversals
}

// lineSeq is a candidate set of six grid lines of one family.
type lineSeq struct {
	match [6]int // index into the family's lines, -1 when predicted only
	pos   [6]float64
	pos2  [6]float64
	score float64
}

const maxLines = 90

// linePoints is the number of places along a grid line where refine
// looks for the divider.
const linePoints = 40

const (
	// minSupport is the least ridge support of a proposed grid.
	minSupport = 0.05
	// seqTol is how far (share of the spacing) a line may sit from where a
	// sequence predicts it.
	seqTol = 0.15
	// houghVotes is the least Hough votes of a line, as a share of the
	// reduced frame's height.
	houghVotes = 0.08
	// stepHoughVotes is houghVotes for the lines of step edges (grey or
	// colour), which blocks and the table give plenty of.
	stepHoughVotes = 0.12
)

// locateLines proposes up to maxCandidates grids (homographies in the reduced
// frame), best first.
func (r *Reader) locateLines() []homography {
	w, h := r.gray.Cols(), r.gray.Rows()
	// Hough lines on a map of thin ridges and grooves (dividers), not on
	// all edges: block outlines are steps, not ridges.
	if r.ridges.Rows() != h || r.ridges.Cols() != w {
		r.ridges.Close()
		r.ridges = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
	}
	rd, err := r.ridges.DataPtrUint8()
	if err != nil {
		return nil
	}
	g, err := r.gray.DataPtrUint8()
	if err != nil {
		return nil
	}
	ridgeMap(g, rd, w, h)
	raw0, err := r.hough.lines(r.ridges, int(houghVotes*float64(h)))
	if err != nil || len(raw0) == 0 {
		// No divider lines at all: no proposals from lines, even where
		// step edges would give some (as with OpenCV's transform).
		return nil
	}
	raw := append(r.rawLines[:0], raw0...)
	var edgeRaw []float32 // the edge lines, in vote order
	if useEdgeLines {
		// Also lines of step edges: on crowded boards the blocks' feet run
		// along the grid lines where the dividers are hidden.
		raw1, err := r.hough.lines(r.stepEdges(), int(stepHoughVotes*float64(h)))
		if err == nil {
			edgeRaw = append(edgeRaw, raw1...)
			// Interleave, so that both kinds reach the cap.
			var mix []float32
			for i := 0; i < len(raw) || i < len(raw1); i += 2 {
				if i+1 < len(raw) {
					mix = append(mix, raw[i], raw[i+1])
				}
				if i+1 < len(raw1) {
					mix = append(mix, raw1[i], raw1[i+1])
				}
			}
			raw = mix
		}
	}
	r.rawLines = raw
	if len(raw) < 4 {
		return nil
	}
	xc, yc := float64(w)/2, float64(h)/2
	var rows, cols []hline
	var kept []hline
	for i := 0; i+1 < len(raw) && len(kept) < maxLines; i += 2 {
		l := hline{rho: float64(raw[i]), theta: float64(raw[i+1])}
		// Exact diagonals are the pixel grid's own artefacts in the ridge
		// map; no grid line is that steep in TABLE.md's envelope.
		if d := math.Mod(l.theta*180/math.Pi, 90); d > 43.5 && d < 46.5 {
			continue
		}
		// OpenCV puts pixel centres at integers; here pixel i covers [i, i+1).
		l.rho += 0.5 * (math.Cos(l.theta) + math.Sin(l.theta))
		l.weight = 1 / (1 + float64(i/2)/20)
		if seenLine(kept, l, xc, yc) {
			continue
		}
		kept = append(kept, l)
		if placeLine(&l, w, h) {
			rows = append(rows, l)
		} else {
			cols = append(cols, l)
		}
	}
	if len(rows) < 3 || len(cols) < 3 {
		return nil
	}
	fr, fc := frameLines(edgeRaw, w, h)
	quads := r.quadCandidates(fr, fc, w, h)
	rows = strongest(rows, 40)
	cols = strongest(cols, 40)
	sort.Slice(rows, func(i, j int) bool { return rows[i].pos < rows[j].pos })
	sort.Slice(cols, func(i, j int) bool { return cols[i].pos < cols[j].pos })
	rs := bestSequences(rows, seqCount)
	cs := bestSequences(cols, seqCount)
	var cands []quadCand
	for _, a := range rs {
		for _, b := range cs {
			hh, ok := gridFromLines(rows, cols, a, b)
			if !ok {
				continue
			}
			s := r.ridgeSupportN(hh, w, h, 6)
			if s >= minSupport {
				cands = append(cands, quadCand{hh, s})
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].s > cands[j].s })
	// Polish the best few by local search on the ridge support.
	for i := range cands {
		if i == polishCount {
			break
		}
		cands[i].h, cands[i].s = r.polish(cands[i].h, r.ridgeSupportN(cands[i].h, w, h, 10), w, h)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].s > cands[j].s })
	out := appendNewGrids(nil, cands, maxCandidates)
	// The grids from the frame's outline come on top of those.
	return appendNewGrids(out, quads, 0)
}

// appendNewGrids appends the candidates' grids not already in out, until
// out holds limit grids (0: no limit).
func appendNewGrids(out []homography, cands []quadCand, limit int) []homography {
	for _, q := range cands {
		if limit > 0 && len(out) >= limit {
			break
		}
		dup := false
		for _, o := range out {
			if sameGrid(o, q.h) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, q.h)
		}
	}
	return out
}

// polishCount is how many candidates polish improves.
const polishCount = 2

// seqCount is how many line sequences of each family are paired.
const seqCount = 16

// useEdgeLines adds Canny edge lines to the ridge lines.
const useEdgeLines = true

// polish moves the grid's four corners, one coordinate at a time, in
// shrinking steps (a third of a pitch down to a fiftieth) while the ridge
// support grows.
func (r *Reader) polish(hh homography, s float64, w, h int) (homography, float64) {
	var c [4]pt
	for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		c[i] = hh.apply(p)
	}
	pitch := math.Hypot(c[1].X-c[0].X, c[1].Y-c[0].Y) / 5
	for _, step := range []float64{0.2, 0.08, 0.03} {
		d := step * pitch
		for it := 0; it < 2; it++ {
			improved := false
			for k := 0; k < 8; k++ {
				for _, sgn := range [2]float64{-1, 1} {
					t := c
					if k%2 == 0 {
						t[k/2].X += sgn * d
					} else {
						t[k/2].Y += sgn * d
					}
					nh, ok := homographyFromCorners([4][2]float64{{t[0].X, t[0].Y}, {t[1].X, t[1].Y}, {t[2].X, t[2].Y}, {t[3].X, t[3].Y}})
					if !ok {
						continue
					}
					if ns := r.ridgeSupportN(nh, w, h, 10); ns > s {
						s, c, hh, improved = ns, t, nh, true
					}
				}
			}
			if !improved {
				break
			}
		}
	}
	return hh, s
}

// maxCandidates is how many grids locate proposes for refinement.
const maxCandidates = 6

// sameGrid reports whether two grids' corners are within 2 pixels.
func sameGrid(a, b homography) bool {
	for _, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		q, s := a.apply(p), b.apply(p)
		if math.Hypot(q.X-s.X, q.Y-s.Y) > 2 {
			return false
		}
	}
	return true
}

// strongest keeps the n lines with the most votes (the lines come in
// vote order).
func strongest(ls []hline, n int) []hline {
	if len(ls) > n {
		ls = ls[:n]
	}
	return ls
}

// sameLine reports whether two Hough lines are near duplicates.
func sameLine(a, b hline, xc, yc float64) bool {
	d := math.Abs(a.theta - b.theta)
	if d > math.Pi/2 {
		d = math.Pi - d
	}
	if d > 3*math.Pi/180 {
		return false
	}
	// Distance of the image centre to each line, signed consistently.
	da := xc*math.Cos(a.theta) + yc*math.Sin(a.theta) - a.rho
	db := xc*math.Cos(b.theta) + yc*math.Sin(b.theta) - b.rho
	if math.Abs(a.theta-b.theta) > math.Pi/2 {
		db = -db
	}
	return math.Abs(da-db) < 3
}

// bestSequences finds up to k candidate six-line sequences in one family,
// sorted by position: three lines fix a 1D projective map from index 0..5 to
// position (on each of the two transversals); the score counts the lines
// found where the maps predict them. The triples tried are neighbours in
// the grid (index gaps 1,1 / 1,2 / 2,1) whose spacings agree on both
// transversals.
func bestSequences(ls []hline, k int) []lineSeq {
	n := len(ls)
	out := make([]lineSeq, 0, k+1)
	pats := [][2]int{{1, 1}, {1, 2}, {2, 1}}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			g1, h1 := ls[j].pos-ls[i].pos, ls[j].pos2-ls[i].pos2
			if g1 < 5 || h1 < 5 || g1 > 2*h1 || h1 > 2*g1 {
				continue
			}
			for _, p := range pats {
				want := g1 * float64(p[1]) / float64(p[0])
				lo, hi := ls[j].pos+0.6*want, ls[j].pos+1.6*want
				l0 := sort.Search(n, func(q int) bool { return ls[q].pos >= lo })
				for l := l0; l < n && ls[l].pos <= hi; l++ {
					g2, h2 := ls[l].pos-ls[j].pos, ls[l].pos2-ls[j].pos2
					if h2 < 0.6*h1*float64(p[1])/float64(p[0]) || h2 > 1.6*h1*float64(p[1])/float64(p[0]) || g2 <= 0 {
						continue
					}
					span := p[0] + p[1]
					for a := 0; a+span <= 5; a++ {
						s, ok := fitSeq(ls, [3]int{i, j, l}, [3]int{a, a + p[0], a + span})
						if ok {
							out = keepBest(out, s, k)
						}
					}
				}
			}
		}
	}
	return out
}

// keepBest inserts s into out (best first, at most k, no two with the same
// lines) if it scores among the best k.
func keepBest(out []lineSeq, s lineSeq, k int) []lineSeq {
	if len(out) == k && s.score <= out[k-1].score {
		return out
	}
	for q := range out {
		if out[q].match == s.match {
			return out // the first found of the same lines stays
		}
	}
	q := sort.Search(len(out), func(q int) bool { return out[q].score < s.score })
	out = append(out, lineSeq{})
	copy(out[q+1:], out[q:])
	out[q] = s
	if len(out) > k {
		out = out[:k]
	}
	return out
}

func fitSeq(ls []hline, li [3]int, ui [3]int) (lineSeq, bool) {
	var s lineSeq
	var maps [2][3]float64
	for t := 0; t < 2; t++ {
		// p(u) = (al*u + be) / (ga*u + 1):  al*u + be - ga*u*p = p.
		var m [3][3]float64
		var v [3]float64
		for q := 0; q < 3; q++ {
			u := float64(ui[q])
			p := ls[li[q]].pos
			if t == 1 {
				p = ls[li[q]].pos2
			}
			m[q] = [3]float64{u, 1, -u * p}
			v[q] = p
		}
		x, ok := solve3(m, v)
		if !ok {
			return s, false
		}
		ga := x[2]
		// The map must stay finite over [-0.5, 5.5].
		if ga*-0.5+1 <= 0.05 || ga*5.5+1 <= 0.05 {
			return s, false
		}
		maps[t] = x
	}
	var gaps [5]float64
	for u := 0; u < 6; u++ {
		fu := float64(u)
		s.pos[u] = (maps[0][0]*fu + maps[0][1]) / (maps[0][2]*fu + 1)
		s.pos2[u] = (maps[1][0]*fu + maps[1][1]) / (maps[1][2]*fu + 1)
	}
	for u := 0; u < 5; u++ {
		gaps[u] = s.pos[u+1] - s.pos[u]
		g2 := s.pos2[u+1] - s.pos2[u]
		if gaps[u] < 6 || g2 < 6 {
			return s, false
		}
	}
	if gaps[0]/gaps[4] > 2.5 || gaps[4]/gaps[0] > 2.5 {
		return s, false
	}
	used := 0
	for u := 0; u < 6; u++ {
		s.match[u] = -1
		g := gaps[min(u, 4)]
		tol := seqTol * g
		bestD := 2 * tol
		q0 := sort.Search(len(ls), func(q int) bool { return ls[q].pos >= s.pos[u]-tol })
		for q := q0; q < len(ls) && ls[q].pos <= s.pos[u]+tol; q++ {
			d := math.Abs(ls[q].pos-s.pos[u]) + math.Abs(ls[q].pos2-s.pos2[u])
			if d < bestD {
				bestD = d
				s.match[u] = q
			}
		}
		if s.match[u] >= 0 {
			used++
			s.score += 1 + 0.3*ls[s.match[u]].weight - 0.25*bestD/tol
		}
	}
	if used < 3 {
		return s, false
	}
	return s, true
}

func solve3(m [3][3]float64, v [3]float64) ([3]float64, bool) {
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	if math.Abs(det) < 1e-12 {
		return [3]float64{}, false
	}
	var x [3]float64
	for c := 0; c < 3; c++ {
		mm := m
		for r := 0; r < 3; r++ {
			mm[r][c] = v[r]
		}
		d := mm[0][0]*(mm[1][1]*mm[2][2]-mm[1][2]*mm[2][1]) -
			mm[0][1]*(mm[1][0]*mm[2][2]-mm[1][2]*mm[2][0]) +
			mm[0][2]*(mm[1][0]*mm[2][1]-mm[1][1]*mm[2][0])
		x[c] = d / det
	}
	return x, true
}

// gridFromLines fits the homography to the intersections of the matched row
// and column lines.
func gridFromLines(rows, cols []hline, rs, cs lineSeq) (homography, bool) {
	var src, dst []pt
	for v := 0; v < 6; v++ {
		if rs.match[v] < 0 {
			continue
		}
		for u := 0; u < 6; u++ {
			if cs.match[u] < 0 {
				continue
			}
			p, ok := intersect(rows[rs.match[v]], cols[cs.match[u]])
			if !ok {
				continue
			}
			src = append(src, pt{float64(u), float64(v)})
			dst = append(dst, p)
		}
	}
	if len(src) < 6 {
		return homography{}, false
	}
	return fitHomography(src, dst)
}

func intersect(a, b hline) (pt, bool) {
	ca, sa := math.Cos(a.theta), math.Sin(a.theta)
	cb, sb := math.Cos(b.theta), math.Sin(b.theta)
	det := ca*sb - sa*cb
	if math.Abs(det) < 1e-9 {
		return pt{}, false
	}
	return pt{(a.rho*sb - b.rho*sa) / det, (ca*b.rho - cb*a.rho) / det}, true
}

// ridgeMap marks (255) the pixels of g that are the middle of a thin
// ridge or groove across x or across y: both neighbours two pixels away
// differ from it the same way by more than a few grey levels.
func ridgeMap(g, out []uint8, w, h int) {
	const th = 5
	for i := range out[:w*2] {
		out[i] = 0
	}
	for y := 2; y < h-2; y++ {
		o := y * w
		out[o], out[o+1], out[o+w-2], out[o+w-1] = 0, 0, 0, 0
		for x := 2; x < w-2; x++ {
			c := int(g[o+x])
			a, b := int(g[o+x-2]), int(g[o+x+2])
			m := uint8(0)
			if (c-a > th && c-b > th) || (a-c > th && b-c > th) {
				m = 255
			}
			a, b = int(g[o+x-2*w]), int(g[o+x+2*w])
			if (c-a > th && c-b > th) || (a-c > th && b-c > th) {
				m = 255
			}
			out[o+x] = m
		}
	}
	for i := range out[w*(h-2):] {
		out[w*(h-2)+i] = 0
	}
}

// ridgeSupport is the share of points along the twelve grid lines where
// the grey level shows a thin ridge or groove across the line (a divider),
// less the share along the lines halfway between them.
func (r *Reader) ridgeSupport(hh homography, w, h int) float64 {
	return r.ridgeSupportN(hh, w, h, 30)
}

// ridgeSupportN is ridgeSupport with n points per line.
func (r *Reader) ridgeSupportN(hh homography, w, h, n int) float64 {
	g, err := r.gray.DataPtrUint8()
	if err != nil {
		return 0
	}
	img := grayImg{g, w, h}
	return r.ridgeShare(img, hh, 0, 6, n) - r.ridgeShare(img, hh, 0.5, 5, n)
}

func (r *Reader) ridgeShare(img grayImg, hh homography, offset float64, lines, n int) float64 {
	// The places along a line, and the homography's products with them,
	// once for all lines (hh.apply, inlined: the same operations).
	var tb [64]float64
	if n > len(tb) {
		return r.ridgeShareSlow(img, hh, offset, lines, n)
	}
	for i := 0; i < n; i++ {
		tb[i] = (float64(i) + 0.5) * 5 / float64(n)
	}
	hit, tot := 0, 0
	for fam := 0; fam < 2; fam++ {
		// Board (X, Y) = (t, c) for rows, (c, t) for columns: t multiplies
		// the homography's column ct, c its column cc.
		ct, cc := 0, 1
		if fam == 1 {
			ct, cc = 1, 0
		}
		for k := 0; k < lines; k++ {
			c := float64(k) + offset
			c1 := c + 0.1
			// Row-constant products.
			px0, py0, pw0 := hh[cc]*c, hh[3+cc]*c, hh[6+cc]*c
			px1, py1, pw1 := hh[cc]*c1, hh[3+cc]*c1, hh[6+cc]*c1
			for i := 0; i < n; i++ {
				t := tb[i]
				tx, ty, tw := hh[ct]*t, hh[3+ct]*t, hh[6+ct]*t
				var pX, pY, qX, qY float64
				if fam == 0 {
					w := tw + pw0 + hh[8]
					pX, pY = (tx+px0+hh[2])/w, (ty+py0+hh[5])/w
					w = tw + pw1 + hh[8]
					qX, qY = (tx+px1+hh[2])/w, (ty+py1+hh[5])/w
				} else {
					w := pw0 + tw + hh[8]
					pX, pY = (px0+tx+hh[2])/w, (py0+ty+hh[5])/w
					w = pw1 + tw + hh[8]
					qX, qY = (px1+tx+hh[2])/w, (py1+ty+hh[5])/w
				}
				tot++
				dx, dy := qX-pX, qY-pY
				l := math.Sqrt(dx*dx + dy*dy) // not Hypot: this is hot, and no overflow can happen
				if l == 0 {
					continue
				}
				// Across-line unit vector, sampled at 2 px (or 4% of a pitch).
				s := math.Max(2, 0.4*l) / l
				dx, dy = dx*s, dy*s
				if isRidge(img, pt{pX, pY}, dx, dy) {
					hit++
				}
			}
		}
	}
	return float64(hit) / float64(tot)
}

// ridgeShareSlow is ridgeShare for more than 64 places per line.
func (r *Reader) ridgeShareSlow(img grayImg, hh homography, offset float64, lines, n int) float64 {
	hit, tot := 0, 0
	for k := 0; k < lines; k++ {
		c := float64(k) + offset
		for fam := 0; fam < 2; fam++ {
			for i := 0; i < n; i++ {
				t := (float64(i) + 0.5) * 5 / float64(n)
				var p, q pt
				if fam == 0 {
					p, q = hh.apply(pt{t, c}), hh.apply(pt{t, c + 0.1})
				} else {
					p, q = hh.apply(pt{c, t}), hh.apply(pt{c + 0.1, t})
				}
				tot++
				if ridgeAcross(img, p, q) {
					hit++
				}
			}
		}
	}
	return float64(hit) / float64(tot)
}

// ridgeAcross tests for a divider at p across the line through p and q
// (q a tenth of a pitch away across it), sampled 2 pixels or 4 % of a
// pitch to each side.
func ridgeAcross(img grayImg, p, q pt) bool {
	dx, dy := q.X-p.X, q.Y-p.Y
	l := math.Sqrt(dx*dx + dy*dy)
	if l == 0 {
		return false
	}
	s := math.Max(2, 0.4*l) / l
	return isRidge(img, p, dx*s, dy*s)
}

// isRidge tests for a thin ridge or groove at p, allowing a pixel of slack
// along the normal (dx, dy).
func isRidge(img grayImg, p pt, dx, dy float64) bool {
	l := math.Sqrt(dx*dx + dy*dy)
	ux, uy := dx/l, dy/l
	w, h := img.w, img.h
	for _, o := range [3]float64{0, -1, 1} {
		// Nearest pixels: fast, and enough here.
		cx, cy := p.X+ux*o, p.Y+uy*o
		ix, iy := int(cx), int(cy)
		if cx < 0 || cy < 0 || ix >= w || iy >= h {
			return false
		}
		ax, ay := cx-dx, cy-dy
		jx, jy := int(ax), int(ay)
		if ax < 0 || ay < 0 || jx >= w || jy >= h {
			return false
		}
		bx, by := cx+dx, cy+dy
		kx, ky := int(bx), int(by)
		if bx < 0 || by < 0 || kx >= w || ky >= h {
			return false
		}
		c := int(img.p[iy*w+ix])
		d1, d2 := c-int(img.p[jy*w+jx]), c-int(img.p[ky*w+kx])
		if (d1 > 6 && d2 > 6) || (d1 < -6 && d2 < -6) {
			return true
		}
	}
	return false
}

// refine fits the grid to the full-resolution frame: along each of the
// twelve grid lines it finds the divider across the line at many points
// (the strongest ridge or groove of the divider's width near the predicted
// place), fits a straight line to them robustly, and refits the homography
// to the intersections of the twelve lines. Two rounds.
func (r *Reader) refine(h homography, rounds int) (homography, float64) {
	return r.refineN(h, rounds, linePoints)
}

// refineN is refine with n places per grid line. Its score is the share
// of the grid lines' places where it found the divider, moved up or down by
// the evidence of the board's frame around the grid (frameEvidence): on
// crowded boards the blocks hide most dividers of the right grid, while
// wrong grids (one cell off, or on a block's edges) find some dividers but
// no frame around them.
func (r *Reader) refineN(h homography, rounds, n int) (homography, float64) {
	h, s := r.refineDividers(h, rounds, n)
	return h, s + r.frameEvidence(h)
}

// refineFinal is refineDividers for a grid already chosen: dividers are
// taken only between sides alike, so that a block's foot does not pull a
// line off the divider it stands on.
func (r *Reader) refineFinal(h homography, rounds, n int) (homography, float64) {
	return r.refineLines(h, rounds, n, true)
}

// refineDividers is refineN without the frame evidence.
func (r *Reader) refineDividers(h homography, rounds, n int) (homography, float64) {
	return r.refineLines(h, rounds, n, false)
}

// refineLines is refineDividers, finding the dividers strictly or not
// (dividerPoints). Refining strictly, a chosen grid's lines move only
// where their dividers are seen along much of them (minLineShare): on a
// crowded board a line hidden by towers otherwise settles on the blocks'
// edges and windows and drags the grid off by a fifth of a cell; the
// homography through the lines seen places the hidden ones.
func (r *Reader) refineLines(h homography, rounds, n int, strict bool) (homography, float64) {
	img, ok := r.fullGrayImg()
	if !ok {
		return h, 0
	}
	score := 0.0
	for round := 0; round < rounds; round++ {
		var lines [2][6]fitLine
		var kept [2]int
		inliers := 0
		for fam := 0; fam < 2; fam++ {
			for k := 0; k <= 5; k++ {
				l, in, _ := r.fitGridLine(img, h, fam, k, round, n, strict)
				inliers += in
				if !strict || float64(in) >= minLineShare*float64(n) {
					lines[fam][k] = l
					kept[fam]++
				}
			}
		}
		score = float64(inliers) / float64(12*n)
		if kept[0] < 2 || kept[1] < 2 || kept[0]+kept[1] < 5 {
			return h, score
		}
		src, dst := gridCrossings(lines[0], lines[1])
		if len(src) < 12 && !strict || len(src) < 6 {
			return h, score
		}
		nh, ok := fitHomography(src, dst)
		if !ok {
			return h, score
		}
		h = nh
	}
	return h, score
}

// minLineShare is the least share of a line's places where its divider
// is found on its fit for a strict refinement to use the line (check
// seeds 20000-20299 cold: 0.3-0.6 all read 95.8-96.1 % of the cells of
// right grids, against 95.2 % with every line).
const minLineShare = 0.45

type grayImg struct {
	p    []uint8
	w, h int
}

// fullGrayImg is the full-resolution grey as a grayImg; ok is false when
// it cannot be read.
func (r *Reader) fullGrayImg() (grayImg, bool) {
	g, err := r.fullGray.DataPtrUint8()
	if err != nil {
		return grayImg{}, false
	}
	return grayImg{g, r.fullGray.Cols(), r.fullGray.Rows()}, true
}

// gradient gives the central differences of the grey at (x, y), which
// must be at least a pixel inside the image.
func (g grayImg) gradient(x, y int) (gx, gy float64) {
	gx = float64(g.p[y*g.w+x+1]) - float64(g.p[y*g.w+x-1])
	gy = float64(g.p[(y+1)*g.w+x]) - float64(g.p[(y-1)*g.w+x])
	return gx, gy
}

// at samples bilinearly; ok is false outside the image.
func (g grayImg) at(x, y float64) (float64, bool) {
	x -= 0.5
	y -= 0.5
	if x < 0 || y < 0 || x >= float64(g.w-1) || y >= float64(g.h-1) {
		return 0, false
	}
	ix, iy := int(x), int(y)
	fx, fy := x-float64(ix), y-float64(iy)
	o := iy*g.w + ix
	a := float64(g.p[o])*(1-fx) + float64(g.p[o+1])*fx
	b := float64(g.p[o+g.w])*(1-fx) + float64(g.p[o+g.w+1])*fx
	return a*(1-fy) + b*fy, true
}

// fitLine is an image line n.p = d with |n| = 1.
type fitLine struct {
	nx, ny, d float64
	ok        bool
}

func (a fitLine) intersect(b fitLine) (pt, bool) {
	det := a.nx*b.ny - a.ny*b.nx
	if math.Abs(det) < 1e-9 {
		return pt{}, false
	}
	return pt{(a.d*b.ny - b.d*a.ny) / det, (a.nx*b.d - b.nx*a.d) / det}, true
}

// fitGridLine finds grid line k of family fam (0: rows, board Y = k; 1:
// columns, board X = k) in the full-resolution grey image.
func (r *Reader) fitGridLine(img grayImg, h homography, fam, k, round, n int, strict bool) (fitLine, int, bool) {
	pts, wts := dividerPoints(img, h, fam, k, round, n, strict)
	if len(pts) < n/5 {
		return fitLine{}, 0, false
	}
	return robustLine(pts, wts)
}

// dividerPoints finds the divider across grid line k of family fam (0:
// rows, 1: columns) at n places along it, with each find's strength.
// strict takes, on the inner lines, a divider only between sides alike
// (sameSides).
func dividerPoints(img grayImg, h homography, fam, k, round, n int, strict bool) ([]pt, []float64) {
	return dividerPointsWhere(img, h, fam, k, round, n, strict, nil)
}

// dividerPointsWhere is dividerPoints at the places t along the line
// (board coordinate, 0 to 5) that keep allows, or all when keep is nil.
func dividerPointsWhere(img grayImg, h homography, fam, k, round, n int, strict bool, keep func(t float64) bool) ([]pt, []float64) {
	pts := make([]pt, 0, n)
	wts := make([]float64, 0, n)
	eachDivider(img, h, fam, k, round, n, strict, keep, func(p pt, s float64, _ bool) {
		pts = append(pts, p)
		wts = append(wts, s)
	})
	return pts, wts
}

// eachDivider calls found for each divider find of dividerPointsWhere:
// the point, its strength and whether it is a ridge.
func eachDivider(img grayImg, h homography, fam, k, round, n int, strict bool, keep func(t float64) bool, found func(p pt, strength float64, ridge bool)) {
	var sc divScratch // one scratch for the line's searches
	for i := 0; i < n; i++ {
		t := 0.06 + (float64(i)+0.5)*(5-0.12)/float64(n)
		if keep != nil && !keep(t) {
			continue
		}
		var a, b pt
		var bp pt
		if fam == 0 {
			bp = pt{t, float64(k)}
			a, b = h.apply(pt{t - 0.05, float64(k)}), h.apply(pt{t + 0.05, float64(k)})
		} else {
			bp = pt{float64(k), t}
			a, b = h.apply(pt{float64(k), t - 0.05}), h.apply(pt{float64(k), t + 0.05})
		}
		c := h.apply(bp)
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		// Unit normal and the local pitch in pixels across the line.
		nx, ny := -dy/l, dx/l
		var q pt
		if fam == 0 {
			q = h.apply(pt{t, float64(k) + 0.1})
		} else {
			q = h.apply(pt{float64(k) + 0.1, t})
		}
		pitch := math.Abs((q.X-c.X)*nx+(q.Y-c.Y)*ny) / 0.1
		off, s, ridge, ok := findDivider(img, c, nx, ny, pitch, round, strict && k > 0 && k < 5, &sc)
		if ok {
			found(pt{c.X + nx*off, c.Y + ny*off}, s, ridge)
		}
	}
}

// sideGap is how far (profile samples) beyond each edge its side is read.
const sideGap = 4

// sameSides reports whether the profile beyond edges i and j (i < j) is
// of about one level on both sides, compared with the ridge or groove
// between them.
func sameSides(prof []float64, i, j, gap int) bool {
	a, b := i-gap, j+gap
	if a < 0 || b >= len(prof) {
		return true
	}
	left, right := prof[a], prof[b]
	mid := prof[(i+j)/2]
	height := math.Abs(mid - (left+right)/2)
	ratio := sideRatio
	if mid < (left+right)/2 {
		ratio = grooveSideRatio
	}
	return math.Abs(left-right) <= ratio*height
}

// sideRatio is how much the sides of a ridge may differ, as a share of
// its height; grooveSideRatio those of a groove. A dark divider's shadow
// on the cell beside it darkens that side and widens the groove towards
// it, so a groove must have sides nearly alike. Until the thirty-sixth
// session both were 1.6. A groove's 0.8 / 0.4 / 0.2 / 0 (a trial that
// told grooves by the first edge's sign) gave, cold on 17000-17999, a
// median corner error of 1.32 / 1.27 / 1.30 / 1.40 % of a pitch (1.34 %)
// and 956 / 934 / 939 / 945 wrong cells (951); a ridge's 0.8 or 2.4
// beside a groove's 0.4, 1.27 / 1.29 % and 939 / 928. As here, 0.4:
// 17000-17999 1.34 -> 1.28 % (951 -> 925 wrong cells), 18000-18999 1.49
// -> 1.41 % (961 -> 969), 20000-20299 1.41 -> 1.36 % (271 -> 270),
// 21000-21199 1.37 -> 1.25 % (207 -> 206), 5000-5299 1.32 -> 1.25 % (258
// -> 259).
const (
	sideRatio       = 1.6
	grooveSideRatio = 0.4
)

// divProfLen bounds findDivider's profile across the line (samples).
const divProfLen = 600

// divScratch is findDivider's working room, reused across its calls (every
// entry it reads it has written in the same call).
type divScratch struct {
	prof [divProfLen]float64 // grey level across the line
	g    [divProfLen]float64 // its gradient
	ag   [divProfLen]float64 // |g|
	ext  [divProfLen]int     // local extrema of |g|
}

// findDivider searches across the line at c (normal nx, ny) for the
// divider: a pair of opposite edges (a ridge or a groove) a divider's width
// apart, near the predicted place. Its centre is the midpoint of the two
// edges, so a divider between a cell and the darker frame is not pulled
// towards either. It gives the offset along the normal in pixels, the
// strength (the weaker edge), and whether the divider is a ridge (lighter
// than its sides) rather than a groove.
func findDivider(img grayImg, c pt, nx, ny, pitch float64, round int, inner bool, sc *divScratch) (off, strength float64, ridge, ok bool) {
	search := 0.12 * pitch
	if round > 0 {
		search = 0.05 * pitch
	}
	search = math.Max(search, 2)
	maxSep := math.Max(2.5, 0.12*pitch) // widest divider seen, pixels
	const step = 0.5
	m := int((search+maxSep)/step) + 2
	prof, g, ag := &sc.prof, &sc.g, &sc.ag
	if 2*m+1 > len(prof) {
		m = (len(prof) - 1) / 2
	}
	// Bilinear samples (grayImg.at, inlined).
	fw, fh := float64(img.w-1), float64(img.h-1)
	p, stride := img.p, img.w
	// The samples' places are monotonic in i (each operation rounds
	// monotonically), so when both ends are inside the image all are.
	for _, i := range [2]int{-m, m} {
		x := c.X + nx*float64(i)*step
		y := c.Y + ny*float64(i)*step
		x -= 0.5
		y -= 0.5
		if x < 0 || y < 0 || x >= fw || y >= fh {
			return 0, 0, false, false
		}
	}
	ns := int(search / step)
	sep := int(maxSep/step) + 1
	// Only the edges of pairs whose midpoint is within ns of the centre
	// can be taken (i >= iLo, j <= jHi); the profile is sampled where
	// their extrema, peaks and sides (sideGap) read it.
	iLo, jHi := m-ns-(sep+1)/2, m+ns+(sep+1)/2
	lo, hi := max(0, iLo-sideGap), min(2*m, jHi+sideGap)
	for i := lo - m; i <= hi-m; i++ {
		x := c.X + nx*float64(i)*step
		y := c.Y + ny*float64(i)*step
		x -= 0.5
		y -= 0.5
		ix, iy := int(x), int(y)
		fx, fy := x-float64(ix), y-float64(iy)
		o := iy*stride + ix
		q := p[o : o+stride+2]
		a := float64(q[0])*(1-fx) + float64(q[1])*fx
		b := float64(q[stride])*(1-fx) + float64(q[stride+1])*fx
		prof[i+m] = a*(1-fy) + b*fy
	}
	for i := max(1, lo+1); i < min(2*m, hi); i++ {
		v := (prof[i+1] - prof[i-1]) / 2
		g[i] = v
		ag[i] = math.Abs(v)
	}
	peak := func(i int) float64 { // sub-step position of an extremum of g
		a, b, cc := g[i-1], g[i], g[i+1]
		den := a - 2*b + cc
		if den == 0 {
			return float64(i)
		}
		d := 0.5 * (a - cc) / den
		if d < -0.5 || d > 0.5 {
			d = 0
		}
		return float64(i) + d
	}
	// The edges: local extrema of the gradient of at least 2 grey levels
	// (weaker ones cannot make a divider), paired below.
	ext := &sc.ext
	ne := 0
	for i := max(2, iLo); i < min(2*m-1, jHi+1); i++ {
		// a >= 2 && a >= ag[i-1] && a >= ag[i+1], without branches.
		a := ag[i]
		k := 0
		if a >= 2 {
			k++
		}
		if a >= ag[i-1] {
			k++
		}
		if a >= ag[i+1] {
			k++
		}
		ext[ne] = i
		ne += (k + 1) >> 2
	}
	best, bi, bj := 0.0, -1, -1
	for p := 0; p < ne; p++ {
		i := ext[p]
		gi := g[i]
		for q := p + 1; q < ne && ext[q] <= i+sep; q++ {
			j := ext[q]
			gj := g[j]
			if gi*gj >= 0 {
				continue
			}
			mid := (i + j) / 2
			if mid-m < -ns || mid-m > ns {
				continue
			}
			s := min(ag[i], ag[j])
			if s > best && (!inner || sameSides(prof[:2*m+1], i, j, sideGap)) {
				best, bi, bj = s, i, j
			}
		}
	}
	if bi < 0 || best < 2 {
		return 0, 0, false, false
	}
	// The profile rises at the first edge of a ridge (bi < bj).
	return ((peak(bi)+peak(bj))/2 - float64(m)) * step, best, g[bi] > 0, true
}

// robustLine fits a line to weighted points by iteratively reweighted total
// least squares (Tukey weights).
func robustLine(p []pt, w0 []float64) (fitLine, int, bool) {
	// The weights, residuals and their copy for the median, on the stack
	// for the usual few dozen points.
	var buf [3 * 64]float64
	var w, res, s []float64
	if n := len(p); n <= 64 {
		w, res, s = buf[:n:n], buf[64:64+n:64+n], buf[128:128+n:128+n]
	} else {
		w, res, s = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	copy(w, w0)
	var l fitLine
	for it := 0; it < 6; it++ {
		var sw, mx, my float64
		for i, q := range p {
			sw += w[i]
			mx += w[i] * q.X
			my += w[i] * q.Y
		}
		if sw == 0 {
			return l, 0, false
		}
		mx /= sw
		my /= sw
		var sxx, sxy, syy float64
		for i, q := range p {
			dx, dy := q.X-mx, q.Y-my
			sxx += w[i] * dx * dx
			sxy += w[i] * dx * dy
			syy += w[i] * dy * dy
		}
		// Normal = eigenvector of the smaller eigenvalue.
		th := 0.5 * math.Atan2(2*sxy, sxx-syy) // direction of the line
		nx, ny := -math.Sin(th), math.Cos(th)
		l = fitLine{nx, ny, nx*mx + ny*my, true}
		// Residual scale.
		for i, q := range p {
			res[i] = math.Abs(nx*q.X + ny*q.Y - l.d)
		}
		copy(s, res)
		sc := math.Max(1.4826*nthSmallest(s, len(s)/2), 0.3)
		c := 3.5 * sc
		for i := range p {
			u := res[i] / c
			if u >= 1 {
				w[i] = 0
			} else {
				w[i] = w0[i] * (1 - u*u) * (1 - u*u)
			}
		}
	}
	in := 0
	for i, q := range p {
		if w[i] > 0 && math.Abs(l.nx*q.X+l.ny*q.Y-l.d) < 1.5 {
			in++
		}
	}
	return l, in, true
}

// seenLine reports whether l is the same line as one already kept.
func seenLine(kept []hline, l hline, xc, yc float64) bool {
	for _, k := range kept {
		if sameLine(k, l, xc, yc) {
			return true
		}
	}
	return false
}

// placeLine sets l's positions where it crosses two reference lines of the
// w x h frame and reports whether it is a row (near horizontal) rather
// than a column.
func placeLine(l *hline, w, h int) (row bool) {
	xc, yc := float64(w)/2, float64(h)/2
	s, c := math.Sin(l.theta), math.Cos(l.theta)
	if math.Abs(l.theta-math.Pi/2) < 40*math.Pi/180 {
		x1, x2 := xc-float64(w)/5, xc+float64(w)/5
		l.pos = (l.rho - x1*c) / s
		l.pos2 = (l.rho - x2*c) / s
		return true
	}
	y1, y2 := yc-float64(h)/4, yc+float64(h)/4
	l.pos = (l.rho - y1*s) / c
	l.pos2 = (l.rho - y2*s) / c
	return false
}

// nthSmallest gives the k-th smallest value of v (0-based), reordering v:
// a quickselect, as robustLine needs only the median of its residuals.
func nthSmallest(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		p := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// gridCrossings gives the crossings of the fitted row and column lines, as
// board points and image points, for the homography through them.
func gridCrossings(rows, cols [6]fitLine) (src, dst []pt) {
	for v := 0; v <= 5; v++ {
		for u := 0; u <= 5; u++ {
			a, b := rows[v], cols[u]
			if !a.ok || !b.ok {
				continue
			}
			p, ok := a.intersect(b)
			if !ok {
				continue
			}
			src = append(src, pt{float64(u), float64(v)})
			dst = append(dst, p)
		}
	}
	return src, dst
}
