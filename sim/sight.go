package sim

import (
	"math"

	"companion/observation"
)

// CellSight is how much of one cell's contents the camera sees: the share
// of points on the top of its stack (the bare cell, a block's top face,
// the tower's top inside its merlons, or the dome) and of points up its
// pawn's axis that no other cell's pieces hide. A cell behind a tall tower
// at a low camera can be hidden whole: no reader can tell what is on it,
// and it should say so (a low confidence) rather than guess.
type CellSight struct {
	Top  float64
	Pawn float64 // -1 when the cell has no pawn
	// Figure is the share of points over the whole pawn, up its axis from
	// near the foot to the crown and round its head, that the camera
	// sees (-1 when the cell has no pawn). At 0 nothing of the pawn is in
	// sight: no reader can know it is there.
	Figure float64
}

// Hidden reports whether most of what tells the cell's reading (its top,
// or its pawn) is out of the camera's sight.
func (c CellSight) Hidden() bool {
	return c.Top < 0.5 || c.Pawn >= 0 && c.Pawn < 0.5
}

// sightTol is how far short of a bare cell's point (pitches) the ray may
// stop on the board and still count as reaching it.
const sightTol = 0.02

// Sight tells, for each cell of the scene's board, how much of it the
// camera sees; it traces a few dozen rays a cell and renders nothing.
func Sight(s Scene) [observation.Size * observation.Size]CellSight {
	w := build(&s)
	tr := newTracer(w)
	var out [observation.Size * observation.Size]CellSight
	for i, sq := range s.Board {
		out[i] = w.cellSight(tr, i, sq)
	}
	return out
}

// SightOf is Sight for cell i alone.
func SightOf(s Scene, i int) CellSight {
	w := build(&s)
	return w.cellSight(newTracer(w), i, s.Board[i])
}

// cellSight samples cell i's top and pawn; a point is seen when the ray
// from the camera first meets a piece of cell i, or the board at the
// point itself.
func (w *world) cellSight(tr *tracer, i int, sq observation.Square) CellSight {
	pc := &w.s.Pieces
	r, c := i/observation.Size, i%observation.Size
	cx, cy := float64(c-2), float64(2-r)
	feet := w.feet[i]
	blocks := min(int(sq.Level), 3)
	top := w.top - 0.001
	span := 0.2 // half the sampled square of a bare cell's top
	if blocks > 0 {
		f := feet[blocks-1].fr.o
		cx, cy = f.x, f.y
	}
	switch blocks {
	case 1:
		top, span = w.top+pc.Level1Top-0.005, 0.3*pc.Level1Size
	case 2:
		top, span = w.top+pc.Level2Top-0.005, 0.3*pc.Level2Size
	case 3:
		top, span = w.top+pc.Level3Top-pc.MerlonHeight-0.005, 0.25*pc.Level3Size
	}
	var pts []vec3
	if sq.Level == 4 {
		// Inside the dome, under its crown: a ray that reaches the point
		// has passed through the dome first.
		rd := pc.DomeWidth / 2
		for _, d := range [][2]float64{{0, 0}, {0.4, 0}, {-0.4, 0}, {0, 0.4}, {0, -0.4}} {
			pts = append(pts, vec3{cx + d[0]*rd, cy + d[1]*rd, top + 0.5*rd})
		}
	} else {
		for gy := -1; gy <= 1; gy++ {
			for gx := -1; gx <= 1; gx++ {
				pts = append(pts, vec3{cx + span*float64(gx), cy + span*float64(gy), top})
			}
		}
	}
	out := CellSight{Top: w.seenShare(tr, i, pts), Pawn: -1, Figure: -1}
	if sq.Occupant != observation.Empty && sq.Level < 4 {
		f := feet[len(feet)-1].fr.o
		pts = pts[:0]
		for _, k := range []float64{0.2, 0.4, 0.6, 0.8} {
			pts = append(pts, vec3{f.x, f.y, f.z + k*pc.PawnHeight})
		}
		out.Pawn = w.seenShare(tr, i, pts)
		// The head (a ball of radius about 0.12 of the height, its centre
		// 0.85 of it up; addPawn) rises above the axis points and can show
		// alone.
		for k := 0.1; k < 0.975; k += 0.05 {
			pts = append(pts, vec3{f.x, f.y, f.z + k*pc.PawnHeight})
		}
		r, hz := 0.11*pc.PawnHeight, f.z+0.85*pc.PawnHeight
		for _, d := range [][3]float64{{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}} {
			pts = append(pts, vec3{f.x + d[0], f.y + d[1], hz + d[2]})
		}
		out.Figure = w.seenShare(tr, i, pts)
	}
	return out
}

// seenShare is the share of points pts that the camera sees as part of
// cell i.
func (w *world) seenShare(tr *tracer, i int, pts []vec3) float64 {
	seen := 0
	for _, p := range pts {
		d := p.sub(w.cam.pos)
		dist := math.Sqrt(d.dot(d))
		h := tr.closest(w.cam.pos, d.scale(1/dist))
		switch {
		case h.idx >= 0 && int(w.prims[h.idx].cell) == i:
			seen++
		case h.idx >= 0 && int(h.idx) < w.nBase && h.t > dist-sightTol:
			seen++
		}
	}
	return float64(seen) / float64(len(pts))
}
