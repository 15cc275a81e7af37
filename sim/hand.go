package sim

import (
	"math"
	"math/rand"

	"companion/observation"
)

// Hand is a player's hand and forearm reaching over the board from the
// player's side (TABLE.md: hands over the board, a pawn being carried):
// a frame that is not settled, which a reader must not take as a position.
// Lengths in pitches, as everywhere in a Scene.
type Hand struct {
	// Over is the point the palm's middle hangs above (x, y on the board,
	// z above the table).
	Over [3]float64
	// Heading is the direction the hand points, in degrees from +y (away
	// from the player) towards +x; the forearm trails behind it.
	Heading float64
	// Dip is how far the hand and forearm slope down towards the fingers,
	// in degrees.
	Dip     float64
	Size    float64 // the palm's width; the rest scales with it
	Skin    RGB
	Sleeve  RGB     // the forearm's colour beyond Bare
	Bare    float64 // how much of the forearm shows skin before the sleeve
	Fingers float64 // the fingers' curl, degrees (0 flat, 60 closing on a pawn)
}

// skinTones span light to dark skin, as sRGB.
var skinTones = [][3]float64{
	{0.96, 0.80, 0.69}, {0.90, 0.72, 0.60}, {0.80, 0.60, 0.46},
	{0.62, 0.44, 0.31}, {0.45, 0.31, 0.22}, {0.33, 0.23, 0.17},
}

// AddHand puts a random hand over s's board, drawn from its own seed so
// that the scene's other draws (and every seed's render without a hand)
// stay as they were. The hand stays above the tallest piece it reaches
// over, and comes from the player's side, as a player's does.
func AddHand(s *Scene, seed int64) {
	rng := rand.New(rand.NewSource(seed ^ 0x6a09e667))
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	tone := skinTones[rng.Intn(len(skinTones))]
	k := u(0.9, 1.08)
	skin := RGB{}
	for i := range skin {
		skin[i] = srgbToLinear(math.Min(1, tone[i]*k))
	}
	sleeve := RGB{srgbToLinear(u(0.05, 0.9)), srgbToLinear(u(0.05, 0.9)), srgbToLinear(u(0.05, 0.9))}
	h := Hand{
		Over:    [3]float64{u(-2.5, 2.5), u(-2.8, 2.5), 0},
		Heading: u(-40, 40),
		Dip:     u(5, 30),
		Size:    u(1.6, 2.1),
		Skin:    skin,
		Sleeve:  sleeve,
		Bare:    u(0.5, 4),
		Fingers: u(0, 60),
	}
	// Low over the pieces, as a hand reaching for one is: the palm clears
	// the tallest stack under it (the fingers may touch a piece).
	h.Over[2] = stackTopNear(s, h.Over[0], h.Over[1], 0.7*h.Size) + 0.2*h.Size + u(0.1, 0.8)
	s.Hand = &h
}

// stackTopNear is the height above the table of the tallest piece on the
// cells within reach of (x, y).
func stackTopNear(s *Scene, x, y, reach float64) float64 {
	pc := &s.Pieces
	top := s.Style.Height
	for i, sq := range s.Board {
		cx, cy := float64(i%5)-2, 2-float64(i/5)
		if math.Abs(cx-x) > reach+0.5 || math.Abs(cy-y) > reach+0.5 {
			continue
		}
		z := s.Style.Height
		switch sq.Level {
		case 1:
			z += pc.Level1Top
		case 2:
			z += pc.Level2Top
		case 3:
			z += pc.Level3Top
		case 4:
			z += pc.Level3Top + pc.DomeWidth/2
		}
		if sq.Occupant != observation.Empty {
			z += pc.PawnHeight
		}
		top = math.Max(top, z)
	}
	return top
}

// addHand adds the scene's hand: a box of a palm, four fingers and a
// thumb of cones, and a forearm trailing back to the player.
func (w *world) addHand(h *Hand) {
	skin, sleeve := h.Skin.lin(), h.Sleeve.lin()
	hd, dip := rad(h.Heading), rad(h.Dip)
	sh, ch := math.Sincos(hd)
	sd, cd := math.Sincos(dip)
	fwd := vec3{sh * cd, ch * cd, -sd} // along the hand, to the fingers
	side := vec3{ch, -sh, 0}           // across the palm
	up := side.cross(fwd)
	if up.z < 0 {
		up = up.scale(-1)
	}
	over := vec3{h.Over[0], h.Over[1], h.Over[2]}
	width := h.Size
	palmLen := 1.05 * width
	palmThick := 0.32 * width
	wrist := over.addScaled(fwd, -palmLen/2)
	w.piece(func() {
		// The palm: a box whose local z runs along the hand.
		w.add(prim{kind: kindBox, mat: matSkin, fr: frame{ex: side, ey: up, ez: fwd, o: wrist},
			a: width / 2, b: palmThick / 2, c: palmLen, col: skin, ks: 0.15, shin: 4, cell: -1})
		// Fingers from the knuckles, curled down.
		curl := rad(h.Fingers)
		for i := 0; i < 4; i++ {
			t := (float64(i) - 1.5) / 1.5
			base := wrist.addScaled(fwd, palmLen*(0.97-0.04*math.Abs(t))).addScaled(side, t*0.36*width)
			dir := fwd.scale(math.Cos(curl)).addScaled(up, -math.Sin(curl)).norm()
			length := width * (0.78 - 0.12*math.Abs(t))
			w.add(prim{kind: kindCone, mat: matSkin, fr: axisFrame(base, dir),
				a: 0.11 * width, b: 0.085 * width, c: length, col: skin, ks: 0.15, shin: 4, cell: -1})
		}
		// The thumb, from the palm's side near the wrist.
		tb := wrist.addScaled(fwd, 0.35*palmLen).addScaled(side, -0.45*width)
		tdir := fwd.scale(0.6).addScaled(side, -0.6).addScaled(up, -0.5).norm()
		w.add(prim{kind: kindCone, mat: matSkin, fr: axisFrame(tb, tdir),
			a: 0.13 * width, b: 0.1 * width, c: 0.6 * width, col: skin, ks: 0.15, shin: 4, cell: -1})
		// The forearm, back towards the player and a little down (the
		// elbow lower than the wrist, under the camera on its stand); bare
		// skin to the sleeve, then the sleeve.
		back := vec3{-fwd.x, -fwd.y, 0}.norm().add(vec3{0, 0, -0.25}).norm()
		bare := math.Max(0.3, h.Bare)
		w.add(prim{kind: kindCone, mat: matSkin, fr: axisFrame(wrist, back),
			a: 0.3 * width, b: 0.36 * width, c: bare, col: skin, ks: 0.12, shin: 3, cell: -1})
		w.add(prim{kind: kindCone, mat: matSkin, fr: axisFrame(wrist.addScaled(back, bare), back),
			a: 0.42 * width, b: 0.5 * width, c: 7, col: sleeve, ks: 0.05, shin: 2, cell: -1})
	})
}

// axisFrame is a frame at o whose local z runs along the unit vector dir.
func axisFrame(o, dir vec3) frame {
	ref := vec3{0, 0, 1}
	if math.Abs(dir.z) > 0.9 {
		ref = vec3{1, 0, 0}
	}
	ex := ref.cross(dir).norm()
	ey := dir.cross(ex)
	return frame{ex: ex, ey: ey, ez: dir, o: o}
}
