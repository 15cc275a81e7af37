package vision

import (
	"fmt"
	"math"
)

// The cells read by patch-only networks: an experiment towards the speed
// target, not the reader's default. The cells' reading (the colour
// model, the render-and-compare search, the cell networks and the second
// look) costs about 20 ms of one core each time a grid is read; networks
// that see only the third look's patches and the cell's geometry
// (solonet_train.py) cost 4 to 8 ms for the 25 cells. With them the
// reading is their mean log-probabilities on the grid's own lens, and
// the looks run on it as on the reading (SIM_NOTES, eighty-second
// session).

// soloCells are the networks that replace the cells' reading.
type soloCells struct {
	nets []patchNet
}

func (s *soloCells) close() {
	for i := range s.nets {
		s.nets[i].close()
	}
	s.nets = nil
}

// UseCellNetworks makes r read the cells with the mean of the given
// patch-only networks (ONNX files with the patch network's inputs, "patch"
// and "extra", giving each cell's log-probabilities as "corr", as
// solonet_train.py writes them) in place of its own reading; none restores
// the reading. For experiments (the accuracy harness's -solo) only:
// OpenCV 4.6 aborts the process on a file it cannot parse or whose
// inputs are named otherwise.
func (r *Reader) UseCellNetworks(files ...[]byte) error {
	r.solo.close()
	nets := make([]patchNet, len(files))
	for i, f := range files {
		nets[i].file = f
		if err := nets[i].load(); err != nil {
			for j := range nets[:i] {
				nets[j].close()
			}
			return fmt.Errorf("vision: cell network %d of %d: %w", i+1, len(files), err)
		}
	}
	r.solo.nets = nets
	return nil
}

// readSolo reads the cells on grid h (reduced frame) into res with the
// solo networks: no colours are chosen and only the grid's own lens is
// tried (the networks were trained on every lens the reading chose).
func (r *Reader) readSolo(h homography, res *Result) error {
	c := &r.cc
	c.setupFocal(h, r.px.w, r.px.h, r.lenses(h)[0])
	c.netRows()
	c.lookRows()
	// The inputs the looks and the confidence take from the reading: the
	// cells' geometry; no render-and-compare scores (so no pawn veto) and
	// no cover seen.
	for i := 0; i < 25; i++ {
		x := c.netRow(0, i)
		clear(x)
		g := x[netInputs-netGeom:]
		c.cellGeometry(i, g)
		copy(c.lookIn[(i+1)*lookInputs-netGeom:(i+1)*lookInputs], g)
		c.netLP[i] = [nHyp]float64{}
	}
	toFull := float64(r.full.w) / float64(r.px.w)
	if err := r.soloPass(r.solo.nets, toFull, allCells[:], c.netLP[:]); err != nil {
		return err
	}
	if err := r.soloShifted(r.solo.nets, toFull, allCells[:], c.netLP[:]); err != nil {
		return err
	}
	for s := 0; s <= len(netShifts); s++ {
		copy(c.netOut[s*25:(s+1)*25], c.netLP[:])
	}
	for i := range c.hyp {
		c.hyp[i] = likeliest(&c.netLP[i])
	}
	c.decideAll(res)
	return nil
}

// soloPass reads cells with the networks nets, their mean
// log-probabilities into out[j] for cells[j].
func (r *Reader) soloPass(nets []patchNet, toFull float64, cells []int, out [][nHyp]float64) error {
	c := &r.cc
	c.samplePatches(&r.full, toFull, cells)
	return soloRun(nets, c.patchPix, c.patchExtra, out[:len(cells)])
}

// soloRun runs the networks nets on the rows of pix and extra
// (patchPixels and patchExtra values each), their mean log-probabilities
// into out[j] for row j.
func soloRun(nets []patchNet, pix []uint8, extra []float32, out [][nHyp]float64) error {
	for j := range out {
		out[j] = [nHyp]float64{}
	}
	w := 1 / float64(len(nets))
	for k := range nets {
		err := nets[k].inRuns(len(out), func(run *patchRun, at, end int) error {
			v, err := run.run(pix[at*patchPixels:end*patchPixels], extra[at*patchExtra:end*patchExtra], (end-at)*nHyp)
			if err != nil {
				return err
			}
			for j := at; j < end; j++ {
				for q := range out[j] {
					out[j][q] += w * float64(v[(j-at)*nHyp+q])
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// soloShiftGate: the solo reading reads again the cells whose likeliest
// reading leads the next by less than this (log-probabilities) on the
// grid shifted by each of netShifts, and takes the mean of the five
// readings, as the cell networks average every cell's (a single network,
// soloBs3, eighty-third session). Five check sets cold, cells wrong /
// boards perfect: none read again 682 / 1647; gate 4 610 / 1688; 8 610 /
// 1689; every cell 93 against 111 wrong on 20000-20299 alone, as gate 4.
// It costs 3-5 ms a read on one core (BenchmarkRead, ReadWithCorners).
var soloShiftGate = 4.0

// soloShifted reads again, with the networks nets, those of cells whose
// reading lp[j] (cells[j]'s) is unsure on the shifted grids, and
// averages.
func (r *Reader) soloShifted(nets []patchNet, toFull float64, cells []int, lp [][nHyp]float64) error {
	c := &r.cc
	var again, at []int
	for j, i := range cells {
		if lead(&lp[j]) < soloShiftGate {
			again, at = append(again, i), append(at, j)
		}
	}
	if len(again) == 0 {
		return nil
	}
	// Every shift's patches go through the networks in one batch: each
	// run costs about a row's time besides its rows.
	k := len(again)
	rows := k * len(netShifts)
	if len(c.shiftPix) < rows*patchPixels {
		c.shiftPix = make([]uint8, 25*len(netShifts)*patchPixels)
		c.shiftExtra = make([]float32, 25*len(netShifts)*patchExtra)
		c.shiftLP = make([][nHyp]float64, 25*len(netShifts))
	}
	for s, sh := range netShifts {
		c.patchShift = sh
		c.samplePatches(&r.full, toFull, again)
		c.patchShift = pt{}
		copy(c.shiftPix[s*k*patchPixels:], c.patchPix[:k*patchPixels])
		copy(c.shiftExtra[s*k*patchExtra:], c.patchExtra[:k*patchExtra])
	}
	if err := soloRun(nets, c.shiftPix[:rows*patchPixels], c.shiftExtra[:rows*patchExtra], c.shiftLP[:rows]); err != nil {
		return err
	}
	n := float64(len(netShifts) + 1)
	for m, j := range at {
		for q := range lp[j] {
			sum := 0.0
			for s := range netShifts {
				sum += c.shiftLP[s*k+m][q]
			}
			lp[j][q] = (lp[j][q] + sum) / n
		}
	}
	return nil
}

// cellGeometry fills g (netGeom values) with where the camera is, seen
// from cell i's centre (a unit vector), and the cell's width in pixels
// over 50: the cell networks' and the looks' geometry inputs.
func (c *cellCtx) cellGeometry(i int, g []float32) {
	cam := &c.cam
	o := cam.centre()
	cx, cy := float64(i%5)+0.5, float64(i/5)+0.5
	dx, dy, dz := o[0]-cx, o[1]-cy, o[2]
	d := math.Sqrt(dx*dx + dy*dy + dz*dz)
	a, b := cam.project(cx-0.5, cy, 0), cam.project(cx+0.5, cy, 0)
	g[0], g[1], g[2] = float32(dx/d), float32(dy/d), float32(dz/d)
	g[3] = float32(math.Hypot(a.X-b.X, a.Y-b.Y) / 50)
}
