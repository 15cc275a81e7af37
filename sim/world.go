package sim

import (
	"math"

	"companion/observation"
)

// footprint is where a piece stands on a flat surface, for contact shading.
type footprint struct {
	z      float64 // height of the surface it stands on
	fr     frame   // upright, at the piece's centre
	hx, hy float64 // half sizes of a square foot, or hx the radius of a round one
	round  bool
}

// light is a Lamp prepared for shading.
type light struct {
	directional bool
	pos         vec3 // position, or unit direction towards the light
	col         col
	ref2        float64 // squared distance to the board centre
	size        float64 // disc radius, or tangent of the angular radius
	e1, e2      vec3    // the disc's axes
}

// grid is a uniform grid over the table plane: each column of space lists
// the groups (pieces) whose bounding boxes reach into it.
type grid struct {
	x0, y0, cs float64
	nx, ny     int
	zmax       []float64 // highest group top per column, -1 if none
	start      []int32   // items of column i are items[start[i]:start[i+1]]
	items      []int32
	top        float64 // highest group top overall
}

// world is a Scene turned into primitives, ready to trace.
type world struct {
	s       *Scene
	cam     camera
	top     float64 // board top
	half    float64 // half the slab's width
	prims   []prim  // prims[:nBase] are tested by every ray, the rest via grids
	nBase   int
	baseLo  vec3 // bounding box of prims[:nBase]
	baseHi  vec3
	grids   []grid // the board's pieces, the spares
	lights  []light
	feet    [observation.Size * observation.Size][]footprint
	spare   []footprint // feet of the spare pieces, on the table
	tone    [observation.Size * observation.Size]col
	ambient col
	seed    uint32
	groups  []group // runs of primitives forming one piece, indexed by the grid
	gid     int32   // group of the next primitive
	sticky  bool    // a piece is open: primitives join the current group

	grainSin, grainCos float64 // the table's grain direction
}

// group is a run of primitives with a common bounding box.
type group struct {
	lo, hi     vec3
	first, end int32
}

// piece adds the primitives fn adds as one group.
func (w *world) piece(fn func()) {
	w.gid++
	w.sticky = true
	fn()
	w.sticky = false
}

func build(s *Scene) *world {
	st := &s.Style
	w := &world{
		s:    s,
		cam:  newCamera(s.Camera, s.Width, s.Height),
		top:  st.Height,
		half: 2.5 + st.FrameWidth,
		seed: hash32(uint32(s.Seed) ^ hash32(uint32(uint64(s.Seed)>>32)+17)),
	}
	w.grainSin, w.grainCos = math.Sincos(rad(s.Table.Angle))
	w.ambient = s.Ambient.lin()
	w.addBoard()
	w.addDividers()
	w.nBase = len(w.prims)
	w.baseLo, w.baseHi = w.prims[0].lo, w.prims[0].hi
	for _, p := range w.prims[1:] {
		w.baseLo = vec3{min(w.baseLo.x, p.lo.x), min(w.baseLo.y, p.lo.y), min(w.baseLo.z, p.lo.z)}
		w.baseHi = vec3{max(w.baseHi.x, p.hi.x), max(w.baseHi.y, p.hi.y), max(w.baseHi.z, p.hi.z)}
	}
	for i, sq := range s.Board {
		w.addCell(i, sq)
	}
	for i, sp := range s.Spares {
		w.addSpare(i, sp)
	}
	for _, pr := range s.Props {
		w.addProp(pr)
	}
	if s.Hand != nil {
		w.addHand(s.Hand)
	}
	w.buildGrid()
	centre := vec3{0, 0, w.top}
	for _, l := range s.Lamps {
		p := vec3{l.Pos[0], l.Pos[1], l.Pos[2]}
		lt := light{directional: l.Directional, pos: p, col: l.Colour.lin(), size: l.Size,
			e1: vec3{1, 0, 0}, e2: vec3{0, 1, 0}}
		if l.Directional {
			lt.pos = p.norm()
			lt.size = math.Tan(rad(l.Size))
			lt.e1 = vec3{-lt.pos.y, lt.pos.x, 0}.norm()
			if lt.e1 == (vec3{}) { // straight overhead
				lt.e1 = vec3{1, 0, 0}
			}
			lt.e2 = lt.pos.cross(lt.e1)
		} else {
			d := p.sub(centre)
			lt.ref2 = d.dot(d)
		}
		w.lights = append(w.lights, lt)
	}
	for i := range w.tone {
		h := hash3(uint32(i), w.seed, 77)
		v := st.CellVariation
		k := 1 + v*(unit(h)-0.5)
		w.tone[i] = col{
			k * (1 + 0.4*v*(unit(hash32(h+1))-0.5)),
			k,
			k * (1 + 0.4*v*(unit(hash32(h+2))-0.5)),
		}
	}
	return w
}

// add appends a primitive; its own group unless a piece is open.
func (w *world) add(p prim) {
	p.finish()
	if !w.sticky {
		w.gid++
	}
	p.group = w.gid
	w.prims = append(w.prims, p)
}

// addBoard adds the cliff pedestal and the board slab.
func (w *world) addBoard() {
	st := &w.s.Style
	zt := w.top - st.SlabThickness
	p := w.half + st.Overhang
	// Top and bottom first: most rays that reach the pedestal's box come
	// from above and are culled by the top plane at once.
	planes := []plane{{vec3{0, 0, 1}, zt}, {vec3{0, 0, -1}, 0}}
	for k := 0; k < 8; k++ {
		a := float64(k) * math.Pi / 4
		u := vec3{math.Cos(a), math.Sin(a), 0}
		dist := p
		if k%2 == 1 {
			dist = p*math.Sqrt2 - 0.35 // chamfered corners
		}
		f := st.Flare[k]
		n := vec3{u.x, u.y, f / zt}
		l := n.length()
		planes = append(planes, plane{n.scale(1 / l), (dist + f) / l})
	}
	r := p + 0.6
	for _, f := range st.Flare {
		r = max(r, p*math.Sqrt2+f)
	}
	w.add(prim{kind: kindPoly, mat: matPedestal, fr: uprightFrame(vec3{}, 0),
		a: r, c: zt, planes: planes, col: st.RockColour.lin(), ks: 0.02, shin: 3, cell: -1})
	w.add(prim{kind: kindBox, mat: matSlab, fr: uprightFrame(vec3{0, 0, zt}, 0),
		a: w.half, b: w.half, c: st.SlabThickness, col: st.FrameColour.lin(), ks: 0.04, shin: 3, cell: -1})
}

// addDividers adds the thin raised walls between the cells, one
// primitive for the whole grid of them.
func (w *world) addDividers() {
	st := &w.s.Style
	hw := st.DividerWidth / 2
	w.add(prim{kind: kindGrid, mat: matDivider, fr: uprightFrame(vec3{0, 0, w.top}, 0),
		a: 2.5 + hw, b: hw, c: st.DividerHeight, col: st.DividerColour.lin(), ks: 0.05, shin: 3, cell: -1})
}

// addCell adds the stack and the pawn on board cell i.
func (w *world) addCell(i int, sq observation.Square) {
	r, c := i/observation.Size, i%observation.Size
	j := &w.s.Jitter[i]
	base := uprightFrame(vec3{float64(c - 2), float64(2 - r), w.top}, 0)
	blocks := int(sq.Level)
	if blocks > 3 {
		blocks = 3
	}
	seed := hash3(uint32(i), w.seed, 1)
	stand := w.buildStack(base, blocks, j.Blocks, seed, int8(i), &w.feet[i])
	if sq.Level == 4 {
		d := j.Dome
		w.addDome(stand.child(vec3{d.DX, d.DY, 0}, 0), int8(i))
	}
	if sq.Occupant != observation.Empty && sq.Level < 4 {
		p := j.Pawn
		k := 1.0
		if blocks == 3 {
			k = 0.4 // the tower top is small
		}
		f := stand.child(vec3{p.DX * k, p.DY * k, 0}, rad(p.Rot))
		w.feet[i] = append(w.feet[i], footprint{z: f.o.z, fr: f, hx: w.s.Pieces.PawnWidth / 2, round: true})
		w.addPawn(f, j.Female, w.pawnColour(sq.Occupant), int8(i), hash3(uint32(i), w.seed, 2))
	}
}

func (w *world) pawnColour(o observation.Occupant) col {
	switch o {
	case observation.Blue:
		return w.s.Pieces.BlueColour.lin()
	case observation.Light:
		return w.s.Pieces.LightColour.lin()
	}
	return w.s.Pieces.DarkColour.lin()
}

// buildStack adds blocks levels 1..n standing at base (whose Z is the
// surface), with placements relative to base's centre, and returns the
// frame of the top surface, centred on the top block.
func (w *world) buildStack(base frame, n int, pl [3]Placement, seed uint32, cell int8, feet *[]footprint) frame {
	pc := &w.s.Pieces
	tint := func(k uint32) col {
		h := hash3(seed, k, 5)
		v := 1 + 0.05*(unit(h)-0.5)
		return pc.BlockColour.lin().scale(v)
	}
	stand := base
	z := 0.0
	if n >= 1 {
		f := base.child(vec3{pl[0].DX, pl[0].DY, 0}, rad(pl[0].Rot))
		h := pc.Level1Size / 2
		w.add(prim{kind: kindBox, mat: matBlock, part: partLevel1, fr: f, a: h, b: h, c: pc.Level1Top,
			col: tint(1), ks: pc.BlockGloss, shin: 3, seed: hash32(seed + 1), cell: cell})
		*feet = append(*feet, footprint{z: f.o.z, fr: f, hx: h, hy: h})
		z = pc.Level1Top
		stand = f
		stand.o.z = base.o.z + z
	}
	if n >= 2 {
		f := base.child(vec3{pl[1].DX, pl[1].DY, z}, rad(pl[1].Rot))
		h := pc.Level2Size / 2
		w.add(prim{kind: kindBox, mat: matBlock, part: partLevel2, fr: f, a: h, b: h, c: pc.Level2Top - z,
			col: tint(2), ks: pc.BlockGloss, shin: 3, seed: hash32(seed + 2), cell: cell})
		*feet = append(*feet, footprint{z: f.o.z, fr: f, hx: h, hy: h})
		z = pc.Level2Top
		stand = f
		stand.o.z = base.o.z + z
	}
	if n >= 3 {
		f := base.child(vec3{pl[2].DX, pl[2].DY, z}, rad(pl[2].Rot))
		r := pc.Level3Size / 2
		body := pc.Level3Top - z - pc.MerlonHeight
		tp := prim{mat: matBlock, part: partTower, fr: f, c: body,
			col: tint(3), ks: pc.BlockGloss, shin: 3, seed: hash32(seed + 3), cell: cell}
		if pc.TowerSides == 0 {
			tp.kind, tp.a, tp.b = kindCone, r, r
		} else {
			tp.kind, tp.a = kindPoly, r/math.Cos(math.Pi/float64(pc.TowerSides))
			tp.planes = prismPlanes(pc.TowerSides, r, body)
		}
		*feet = append(*feet, footprint{z: f.o.z, fr: f, hx: r, round: true})
		md := 0.16 * r
		rm := r - md/2
		nm := pc.Merlons
		mw := math.Pi * rm / float64(nm)
		w.piece(func() {
			w.add(tp)
			for k := 0; k < nm; k++ {
				a := (float64(k) + 0.5) * 2 * math.Pi / float64(nm)
				mf := f.child(vec3{rm * math.Cos(a), rm * math.Sin(a), body}, a)
				w.add(prim{kind: kindBox, mat: matBlock, part: partMerlon, fr: mf, a: md / 2, b: mw / 2,
					c: pc.MerlonHeight, col: tint(3), ks: pc.BlockGloss, shin: 3, cell: cell})
			}
		})
		stand = f
		stand.o.z = base.o.z + z + body
	}
	return stand
}

// prismPlanes are the planes of an upright regular prism with n sides,
// apothem r and height h.
func prismPlanes(n int, r, h float64) []plane {
	ps := []plane{{vec3{0, 0, 1}, h}, {vec3{0, 0, -1}, 0}}
	for k := 0; k < n; k++ {
		a := float64(k) * 2 * math.Pi / float64(n)
		ps = append(ps, plane{vec3{math.Cos(a), math.Sin(a), 0}, r})
	}
	return ps
}

func (w *world) addDome(f frame, cell int8) {
	pc := &w.s.Pieces
	w.add(prim{kind: kindDome, mat: matDome, fr: f, a: pc.DomeWidth / 2,
		col: pc.DomeColour.lin(), ks: pc.DomeGloss, shin: 6, cell: cell})
}

// addPawn adds a worker standing (or lying) in frame f: local z up the
// figure, local x the way it faces.
func (w *world) addPawn(f frame, female bool, c col, cell int8, seed uint32) {
	pc := &w.s.Pieces
	W, H := pc.PawnWidth, pc.PawnHeight
	// Each figure differs a little from the next, like hand-painted minis.
	v := 1 + 0.06*(unit(seed)-0.5)
	c = c.scale(v)
	pp := func(kind primKind, at vec3, a, b, h float64) {
		w.add(prim{kind: kind, mat: matPawn, fr: f.child(at, 0), a: a, b: b, c: h,
			col: c, ks: pc.PawnGloss, shin: 5, cell: cell, seed: seed})
	}
	w.gid++
	w.sticky = true
	defer func() { w.sticky = false }()
	if female {
		pp(kindCone, vec3{}, 0.5*W, 0.17*W, 0.52*H)
		pp(kindCone, vec3{0, 0, 0.5 * H}, 0.17*W, 0.25*W, 0.25*H)
		pp(kindBall, vec3{0, 0, 0.86 * H}, 0.12*H, 0, 0)
		pp(kindBall, vec3{-0.09 * H, 0, 0.9 * H}, 0.06*H, 0, 0) // hair
		return
	}
	pp(kindCone, vec3{}, 0.5*W, 0.5*W, 0.07*H)
	pp(kindCone, vec3{0, 0, 0.07 * H}, 0.25*W, 0.34*W, 0.65*H)
	pp(kindBall, vec3{0, 0, 0.84 * H}, 0.13*H, 0, 0)
	pp(kindBox, vec3{0.06 * W, 0, 0.45 * H}, 0.2*W, 0.38*W, 0.22*H) // arms and chest
}

// pawnLying is the frame of a pawn lying on its side on the table at (x,y),
// its head towards angle a.
func pawnLying(x, y, a float64, pc *Pieces, female bool) frame {
	rb := 0.5 * pc.PawnWidth
	rh, hc := 0.13*pc.PawnHeight, 0.84*pc.PawnHeight
	if female {
		rh, hc = 0.12*pc.PawnHeight, 0.86*pc.PawnHeight
	}
	sa := (rb - rh) / hc
	ca := math.Sqrt(1 - sa*sa)
	s, c := math.Sincos(a)
	ez := vec3{c * ca, s * ca, -sa}
	ey := vec3{0, 0, 1}.sub(ez.scale(ez.z)).norm()
	ex := ey.cross(ez)
	return frame{ex: ex, ey: ey, ez: ez, o: vec3{x - ez.x*hc/2, y - ez.y*hc/2, rb * ey.z}}
}

// addSpare adds a piece lying on the table.
func (w *world) addSpare(i int, sp Spare) {
	pc := &w.s.Pieces
	seed := hash3(uint32(i), w.seed, 3)
	f := uprightFrame(vec3{sp.X, sp.Y, 0}, rad(sp.Rot))
	switch sp.Kind {
	case SpareLevel1, SpareLevel2, SpareLevel3:
		// A lone block: build the stack's level alone, on the table.
		var tmp []footprint
		n := int(sp.Kind-SpareLevel1) + 1
		lo := 0.0
		switch n {
		case 2:
			lo = pc.Level1Top
		case 3:
			lo = pc.Level2Top
		}
		// Shift the piece down so that level n stands on the table.
		sh := f
		sh.o.z = -lo
		first := len(w.prims)
		w.buildStack(sh, n, [3]Placement{}, seed, -1, &tmp)
		// Keep only level n's primitives.
		keep := w.prims[:first]
		for _, p := range w.prims[first:] {
			if p.part == partLevel1 && n == 1 || p.part == partLevel2 && n == 2 ||
				(p.part == partTower || p.part == partMerlon) && n == 3 {
				keep = append(keep, p)
			}
		}
		w.prims = keep
		r := pc.Level1Size / 2
		if n == 2 {
			r = pc.Level2Size / 2
		} else if n == 3 {
			r = pc.Level3Size / 2
		}
		w.spare = append(w.spare, footprint{fr: f, hx: r, hy: r, round: n == 3})
	case SpareDome:
		w.addDome(f, -1)
		w.spare = append(w.spare, footprint{fr: f, hx: pc.DomeWidth / 2, round: true})
	case SparePawn:
		if sp.Lying {
			f = pawnLying(sp.X, sp.Y, rad(sp.Rot), pc, sp.Female)
		} else {
			w.spare = append(w.spare, footprint{fr: f, hx: pc.PawnWidth / 2, round: true})
		}
		w.addPawn(f, sp.Female, w.pawnColour(sp.Occupant), -1, seed)
	}
}

// buildGrid groups the pieces' primitives and sorts the groups into the
// table-plane grid.
func (w *world) buildGrid() {
	ps := w.prims[w.nBase:]
	for i := 0; i < len(ps); {
		j := i + 1
		for j < len(ps) && ps[j].group == ps[i].group {
			j++
		}
		gr := group{lo: ps[i].lo, hi: ps[i].hi, first: int32(w.nBase + i), end: int32(w.nBase + j)}
		for _, p := range ps[i:j] {
			gr.lo = vec3{min(gr.lo.x, p.lo.x), min(gr.lo.y, p.lo.y), min(gr.lo.z, p.lo.z)}
			gr.hi = vec3{max(gr.hi.x, p.hi.x), max(gr.hi.y, p.hi.y), max(gr.hi.z, p.hi.z)}
		}
		w.groups = append(w.groups, gr)
		i = j
	}
	// Two grids: the board's pieces, tall, and the spares, low on the
	// table, so that rays rising from the table leave each soon.
	var board, spare []int32
	for i := range w.groups {
		if w.prims[w.groups[i].first].cell >= 0 {
			board = append(board, int32(i))
		} else {
			spare = append(spare, int32(i))
		}
	}
	w.grids = w.grids[:0]
	for _, set := range [][]int32{board, spare} {
		if len(set) > 0 {
			w.grids = append(w.grids, w.newGrid(set))
		}
	}
}

// newGrid sorts the given groups into a grid over the table plane.
func (w *world) newGrid(set []int32) grid {
	var g grid
	gs := w.groups
	lo := vec3{math.Inf(1), math.Inf(1), 0}
	hi := vec3{math.Inf(-1), math.Inf(-1), 0}
	for _, i := range set {
		lo.x, lo.y = min(lo.x, gs[i].lo.x), min(lo.y, gs[i].lo.y)
		hi.x, hi.y = max(hi.x, gs[i].hi.x), max(hi.y, gs[i].hi.y)
		g.top = max(g.top, gs[i].hi.z)
	}
	// Columns one pitch wide, aligned with the board's cells.
	g.cs = 1
	g.x0, g.y0 = math.Floor(lo.x-0.5)+0.5, math.Floor(lo.y-0.5)+0.5
	g.nx = int(math.Ceil((hi.x-g.x0)/g.cs)) + 1
	g.ny = int(math.Ceil((hi.y-g.y0)/g.cs)) + 1
	n := g.nx * g.ny
	g.zmax = make([]float64, n)
	for i := range g.zmax {
		g.zmax[i] = -1
	}
	counts := make([]int32, n+1)
	span := func(p *group) (int, int, int, int) {
		x0 := int((p.lo.x - g.x0) / g.cs)
		x1 := int((p.hi.x - g.x0) / g.cs)
		y0 := int((p.lo.y - g.y0) / g.cs)
		y1 := int((p.hi.y - g.y0) / g.cs)
		return max(x0, 0), min(x1, g.nx-1), max(y0, 0), min(y1, g.ny-1)
	}
	for _, i := range set {
		x0, x1, y0, y1 := span(&gs[i])
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				counts[y*g.nx+x+1]++
				g.zmax[y*g.nx+x] = max(g.zmax[y*g.nx+x], gs[i].hi.z)
			}
		}
	}
	for i := 1; i <= n; i++ {
		counts[i] += counts[i-1]
	}
	g.start = counts
	g.items = make([]int32, counts[n])
	fill := make([]int32, n)
	copy(fill, counts[:n])
	for _, i := range set {
		x0, x1, y0, y1 := span(&gs[i])
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				c := y*g.nx + x
				g.items[fill[c]] = i
				fill[c]++
			}
		}
	}
	return g
}

// addProp adds a die or a card on the table.
func (w *world) addProp(pr Prop) {
	f := uprightFrame(vec3{pr.X, pr.Y, 0}, rad(pr.Rot))
	if pr.Kind == Die {
		h := pr.Size / 2
		w.add(prim{kind: kindBox, mat: matDie, fr: f, a: h, b: h, c: pr.Size,
			col: pr.Colour.lin(), ks: 0.3, shin: 5, cell: -1, seed: uint32(pr.Top)})
		w.spare = append(w.spare, footprint{fr: f, hx: h, hy: h})
		return
	}
	a, b := pr.Size/2, 0.7*pr.Size
	w.add(prim{kind: kindBox, mat: matCard, fr: f, a: a, b: b, c: 0.012,
		col: pr.Colour.lin(), ks: 0.12, shin: 4, cell: -1})
	w.spare = append(w.spare, footprint{z: 0, fr: f, hx: a, hy: b})
}
