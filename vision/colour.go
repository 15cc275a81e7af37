package vision

import (
	"image"
	"math"
	"sort"
)

// The colour model gives, for each pixel, the log-likelihood of its colour
// under each label. Colours are reduced to three features: brightness
// relative to the board's cells, and two chroma coordinates (red-green,
// yellow-blue, each over brightness). The object labels (block, dome, the
// three pawn colours) use histograms learned on simulated frames (seeds below
// 10000; see TestLearnColours); the board label is a Gaussian around the
// cells' colour measured in the frame itself, mixed with a broad floor for
// the dividers, frame, table and anything else with nothing placed on it.

const (
	binsL = 16
	binsC = 16
	nBins = binsL * binsC * binsC
)

// ringWeight is the share of the frame's own background histogram in the
// board label's "anything else" (the rest is the learned one).
const ringWeight = 0.5

// shadowSD is the spread of the cells' log-brightness below their median
// (cast shadows).
const shadowSD = 0.25

// logBinVol is the log of one histogram bin's volume in feature space.
var logBinVol = math.Log(3.0 / binsL * 0.8 / binsC * 0.8 / binsC)

type colourModel struct {
	ll     [nLab][]float32
	bin    []uint16
	board  [3]float64 // board colour features
	bgHist []float64  // log-probabilities of "anything else" per bin
	sd     [3]float64
	// colours are the learned histograms; nil means the built-in ones.
	colours *Colours
}

// lut gives the learned histograms in use.
func (m *colourModel) lut() *Colours {
	if m.colours != nil {
		return m.colours
	}
	return &builtin
}

// features gives (relative brightness, red-green, yellow-blue) of an sRGB pixel.
func features(r, g, b float64) (float64, float64, float64) {
	s := r + g + b + 24
	return logSum[int(r+g+b)], (r - g) / s, ((r+g)/2 - b) / s
}

// logSum[s] = log((s + 24) / 3) for the sums of three 8-bit channels.
var logSum = func() (t [766]float64) {
	for s := range t {
		t[s] = math.Log(float64(s+24) / 3)
	}
	return t
}()

func binOf(l, a, b float64) uint16 {
	// Relative log-brightness in [-2, 1], chroma in [-0.4, 0.4].
	il := int((l + 2) / 3 * binsL)
	ia := int((a + 0.4) / 0.8 * binsC)
	ib := int((b + 0.4) / 0.8 * binsC)
	il = max(0, min(binsL-1, il))
	ia = max(0, min(binsC-1, ia))
	ib = max(0, min(binsC-1, ib))
	return uint16((il*binsC+ia)*binsC + ib)
}

// cellColours measures each cell's colour: the median features over a
// small grid at the cell's centre (on the board plane).
func cellColours(px *pixels, h homography) [25][3]float64 {
	var out [25][3]float64
	var vals [3][25]float64
	for i := 0; i < 25; i++ {
		row, col := i/5, i%5
		n := 0
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				p := h.apply(pt{float64(col) + 0.5 + float64(dx)*0.09, float64(row) + 0.5 + float64(dy)*0.09})
				r, g, b := px.at(int(p.X), int(p.Y))
				vals[0][n], vals[1][n], vals[2][n] = features(r, g, b)
				n++
			}
		}
		for q := range vals {
			out[i][q] = median(vals[q][:n])
		}
	}
	return out
}

// boardCandidates proposes the cells' colour: the cell colours fall in a
// few clusters (bare cells, block tops, shadowed faces, pawns); each
// cluster of two or more cells is a candidate, with its spread. Which one is
// the board is decided by how well each explains the whole frame.
func boardCandidates(cells [25][3]float64) (means, sds [][3]float64) {
	scale := [3]float64{0.15, 0.03, 0.03}
	dist := func(a, b [3]float64) float64 {
		var d float64
		for q := range a {
			e := (a[q] - b[q]) / scale[q]
			d += e * e
		}
		return d
	}
	// k-means, k = 3, started from the least white, a middle and the
	// whitest cell.
	order := make([]int, 25)
	wh := func(c [3]float64) float64 { return c[0] - 4*math.Hypot(c[1], c[2]) }
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return wh(cells[order[a]]) < wh(cells[order[b]]) })
	cent := [][3]float64{cells[order[0]], cells[order[12]], cells[order[24]]}
	var assign [25]int
	for it := 0; it < 8; it++ {
		for i := range cells {
			best := 0
			for k := range cent {
				if dist(cells[i], cent[k]) < dist(cells[i], cent[best]) {
					best = k
				}
			}
			assign[i] = best
		}
		for k := range cent {
			var s [3]float64
			n := 0
			for i := range cells {
				if assign[i] == k {
					for q := range s {
						s[q] += cells[i][q]
					}
					n++
				}
			}
			if n > 0 {
				for q := range s {
					cent[k][q] = s[q] / float64(n)
				}
			}
		}
	}
	// Merge clusters whose centres are close (a bare board splits in three).
	for a := range cent {
		for b := a + 1; b < len(cent); b++ {
			if dist(cent[a], cent[b]) < 1.5 {
				for i := range assign {
					if assign[i] == b {
						assign[i] = a
					}
				}
			}
		}
	}
	type cluster struct {
		mean, sd [3]float64
		n        int
	}
	var cl []cluster
	for k := range cent {
		var v [3][]float64
		for i := range cells {
			if assign[i] == k {
				for q := range v {
					v[q] = append(v[q], cells[i][q])
				}
			}
		}
		if len(v[0]) < 2 {
			continue
		}
		var mean, sd [3]float64
		for q := range v {
			mean[q] = median(v[q])
			var dev []float64
			for _, x := range v[q] {
				dev = append(dev, math.Abs(x-mean[q]))
			}
			sd[q] = median(dev) * 1.5
		}
		sd[0] = math.Min(math.Max(sd[0], 0.08), 0.12)
		sd[1] = math.Min(math.Max(sd[1], 0.015), 0.04)
		sd[2] = math.Min(math.Max(sd[2], 0.015), 0.04)
		cl = append(cl, cluster{mean, sd, len(v[0])})
	}
	// Blocks are the whitest things on a board and no edition's cells are:
	// drop the whitest cluster when there is another, then prefer the
	// largest.
	if len(cl) > 1 {
		w := 0
		for k := range cl {
			if wh(cl[k].mean) > wh(cl[w].mean) {
				w = k
			}
		}
		if wh(cl[w].mean) > 4.9 {
			cl = append(cl[:w], cl[w+1:]...)
		}
	}
	sort.SliceStable(cl, func(a, b int) bool { return cl[a].n > cl[b].n })
	for _, c := range cl {
		means = append(means, c.mean)
		sds = append(sds, c.sd)
	}
	if len(means) == 0 {
		means = append(means, cells[order[0]])
		sds = append(sds, [3]float64{0.08, 0.015, 0.015})
	}
	return means, sds
}

// estimateBoard sets the board colour to the candidate of the least white
// cluster; readCells tries them all.
func (m *colourModel) estimateBoard(px *pixels, h homography) {
	means, sds := boardCandidates(cellColours(px, h))
	m.board, m.sd = means[0], sds[0]
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// compute fills the per-pixel log-likelihoods inside rect.
// ringHistogram learns this frame's background: the colours of the board
// plane outside the grid (frame, slab, table) on the near, left and right
// sides, which pieces standing on the grid do not cover (the far side is
// behind the far towers at low angles). The result, mixed half and half with
// the learned background histogram, is the board label's "anything else".
func (m *colourModel) ringHistogram(px *pixels, h homography) {
	if cap(m.bgHist) < nBins {
		m.bgHist = make([]float64, nBins)
	}
	hist := m.bgHist[:nBins]
	bgLUT := &m.lut().bg
	for k := range hist {
		hist[k] = 0
	}
	n := 0
	for y := -0.5; y < 7.5; y += 0.08 {
		for x := -2.5; x < 7.5; x += 0.08 {
			if y < 5.08 && x > -0.08 && x < 5.08 {
				continue // the grid
			}
			p := h.apply(pt{x, y})
			ix, iy := int(p.X), int(p.Y)
			if ix < 0 || iy < 0 || ix >= px.w || iy >= px.h {
				continue
			}
			r, g, b := px.at(ix, iy)
			l, a, bb := features(r, g, b)
			hist[binOf(l-m.board[0], a, bb)]++
			n++
		}
	}
	sm := smooth(hist)
	var tot float64
	for _, v := range sm {
		tot += v
	}
	for k := range hist {
		var p float64
		if tot > 0 {
			p = sm[k] / tot
		}
		hist[k] = math.Log(ringWeight*p + (1-ringWeight)*math.Exp(bgLUT[k]))
	}
}

func (m *colourModel) compute(px *pixels, rect image.Rectangle) {
	n := px.w * px.h
	for l := range m.ll {
		if cap(m.ll[l]) < n {
			m.ll[l] = make([]float32, n)
		}
		m.ll[l] = m.ll[l][:n]
	}
	rect = rect.Intersect(image.Rect(0, 0, px.w, px.h))
	objLUT := &m.lut().obj
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			o := y*px.w + x
			r, g, b := float64(px.bgr[3*o+2]), float64(px.bgr[3*o+1]), float64(px.bgr[3*o])
			l, a, bb := features(r, g, b)
			l -= m.board[0]
			k := binOf(l, a, bb)
			zl := l / m.sd[0]
			if l < 0 {
				// Shadows darken the cells far more than lamps brighten them.
				zl = l / shadowSD
			}
			za := (a - m.board[1]) / m.sd[1]
			zb := (bb - m.board[2]) / m.sd[2]
			// The cells' Gaussian as a probability per histogram bin, mixed
			// with the learned histogram of everything not a piece.
			gl := -0.5*(zl*zl+za*za+zb*zb) - math.Log(m.sd[0]*m.sd[1]*m.sd[2]) - 2.757 + logBinVol
			m.ll[labBoard][o] = float32(logAddExp(gl+math.Log(0.6), m.bgHist[k]+math.Log(0.4)))
			for c := labBlock; c < nLab; c++ {
				m.ll[c][o] = objLUT[c-1][k]
			}
		}
	}
}

// logAddExp gives log(exp(a) + exp(b)), from a table of log(1 + exp(-d)).
func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	d := (a - b) * log1pExpStep
	if d >= float64(len(log1pExpTable)-1) {
		return a
	}
	i := int(d)
	f := d - float64(i)
	return a + log1pExpTable[i]*(1-f) + log1pExpTable[i+1]*f
}

const log1pExpStep = 16 // table entries per unit of a-b

var log1pExpTable = func() (t [16*16 + 1]float64) {
	for i := range t {
		t[i] = math.Log1p(math.Exp(-float64(i) / log1pExpStep))
	}
	return t
}()

// smooth blurs a histogram with a 3x3x3 kernel (centre weighted) so that
// bins next to the training colours are not impossible.
func smooth(h []float64) []float64 {
	out := make([]float64, len(h))
	for il := 0; il < binsL; il++ {
		for ia := 0; ia < binsC; ia++ {
			for ib := 0; ib < binsC; ib++ {
				var s, ws float64
				for dl := -1; dl <= 1; dl++ {
					for da := -1; da <= 1; da++ {
						for db := -1; db <= 1; db++ {
							l, a, b := il+dl, ia+da, ib+db
							if l < 0 || a < 0 || b < 0 || l >= binsL || a >= binsC || b >= binsC {
								continue
							}
							wt := 1.0
							if dl != 0 || da != 0 || db != 0 {
								wt = 0.25
							}
							s += wt * h[(l*binsC+a)*binsC+b]
							ws += wt
						}
					}
				}
				out[(il*binsC+ia)*binsC+ib] = s / ws * 27 / 7.5
			}
		}
	}
	return out
}
