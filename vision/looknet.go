package vision

import (
	_ "embed"
	"math"
)

// The second look. The cell networks sample each height's place on a
// lattice a fifth of a pitch apart and see the colour labels' posteriors
// there; a pawn, under half a pitch wide, falls on one or two of its points.
// Light pawns on pale cells or white blocks pass for the cell or the block
// there: with the true corners the check seeds' light pawns were read
// wrong one time in six, often at a confidence over 0.9. A second, smaller
// network (TestTrainLookNet) looks closer where a pawn would stand on each
// level, on a lattice a fourteenth of a pitch apart (at how far the colours
// there are from the cells' and the block tops' own, and how the grey is
// shaded there and stands out of a ring about it), and where each tier's
// top would end, and corrects the cell networks' log-probabilities.

const (
	lookLevels  = 4 // a pawn's footing: the board and the three tiers' tops
	lookHeights = 4
	lookGrid    = 5
	// lookSpread (pitches) puts the lattice's outer points at a pawn's
	// head, a little off centre.
	lookSpread = 0.07
	// lookPerPlace: the posteriors' mean and max, the grey contrast's mean
	// and max, the cover and out-of-frame shares, the colours' distance
	// from the cells' and from the block tops' (mean and extreme), and the
	// grey's spread over the lattice and its step from a ring about it (a
	// pawn's round body is shaded, and stands out of what is around it).
	lookPerPlace = 2*nPlanes + 10
	lookPlaces   = lookLevels * lookHeights
	// The rims: each tier's top edge, sought on each of its four sides
	// at lookRimSteps distances from where the default set puts it.
	lookRimTiers = 3
	lookRimSides = 4
	lookRimSteps = 5
	lookRimAlong = 4 // points along a side
	lookRims     = lookRimTiers * lookRimSides * lookRimSteps
	// The corners: the grey contrast along each diagonal at lookDiagSteps
	// distances, at each tier's top height.
	lookDiagSteps = 9
	lookDiags     = lookRimTiers * 4 * lookDiagSteps
	lookInputs    = nHyp + lookPlaces*lookPerPlace + lookRims + lookDiags + netGeom
	lookHidden    = 32
	lookMagic     = "LNET"
)

// lookZ are the heights (pitches) above a pawn's footing sampled: its base,
// body, neck and head (pawns stand 0.65-0.8 tall).
var lookZ = [lookHeights]float64{0.1, 0.28, 0.46, 0.62}

// lookClipLP bounds the cell networks' log-probabilities as inputs.
const lookClipLP = 20

// lookNet is a one-hidden-layer perceptron over standardised inputs whose
// outputs are added to the cell networks' log-probabilities.
type lookNet struct {
	mean, sd []float32 // input standardisation
	w1       []float32 // lookHidden x lookInputs
	b1       []float32
	w2       []float32 // nHyp x lookHidden
	b2       []float32
}

// lookNetFile is the file form: the magic, the three layer sizes, then
// little-endian float32 arrays (mean, sd, w1, b1, w2, b2).
var lookNetFile = netFile{
	magic: lookMagic, name: "look network",
	dims:  []uint32{lookInputs, lookHidden, nHyp},
	sizes: []int{lookInputs, lookInputs, lookHidden * lookInputs, lookHidden, nHyp * lookHidden, nHyp},
}

// MarshalBinary gives the file form (lookNetFile).
func (n *lookNet) MarshalBinary() ([]byte, error) {
	return lookNetFile.marshal(n.mean, n.sd, n.w1, n.b1, n.w2, n.b2)
}

// UnmarshalBinary reads MarshalBinary's form; sizes other than this
// build's are an error (the inputs changed: train it again).
func (n *lookNet) UnmarshalBinary(data []byte) error {
	arrays, err := lookNetFile.unmarshal(data)
	if err != nil {
		return err
	}
	n.mean, n.sd, n.w1, n.b1, n.w2, n.b2 = arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]
	return nil
}

// correct adds the network's outputs for inputs x (lookInputs) to lp,
// using xs (lookInputs) and hid (lookHidden) as scratch.
func (n *lookNet) correct(x, xs, hid []float32, lp *[nHyp]float64) {
	for i, v := range x {
		xs[i] = (v - n.mean[i]) / n.sd[i]
	}
	reluLayer(n.w1, n.b1, xs, hid)
	for k := range lp {
		s := n.b2[k]
		row := n.w2[k*lookHidden : (k+1)*lookHidden]
		for j, h := range hid {
			s += row[j] * h
		}
		lp[k] += float64(s)
	}
}

// lookInput fills x (lookInputs) with cell i's second look: the cell
// networks' log-probabilities lp, each footing's places, and the cell's
// geometry (the cell networks' last inputs, from netFeatures).
func (c *cellCtx) lookInput(px *pixels, m *colourModel, i int, lp *[nHyp]float64, x []float32) {
	best := math.Inf(-1)
	for _, v := range lp {
		best = math.Max(best, v)
	}
	for k, v := range lp {
		x[k] = float32(math.Max(-lookClipLP, v-best))
	}
	q := nHyp
	s := &c.set
	footing := [lookLevels]float64{0, s.tier1Top, s.tier2Top, s.tier3Top}
	cx, cy := float64(i%5)+0.5, float64(i/5)+0.5
	const n = lookGrid * lookGrid
	// The points' features, kept for the next call: an array here would
	// escape to the heap once handed to C, every call.
	if len(c.lookPts) < n*netPerPoint {
		c.lookPts = make([]float32, n*netPerPoint)
	}
	pfs := c.lookPts[:n*netPerPoint]
	for _, z0 := range footing {
		for _, dz := range lookZ {
			out := x[q : q+lookPerPlace]
			for j := range out {
				out[j] = 0
			}
			// The place's points' features, all at once (pointFeaturesC).
			c.ptX, c.ptY = c.ptX[:0], c.ptY[:0]
			for gy := 0; gy < lookGrid; gy++ {
				for gx := 0; gx < lookGrid; gx++ {
					p := c.cam.project(cx+lookSpread*float64(gx-lookGrid/2), cy+lookSpread*float64(gy-lookGrid/2), z0+dz)
					c.ptX, c.ptY = append(c.ptX, pixelIndex(p.X)), append(c.ptY, pixelIndex(p.Y))
				}
			}
			if !c.pointFeaturesC(px, m, i, c.ptX, c.ptY, pfs) {
				for k := range c.ptX {
					c.pointFeatures(px, m, i, int(c.ptX[k]), int(c.ptY[k]), pfs[k*netPerPoint:(k+1)*netPerPoint])
				}
			}
			maxGrad, farBoard, nearBlock := float32(0), float32(0), float32(lookFar)
			var gsum, gsum2 float64
			for k := range c.ptX {
				px0, py0 := int(c.ptX[k]), int(c.ptY[k])
				pf := pfs[k*netPerPoint : (k+1)*netPerPoint]
				for l := 0; l < nPlanes; l++ {
					out[l] += pf[l]
					out[nPlanes+l] = max(out[nPlanes+l], pf[l])
				}
				out[2*nPlanes] += pf[nPlanes]
				maxGrad = max(maxGrad, pf[nPlanes])
				out[2*nPlanes+2] += pf[nPlanes+1]
				out[2*nPlanes+3] += pf[nPlanes+2]
				gv := c.grayAt(px0, py0)
				gsum += gv
				gsum2 += gv * gv
				db, dk := colourDistances(px, m, px0, py0)
				out[2*nPlanes+4] += db
				farBoard = max(farBoard, db)
				out[2*nPlanes+6] += dk
				nearBlock = min(nearBlock, dk)
			}
			for l := 0; l < nPlanes; l++ {
				out[l] /= n
			}
			out[2*nPlanes] /= n
			out[2*nPlanes+1] = maxGrad
			out[2*nPlanes+2] /= n
			out[2*nPlanes+3] /= n
			out[2*nPlanes+4] /= n
			out[2*nPlanes+5] = farBoard
			out[2*nPlanes+6] /= n
			out[2*nPlanes+7] = nearBlock
			gm := gsum / n
			out[2*nPlanes+8] = float32(math.Sqrt(math.Max(0, gsum2/n-gm*gm)) / 64)
			var ring float64
			for k := 0; k < lookRing; k++ {
				a := 2 * math.Pi * float64(k) / lookRing
				p := c.cam.project(cx+lookRingRadius*math.Cos(a), cy+lookRingRadius*math.Sin(a), z0+dz)
				ring += c.grayAt(int(p.X), int(p.Y))
			}
			out[2*nPlanes+9] = float32((gm - ring/lookRing) / 64)
			q += lookPerPlace
		}
	}
	q += c.rimInput(i, x[q:q+lookRims])
	q += c.diagInput(i, x[q:q+lookDiags])
	copy(x[q:q+netGeom], c.netRow(0, i)[netInputs-netGeom:])
}

// lookRimStep is the spacing (pitches) of the distances at which a tier's
// top edge is sought: the tiers sit up to 0.05 off centre and turned up to
// 10 degrees, and sets differ in their widths.
const lookRimStep = 0.035

// rimInput fills out (lookRims) with the grey contrast across each tier's
// top edge of cell i, on each side (the board's -y, +x, +y, -x), at each
// distance: from above, a level-2 tower differs from a level-1 block
// mostly by the step between their tops. It gives lookRims.
func (c *cellCtx) rimInput(i int, out []float32) int {
	for j := range out {
		out[j] = 0
	}
	g := c.gray
	if g.p == nil {
		return lookRims
	}
	s := &c.set
	tops := s.tierTops()
	halves := [lookRimTiers]float64{s.tier1Width / 2, s.tier2Width / 2, s.tier3Width / 2}
	cx, cy := float64(i%5)+0.5, float64(i/5)+0.5
	// Outward normals and along-side directions of the four sides.
	normals := [lookRimSides][2]float64{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	k := 0
	for t := 0; t < lookRimTiers; t++ {
		for _, n := range normals {
			for st := 0; st < lookRimSteps; st++ {
				d := halves[t] + lookRimStep*float64(st-lookRimSteps/2)
				var sum float64
				for a := 0; a < lookRimAlong; a++ {
					u := (float64(a)+0.5)/lookRimAlong*1.2 - 0.6 // along the side, within its middle
					bx := cx + n[0]*d - n[1]*u*d
					by := cy + n[1]*d + n[0]*u*d
					p := c.cam.project(bx, by, tops[t])
					q := c.cam.project(bx+0.05*n[0], by+0.05*n[1], tops[t])
					nx, ny := q.X-p.X, q.Y-p.Y
					nl := math.Hypot(nx, ny)
					x, y := int(p.X), int(p.Y)
					if nl < 1e-6 || x < 1 || y < 1 || x >= g.w-1 || y >= g.h-1 {
						continue
					}
					gx, gy := g.gradient(x, y)
					sum += math.Abs(gx*nx+gy*ny) / nl
				}
				out[k] = float32(sum / lookRimAlong / 64)
				k++
			}
		}
	}
	return lookRims
}

// lookDiagFirst and lookDiagStep (pitches) place the diagonals' samples:
// from inside level 3's round top (radius 0.33-0.4) out past level 1's
// square corner (0.64-0.69 from the centre).
const (
	lookDiagFirst = 0.3
	lookDiagStep  = 0.05
)

// diagInput fills out (lookDiags) with the grey contrast along each
// diagonal of cell i at each tier's top height. Seen from above, a square
// top and a round one differ at their corners (a level-2 block's corner
// stands where level 3's round top has long ended), and a level-2 block's
// corner stands inside level 1's. It gives lookDiags.
func (c *cellCtx) diagInput(i int, out []float32) int {
	for j := range out {
		out[j] = 0
	}
	g := c.gray
	if g.p == nil {
		return lookDiags
	}
	tops := c.set.tierTops()
	cx, cy := float64(i%5)+0.5, float64(i/5)+0.5
	k := 0
	for _, z := range tops {
		for _, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			d[0], d[1] = d[0]/math.Sqrt2, d[1]/math.Sqrt2
			for st := 0; st < lookDiagSteps; st++ {
				r := lookDiagFirst + lookDiagStep*float64(st)
				p := c.cam.project(cx+r*d[0], cy+r*d[1], z)
				q := c.cam.project(cx+(r+0.05)*d[0], cy+(r+0.05)*d[1], z)
				nx, ny := q.X-p.X, q.Y-p.Y
				nl := math.Hypot(nx, ny)
				x, y := int(p.X), int(p.Y)
				if nl > 1e-6 && x >= 1 && y >= 1 && x < g.w-1 && y < g.h-1 {
					gx, gy := g.gradient(x, y)
					out[k] = float32(math.Abs(gx*nx+gy*ny) / nl / 64)
				}
				k++
			}
		}
	}
	return lookDiags
}

// tierTops gives the heights of the three tiers' tops.
func (s *pieceSet) tierTops() [lookRimTiers]float64 {
	return [lookRimTiers]float64{s.tier1Top, s.tier2Top, s.tier3Top}
}

// lookRing points at lookRingRadius (pitches) about a pawn's axis are
// what a pawn's lattice is compared with: beyond a pawn, within a cell.
const (
	lookRing       = 8
	lookRingRadius = 0.3
)

// grayAt is the reduced frame's grey at (x, y), 0 off the frame or with
// no grey.
func (c *cellCtx) grayAt(x, y int) float64 {
	g := c.gray
	if g.p == nil || x < 0 || y < 0 || x >= g.w || y >= g.h {
		return 0
	}
	return float64(g.p[y*g.w+x])
}

// lookFar bounds the colour distances (standard deviations).
const lookFar = 8

// colourDistances gives how far the colour about (x, y) (3x3 pixels) is
// from the cells' colour and from the block tops' (in their standard
// deviations, at most lookFar; lookFar for the block when the frame has
// no block colour, and for points out of the frame).
func colourDistances(px *pixels, m *colourModel, x, y int) (board, block float32) {
	if x < 1 || y < 1 || x >= px.w-1 || y >= px.h-1 {
		return lookFar, lookFar
	}
	// Integer sums: the float sums of bytes they replaced were exact, so
	// these are the same values.
	var r, g, b int
	for dy := -1; dy <= 1; dy++ {
		o := 3 * ((y+dy)*px.w + x - 1)
		q := px.bgr[o : o+9]
		b += int(q[0]) + int(q[3]) + int(q[6])
		g += int(q[1]) + int(q[4]) + int(q[7])
		r += int(q[2]) + int(q[5]) + int(q[8])
	}
	l, a, bb := features(float64(r)/9, float64(g)/9, float64(b)/9)
	dist := func(mean, sd [3]float64) float32 {
		z0, z1, z2 := (l-mean[0])/sd[0], (a-mean[1])/sd[1], (bb-mean[2])/sd[2]
		return float32(math.Min(lookFar, math.Sqrt(z0*z0+z1*z1+z2*z2)))
	}
	board = lookFar
	if !m.noBoard {
		board = dist(m.board, m.sd)
	}
	block = lookFar
	if m.hasBlock {
		block = dist(m.block, m.blockSD)
	}
	return board, block
}

//go:embed looknet.bin
var lookNetBin []byte

// lookNets are second looks whose corrections are averaged; their file
// is their file forms one after another (so cat joins them).
type lookNets []*lookNet

// parseLookNets reads one or more networks' file forms, back to back.
func parseLookNets(data []byte) (lookNets, error) {
	return parseNets(data, lookNetFile, func(p []byte) (*lookNet, error) {
		var n lookNet
		return &n, n.UnmarshalBinary(p)
	})
}

// MarshalBinary gives the networks' file form.
func (ns lookNets) MarshalBinary() ([]byte, error) { return marshalNets(ns) }

// correct adds the networks' averaged corrections for inputs x to lp
// (scratch as lookNet.correct's).
func (ns lookNets) correct(x, xs, hid []float32, lp *[nHyp]float64) {
	var sum [nHyp]float64
	for _, n := range ns {
		n.correct(x, xs, hid, &sum)
	}
	for k := range lp {
		lp[k] += sum[k] / float64(len(ns))
	}
}

// builtinLookNets are the trained second looks, or nil when looknet.bin
// does not fit this build (the cell networks then decide alone).
var builtinLookNets = func() lookNets {
	ns, err := parseLookNets(lookNetBin)
	if err != nil {
		return nil
	}
	return ns
}()

// secondLook fills every cell's second-look inputs (c.lookIn) from the
// cell networks' log-probabilities and, with networks ns, adds their
// corrections to them; with ns, a cell the networks are sure of
// (sureLookLead) keeps its odds and gets only its geometry.
func (c *cellCtx) secondLook(px *pixels, m *colourModel, ns lookNets) {
	c.lookRows()
	for i := 0; i < 25; i++ {
		x := c.lookIn[i*lookInputs : (i+1)*lookInputs]
		if len(ns) > 0 && passSureCells && lead(&c.netLP[i]) >= sureLookLead {
			// Only the geometry, which the later looks take.
			copy(x[lookInputs-netGeom:], c.netRow(0, i)[netInputs-netGeom:])
			continue
		}
		c.lookInput(px, m, i, &c.netLP[i], x)
		if len(ns) > 0 {
			ns.correct(x, c.lookXs, c.lookHid, &c.netLP[i])
		}
	}
}

// lookRows makes the second look's rows and scratch, once.
func (c *cellCtx) lookRows() {
	if len(c.lookIn) != 25*lookInputs {
		c.lookIn, c.lookXs, c.lookHid = make([]float32, 25*lookInputs), make([]float32, lookInputs), make([]float32, lookHidden)
	}
}

// sureLookLead is the lead (nats) of a cell's likeliest hypothesis over
// the next from which the second look passes it by. Five check sets cold,
// at 8 and at 12, read the same cells as with every cell looked at (384
// wrong, 1827 boards perfect, 11 wrong yet sure); at 8, 9484 of the
// 52 500 confidences moved a little, 12 across the asking line (8753 ->
// 8761 cells asked). Read both ways in turn (TestSwitchCost, one core),
// 8 saved 3.0 ms a frame (s.e. 0.7) on 20000-20299 and 2.8 (0.8) on
// 18000-18299; the second look over a frame's 25 cells costs about 2.3
// ms a reading (BenchmarkSecondLook), 0.2 at 8 and 1.2 at 12. At 4 the
// cells differ (381 / 1827, 4.47 asked a board), at 2 they read worse
// (396 / 1821).
const sureLookLead = 8

// passSureCells lets the second look pass by the sure cells
// (sureLookLead); TestSwitchCost times it as "surelookpass".
var passSureCells = true
