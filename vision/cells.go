package vision

import (
	"image"
	"math"

	"companion/observation"
)

// Cell reading by render and compare. For each cell there are 17 hypotheses:
// level 0-3 with no pawn or a blue, light or dark pawn, and a dome. Each is
// drawn with the camera recovered from the grid (the outlines of its tiers,
// dome and pawn where the camera would see them, nearer cells drawn over
// farther ones) into a label map, and scored by how well every pixel's
// colour fits the label drawn there (see colour.go). The three pawn colours
// share one drawing. Cells are decided by coordinate descent, nearest cells
// first, two sweeps. A cell whose hypotheses all score alike (hidden behind
// a tall tower) gets a low confidence; every confidence is also scaled by
// how surely the grid was found.

const nHyp = 17

// confTemp scales the score differences (per pixel of the cell's region)
// into the confidence's softmax.
const confTemp = 0.12

// Labels of the drawn map.
const (
	labBoard = iota
	labBlock
	labDome
	labBlue
	labLight
	labDark
	nLab
	labMine = nLab // the pawn of the cell being scored, any colour
)

func hypSquare(k int) observation.Square {
	if k == 16 {
		return observation.Square{Level: 4}
	}
	return observation.Square{Level: uint8(k / 4), Occupant: observation.Occupant(k % 4)}
}

type drawn struct {
	outline poly
	lab     uint8
}

type cellCtx struct {
	cam    camera
	w, h   int
	shapes [25][nHyp][]drawn
	box    [25][nHyp]image.Rectangle
	region [25]image.Rectangle // union over hypotheses
	order  [25]int             // drawing order, farthest first
	rank   [25]int
	hyp    [25]int
	lab    []uint8
	tmp    []pt
	parts  []shape
	scores [25][nHyp]float64
	model  *colourModel
	set    pieceSet
}

func (r *Reader) readCells(h homography, res *Result) {
	c := &r.cc
	means, sds := boardCandidates(cellColours(&r.px, h))
	r.model.board, r.model.sd = means[0], sds[0]
	bestLL := math.Inf(-1)
	var bestHyp [25]int
	var bestScores [25][nHyp]float64
	// Near top-down the grid does not fix the focal length (how far the
	// camera is), on which the towers' parallax depends: try a short, a
	// middle and a long lens and keep the one that explains the frame best.
	f0, sure := focalLength(h, float64(r.px.w)/2, float64(r.px.h)/2, defaultFocal(r.px.h))
	focals := []float64{f0}
	if sure < 0.3 && tryFocals {
		focals = append(focals, f0*0.8, f0*1.25)
	}
	var all image.Rectangle
	for _, f := range focals {
		all = all.Union(c.setupFocal(h, r.px.w, r.px.h, f))
	}
	r.model.ringHistogram(&r.px, h)
	r.model.compute(&r.px, all)
	for v, f := range focals {
		if len(focals) > 1 || v > 0 {
			c.setupFocal(h, r.px.w, r.px.h, f)
		}
		c.search()
		c.draw(all, -1, 0)
		ll := c.total(all, &r.model)
		if ll > bestLL {
			bestLL, bestHyp, bestScores = ll, c.hyp, c.scores
		}
	}
	c.hyp, c.scores = bestHyp, bestScores
	for i := range c.hyp {
		res.Board[i] = hypSquare(c.hyp[i])
		res.Confidence[i] = c.confidence(i)
	}
}

// tryFocals enables the search over three focal lengths near top-down
// views: about one cell in a hundred better on simulated frames, for three
// times the cell-reading time, so off.
const tryFocals = false

// pieceSets are the proportions tried; the one that explains the frame
// best is kept. Trying a small and a large set besides TABLE.md's middle
// values gained about one cell in a hundred on simulated frames for three
// times the work, so only the middle set is tried.
var pieceSets = []pieceSet{defaultSet}

// search decides the cells by coordinate descent, nearest first.
func (c *cellCtx) search() {
	for sweep := 0; sweep < 2; sweep++ {
		changed := false
		for q := 24; q >= 0; q-- {
			i := c.order[q]
			// The three pawn colours share their outline: one drawing
			// scores all three (hypotheses 4L+1..3).
			for k := 0; k < nHyp; k++ {
				sq := hypSquare(k)
				if sq.Occupant > observation.Blue {
					continue
				}
				if sq.Occupant == observation.Blue {
					s := c.scorePawns(i, k, c.model)
					c.scores[i][k], c.scores[i][k+1], c.scores[i][k+2] = s[0], s[1], s[2]
				} else {
					c.scores[i][k] = c.score(i, k, c.model)
				}
			}
			best, bestK := math.Inf(-1), 0
			for k := 0; k < nHyp; k++ {
				if s := c.scores[i][k]; s > best {
					best, bestK = s, k
				}
			}
			if bestK != c.hyp[i] {
				changed = true
				c.hyp[i] = bestK
			}
		}
		if !changed {
			break
		}
	}
}

// scorePawns is score for the blue-pawn hypothesis k and the light and
// dark pawns of the same level, from one drawing.
func (c *cellCtx) scorePawns(i, k int, m *colourModel) [3]float64 {
	var s [3]float64
	reg := c.region[i]
	if reg.Empty() {
		return s
	}
	c.drawMarked(reg, i, k, true)
	w := c.w
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		o := y*w + reg.Min.X
		for x := reg.Min.X; x < reg.Max.X; x++ {
			l := c.lab[o]
			if l == labMine {
				s[0] += float64(m.ll[labBlue][o])
				s[1] += float64(m.ll[labLight][o])
				s[2] += float64(m.ll[labDark][o])
			} else {
				v := float64(m.ll[l][o])
				s[0] += v
				s[1] += v
				s[2] += v
			}
			o++
		}
	}
	return s
}

// draw fills the label map over reg with every cell as it stands, except
// cell i drawn as hypothesis k.
func (c *cellCtx) draw(reg image.Rectangle, i, k int) { c.drawMarked(reg, i, k, false) }

// drawMarked is draw; with mark, cell i's pawn is drawn as labMine.
func (c *cellCtx) drawMarked(reg image.Rectangle, i, k int, mark bool) {
	w := c.w
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		row := c.lab[y*w+reg.Min.X : y*w+reg.Max.X]
		for x := range row {
			row[x] = labBoard
		}
	}
	for _, j := range c.order {
		kj := c.hyp[j]
		if j == i {
			kj = k
		}
		if !c.box[j][kj].Overlaps(reg) {
			continue
		}
		for _, d := range c.shapes[j][kj] {
			l := d.lab
			if mark && j == i && l >= labBlue {
				l = labMine
			}
			fill(d.outline, reg.Min.X, reg.Min.Y, reg.Max.X, reg.Max.Y, c.lab, w, l)
		}
	}
}

// score draws the board around cell i with cell i as hypothesis k and the
// others as they stand, and sums the label log-likelihoods over cell i's
// region.
func (c *cellCtx) score(i, k int, m *colourModel) float64 {
	reg := c.region[i]
	if reg.Empty() {
		return 0
	}
	c.draw(reg, i, k)
	w := c.w
	var s float64
	for y := reg.Min.Y; y < reg.Max.Y; y++ {
		o := y*w + reg.Min.X
		for x := reg.Min.X; x < reg.Max.X; x++ {
			s += float64(m.ll[c.lab[o]][o])
			o++
		}
	}
	return s
}

// total sums the label log-likelihoods of the drawn map over rect.
func (c *cellCtx) total(rect image.Rectangle, m *colourModel) float64 {
	var s float64
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		o := y*c.w + rect.Min.X
		for x := rect.Min.X; x < rect.Max.X; x++ {
			s += float64(m.ll[c.lab[o]][o])
			o++
		}
	}
	return s
}

// confidence is the softmax probability of the chosen hypothesis, the
// score differences scaled per pixel of the cell's region. A cell hidden
// behind a tower scores alike under every hypothesis: low confidence.
func (c *cellCtx) confidence(i int) float64 {
	b := c.hyp[i]
	area := float64(c.region[i].Dx()*c.region[i].Dy()) + 1
	t := confTemp * area // temperature: score units per nat
	var z float64
	for k := 0; k < nHyp; k++ {
		z += math.Exp((c.scores[i][k] - c.scores[i][b]) / t)
	}
	return 1 / z
}

// setup poses the camera from the reduced-frame homography and prepares
// every cell's hypotheses; it returns the region they may cover.
func (c *cellCtx) setup(h homography, w, hh int) image.Rectangle {
	f, _ := focalLength(h, float64(w)/2, float64(hh)/2, defaultFocal(hh))
	return c.setupFocal(h, w, hh, f)
}

// defaultFocal is the focal length (pixels) of a 50-degree vertical field
// of view, the middle of usual webcams and phones.
func defaultFocal(hh int) float64 { return 0.5 * float64(hh) / math.Tan(50*math.Pi/180/2) }

// setupFocal is setup with a given focal length.
func (c *cellCtx) setupFocal(h homography, w, hh int, f float64) image.Rectangle {
	c.cam = poseWithFocal(h, float64(w)/2, float64(hh)/2, f)
	c.w, c.h = w, hh
	if cap(c.lab) < w*hh {
		c.lab = make([]uint8, w*hh)
	}
	c.lab = c.lab[:w*hh]
	c.prepare()
	all := image.Rectangle{}
	for i := range c.region {
		all = all.Union(c.region[i])
	}
	for i := range c.hyp {
		c.hyp[i] = 0
	}
	return all
}

// prepare draws every cell's hypotheses' outlines, their bounding boxes
// and the cells' drawing order (farthest first).
func (c *cellCtx) prepare() {
	bounds := image.Rect(0, 0, c.w, c.h)
	var depth [25]float64
	for i := 0; i < 25; i++ {
		row, col := i/5, i%5
		c.region[i] = image.Rectangle{}
		for k := 0; k < nHyp; k++ {
			sq := hypSquare(k)
			c.shapes[i][k] = c.shapes[i][k][:0]
			c.parts = c.set.cellShapes(&c.cam, row, col, int(sq.Level), sq.Occupant != observation.Empty, c.parts[:0], c.tmp[:0])
			for _, s := range c.parts {
				l := uint8(labBlock)
				switch s.part {
				case partDome:
					l = labDome
				case partPawn:
					l = uint8(labBlue + int(sq.Occupant) - 1)
				}
				c.shapes[i][k] = append(c.shapes[i][k], drawn{s.outline, l})
			}
			// The ground footprint always belongs to the cell's region.
			fp := prism(&c.cam, row, col, 1, 0, 0, false, c.tmp[:0], nil)
			bb := polyBox(fp)
			for _, d := range c.shapes[i][k] {
				bb = bb.Union(polyBox(d.outline))
			}
			c.box[i][k] = bb.Intersect(bounds)
			c.region[i] = c.region[i].Union(c.box[i][k])
		}
		// Depth of the cell centre along the view.
		r := &c.cam.r
		x, y, z := float64(col)+0.5, float64(row)+0.5, 0.5
		depth[i] = r[6]*x + r[7]*y + r[8]*z + c.cam.t[2]
	}
	for i := range c.order {
		c.order[i] = i
	}
	// Insertion sort by depth, farthest first.
	for a := 1; a < 25; a++ {
		for b := a; b > 0 && depth[c.order[b]] > depth[c.order[b-1]]; b-- {
			c.order[b], c.order[b-1] = c.order[b-1], c.order[b]
		}
	}
	for q, i := range c.order {
		c.rank[i] = q
	}
}

func polyBox(p poly) image.Rectangle {
	if len(p) == 0 {
		return image.Rectangle{}
	}
	x0, y0, x1, y1 := p[0].X, p[0].Y, p[0].X, p[0].Y
	for _, q := range p {
		x0, y0 = math.Min(x0, q.X), math.Min(y0, q.Y)
		x1, y1 = math.Max(x1, q.X), math.Max(y1, q.Y)
	}
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1)
}
