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
	// ll holds the label planes interleaved, pixel o's label l at
	// o*llStride+l: a pixel's seven values share a cache line, which the
	// kernels that read or write them all (or two labels at a time) want.
	ll     []float32
	board  [3]float64 // board colour features
	bgHist []float64  // log-probabilities of "anything else" per bin
	sd     [3]float64
	// block is the frame's block-top colour and spread (a cluster of cell
	// colours), if any: the block label then mixes a Gaussian around it with
	// the learned histogram, as sharp as the board's, so that neither label
	// wins a block top by its sharpness alone.
	block, blockSD [3]float64
	hasBlock       bool
	// noBoard: the cells' colour is unknown (none seen at the cell
	// centres); the board label is then the broad "anything else" alone.
	noBoard bool
	scratch [4][]float64 // boardFromMap's samples
	// colourMemo is the C kernel's memo of colours seen (colour_ll).
	colourMemo []colourMemoSlot
	// colours are the learned histograms; nil means the built-in ones.
	colours *Colours
	// ring holds the colour features of ringHistogram's samples about the
	// board on grid ringH of the frame ringPx: a reading takes the ring
	// two or more times on one grid with only the board colour changed.
	// forgetRing clears it for a new frame.
	ring   [][3]float64
	ringH  homography
	ringPx *uint8
	ringOK bool
	// bgMix is the learned background's share of ringHistogram's mixture,
	// (1-ringWeight) exp(bg), for the histograms bgMixFor (the same for
	// every frame: 4096 exponentials a call saved).
	bgMix    []float64
	bgMixFor *Colours
	// smoothing is ringHistogram's scratch for smoothInto.
	smoothing []float64
}

// backgroundMix gives bgMix for the histograms in use.
func (m *colourModel) backgroundMix() []float64 {
	c := m.lut()
	if m.bgMixFor != c || len(m.bgMix) != nBins {
		m.bgMix = m.bgMix[:0]
		for _, v := range c.bg {
			m.bgMix = append(m.bgMix, (1-ringWeight)*math.Exp(v))
		}
		m.bgMixFor = c
	}
	return m.bgMix
}

// forgetRing drops the ring's samples (a new frame).
func (m *colourModel) forgetRing() { m.ringOK = false }

// ringSamples gives the colour features of the ring's samples of px about
// the board on grid h: the frame outside the grid, out to about two and a
// half pitches, every 0.08 pitch.
func (m *colourModel) ringSamples(px *pixels, h homography) [][3]float64 {
	var first *uint8
	if len(px.bgr) > 0 {
		first = &px.bgr[0]
	}
	if m.ringOK && m.ringH == h && m.ringPx == first {
		return m.ring
	}
	m.ring = m.ring[:0]
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
			m.ring = append(m.ring, [3]float64{l, a, bb})
		}
	}
	m.ringH, m.ringPx, m.ringOK = h, first, true
	return m.ring
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
// few clusters (bare cells, block tops lit and shaded, pawns); each cluster
// of two or more cells is a candidate, with its spread, largest first.
// Which one is the board is decided by how well each explains the frame.
func boardCandidates(cells [25][3]float64) (means, sds [][3]float64) {
	// Greedy clustering: the cell with the most others near it seeds a
	// cluster of those, which leave; repeat.
	var used [25]bool
	var clusters [][]int
	for len(clusters) < 2*maxBoardCands {
		seed, most := -1, 0
		for i := range cells {
			if used[i] {
				continue
			}
			n := 0
			for j := range cells {
				if !used[j] && dist(cells[i], cells[j]) <= 1 {
					n++
				}
			}
			if n > most {
				seed, most = i, n
			}
		}
		if most < 2 {
			break
		}
		var members []int
		for j := range cells {
			if !used[j] && dist(cells[seed], cells[j]) <= 1 {
				used[j] = true
				members = append(members, j)
			}
		}
		clusters = append(clusters, members)
	}
	// Clusters close to each other are one surface lit unevenly (lamp and
	// shade on a bare board, block tops near and far from the lamp): merge
	// them, closest first, so that one surface is not tried as two things.
	centre := func(members []int) [3]float64 {
		var v [3][25]float64
		for n, j := range members {
			for q := range v {
				v[q][n] = cells[j][q]
			}
		}
		return [3]float64{median(v[0][:len(members)]), median(v[1][:len(members)]), median(v[2][:len(members)])}
	}
	for {
		ba, bb, bd := -1, -1, math.Inf(1)
		for a := range clusters {
			for b := a + 1; b < len(clusters); b++ {
				if ca, cb := centre(clusters[a]), centre(clusters[b]); sameSurface(ca, cb) && dist(ca, cb) < bd {
					bd = dist(ca, cb)
					ba, bb = a, b
				}
			}
		}
		if ba < 0 {
			break
		}
		clusters[ba] = append(clusters[ba], clusters[bb]...)
		clusters = append(clusters[:bb], clusters[bb+1:]...)
	}
	// Largest first.
	sort.SliceStable(clusters, func(a, b int) bool { return len(clusters[a]) > len(clusters[b]) })
	if len(clusters) > maxBoardCands {
		clusters = clusters[:maxBoardCands]
	}
	var vals [3][25]float64
	for _, members := range clusters {
		n := len(members)
		for k, j := range members {
			for q := range vals {
				vals[q][k] = cells[j][q]
			}
		}
		var mean, sd [3]float64
		var dev [25]float64
		for q := range vals {
			mean[q] = median(vals[q][:n])
			for j := 0; j < n; j++ {
				dev[j] = math.Abs(vals[q][j] - mean[q])
			}
			sd[q] = median(dev[:n]) * 1.5
		}
		sd[0] = math.Min(math.Max(sd[0], 0.08), 0.12)
		sd[1] = math.Min(math.Max(sd[1], 0.015), 0.04)
		sd[2] = math.Min(math.Max(sd[2], 0.015), 0.04)
		means = append(means, mean)
		sds = append(sds, sd)
	}
	if len(means) == 0 {
		var v [3][25]float64
		for i := range cells {
			for q := range v {
				v[q][i] = cells[i][q]
			}
		}
		means = append(means, [3]float64{median(v[0][:]), median(v[1][:]), median(v[2][:])})
		sds = append(sds, [3]float64{0.08, 0.015, 0.015})
	}
	return means, sds
}

// chooseColours takes the whitest cluster of cell colours (not blue) as
// the block tops', when there are others: blocks are the whitest things on
// a board. It gives the clusters to try as the board's: no board's cells
// are blue, nor the whitest thing on it (on a dense board most cell centres
// show block tops, so the largest cluster need not be the board).
func (m *colourModel) chooseColours(means, sds [][3]float64) []int {
	m.hasBlock = false
	wb, nb := -1, 0
	for b := range means {
		if !blueish(means[b]) {
			nb++
			if wb < 0 || whiteness(means[b]) > whiteness(means[wb]) {
				wb = b
			}
		}
	}
	// Blocks are off-white: a strongly coloured cluster is cells.
	if nb > 1 && offWhite(means[wb]) {
		m.block, m.blockSD, m.hasBlock = means[wb], sds[wb], true
		m.blockSD[0] = math.Max(m.blockSD[0], 0.1)
	}
	var out []int
	for b := range means {
		if !blueish(means[b]) && (b != wb || !m.hasBlock) {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		out = append(out, 0)
	}
	return out
}

// maxBlockChroma bounds the block tops' chroma: off-white, under lamps
// anywhere from neutral to warm (blocks tinted by a warm lamp reach about
// 0.12 on simulated frames; grass cells 0.2 and more).
const maxBlockChroma = 0.17

// offWhite reports a colour block tops can have.
func offWhite(c [3]float64) bool { return !blueish(c) && math.Hypot(c[1], c[2]) < maxBlockChroma }

// blockGaussWeight is the share of the frame's block-top Gaussian in the
// block label (the rest is the learned histogram: faces, windows, shadows).
const blockGaussWeight = 0.4

// sideGaussWeight is the share of the block-chroma model in the block
// sides' label, whose brightness spans sideSpan below the top's.
const (
	sideGaussWeight = 0.3
	sideSpan        = 1.2
)

// blueish reports a colour no board's cells have: domes and blue pawns.
func blueish(c [3]float64) bool { return c[2] < -0.1 }

// whiteness ranks colours from dark or coloured to bright and neutral.
func whiteness(c [3]float64) float64 { return c[0] - 4*math.Hypot(c[1], c[2]) }

// maxBoardCands bounds the board colours tried.
const maxBoardCands = 4

// clusterScale is the radius of a cluster of cell colours, per feature.
var clusterScale = [3]float64{0.12, 0.025, 0.025}

// dist is the squared distance of two colours in clusterScale units.
func dist(a, b [3]float64) float64 {
	var d float64
	for q := range a {
		e := (a[q] - b[q]) / clusterScale[q]
		d += e * e
	}
	return d
}

// sameSurface reports colours close enough to be one surface lit unevenly.
func sameSurface(a, b [3]float64) bool { return dist(a, b) <= mergeDist*mergeDist }

// mergeDist is the distance (in the clustering's scaled units, where a
// cluster's radius is 1) within which two clusters are merged.
var mergeDist = 1.5

// estimateBoard sets the board colour for learning colours, where the
// truth is known: the median colour of the bare cells (nothing on them),
// else the first cluster readCells tries. The histograms are relative to
// the board's brightness, so a board taken from a block top would teach
// them shifted colours.
func (m *colourModel) estimateBoard(px *pixels, h homography, bare [25]bool) {
	cells := cellColours(px, h)
	var v [3][25]float64
	n := 0
	for i := range cells {
		if bare[i] {
			for q := range v {
				v[q][n] = cells[i][q]
			}
			n++
		}
	}
	if n >= 2 {
		m.board = [3]float64{median(v[0][:n]), median(v[1][:n]), median(v[2][:n])}
		return
	}
	means, sds := boardCandidates(cells)
	b := m.chooseColours(means, sds)[0]
	m.board, m.sd = means[b], sds[b]
}

// boardBelow is how much darker (log-brightness) than the block tops the
// cells are assumed while their colour is unknown: the middle of TABLE.md's
// boards (grass, sand, stone) against off-white blocks.
const boardBelow = 0.6

// boardFromMap measures the cells' colour where the drawn label map lab
// (the frame's size) shows bare board: a lattice of points on the board
// plane inside the cells, clear of the dividers. It gives the median
// colour, its spread and how many points it used.
func (m *colourModel) boardFromMap(px *pixels, h homography, lab []uint8) (mean, sd [3]float64, n int) {
	vals := &m.scratch
	for q := range vals {
		vals[q] = vals[q][:0]
	}
	for y := 0.06; y < 5; y += 0.05 {
		if f := y - math.Floor(y); f < 0.06 || f > 0.94 {
			continue
		}
		for x := 0.06; x < 5; x += 0.05 {
			if f := x - math.Floor(x); f < 0.06 || f > 0.94 {
				continue
			}
			p := h.apply(pt{x, y})
			ix, iy := int(p.X), int(p.Y)
			if ix < 0 || iy < 0 || ix >= px.w || iy >= px.h || lab[iy*px.w+ix] != labBoard {
				continue
			}
			r, g, b := px.at(ix, iy)
			l, a, bb := features(r, g, b)
			vals[0], vals[1], vals[2] = append(vals[0], l), append(vals[1], a), append(vals[2], bb)
		}
	}
	n = len(vals[0])
	if n == 0 {
		return mean, sd, 0
	}
	dev := append(vals[3][:0], vals[0]...)
	vals[3] = dev
	for q := 0; q < 3; q++ {
		mean[q] = median(vals[q])
		for j, v := range vals[q] {
			dev[j] = math.Abs(v - mean[q])
		}
		sd[q] = median(dev) * 1.5
	}
	sd[0] = math.Min(math.Max(sd[0], 0.08), 0.12)
	sd[1] = math.Min(math.Max(sd[1], 0.015), 0.04)
	sd[2] = math.Min(math.Max(sd[2], 0.015), 0.04)
	return mean, sd, n
}

// median is v's middle value (the upper of the two for an even count),
// the one sorting would put at len(v)/2; it reorders v. Past a few dozen
// values it selects (nthSmallest) rather than sorts: a board's few
// thousand samples in boardFromMap, the same value (the features have no
// NaN and no negative zero) in a fraction of the time.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	if len(v) <= 32 {
		sort.Float64s(v)
		return v[len(v)/2]
	}
	return nthSmallest(v, len(v)/2)
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
	mix := m.backgroundMix()
	for k := range hist {
		hist[k] = 0
	}
	for _, f := range m.ringSamples(px, h) {
		hist[binOf(f[0]-m.board[0], f[1], f[2])]++
	}
	if len(m.smoothing) != 2*nBins {
		m.smoothing = make([]float64, 2*nBins)
	}
	sm := smoothInto(hist, m.smoothing[:nBins], m.smoothing[nBins:])
	var tot float64
	for _, v := range sm {
		tot += v
	}
	for k := range hist {
		var p float64
		if tot > 0 {
			p = sm[k] / tot
		}
		hist[k] = math.Log(ringWeight*p + mix[k])
	}
}

func (m *colourModel) compute(px *pixels, rect image.Rectangle) {
	n := px.w * px.h
	if cap(m.ll) < n*llStride {
		m.ll = make([]float32, n*llStride)
	}
	m.ll = m.ll[:n*llStride]
	// A pixel's margin: the cell network averages 3x3 pixels about points
	// at rect's edge, which must not read the last frame's values.
	rect = rect.Inset(-1).Intersect(image.Rect(0, 0, px.w, px.h))
	objLUT := &m.lut().obj
	// Per-frame constants of the Gaussians (logs hoisted out of the loop).
	is := [3]float64{1 / m.sd[0], 1 / m.sd[1], 1 / m.sd[2]}
	gBoard := -math.Log(m.sd[0]*m.sd[1]*m.sd[2]) - 2.757 + logBinVol + math.Log(0.6)
	lBg := math.Log(0.4)
	ib := [3]float64{1 / m.blockSD[0], 1 / m.blockSD[1], 1 / m.blockSD[2]}
	gChroma := -math.Log(m.blockSD[1]*m.blockSD[2]) - 1.838 + logBinVol
	gTop := -math.Log(m.blockSD[0]) - 0.919 + math.Log(blockGaussWeight)
	lTop := math.Log(1 - blockGaussWeight)
	gSide := -math.Log(sideSpan+0.3) + math.Log(sideGaussWeight)
	lSide := math.Log(1 - sideGaussWeight)
	k := colourKernelArgs{is, ib, gBoard, lBg, gChroma, gTop, lTop, gSide, lSide}
	if !m.computeC(px, rect, k, objLUT) {
		m.computeGo(px, rect, k, objLUT)
	}
}

// computeGo is computeC in Go: the reference the kernel is tested against,
// and the fallback should its arguments not fit it.
func (m *colourModel) computeGo(px *pixels, rect image.Rectangle, kc colourKernelArgs, objLUT *[nLab - 1][nBins]float32) {
	is, ib := kc.is, kc.ib
	gBoard, lBg, gChroma, gTop, lTop, gSide, lSide := kc.gBoard, kc.lBg, kc.gChroma, kc.gTop, kc.lTop, kc.gSide, kc.lSide
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			o := y*px.w + x
			r, g, b := float64(px.bgr[3*o+2]), float64(px.bgr[3*o+1]), float64(px.bgr[3*o])
			l, a, bb := features(r, g, b)
			l -= m.board[0]
			k := binOf(l, a, bb)
			zl := l * is[0]
			if l < 0 {
				// Shadows darken the cells far more than lamps brighten them.
				zl = l / shadowSD
			}
			za := (a - m.board[1]) * is[1]
			zb := (bb - m.board[2]) * is[2]
			// The cells' Gaussian as a probability per histogram bin, mixed
			// with the learned histogram of everything not a piece.
			if m.noBoard {
				m.ll[o*llStride+labBoard] = float32(m.bgHist[k])
			} else {
				gl := -0.5*(zl*zl+za*za+zb*zb) + gBoard
				m.ll[o*llStride+labBoard] = float32(logAddExp(gl, m.bgHist[k]+lBg))
			}
			for c := labBlock; c < nLab; c++ {
				m.ll[o*llStride+c] = objLUT[c-1][k]
			}
			m.ll[o*llStride+labTop] = objLUT[0][k]
			if m.hasBlock {
				dl := l + m.board[0] - m.block[0]
				zl := dl * ib[0]
				if dl < 0 {
					zl = dl / shadowSD
				}
				za := (a - m.block[1]) * ib[1]
				zb := (bb - m.block[2]) * ib[2]
				gc := -0.5*(za*za+zb*zb) + gChroma
				learned := float64(objLUT[0][k])
				m.ll[o*llStride+labTop] = float32(logAddExp(gc-0.5*zl*zl+gTop, learned+lTop))
				// A side has the top's chroma at any shading from
				// window-dark to a little brighter than the top.
				if dl > -sideSpan && dl < 0.3 {
					m.ll[o*llStride+labBlock] = float32(logAddExp(gc+gSide, learned+lSide))
				}
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

// smooth blurs a histogram with a 3x3x3 kernel (centre weighted: 1, the
// 26 neighbours 0.25 each) so that bins next to the training colours are not
// impossible. The kernel is 0.75 times the centre plus 0.25 times a 3x3x3
// box sum, and the box sum is separable.
func smooth(h []float64) []float64 {
	return smoothInto(h, make([]float64, len(h)), make([]float64, len(h)))
}

// smoothInto is smooth with its two scratch histograms given (each as long
// as h); the result is one of them.
func smoothInto(h, box, tmp []float64) []float64 {
	copy(box, h)
	// One pass of a 3-tap box along each axis (strides ib 1, ia binsC, il
	// binsC^2), the bins walked in order with each one's place p on the axis
	// counted rather than divided out.
	for _, ax := range [3][2]int{{1, binsC}, {binsC, binsC}, {binsC * binsC, binsL}} {
		stride, n := ax[0], ax[1]
		for i0 := 0; i0 < len(box); i0 += stride * n {
			for p := 0; p < n; p++ {
				for i := i0 + p*stride; i < i0+(p+1)*stride && i < len(box); i++ {
					v := box[i]
					if p > 0 {
						v += box[i-stride]
					}
					if p < n-1 {
						v += box[i+stride]
					}
					tmp[i] = v
				}
			}
		}
		box, tmp = tmp, box
	}
	smoothFinish(h, box, tmp)
	return tmp
}

// smoothFinish sets out to smooth's result from h and its box sum: 0.75
// times the centre plus 0.25 times the box, over the kernel's weight at
// each bin (fewer neighbours at the edges).
func smoothFinish(h, box, out []float64) {
	edge := func(p, n int) float64 {
		if p == 0 || p == n-1 {
			return 2
		}
		return 3
	}
	for il := 0; il < binsL; il++ {
		for ia := 0; ia < binsC; ia++ {
			for ib := 0; ib < binsC; ib++ {
				k := (il*binsC+ia)*binsC + ib
				cnt := edge(il, binsL) * edge(ia, binsC) * edge(ib, binsC)
				out[k] = (0.75*h[k] + 0.25*box[k]) / (0.75 + 0.25*cnt) * 27 / 7.5
			}
		}
	}
}
