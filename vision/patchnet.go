package vision

import (
	_ "embed"
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// The third look: the cell networks and the second look see the frame
// through hand-made measures (the colour labels' posteriors, grey
// contrast, the tiers' edges at set places), on the reduced frame. The
// third look sees the pixels themselves at full resolution: each cell's
// colours resampled on each footing's plane (the board and the three
// tiers' tops), so that what stands on that plane is seen square. A
// convolutional network (trained with PyTorch, patchnet_train.py; run by
// OpenCV's dnn module from patchnet.onnx) reads the planes with the second
// look's log-probabilities and the cell's geometry, and corrects the
// log-probabilities. From straight above a level-2 tier differs from a
// level-1 block by a rim a few hundredths of a pitch wide, which the
// reduced frame smears.

// The file holds two networks and gives the mean of their corrections
// (patchnet_mean.py), trained on the unsure cells of rendered seeds, each
// read at corners moved 0.012 and 0.04 pitch, with different random seeds
// (PATCH_SEED 5 and 6): the first on 10000-17999, 19000-19399,
// 22000-22299, 23000-26999 and the 11 600 of those before 25000 read again
// at other moves of 0.025 (-patchjitseed; 13 600 seeds, 250 000 cells);
// the second on all of that, 27000-28999, 25000-28999 read again at 0.025
// and the first 11 600 at 0.02 (15 600 seeds, 374 000 cells). Unsure
// cells of 18000-18999 left wrong at corners moved 0.012 pitch: the first
// 296, the second 284, their mean 258; with a third network (PATCH_SEED
// 3, fewer seeds, 319 alone) 257, but cold over the five check sets the
// two read 563 cells wrong against the three's 576 (SIM_NOTES, seventieth
// session), at two thirds of the cost. Each network costs about 4 ms a
// frame on one core.
//
//go:embed patchnet.onnx
var patchNetONNX []byte

// usePatchNet lets the third look correct the cells' log-probabilities.
var usePatchNet = true

const (
	patchSide     = 32 // samples a side of each plane's patch
	patchPlanes   = 4  // the board and the three tiers' tops
	patchChannels = 3 * patchPlanes
	patchPixels   = patchChannels * patchSide * patchSide
	// patchMargin (pitches) widens the patch beyond the cell each way:
	// the rims lie at its edges.
	patchMargin = 0.1
	// patchExtra are the other inputs: the log-probabilities (relative to
	// the best, clipped) and the cell's geometry.
	patchExtra = nHyp + netGeom
)

// patchGate: only cells whose best log-probability leads the next by less
// than this are looked at again. On 18000-18999 read at their true
// corners moved 0.04 pitch, 31 % of the cells, holding 828 of the second
// look's 834 errors. The trainer (patchnet_train.py, GATE) uses the same.
// At 4 (twice patchClip: a lead the bounded corrections can hardly
// overturn) half as many cells go through the network and no cell of
// 18000-18999, 20000-20299 or the hold-out reads otherwise, but the
// cells the third look would have made surer stay unsure: read at
// confidence 0.99 or more 77.5 -> 74.2 % of 18000-18999's cells (the
// player asked 5.6 -> 6.4 cells a board), for about a millisecond.
const patchGate = 6.0

// patchClip bounds each correction. The network was first trained
// unbounded and clipped here: it read three of bare board 20191's cells,
// lit unevenly, a level up at its true corners
// (TestReadBareBoardLitUnevenly) unless clipped to 1, which cost the
// hold-out some of the gain. Now the trainer bounds it smoothly to the
// same (PATCH_BOUND, 2 tanh(x / 2) in the graph) and lights the patches
// unevenly: 20191 reads right, and on 18000-18999's unsure cells at
// corners moved 0.012 pitch it leaves 371 cells wrong (the network
// before, clipped to 1: 396; the second look alone 471). The clip here
// only guards against a file trained otherwise.
const patchClip = 2.0

// unsure reports whether log-probabilities lp are within patchGate.
func unsure(lp *[nHyp]float64) bool { return lead(lp) < patchGate }

// lead is how far lp's likeliest reading leads the next.
func lead(lp *[nHyp]float64) float64 {
	a, b := math.Inf(-1), math.Inf(-1)
	for _, v := range lp {
		if v > a {
			a, b = v, a
		} else if v > b {
			b = v
		}
	}
	return a - b
}

// patchNet holds the network, loaded once per row count of patchRows,
// with each one's input Mats.
type patchNet struct {
	runs  [len(patchRows)]patchRun
	ready bool
	// file is the network's ONNX file; nil for the embedded one (another
	// is for benchmarks of candidate networks).
	file []byte
}

// patchRun is the network loaded to take a fixed number of rows: its
// input Mat the patches, extra the other inputs.
type patchRun struct {
	onnxNet
	extra gocv.Mat
}

// useOwnConvNet runs the patch-shaped networks (the third, tier, pawn,
// dome and solo looks) with convNet instead of OpenCV's dnn: the same
// outputs to about 1e-6, in about 0.6 of the time.
var useOwnConvNet = true

// ownNet gives r's convNet for its input Mats' shapes.
func (r *patchRun) ownNet() *convNet {
	return r.onnxNet.ownNet(func() map[string][]int {
		in, ex := r.in.Size(), r.extra.Size()
		if len(in) != 4 || len(ex) != 2 {
			return nil
		}
		return map[string][]int{"patch": in[1:], "extra": ex[1:]}
	})
}

func (p *patchNet) close() {
	if p.ready {
		for i := range p.runs {
			p.runs[i].close()
		}
		p.ready = false
	}
}

func (r *patchRun) close() {
	if r.ready {
		r.extra.Close()
	}
	r.onnxNet.close()
}

func (p *patchNet) load() error {
	if p.ready {
		return nil
	}
	file := fileOr(p.file, patchNetONNX)
	for i, rows := range patchRows {
		run := &p.runs[i]
		if err := run.load(file, "the patch network", []int{rows, patchChannels, patchSide, patchSide}); err != nil {
			for j := range p.runs[:i] {
				p.runs[j].close()
			}
			return err
		}
		run.extra = gocv.NewMatWithSizes([]int{rows, patchExtra}, gocv.MatTypeCV32F)
	}
	p.ready = true
	return nil
}

// patchRows are the row counts the network is run at. The file was
// exported for 8 rows (OpenCV 4.6 cannot import the graph with a free
// batch size: the concatenation's shapes), yet OpenCV runs it at any row
// count, each row read alike; a network's buffers are laid out again
// whenever its row count changes (about 0.8 ms), so each count has its
// own copy. A row costs about the same at every count (one core: 8 rows
// 4.9 ms, 4 rows 2.7, one 0.6), so the cells go through in as few runs
// as add up to their number exactly rather than padded to 8: a frame
// has about six unsure cells.
var patchRows = [...]int{8, 4, 2, 1}

// correct runs the network on cells' patches (uint8, patchPixels each)
// and extra inputs, and adds its corrections to lp, one row per cell (at
// most 25).
func (p *patchNet) correct(pix []uint8, extra []float32, lp [][nHyp]float64) error {
	n := len(lp)
	if n > 25 || len(pix) != n*patchPixels || len(extra) != n*patchExtra {
		return fmt.Errorf("vision: internal: the patch network's inputs are %d and %d values for %d cells", len(pix), len(extra), n)
	}
	return p.inRuns(n, func(run *patchRun, at, end int) error {
		return run.correct(pix[at*patchPixels:end*patchPixels], extra[at*patchExtra:end*patchExtra], lp[at:end])
	})
}

// inRuns loads the network and calls f for cells [at, end) of n in as few
// runs as their row counts add up to n exactly (patchRows).
func (p *patchNet) inRuns(n int, f func(run *patchRun, at, end int) error) error {
	if err := p.load(); err != nil {
		return err
	}
	if useOwnConvNet && n > 0 && p.runs[0].ownNet() != nil {
		return f(&p.runs[0], 0, n)
	}
	for at := 0; at < n; {
		k := 0
		for patchRows[k] > n-at {
			k++
		}
		end := at + patchRows[k]
		if err := f(&p.runs[k], at, end); err != nil {
			return err
		}
		at = end
	}
	return nil
}

// correct is patchNet.correct for as many cells as r takes rows.
func (r *patchRun) correct(pix []uint8, extra []float32, lp [][nHyp]float64) error {
	corr, err := r.run(pix, extra, len(lp)*nHyp)
	if err != nil {
		return err
	}
	for i := range lp {
		for k := range lp[i] {
			lp[i][k] += max(-patchClip, min(patchClip, float64(corr[i*nHyp+k])))
		}
	}
	return nil
}

// run sets the network's two inputs, the patches pix and the other
// inputs extra, and gives its want corrections (output "corr").
func (r *patchRun) run(pix []uint8, extra []float32, want int) ([]float32, error) {
	if own := r.ownNet(); useOwnConvNet && own != nil {
		return r.runOwn(own, pix, extra, want)
	}
	dp, err := r.input()
	if err != nil || len(dp) != len(pix) {
		return nil, fmt.Errorf("vision: %s's input: %d values for %d (%v)", r.what, len(pix), len(dp), err)
	}
	for i, v := range pix {
		dp[i] = float32(v)
	}
	de, err := r.extra.DataPtrFloat32()
	if err != nil || len(de) != len(extra) {
		return nil, fmt.Errorf("vision: %s's input: %d values for %d (%v)", r.what, len(extra), len(de), err)
	}
	copy(de, extra)
	net, err := r.cv()
	if err != nil {
		return nil, err
	}
	net.SetInput(r.in, "patch")
	net.SetInput(r.extra, "extra")
	return r.forward("corr", want)
}

// runOwn is run with convNet: as many rows as pix holds.
func (r *patchRun) runOwn(own *convNet, pix []uint8, extra []float32, want int) ([]float32, error) {
	per := own.vals["patch"].size()
	ne := own.vals["extra"].size()
	if per == 0 || len(pix)%per != 0 || len(extra) != len(pix)/per*ne {
		return nil, fmt.Errorf("vision: %s's input: %d and %d values", r.what, len(pix), len(extra))
	}
	rows := len(pix) / per
	dp, err := own.input("patch", rows)
	if err != nil {
		return nil, err
	}
	for i, v := range pix {
		dp[i] = float32(v)
	}
	de, err := own.input("extra", rows)
	if err != nil {
		return nil, err
	}
	copy(de, extra)
	return r.runConv(own, rows, "corr", want)
}

// samplePatches fills c.patchPix and c.patchExtra, row j for cell
// cells[j]: its colours (r, g, b) on each footing's plane, sampled from
// the full-resolution frame full (toFull scales the reduced frame's
// pixels to it), and its log-probabilities and geometry.
func (c *cellCtx) samplePatches(full *pixels, toFull float64, cells []int) {
	if len(c.patchPix) != 25*patchPixels {
		c.patchPix, c.patchExtra = make([]uint8, 25*patchPixels), make([]float32, 25*patchExtra)
	}
	s := &c.set
	planes := [patchPlanes]float64{0, s.tier1Top, s.tier2Top, s.tier3Top}
	const n = patchSide * patchSide
	for j, i := range cells {
		p := c.patchPix[j*patchPixels : (j+1)*patchPixels]
		for pl, z := range planes {
			c.samplePlane(full, toFull, i, z, patchSide, p[pl*3*n:(pl+1)*3*n], nil)
		}
		x := c.patchExtra[j*patchExtra : (j+1)*patchExtra]
		lp := &c.netLP[i]
		best := math.Inf(-1)
		for _, v := range lp {
			best = math.Max(best, v)
		}
		for k, v := range lp {
			x[k] = float32(math.Max(-lookClipLP, v-best))
		}
		copy(x[nHyp:], c.lookIn[(i+1)*lookInputs-netGeom:(i+1)*lookInputs])
	}
}

// samplePlane fills q (3 x side x side: r, g, b) with cell i's colours
// on the plane at height z, seen square: side samples a side over the
// cell widened by patchMargin each way, from the full-resolution frame
// full (toFull scales the reduced frame's pixels to it). A cover of
// side x side (nil for none) gets the same points' cover (coverAt).
func (c *cellCtx) samplePlane(full *pixels, toFull float64, i int, z float64, side int, q, cover []uint8) {
	if side > maxPlaneSide {
		c.samplePlaneEach(full, toFull, i, z, side, q, cover)
		return
	}
	col, row := float64(i%5)+c.patchShift.X, float64(i/5)+c.patchShift.Y
	step := (1 + 2*patchMargin) / float64(side)
	n := side * side
	q = q[:3*n]
	var across planeRow
	var pts [maxPlaneSide]pt
	for gx := 0; gx < side; gx++ {
		across.set(&c.cam, gx, col-patchMargin+step*(float64(gx)+0.5))
	}
	for gy := 0; gy < side; gy++ {
		across.project(&c.cam, row-patchMargin+step*(float64(gy)+0.5), z, pts[:side])
		for gx, pt := range pts[:side] {
			k := gy*side + gx
			x, y := (pt.X+0.5)*toFull-0.5, (pt.Y+0.5)*toFull-0.5
			x0, y0 := math.Floor(x), math.Floor(y)
			if xi, yi := int(x0), int(y0); xi >= 0 && yi >= 0 && xi+1 < full.w && yi+1 < full.h {
				// bilinear's inside case, written out here (the same sums
				// in the same order) so that the loop keeps its registers.
				fx, fy := x-x0, y-y0
				top := (yi*full.w + xi) * 3
				below := top + full.w*3
				a, b := full.bgr[top:top+6], full.bgr[below:below+6]
				w0, w1, w2, w3 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
				q[k] = uint8(w0*float64(a[2]) + w1*float64(a[5]) + w2*float64(b[2]) + w3*float64(b[5]) + 0.5)
				q[n+k] = uint8(w0*float64(a[1]) + w1*float64(a[4]) + w2*float64(b[1]) + w3*float64(b[4]) + 0.5)
				q[2*n+k] = uint8(w0*float64(a[0]) + w1*float64(a[3]) + w2*float64(b[0]) + w3*float64(b[3]) + 0.5)
			} else {
				v := full.bilinearClamped(x, y)
				q[k], q[n+k], q[2*n+k] = uint8(v[0]+0.5), uint8(v[1]+0.5), uint8(v[2]+0.5)
			}
			if cover != nil {
				cover[k] = c.coverAt(i, pt)
			}
		}
	}
}

// planeRow holds camera.project's products of a row's board x, made once
// for every row of a plane.
type planeRow [3][maxPlaneSide]float64

func (a *planeRow) set(cam *camera, k int, x float64) {
	a[0][k], a[1][k], a[2][k] = cam.r[0]*x, cam.r[3]*x, cam.r[6]*x
}

// project is camera.project of the row's points at board y and height z
// into out, the same bits: its sums add in project's order
// (TestPlaneRowMatchesProject).
func (a *planeRow) project(cam *camera, y, z float64, out []pt) {
	r, t := &cam.r, &cam.t
	ry0, ry1, ry2 := r[1]*y, r[4]*y, r[7]*y
	rz0, rz1, rz2 := r[2]*z, r[5]*z, r[8]*z
	for k := range out {
		X := a[0][k] + ry0 + rz0 + t[0]
		Y := a[1][k] + ry1 + rz1 + t[1]
		Z := a[2][k] + ry2 + rz2 + t[2]
		if Z < 1e-6 {
			Z = 1e-6
		}
		out[k] = pt{cam.f*X/Z + cam.cx, cam.f*Y/Z + cam.cy}
	}
}

// maxPlaneSide is the most samples a side samplePlane's rows are made for.
const maxPlaneSide = 64

// samplePlaneEach is samplePlane with every point through camera.project.
func (c *cellCtx) samplePlaneEach(full *pixels, toFull float64, i int, z float64, side int, q, cover []uint8) {
	col, row := float64(i%5)+c.patchShift.X, float64(i/5)+c.patchShift.Y
	step := (1 + 2*patchMargin) / float64(side)
	n := side * side
	for gy := 0; gy < side; gy++ {
		for gx := 0; gx < side; gx++ {
			pt := c.cam.project(col-patchMargin+step*(float64(gx)+0.5), row-patchMargin+step*(float64(gy)+0.5), z)
			v := full.bilinear((pt.X+0.5)*toFull-0.5, (pt.Y+0.5)*toFull-0.5)
			k := gy*side + gx
			q[k], q[n+k], q[2*n+k] = uint8(v[0]+0.5), uint8(v[1]+0.5), uint8(v[2]+0.5)
			if cover != nil {
				cover[k] = c.coverAt(i, pt)
			}
		}
	}
}

// allCells are the 25 cells in order.
var allCells = func() (a [25]int) {
	for i := range a {
		a[i] = i
	}
	return
}()

// thirdLook lets the patch network correct the unsure cells'
// log-probabilities of the reading made, and reports whether it did (when
// in use; collectPatches samples every cell with the network off, for the
// trainer).
func (r *Reader) thirdLook(toFull float64) bool {
	c := &r.cc
	if r.full.w == 0 || len(c.lookIn) != 25*lookInputs || len(cellNetInUse()) == 0 {
		return false
	}
	if !usePatchNet {
		if r.collectPatches {
			c.samplePatches(&r.full, toFull, allCells[:])
		}
		return false
	}
	var cells [25]int
	n := 0
	for i := range c.netLP {
		if unsure(&c.netLP[i]) {
			cells[n] = i
			n++
		}
	}
	if n == 0 {
		return false
	}
	c.samplePatches(&r.full, toFull, cells[:n])
	var lp [25][nHyp]float64
	for j, i := range cells[:n] {
		lp[j] = c.netLP[i]
	}
	// A network that does not load leaves the second look's reading: the
	// file is built in, so that is a build fault TestPatchNetSizes catches.
	if r.patch.correct(c.patchPix[:n*patchPixels], c.patchExtra[:n*patchExtra], lp[:n]) != nil {
		return false
	}
	for j, i := range cells[:n] {
		c.netLP[i] = lp[j]
	}
	return true
}

// bilinear is the colour (r, g, b) at (x, y), interpolated (the border's
// beyond).
func (p *pixels) bilinear(x, y float64) [3]float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	xi, yi := int(x0), int(y0)
	var out [3]float64
	if xi >= 0 && yi >= 0 && xi+1 < p.w && yi+1 < p.h {
		// Inside, the four pixels are read directly (a patch's samples
		// nearly all are): the same sums, in the same order, as
		// bilinearClamped's.
		i := (yi*p.w + xi) * 3
		j := i + p.w*3
		q, s := p.bgr[i:i+6], p.bgr[j:j+6]
		w0, w1, w2, w3 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
		for c := 0; c < 3; c++ {
			out[c] = w0*float64(q[2-c]) + w1*float64(q[5-c]) + w2*float64(s[2-c]) + w3*float64(s[5-c])
		}
		return out
	}
	return p.bilinearClamped(x, y)
}

// bilinearClamped is bilinear with every pixel read through at, which
// clamps it to the frame.
func (p *pixels) bilinearClamped(x, y float64) [3]float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	xi, yi := int(x0), int(y0)
	var out [3]float64
	for k, w := range [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy} {
		a, b, c := p.at(xi+k%2, yi+k/2)
		out[0] += w * a
		out[1] += w * b
		out[2] += w * c
	}
	return out
}
