package vision

import (
	_ "embed"
	"math"
)

// The cell classifier. Render and compare scores each hypothesis with a
// hand-made model of the pieces, and its small misfits (pieces off centre
// and turned, a set's own proportions, a tower's round crenellated top,
// lens distortion) add up to about one cell in eight read wrong even with
// the true corners. A small network, trained on simulated frames
// (TestTrainCellNet), looks where each height's top would appear over the
// cell (the colour model's label posteriors, the edges, and
// whether a nearer cell's pieces cover the place) and at the render and
// compare scores, and decides. Its output is a probability, which is the
// cell's confidence.

const (
	netHeights  = 10
	netGrid     = 5 // sample points per side of the cell, per height
	netPerPoint = nPlanes + 3
	netPoints   = netHeights * netGrid * netGrid
	netGeom     = 4
	netScoresAt = netPoints * netPerPoint // where the render and compare scores start
	netInputs   = netScoresAt + nHyp + netGeom
	netHidden   = 64
)

const netSpread = 0.2

// netZ are the heights (pitches) sampled: the board, the tiers' tops over
// the sets' range, and pawns' and domes' bodies.
var netZ = [netHeights]float64{0, 0.3, 0.55, 0.8, 1.0, 1.2, 1.38, 1.6, 1.85, 2.1}

// netSpread is the spacing (pitches) of the sample points about the cell
// centre: the inner ones inside the narrowest tower's top, the outer ones
// between level 2's edge and level 1's.

// netClip bounds the standardised inputs.
const netClip = 4

// cellNet is a one-hidden-layer perceptron over standardised inputs.
type cellNet struct {
	mean, sd []float32 // input standardisation
	w1       []float32 // netHidden x netInputs
	w1t      []float32 // w1 transposed, for the C kernel (nil: the Go loop)
	b1       []float32
	w2       []float32 // nHyp x netHidden
	b2       []float32
}

const netMagic = "CNET"

// cellNetFile is one network's file form: the magic, the three layer
// sizes, then little-endian float32 arrays (mean, sd, w1, b1, w2, b2).
var cellNetFile = netFile{
	magic: netMagic, name: "cell network",
	dims:  []uint32{netInputs, netHidden, nHyp},
	sizes: []int{netInputs, netInputs, netHidden * netInputs, netHidden, nHyp * netHidden, nHyp},
}

// netFileSize is the length of one network's file form.
var netFileSize = cellNetFile.size()

// MarshalBinary gives the network's file form (cellNetFile).
func (n *cellNet) MarshalBinary() ([]byte, error) {
	return cellNetFile.marshal(n.mean, n.sd, n.w1, n.b1, n.w2, n.b2)
}

// UnmarshalBinary reads MarshalBinary's form; sizes other than this
// build's are an error (the features changed: train again).
func (n *cellNet) UnmarshalBinary(data []byte) error {
	arrays, err := cellNetFile.unmarshal(data)
	if err != nil {
		return err
	}
	n.mean, n.sd, n.w1, n.b1, n.w2, n.b2 = arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]
	n.w1t = transposeFirst(n.w1)
	return nil
}

// forward gives the hypotheses' log-probabilities for input x, using
// hid (netHidden) and xs (netInputs) as scratch.
func (n *cellNet) forward(x, xs, hid []float32, out *[nHyp]float64) {
	if n.w1t == nil || !n.hiddenFast(x[:netInputs], xs, hid) {
		n.hiddenGo(x[:netInputs], xs[:netInputs], hid)
	}
	n.output(hid, out)
}

// forwardRows is forward for the inputs x (rows of netInputs), into out
// (one per row); xs (as long as x) and hid (netHidden per row) are scratch.
func (n *cellNet) forwardRows(x, xs, hid []float32, out [][nHyp]float64) {
	if n.w1t == nil || !n.hiddenFast(x, xs, hid) {
		for r := range out {
			n.hiddenGo(x[r*netInputs:(r+1)*netInputs], xs[:netInputs], hid[r*netHidden:(r+1)*netHidden])
		}
	}
	for r := range out {
		n.output(hid[r*netHidden:(r+1)*netHidden], &out[r])
	}
}

// output is the output layer, from the hidden units hid.
// Four sums at a time, each in the same order as alone: one sum's adds
// wait on each other, four overlap (BenchmarkCellNets 1.52 -> 1.38 ms).
func (n *cellNet) output(hid []float32, out *[nHyp]float64) {
	hid = hid[:netHidden]
	k := 0
	for ; k+4 <= nHyp; k += 4 {
		w0, w1 := n.w2[k*netHidden:(k+1)*netHidden], n.w2[(k+1)*netHidden:(k+2)*netHidden]
		w2, w3 := n.w2[(k+2)*netHidden:(k+3)*netHidden], n.w2[(k+3)*netHidden:(k+4)*netHidden]
		s0, s1, s2, s3 := n.b2[k], n.b2[k+1], n.b2[k+2], n.b2[k+3]
		for h, v := range hid {
			s0 += w0[h] * v
			s1 += w1[h] * v
			s2 += w2[h] * v
			s3 += w3[h] * v
		}
		out[k], out[k+1], out[k+2], out[k+3] = float64(s0), float64(s1), float64(s2), float64(s3)
	}
	for ; k < nHyp; k++ {
		w := n.w2[k*netHidden : (k+1)*netHidden]
		s := n.b2[k]
		for h, v := range hid {
			s += w[h] * v
		}
		out[k] = float64(s)
	}
	logNormalise(out)
}

// hiddenGo is the hidden layer of forward in Go, using xs as scratch.
func (n *cellNet) hiddenGo(x, xs, hid []float32) {
	// Inputs far outside what training showed are clipped: a frame unlike
	// any simulated one must not drive the network by one odd input.
	for j := range xs {
		xs[j] = min(netClip, max(-netClip, (x[j]-n.mean[j])/n.sd[j]))
	}
	reluLayer(n.w1, n.b1, xs, hid[:netHidden])
}

// logNormalise shifts log-scores so that their probabilities sum to one.
func logNormalise(v *[nHyp]float64) {
	mx := math.Inf(-1)
	for _, x := range v {
		mx = math.Max(mx, x)
	}
	var z float64
	for _, x := range v {
		z += math.Exp(x - mx)
	}
	lz := mx + math.Log(z)
	for k := range v {
		v[k] -= lz
	}
}

//go:embed cellnet.bin
var cellNetBin []byte

// builtinNet is the trained networks, or nil when cellnet.bin is missing
// or does not fit this build (render and compare then decides alone).
var builtinNet = func() cellNets {
	ns, err := parseCellNets(cellNetBin)
	if err != nil {
		return nil
	}
	return ns
}()

// cellNets is networks trained alike from different starts, which err on
// different cells: their average errs less than any one. Their file is
// their MarshalBinary forms one after another (so cat joins them).
type cellNets []*cellNet

// parseCellNets reads one or more networks' file forms, back to back.
func parseCellNets(data []byte) (cellNets, error) {
	return parseNets(data, cellNetFile, func(p []byte) (*cellNet, error) {
		var n cellNet
		return &n, n.UnmarshalBinary(p)
	})
}

// MarshalBinary gives the networks' file form.
func (ns cellNets) MarshalBinary() ([]byte, error) { return marshalNets(ns) }

// forward gives the hypotheses' log-probabilities: the networks'
// log-probabilities averaged, then normalised (forwardRows for one input).
func (ns cellNets) forward(x, xs, hid []float32, out *[nHyp]float64) {
	var o, one [1][nHyp]float64
	ns.forwardRows(x[:netInputs], xs, hid, o[:], one[:])
	*out = o[0]
}

// forwardRows is forward for the inputs x (rows of netInputs), into out;
// xs, hid (as cellNet.forwardRows) and one (as long as out) are scratch.
func (ns cellNets) forwardRows(x, xs, hid []float32, out, one [][nHyp]float64) {
	if len(ns) == 1 {
		ns[0].forwardRows(x, xs, hid, out)
		return
	}
	for r := range out {
		out[r] = [nHyp]float64{}
	}
	for _, n := range ns {
		n.forwardRows(x, xs, hid, one)
		for r := range out {
			for k, v := range one[r] {
				out[r][k] += v
			}
		}
	}
	for r := range out {
		for k := range out[r] {
			out[r][k] /= float64(len(ns))
		}
		logNormalise(&out[r])
	}
}

// netShifts are the grid's small shifts (board units) at which the cells'
// colours are sampled again for the networks, whose log-probabilities
// over the grid and its shifts are averaged (cellLogProbs). The cells are
// read better so: a knock of 1 % of a pitch costs a point of cells, and
// the found grids are off by a few per cent. Shifted a twenty-fifth of a
// pitch diagonally, check seeds 20000-20299 read 96.08 -> 96.44 % with the
// true corners and 92.81 -> 93.68 % near a hint.
var netShifts = [...]pt{{0.04, 0.04}, {-0.04, 0.04}, {0.04, -0.04}, {-0.04, -0.04}}

// netFeatures fills every cell's network inputs, on the grid and on the
// grid shifted by netShifts (netRow), from the reading as it stands (c.hyp,
// c.scores) and the colour model's label log-likelihoods. A shifted grid
// is the same camera seeing the board shifted, so its points are this
// camera's projections of the shifted board points; the nearer cells'
// cover (drawBase) stays the unshifted grid's.
func (c *cellCtx) netFeatures(px *pixels, m *colourModel) {
	c.netRows()
	for i := 0; i < 25; i++ {
		row, col := i/5, i%5
		x := c.netRow(0, i)
		c.drawBase(i)
		cx, cy := float64(col)+0.5, float64(row)+0.5
		q := c.cellPoints(px, m, i, cx, cy, x)
		// The render and compare scores, relative to the best, in units of
		// the confidence's temperature.
		t := confTemp * (float64(c.region[i].Dx()*c.region[i].Dy()) + 1)
		best := math.Inf(-1)
		for _, s := range c.scores[i] {
			best = math.Max(best, s)
		}
		for k, s := range c.scores[i] {
			x[q+k] = float32(math.Max(-20, (s-best)/t))
		}
		q += nHyp
		c.cellGeometry(i, x[q:q+netGeom])
		for s, sh := range netShifts {
			xs := c.netRow(s+1, i)
			q := c.cellPoints(px, m, i, cx+sh.X, cy+sh.Y, xs)
			copy(xs[q:], x[q:])
		}
	}
}

// netRows makes the cell networks' rows and scratch, once.
func (c *cellCtx) netRows() {
	if c.netIn == nil {
		rows := 25 * (len(netShifts) + 1)
		c.netIn, c.netXs = make([]float32, rows*netInputs), make([]float32, rows*netInputs)
		c.netHids, c.netOut, c.netOne = make([]float32, rows*netHidden), make([][nHyp]float64, rows), make([][nHyp]float64, rows)
	}
}

// cellPoints fills the sample points' features of cell i, centred at
// board point (cx, cy), into x; it gives how many it filled.
func (c *cellCtx) cellPoints(px *pixels, m *colourModel, i int, cx, cy float64, x []float32) int {
	cam := &c.cam
	c.ptX, c.ptY = c.ptX[:0], c.ptY[:0]
	for _, z := range netZ {
		for gy := 0; gy < netGrid; gy++ {
			for gx := 0; gx < netGrid; gx++ {
				p := cam.project(cx+netSpread*float64(gx-netGrid/2), cy+netSpread*float64(gy-netGrid/2), z)
				c.ptX, c.ptY = append(c.ptX, pixelIndex(p.X)), append(c.ptY, pixelIndex(p.Y))
			}
		}
	}
	q := len(c.ptX) * netPerPoint
	if !c.pointFeaturesC(px, m, i, c.ptX, c.ptY, x[:q]) {
		for k := range c.ptX {
			c.pointFeatures(px, m, i, int(c.ptX[k]), int(c.ptY[k]), x[k*netPerPoint:(k+1)*netPerPoint])
		}
	}
	return q
}

// pixelIndex is a point's pixel column (or row) as pointFeatures takes
// it, -1 (out of any frame) where it would not fit in an int32.
func pixelIndex(v float64) int32 {
	i := int(v)
	if i < -1 || i > math.MaxInt32 {
		return -1
	}
	return int32(i)
}

// netRow is cell i's network inputs on the grid (s = 0) or on the grid
// shifted by netShifts[s-1].
func (c *cellCtx) netRow(s, i int) []float32 {
	k := s*25 + i
	return c.netIn[k*netInputs : (k+1)*netInputs]
}

// cellLogProbs fills c.netLP from the networks: each cell read on the
// grid and on its shifts, averaged (netShifts).
func (c *cellCtx) cellLogProbs(ns cellNets) {
	ns.forwardRows(c.netIn, c.netXs, c.netHids, c.netOut, c.netOne)
	for i := 0; i < 25; i++ {
		lp := &c.netLP[i]
		*lp = c.netOut[i]
		for s := range netShifts {
			for k, v := range c.netOut[(s+1)*25+i] {
				lp[k] += v
			}
		}
		for k := range lp {
			lp[k] /= float64(len(netShifts) + 1)
		}
	}
}

// pointFeatures gives one sample point's features: the labels' posteriors
// from their log-likelihoods averaged over the 3x3 pixels about (x, y), the
// grey contrast, whether a nearer cell covers it, and whether it is out
// of the frame. The colour itself is left out: the posteriors say what it
// means in this frame, and a network shown raw colours learns the
// simulator's palettes (it saw pawns on a plainly drawn green board).
func (c *cellCtx) pointFeatures(px *pixels, m *colourModel, cell, x, y int, out []float32) {
	for j := range out {
		out[j] = 0
	}
	if x < max(1, c.netAll.Min.X) || y < max(1, c.netAll.Min.Y) || x >= min(px.w-1, c.netAll.Max.X) || y >= min(px.h-1, c.netAll.Max.Y) {
		out[netPerPoint-1] = 1
		return
	}
	// In float32, as the C kernel (point_kernel.go) works: single
	// precision there takes about half the time of double.
	var sum [nPlanes]float32
	for dy := -1; dy <= 1; dy++ {
		o := (y+dy)*px.w + x - 1
		ll := m.ll[o*llStride : (o+3)*llStride]
		for l := 0; l < nPlanes; l++ {
			sum[l] += ll[l] + ll[llStride+l] + ll[2*llStride+l]
		}
	}
	mx := float32(math.Inf(-1))
	for l := range sum {
		sum[l] /= 9 // the mean: the pixels are not independent evidence
		if sum[l] > mx {
			mx = sum[l]
		}
	}
	var z float32
	for l := range sum {
		sum[l] = float32(math.Exp(float64(sum[l] - mx)))
		z += sum[l]
	}
	for l := range sum {
		out[l] = sum[l] / z
	}
	if g := c.gray; g.p != nil {
		gx, gy := g.gradient(x, y)
		out[nPlanes] = float32(math.Hypot(gx, gy) / 64)
	}
	reg := c.region[cell]
	if x >= reg.Min.X && y >= reg.Min.Y && x < reg.Max.X && y < reg.Max.Y && c.base[y*c.w+x] == labNear {
		out[nPlanes+1] = 1
	}
}
