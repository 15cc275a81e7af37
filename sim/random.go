package sim

import (
	"math"
	"math/rand"

	"companion/observation"
)

// pick draws an index with probability proportional to its weight.
func pick(rng *rand.Rand, w []float64) int {
	sum := 0.0
	for _, v := range w {
		sum += v
	}
	x := rng.Float64() * sum
	for i, v := range w {
		if x < v {
			return i
		}
		x -= v
	}
	return len(w) - 1
}

// RandomBoard draws a plausible board: levels 0-4 (a dome always as level
// 4, on its tower), 0-2 blue builders, 0-2 light and 0-2 dark enemies, at
// most one pawn per cell and none on a dome. Empty, sparse, mid-game and
// dense boards are all drawn.
func RandomBoard(rng *rand.Rand) observation.Board {
	var b observation.Board
	var w []float64
	switch m := rng.Intn(20); {
	case m < 2: // opening: no blocks yet
		w = []float64{1}
	case m < 6: // sparse
		w = []float64{0.8, 0.12, 0.05, 0.02, 0.01}
	case m < 16: // mid-game
		w = []float64{0.42, 0.24, 0.17, 0.11, 0.06}
	default: // late and dense
		w = []float64{0.15, 0.24, 0.24, 0.2, 0.17}
	}
	for i := range b {
		b[i].Level = uint8(pick(rng, w))
	}
	var free []int
	for _, i := range rng.Perm(len(b)) {
		if b[i].Level < 4 {
			free = append(free, i)
		}
	}
	counts := []struct {
		o observation.Occupant
		w []float64
	}{
		{observation.Blue, []float64{0.1, 0.25, 0.65}},
		{observation.Light, []float64{0.3, 0.35, 0.35}},
		{observation.Dark, []float64{0.3, 0.35, 0.35}},
	}
	for _, c := range counts {
		for n := pick(rng, c.w); n > 0 && len(free) > 0; n-- {
			b[free[0]].Occupant = c.o
			free = free[1:]
		}
	}
	return b
}

// RandomScene draws every parameter of a scene from seed: the board (by
// RandomBoard), the set, the table, the lighting, the camera anywhere in
// TABLE.md's envelope and the camera's imperfections.
func RandomScene(seed int64) Scene {
	rng := rand.New(rand.NewSource(seed))
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	s := Scene{Seed: seed, Width: 1280, Height: 720}
	s.Board = RandomBoard(rng)
	if rng.Float64() < 0.2 {
		s.Width, s.Height = 1920, 1080
	}

	st := &s.Style
	st.Height = u(0.5, 1.5)
	st.SlabThickness = u(0.08, 0.2)
	st.FrameWidth = u(0.4, 0.8)
	st.DividerWidth = u(0.02, 0.05)
	st.DividerHeight = u(0.01, 0.04)
	switch k := rng.Intn(10); {
	case k < 6:
		st.Cells, st.CellColour = Grass, HSV(u(72, 125), u(0.35, 0.7), u(0.35, 0.62))
	case k < 8:
		st.Cells, st.CellColour = Sand, HSV(u(32, 50), u(0.25, 0.5), u(0.6, 0.85))
	default:
		st.Cells, st.CellColour = Stone, HSV(u(20, 220), u(0, 0.1), u(0.45, 0.72))
	}
	st.CellVariation = u(0.03, 0.15)
	switch rng.Intn(4) {
	case 0:
		st.FrameColour = HSV(u(190, 220), u(0.08, 0.25), u(0.5, 0.75))
	case 1:
		st.FrameColour = HSV(u(30, 45), u(0.15, 0.35), u(0.6, 0.85))
	case 2:
		st.FrameColour = HSV(u(0, 360), u(0, 0.2), u(0.2, 0.38))
	default:
		st.FrameColour = HSV(u(190, 215), u(0.35, 0.7), u(0.4, 0.7))
	}
	st.SideColour = st.FrameColour.scale(u(0.4, 0.9))
	if rng.Float64() < 0.75 {
		st.DividerColour = HSV(u(30, 60), u(0, 0.15), u(0.7, 0.9))
	} else {
		st.DividerColour = HSV(u(0, 360), u(0, 0.1), u(0.3, 0.5))
	}
	rh, rs, rv := u(20, 45), u(0.1, 0.35), u(0.3, 0.6)
	st.RockColour = HSV(rh, rs, rv)
	st.RockColour2 = HSV(rh+u(-15, 15), rs*u(0.5, 1.3), min(rv*u(0.6, 1.4), 0.8))
	st.Overhang = u(0, 0.3)
	for k := range st.Flare {
		st.Flare[k] = u(0, 0.35)
	}

	pc := &s.Pieces
	pc.Level1Top, pc.Level1Size = u(0.5, 0.6), u(0.9, 0.98)
	pc.Level2Top, pc.Level2Size = u(0.9, 1.2), u(0.74, 0.86)
	pc.Level3Top, pc.Level3Size = u(max(1.2, pc.Level2Top+0.25), 1.55), u(0.65, 0.8)
	if rng.Float64() < 0.4 {
		pc.TowerSides = 8
	}
	pc.Merlons = 6 + 2*rng.Intn(2)
	pc.MerlonHeight = u(0.05, 0.1)
	pc.DomeWidth = u(0.55, 0.75)
	pc.PawnWidth, pc.PawnHeight = u(0.35, 0.55), u(0.65, 0.8)
	if rng.Float64() < 0.5 {
		pc.BlockColour = HSV(u(30, 60), u(0, 0.08), u(0.85, 0.95))
	} else {
		pc.BlockColour = HSV(u(190, 230), u(0, 0.05), u(0.85, 0.95))
	}
	pc.WindowColour = HSV(u(200, 235), u(0.1, 0.5), u(0.08, 0.22))
	pc.DomeColour = HSV(u(203, 225), u(0.7, 0.95), u(0.5, 0.8))
	pc.BlueColour = HSV(u(203, 228), u(0.65, 0.95), u(0.45, 0.8))
	if rng.Float64() < 0.5 {
		pc.LightColour = HSV(u(0, 360), u(0, 0.05), u(0.88, 0.96))
	} else {
		pc.LightColour = HSV(u(38, 52), u(0.15, 0.3), u(0.85, 0.95))
	}
	if rng.Float64() < 0.5 {
		pc.DarkName, pc.DarkColour = "grey", HSV(u(0, 360), u(0, 0.06), u(0.28, 0.45))
	} else {
		pc.DarkName, pc.DarkColour = "purple", HSV(u(262, 292), u(0.3, 0.6), u(0.3, 0.5))
	}
	pc.BlockGloss, pc.PawnGloss, pc.DomeGloss = u(0.03, 0.1), u(0.15, 0.45), u(0.2, 0.5)

	for i := range s.Jitter {
		j := &s.Jitter[i]
		j.Blocks[0] = Placement{u(-0.035, 0.035), u(-0.035, 0.035), u(-6, 6)}
		for k := 1; k < 3; k++ {
			j.Blocks[k] = Placement{u(-0.05, 0.05), u(-0.05, 0.05), u(-10, 10)}
		}
		j.Dome = Placement{u(-0.02, 0.02), u(-0.02, 0.02), 0}
		j.Pawn = Placement{u(-0.05, 0.05), u(-0.05, 0.05), u(0, 360)}
		j.Female = rng.Intn(2) == 0
	}

	randomLighting(&s, rng)
	randomTable(&s, rng)

	cam := &s.Camera
	cam.Elevation, cam.Azimuth, cam.Roll = u(45, 90), u(-20, 20), u(-4, 4)
	cam.FOV, cam.Distortion = u(40, 65), u(-0.06, 0.02)
	fitCamera(&s, u(0.5, 0.9), rng.Float64(), rng.Float64())
	randomSpares(&s, rng)

	s.Vignette = u(0, 0.35)
	if rng.Float64() < 0.65 {
		s.Blur = u(0.3, 1.3)
	}
	if rng.Float64() < 0.5 {
		s.Sharpen = u(0.2, 0.8)
	}
	s.Aberration = u(0, 0.0012)
	s.Noise = u(1, 6)
	s.JPEGQuality = 60 + rng.Intn(36)
	return s
}

func randomLighting(s *Scene, rng *rand.Rand) {
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	lamp := func(share float64) Lamp {
		a, hd, hz := u(0, 2*math.Pi), u(2, 14), u(8, 24)
		return Lamp{Pos: [3]float64{hd * math.Cos(a), hd * math.Sin(a), hz},
			Colour: Kelvin(u(2700, 6500)).scale(share), Size: u(0.1, 0.8)}
	}
	var amb RGB
	switch k := rng.Intn(10); {
	case k < 4:
		s.Lighting = "one-lamp"
		sh := u(0.6, 0.85)
		s.Lamps = []Lamp{lamp(sh)}
		amb = Kelvin(u(3000, 6000)).scale(1 - sh)
	case k < 7:
		s.Lighting = "two-lamps"
		s1, s2 := u(0.3, 0.55), u(0.2, 0.4)
		s.Lamps = []Lamp{lamp(s1), lamp(s2)}
		amb = Kelvin(u(3000, 6000)).scale(max(0.1, 1-s1-s2))
	default:
		s.Lighting = "daylight"
		sh := u(0.25, 0.6)
		if rng.Float64() < 0.25 { // overcast
			sh = u(0.05, 0.15)
		}
		e, a := rad(u(25, 70)), u(0, 2*math.Pi)
		s.Lamps = []Lamp{{Directional: true,
			Pos:    [3]float64{math.Cos(e) * math.Cos(a), math.Cos(e) * math.Sin(a), math.Sin(e)},
			Colour: Kelvin(u(5000, 6500)).scale(sh), Size: u(0.25, 1.5)}}
		amb = Kelvin(u(6500, 10000)).scale(1 - sh)
	}
	s.Ambient = amb

	// Auto exposure and white balance, each a little off.
	ref := amb.lum()
	illum := amb
	top := s.Style.Height
	for _, l := range s.Lamps {
		d := vec3{l.Pos[0], l.Pos[1], l.Pos[2] - top}
		if l.Directional {
			d = vec3{l.Pos[0], l.Pos[1], l.Pos[2]}
		}
		ref += l.Colour.lum() * max(0, d.norm().z)
		illum = illum.add(l.Colour)
	}
	s.Exposure = u(0.75, 1.15) / ref
	k := u(0.6, 1)
	for c := range s.WhiteBalance {
		s.WhiteBalance[c] = math.Pow(illum[c]/illum.lum(), -k) * u(0.96, 1.04)
	}
	s.WhiteBalance = s.WhiteBalance.scale(1 / s.WhiteBalance[1])
}

func randomTable(s *Scene, rng *rand.Rand) {
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	t := &s.Table
	switch k := rng.Intn(20); {
	case k < 9:
		t.Kind = Wood
		h, sat, v := u(18, 38), u(0.35, 0.7), u(0.3, 0.75)
		t.Colour = HSV(h, sat, v)
		t.Colour2 = HSV(h+u(-5, 5), min(1, sat*u(1, 1.2)), v*u(0.55, 0.8))
		t.Scale, t.Angle, t.Gloss = u(2.5, 6), u(0, 180), u(0.02, 0.25)
	case k < 15:
		t.Kind = Cloth
		h, sat, v := u(0, 360), u(0.05, 0.6), u(0.15, 0.65)
		t.Colour = HSV(h, sat, v)
		t.Colour2 = HSV(h+u(-20, 20), sat, v*u(0.6, 0.9))
		t.Scale = u(40, 90)
	default:
		t.Kind = Laminate
		h, sat, v := u(0, 360), u(0, 0.12), u(0.15, 0.9)
		t.Colour = HSV(h, sat, v)
		t.Colour2 = HSV(h, sat, v*u(0.85, 1))
		t.Scale, t.Gloss = u(1, 4), u(0.05, 0.3)
	}
	t.HalfWidth, t.Far = u(12, 40), u(10, 40)
	t.Background = HSV(u(0, 360), u(0, 0.3), u(0.08, 0.5))
}

// fitCamera sets the camera's distance and target so that the grid fills
// frac of the image height (less when the board and the pieces on it would
// not all be in view), the content placed at (ux, uy) within the room left.
func fitCamera(s *Scene, frac, ux, uy float64) {
	saved := s.Spares
	s.Spares = nil
	w := build(s)
	s.Spares = saved
	top := s.Style.Height
	g := w.half
	pts := []vec3{{-g, -g, top}, {g, -g, top}, {g, g, top}, {-g, g, top}}
	for _, p := range w.prims[w.nBase:] {
		for k := 0; k < 8; k++ {
			q := p.lo
			if k&1 != 0 {
				q.x = p.hi.x
			}
			if k&2 != 0 {
				q.y = p.hi.y
			}
			if k&4 != 0 {
				q.z = p.hi.z
			}
			pts = append(pts, q)
		}
	}
	W, H := float64(s.Width), float64(s.Height)
	m := 0.012 * H
	c := &s.Camera
	for ; frac >= 0.5; frac -= 0.02 {
		c.Target = [3]float64{0, 0, top}
		ok := false
		for iter := 0; iter < 5; iter++ {
			lo, hi := 1.0, 1000.0
			for k := 0; k < 60; k++ {
				c.Distance = math.Sqrt(lo * hi)
				if gridFraction(*c, s.Width, s.Height, top) > frac {
					lo = c.Distance
				} else {
					hi = c.Distance
				}
			}
			cam := newCamera(*c, s.Width, s.Height)
			x0, y0, x1, y1, in := bounds(&cam, pts)
			sx, sy := W-2*m-(x1-x0), H-2*m-(y1-y0)
			if !in || sx < 0 || sy < 0 {
				break
			}
			if iter == 4 {
				ok = x0 >= m/2 && y0 >= m/2 && x1 <= W-m/2 && y1 <= H-m/2
				break
			}
			dx, dy := m+ux*sx-x0, m+uy*sy-y0
			k := c.Distance / cam.focal
			_, r, up := c.axes()
			t := vec3{c.Target[0], c.Target[1], c.Target[2]}.addScaled(r, -dx*k).addScaled(up, dy*k)
			c.Target = [3]float64{t.x, t.y, t.z}
		}
		if ok {
			return
		}
	}
	// Nothing fitted (it should not happen): the smallest board, centred.
	c.Target = [3]float64{0, 0, top}
	lo, hi := 1.0, 1000.0
	for k := 0; k < 60; k++ {
		c.Distance = math.Sqrt(lo * hi)
		if gridFraction(*c, s.Width, s.Height, top) > 0.5 {
			lo = c.Distance
		} else {
			hi = c.Distance
		}
	}
}

func gridFraction(c Camera, w, h int, top float64) float64 {
	cam := newCamera(c, w, h)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range gridCorners(top) {
		_, y, _ := cam.project(p)
		lo, hi = min(lo, y), max(hi, y)
	}
	return (hi - lo) / float64(h)
}

// bounds is the image box of pts; in is false if one is behind the camera.
func bounds(cam *camera, pts []vec3) (x0, y0, x1, y1 float64, in bool) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x, y, ok := cam.project(p)
		if !ok {
			return 0, 0, 0, 0, false
		}
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	return x0, y0, x1, y1, true
}

// randomSpares puts 0-4 pieces, and maybe dice and a card, on the table
// beside the board, in view.
func randomSpares(s *Scene, rng *rand.Rand) {
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	cam := newCamera(s.Camera, s.Width, s.Height)
	st := &s.Style
	p := 2.5 + st.FrameWidth + st.Overhang + 0.3
	for _, f := range st.Flare {
		p = max(p, 2.5+st.FrameWidth+st.Overhang+f+0.3)
	}
	W, H := float64(s.Width), float64(s.Height)
	m := 0.04 * H
	type spot struct{ x, y, r float64 }
	var taken []spot
	// place finds a free spot of radius r beside the board, in view.
	place := func(r float64) (x, y float64, ok bool) {
	try:
		for t := 0; t < 40; t++ {
			switch rng.Intn(3) {
			case 0:
				x, y = -p-r-u(0, 4), u(-p, p+2)
			case 1:
				x, y = p+r+u(0, 4), u(-p, p+2)
			default:
				x, y = u(-p-2, p+2), p+r+u(0, 3)
			}
			for _, o := range taken {
				if math.Hypot(o.x-x, o.y-y) < o.r+r+0.15 {
					continue try
				}
			}
			for _, z := range []float64{0, 0.6} {
				px, py, ok := cam.project(vec3{x, y, z})
				if !ok || px < m || py < m || px > W-m || py > H-m {
					continue try
				}
			}
			taken = append(taken, spot{x, y, r})
			return x, y, true
		}
		return 0, 0, false
	}
	for n := pick(rng, []float64{0.3, 0.25, 0.2, 0.15, 0.1}); n > 0; n-- {
		sp := Spare{
			Kind:     SpareKind(pick(rng, []float64{0.15, 0.15, 0.15, 0.2, 0.35})),
			Occupant: observation.Occupant(1 + rng.Intn(3)),
			Female:   rng.Intn(2) == 0,
			Rot:      u(0, 360),
			Lying:    rng.Float64() < 0.6,
		}
		var ok bool
		if sp.X, sp.Y, ok = place(0.5); ok {
			s.Spares = append(s.Spares, sp)
		}
	}
	dieColours := []RGB{HSV(0, 0, 0.92), HSV(45, 0.15, 0.9), HSV(0, 0.85, 0.7), HSV(0, 0, 0.08),
		HSV(130, 0.7, 0.5), HSV(220, 0.8, 0.6)}
	for n := pick(rng, []float64{0.5, 0.35, 0.15}); n > 0; n-- {
		pr := Prop{Kind: Die, Rot: u(0, 360), Size: u(0.28, 0.42),
			Colour: dieColours[rng.Intn(len(dieColours))], Top: 1 + rng.Intn(6)}
		var ok bool
		if pr.X, pr.Y, ok = place(0.3); ok {
			s.Props = append(s.Props, pr)
		}
	}
	if rng.Float64() < 0.25 {
		pr := Prop{Kind: Card, Rot: u(0, 360), Size: u(1.1, 1.4),
			Colour: HSV(u(0, 360), u(0.4, 0.8), u(0.2, 0.5))}
		var ok bool
		if pr.X, pr.Y, ok = place(0.9 * pr.Size); ok {
			s.Props = append(s.Props, pr)
		}
	}
}
