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

type colourModel struct {
	ll    [nLab][]float32
	bin   []uint16
	board [3]float64 // board colour features
	sd    [3]float64
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

// estimateBoard measures the cells' colour: for each cell the median
// features at its centre, then the median over the cells (most cells are
// bare in a game), with a spread from the cells near it.
func (m *colourModel) estimateBoard(px *pixels, h homography) {
	var cell [3][]float64
	var vals [3][]float64
	for i := 0; i < 25; i++ {
		row, col := i/5, i%5
		for q := range vals {
			vals[q] = vals[q][:0]
		}
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				p := h.apply(pt{float64(col) + 0.5 + float64(dx)*0.09, float64(row) + 0.5 + float64(dy)*0.09})
				r, g, b := px.at(int(p.X), int(p.Y))
				l, a, bb := features(r, g, b)
				vals[0] = append(vals[0], l)
				vals[1] = append(vals[1], a)
				vals[2] = append(vals[2], bb)
			}
		}
		for q := range vals {
			cell[q] = append(cell[q], median(vals[q]))
		}
	}
	// Blocks are the brightest neutral things on the board: keep the cells
	// clearly less white than the whitest, when there are enough of them.
	var wh [25]float64
	wmax := math.Inf(-1)
	for i := range wh {
		wh[i] = cell[0][i] - 4*math.Hypot(cell[1][i], cell[2][i])
		wmax = math.Max(wmax, wh[i])
	}
	var keep []int
	for i := range wh {
		if wh[i] < wmax-0.25 {
			keep = append(keep, i)
		}
	}
	if len(keep) >= 3 {
		for q := range cell {
			var v []float64
			for _, i := range keep {
				v = append(v, cell[q][i])
			}
			cell[q] = v
		}
	}
	for q := range cell {
		m.board[q] = median(cell[q])
		var dev []float64
		for _, v := range cell[q] {
			dev = append(dev, math.Abs(v-m.board[q]))
		}
		sort.Float64s(dev)
		m.sd[q] = dev[len(dev)/3] * 1.5
	}
	m.sd[0] = math.Max(m.sd[0], 0.08)
	m.sd[1] = math.Max(m.sd[1], 0.015)
	m.sd[2] = math.Max(m.sd[2], 0.015)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// compute fills the per-pixel log-likelihoods inside rect.
func (m *colourModel) compute(px *pixels, rect image.Rectangle, h homography) {
	m.estimateBoard(px, h)
	n := px.w * px.h
	for l := range m.ll {
		if cap(m.ll[l]) < n {
			m.ll[l] = make([]float32, n)
		}
		m.ll[l] = m.ll[l][:n]
	}
	rect = rect.Intersect(image.Rect(0, 0, px.w, px.h))
	const floor = -4.0 // log-likelihood of "anything" for the board label
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			o := y*px.w + x
			r, g, b := float64(px.bgr[3*o+2]), float64(px.bgr[3*o+1]), float64(px.bgr[3*o])
			l, a, bb := features(r, g, b)
			l -= m.board[0]
			k := binOf(l, a, bb)
			zl := l / m.sd[0]
			za := (a - m.board[1]) / m.sd[1]
			zb := (bb - m.board[2]) / m.sd[2]
			gl := -0.5*(zl*zl+za*za+zb*zb) - math.Log(m.sd[0]*m.sd[1]*m.sd[2]) - 2.76 - 4
			m.ll[labBoard][o] = float32(logAddExp(gl, floor+bgLUT[k]))
			for c := labBlock; c < nLab; c++ {
				m.ll[c][o] = objLUT[c-1][k]
			}
		}
	}
}

func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}
