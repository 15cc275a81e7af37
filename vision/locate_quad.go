package vision

import (
	"math"
	"sort"
)

// Grids from the board's frame: on crowded boards the blocks hide most
// inner dividers, but the frame (a band of one colour 0.4-0.8 pitch wide
// around the grid, with nothing standing on it) stays visible along most of
// its length, and its outer edge against the table and its inner edge
// against the cells are long straight edges. Every choice of two row lines
// and two column lines among the strongest Hough lines is taken as either
// edge of the frame, for a few frame widths; each hypothesis is scored by
// how well the colours fit a frame there: the band even in colour, the
// table beyond it and the cells within it different.

// quadLines is how many of each family's strongest lines are paired.
const quadLines = 8

// quadKeep is how many frame grids locate adds to its candidates.
const quadKeep = 3

// frameWidths are the frame widths (pitches, each side) tried.
var frameWidths = [...]float64{0.4, 0.5, 0.6, 0.7, 0.8}

type quadCand struct {
	h homography
	s float64
}

// quadCandidates proposes grids from frame outlines (rows and cols in vote
// order, positions on the transversals set).
func (r *Reader) quadCandidates(rows, cols []hline, w, h int) []quadCand {
	rs := append([]hline(nil), strongest(rows, quadLines)...)
	cs := append([]hline(nil), strongest(cols, quadLines)...)
	if len(rs) < 2 || len(cs) < 2 {
		return nil
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].pos < rs[j].pos })
	sort.Slice(cs, func(i, j int) bool { return cs[i].pos < cs[j].pos })
	type pair struct{ a, b int }
	var rp, cp []pair
	minH, minW := 0.15*float64(h), 0.15*float64(w)
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[j].pos-rs[i].pos >= minH && rs[j].pos2-rs[i].pos2 >= minH {
				rp = append(rp, pair{i, j})
			}
		}
	}
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			if cs[j].pos-cs[i].pos >= minW && cs[j].pos2-cs[i].pos2 >= minW {
				cp = append(cp, pair{i, j})
			}
		}
	}
	var out []quadCand
	for _, a := range rp {
		for _, b := range cp {
			var c [4][2]float64
			ok := true
			for k, lp := range [4][2]hline{{rs[a.a], cs[b.a]}, {rs[a.a], cs[b.b]}, {rs[a.b], cs[b.b]}, {rs[a.b], cs[b.a]}} {
				p, ok1 := intersect(lp[0], lp[1])
				if !ok1 {
					ok = false
					break
				}
				c[k] = [2]float64{p.X, p.Y}
			}
			if !ok || !squarish(c) || !plausibleGrid(c, w, h) {
				continue
			}
			hq, ok := homographyFromCorners(c)
			if !ok {
				continue
			}
			// A coarse first pass: two frame widths, few samples.
			for _, fw := range [2]float64{0.45, 0.7} {
				// The outline as the frame's inner edge (the grid's).
				if s := r.frameFit(hq, fw, 4); s > 0 {
					out = append(out, quadCand{hq, s})
				}
				// The outline as the frame's outer edge.
				k := 5 / (5 + 2*fw)
				hg := mul3(hq, homography{k, 0, fw * k, 0, k, fw * k, 0, 0, 1})
				if s := r.frameFit(hg, fw, 4); s > 0 {
					out = append(out, quadCand{hg, s})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].s > out[j].s })
	if len(out) > quadRescore {
		out = out[:quadRescore]
	}
	for i := range out {
		out[i].s = r.bestFrameFit(out[i].h, 12) + 0.5*r.ridgeSupportN(out[i].h, w, h, 10)
	}
	return distinctBest(out, quadKeep)
}

// distinctBest gives the n best candidates whose grids are a third of a
// pitch or more apart, best first.
func distinctBest(cands []quadCand, n int) []quadCand {
	sort.Slice(cands, func(i, j int) bool { return cands[i].s > cands[j].s })
	var kept []quadCand
	for _, q := range cands {
		dup := false
		for _, k := range kept {
			if sameGridTol(k.h, q.h, 0.3) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		kept = append(kept, q)
		if len(kept) == n {
			break
		}
	}
	return kept
}

// frameLines sorts the strongest lines of step edges (raw: rho, theta
// pairs in vote order, from the Canny edges of the reduced frame) into the
// two families, quadLines of each at most.
func frameLines(raw []float32, w, h int) (rows, cols []hline) {
	return familyLines(raw, w, h, quadLines)
}

// familyLines sorts the strongest lines (raw: rho, theta pairs in vote
// order) into the two families, n of each at most.
func familyLines(raw []float32, w, h, quadLines int) (rows, cols []hline) {
	xc, yc := float64(w)/2, float64(h)/2
	var kept []hline
	for i := 0; i+1 < len(raw) && (len(rows) < quadLines || len(cols) < quadLines); i += 2 {
		l := hline{rho: float64(raw[i]), theta: float64(raw[i+1])}
		l.rho += 0.5 * (math.Cos(l.theta) + math.Sin(l.theta))
		if seenLine(kept, l, xc, yc) {
			continue
		}
		kept = append(kept, l)
		if placeLine(&l, w, h) {
			if len(rows) < quadLines {
				rows = append(rows, l)
			}
		} else if len(cols) < quadLines {
			cols = append(cols, l)
		}
	}
	return rows, cols
}

// squarish rejects outlines that cannot be a square board seen from
// TABLE.md's camera places: opposite sides too unequal, or far too wide or
// tall.
func squarish(c [4][2]float64) bool {
	l := func(a, b int) float64 { return math.Hypot(c[a][0]-c[b][0], c[a][1]-c[b][1]) }
	top, right, bottom, left := l(0, 1), l(1, 2), l(2, 3), l(3, 0)
	if top > 1.8*bottom || bottom > 1.8*top || left > 1.8*right || right > 1.8*left {
		return false
	}
	a := (top + bottom) / (left + right)
	return a > 0.5 && a < 3.5
}

// quadRescore is how many hypotheses are scored again more finely.
const quadRescore = 24

// bestFrameFit is frameFit at the best frame width.
func (r *Reader) bestFrameFit(hh homography, per int) float64 {
	best := 0.0
	for _, fw := range frameWidths {
		best = math.Max(best, r.frameFit(hh, fw, per))
	}
	return best
}

// frameFit scores a frame fw pitches wide around the grid hh (reduced
// frame): the share of samples of the band near its median colour, times
// the mean share of samples beyond it (table, the board's side) and within
// it (cells, pieces) that are not. per is the samples per side and depth.
func (r *Reader) frameFit(hh homography, fw float64, per int) float64 {
	if per > 16 {
		per = 16
	}
	var uT, oT, iT float64
	// The samples' colours (r, g, b: whole grey levels), by channel; every
	// entry read below was written for the side at hand.
	var band [3][32]int32
	var out, in [3][16]int32
	// How far outside the grid each kind of sample lies: the band at two
	// depths, beyond it, and within the grid.
	ds := [4]float64{0.3 * fw, 0.7 * fw, fw + 0.15, -0.15}
	pw, ph := r.px.w, r.px.h
	fpw, fph := float64(pw), float64(ph)
	bgr := r.px.bgr
	for side := 0; side < 4; side++ {
		nb, no, ni := 0, 0, 0
		for i := 0; i < per; i++ {
			t := 0.25 + (float64(i)+0.5)*4.5/float64(per)
			for q, d := range ds {
				b := sidePoint(side, t, d)
				// hh.apply, inlined.
				w := hh[6]*b.X + hh[7]*b.Y + hh[8]
				x, y := (hh[0]*b.X+hh[1]*b.Y+hh[2])/w, (hh[3]*b.X+hh[4]*b.Y+hh[5])/w
				if x < 0 || y < 0 || x >= fpw || y >= fph {
					continue
				}
				o := (int(y)*pw + int(x)) * 3
				cr, cg, cb := int32(bgr[o+2]), int32(bgr[o+1]), int32(bgr[o])
				switch q {
				case 0, 1:
					band[0][nb], band[1][nb], band[2][nb] = cr, cg, cb
					nb++
				case 2:
					out[0][no], out[1][no], out[2][no] = cr, cg, cb
					no++
				default:
					in[0][ni], in[1][ni], in[2][ni] = cr, cg, cb
					ni++
				}
			}
		}
		if nb < per || no == 0 || ni == 0 {
			continue
		}
		var med [3]int32
		for c := 0; c < 3; c++ {
			med[c] = kthLevel(band[c][:nb], nb/2)
		}
		// Sums of whole grey levels: exact, as in floating point.
		tol := 15 + 0.1*(float64(med[0])+float64(med[1])+float64(med[2]))/3
		near := func(cs *[3][16]int32, i int) bool {
			return float64(abs32(cs[0][i]-med[0])+abs32(cs[1][i]-med[1])+abs32(cs[2][i]-med[2])) < tol
		}
		u, fo, fi := 0, 0, 0
		for i := 0; i < nb; i++ {
			if float64(abs32(band[0][i]-med[0])+abs32(band[1][i]-med[1])+abs32(band[2][i]-med[2])) < tol {
				u++
			}
		}
		for i := 0; i < no; i++ {
			if !near(&out, i) {
				fo++
			}
		}
		for i := 0; i < ni; i++ {
			if !near(&in, i) {
				fi++
			}
		}
		uT += float64(u) / float64(2*per)
		oT += float64(fo) / float64(no)
		iT += float64(fi) / float64(ni)
	}
	return uT / 4 * (0.5*oT/4 + 0.5*iT/4)
}

// sidePoint is the board point d outside the grid on the given side (0
// top, 1 right, 2 bottom, 3 left), at t along it.
func sidePoint(side int, t, d float64) pt {
	switch side {
	case 0:
		return pt{t, -d}
	case 1:
		return pt{5 + d, t}
	case 2:
		return pt{t, 5 + d}
	}
	return pt{-d, t}
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// kthLevel gives the k-th smallest (0-based) of grey levels v (0-255): a
// bisection on the level, counting the values at or below it.
func kthLevel(v []int32, k int) int32 {
	lo, hi := int32(255), int32(0)
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	for lo < hi {
		mid := (lo + hi) >> 1
		cnt := 0
		for _, x := range v {
			cnt += int(uint32(mid-x)>>31) ^ 1 // x <= mid
		}
		if cnt > k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// sameGridTol reports whether two grids' corners are within tol pitches
// (of a's mean pitch).
func sameGridTol(a, b homography, tol float64) bool {
	var ca [4]pt
	for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		ca[i] = a.apply(p)
	}
	pitch := (math.Hypot(ca[1].X-ca[0].X, ca[1].Y-ca[0].Y) + math.Hypot(ca[2].X-ca[3].X, ca[2].Y-ca[3].Y)) / 10
	for i, p := range []pt{{0, 0}, {5, 0}, {5, 5}, {0, 5}} {
		q := b.apply(p)
		if math.Hypot(q.X-ca[i].X, q.Y-ca[i].Y) > tol*pitch {
			return false
		}
	}
	return true
}
