package vision

import (
	"encoding/binary"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// trainedLookNet gives the built-in second look's file form, failing the
// test when looknet.bin does not load.
func trainedLookNet(tb testing.TB) []byte {
	tb.Helper()
	if len(builtinLookNets) == 0 {
		tb.Fatal("looknet.bin does not load: train it (see TestTrainLookNet)")
	}
	data, err := builtinLookNets[0].MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestLookNetFileRoundTrip(t *testing.T) {
	data := trainedLookNet(t)
	if len(data) != lookNetFile.size() {
		t.Fatalf("file form is %d bytes, want %d", len(data), lookNetFile.size())
	}
	var n lookNet
	if err := n.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	x, xs, hid := lookProbe(7)
	var a, b [nHyp]float64
	n.correct(x, xs, hid, &a)
	builtinLookNets[0].correct(x, xs, hid, &b)
	if a != b {
		t.Errorf("round trip corrects %v, the built-in %v", a, b)
	}
	if a == ([nHyp]float64{}) {
		t.Error("the trained second look corrects nothing")
	}
}

func TestLookNetFileErrors(t *testing.T) {
	good := trainedLookNet(t)
	nan := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(nan[40:], math.Float32bits(float32(math.Inf(1))))
	sizes := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(sizes[8:], 5)
	zeroSD := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(zeroSD[16+4*lookInputs:], 0)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a network file"},
		{"grid network", trainedGridNet(t), "not a network file"},
		{"other sizes", sizes, "train it again"},
		{"truncated", good[:len(good)-1], "bytes, want"},
		{"not a number", nan, "not a number"},
		{"zero deviation", zeroSD, "not positive"},
	} {
		var n lookNet
		err := n.UnmarshalBinary(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func FuzzLookNetUnmarshal(f *testing.F) {
	f.Add([]byte(lookMagic))
	f.Add(trainedLookNet(f)[:64])
	f.Fuzz(func(t *testing.T, data []byte) {
		var n lookNet
		if n.UnmarshalBinary(data) == nil && (len(n.w1) != lookHidden*lookInputs || len(n.w2) != nHyp*lookHidden) {
			t.Fatalf("accepted a network with %d and %d weights", len(n.w1), len(n.w2))
		}
		if ns, err := parseLookNets(data); err == nil && len(ns) == 0 {
			t.Fatal("accepted a file of no networks")
		}
	})
}

// TestLookNetsFile: a file of one network twice is two networks whose
// averaged correction is the one network's; a file cut short, or empty,
// is an error.
func TestLookNetsFile(t *testing.T) {
	one := trainedLookNet(t)
	two := append(append([]byte(nil), one...), one...)
	ns, err := parseLookNets(two)
	if err != nil || len(ns) != 2 {
		t.Fatalf("two networks: %d read, error %v", len(ns), err)
	}
	if back, err := ns.MarshalBinary(); err != nil || string(back) != string(two) {
		t.Errorf("the two networks' file form differs from the file read (error %v)", err)
	}
	x, xs, hid := lookProbe(5)
	var a, b [nHyp]float64
	ns.correct(x, xs, hid, &a)
	ns[0].correct(x, xs, hid, &b)
	for k := range a {
		if math.Abs(a[k]-b[k]) > 1e-5 {
			t.Fatalf("averaged correction %v, one network's %v", a, b)
		}
	}
	for _, bad := range [][]byte{nil, two[:len(two)-1], append(two, one[:16]...)} {
		if _, err := parseLookNets(bad); err == nil {
			t.Errorf("a file of %d bytes was read", len(bad))
		}
	}
}

// TestColourDistances checks the colour distances on a frame of one
// colour: nothing from a board of that colour, lookFar from a block of
// another, and lookFar off the frame or with no colour known.
func TestColourDistances(t *testing.T) {
	px := pixels{w: 8, h: 8, bgr: make([]uint8, 3*64)}
	for i := range px.bgr {
		px.bgr[i] = [3]uint8{60, 140, 180}[i%3] // a sand colour, BGR
	}
	l, a, b := features(180, 140, 60)
	m := colourModel{board: [3]float64{l, a, b}, sd: [3]float64{0.1, 0.02, 0.02}}
	m.block, m.blockSD, m.hasBlock = [3]float64{l + 0.5, 0, 0}, [3]float64{0.1, 0.02, 0.02}, true
	for _, c := range []struct {
		name        string
		m           colourModel
		x, y        int
		board, bloc float32
	}{
		{"on the board's colour", m, 4, 4, 0, lookFar},
		{"at the frame's edge", m, 0, 4, lookFar, lookFar},
		{"no colours known", colourModel{noBoard: true}, 4, 4, lookFar, lookFar},
	} {
		db, dk := colourDistances(&px, &c.m, c.x, c.y)
		if math.Abs(float64(db-c.board)) > 1e-4 || math.Abs(float64(dk-c.bloc)) > 1e-4 {
			t.Errorf("%s: distances %v and %v, want %v and %v", c.name, db, dk, c.board, c.bloc)
		}
	}
}

// TestColourDistancesMatchFloatSums: the 3x3 colour summed in integers
// gives the distances, to the bit, of the float sums it replaced.
func TestColourDistancesMatchFloatSums(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	px := pixels{w: 16, h: 16, bgr: make([]uint8, 3*256)}
	for i := range px.bgr {
		px.bgr[i] = uint8(rng.Intn(256))
	}
	m := colourModel{board: [3]float64{0.1, 0.05, -0.02}, sd: [3]float64{0.1, 0.02, 0.03}}
	m.block, m.blockSD, m.hasBlock = [3]float64{0.6, 0, 0.01}, [3]float64{0.09, 0.02, 0.02}, true
	for y := 1; y < px.h-1; y++ {
		for x := 1; x < px.w-1; x++ {
			var r, g, b float64
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					o := 3 * ((y+dy)*px.w + x + dx)
					b += float64(px.bgr[o])
					g += float64(px.bgr[o+1])
					r += float64(px.bgr[o+2])
				}
			}
			l, a, bb := features(r/9, g/9, b/9)
			dist := func(mean, sd [3]float64) float32 {
				z0, z1, z2 := (l-mean[0])/sd[0], (a-mean[1])/sd[1], (bb-mean[2])/sd[2]
				return float32(math.Min(lookFar, math.Sqrt(z0*z0+z1*z1+z2*z2)))
			}
			db, dk := colourDistances(&px, &m, x, y)
			if wb, wk := dist(m.board, m.sd), dist(m.block, m.blockSD); math.Float32bits(db) != math.Float32bits(wb) || math.Float32bits(dk) != math.Float32bits(wk) {
				t.Fatalf("(%d, %d): distances %v and %v, float sums %v and %v", x, y, db, dk, wb, wk)
			}
		}
	}
}

// obliqueSide is the side of obliqueCtx's square frame (pixels).
const obliqueSide = 400

// obliqueCtx is a cell reading of the default set seen from the front
// and above, the board filling most of an obliqueSide-pixel frame: the
// frame the rims' and diagonals' tests paint.
func obliqueCtx(t *testing.T) *cellCtx {
	t.Helper()
	h, ok := homographyFromCorners([4][2]float64{{100, 80}, {300, 80}, {330, 330}, {70, 330}})
	if !ok {
		t.Fatal("no homography")
	}
	return &cellCtx{cam: poseWithFocal(h, obliqueSide/2, obliqueSide/2, 400), set: defaultSet}
}

// TestRimInputFindsTheStep paints the top of a level-2 tower, as the
// camera would see it, bright on a dark frame: the rims must find its edge
// at the default set's width on every side, and no edge where a level-1
// block's top would end.
func TestRimInputFindsTheStep(t *testing.T) {
	c := obliqueCtx(t)
	const w, cell = obliqueSide, 12 // C3, the middle
	half := defaultSet.tier2Width / 2
	var quad [4]pt
	for k, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		quad[k] = c.cam.project(2.5+d[0]*half, 2.5+d[1]*half, defaultSet.tier2Top)
	}
	img := make([]uint8, w*w)
	for y := 0; y < w; y++ {
		for x := 0; x < w; x++ {
			inside := true
			for k := range quad {
				a, b := quad[k], quad[(k+1)%4]
				if (b.X-a.X)*(float64(y)-a.Y)-(b.Y-a.Y)*(float64(x)-a.X) < 0 {
					inside = false
				}
			}
			if inside {
				img[y*w+x] = 200
			} else {
				img[y*w+x] = 40
			}
		}
	}
	c.gray = grayImg{img, w, w}
	rims := make([]float32, lookRims)
	if n := c.rimInput(cell, rims); n != lookRims {
		t.Fatalf("rimInput gave %d, want %d", n, lookRims)
	}
	at := func(tier, side, step int) float32 {
		return rims[(tier*lookRimSides+side)*lookRimSteps+step]
	}
	mid := lookRimSteps / 2
	for side := 0; side < lookRimSides; side++ {
		edge := at(1, side, mid)
		if edge < 1 {
			t.Errorf("side %d: contrast %.2f at the tower's edge, want a step of 160 grey levels (over 1)", side, edge)
		}
		for _, step := range []int{0, lookRimSteps - 1} {
			if v := at(1, side, step); v >= edge/2 {
				t.Errorf("side %d: contrast %.2f at distance step %d, near the edge's %.2f", side, v, step, edge)
			}
		}
		// Seen from the front, the tops' left and right edges of every tier
		// line up in the image: only the near and far sides tell a level-1
		// top from a tower's.
		if v := at(0, side, mid); side%2 == 0 && v > 0.1 {
			t.Errorf("side %d: contrast %.2f where a level-1 top would end, want none", side, v)
		}
	}
}

// TestSecondLookPassesSureCells sets one cell's odds sure and another's
// even on a frame read with its true corners: the second look must leave
// the sure cell's odds as they were, with only its geometry in its inputs,
// and correct the even one's.
func TestSecondLookPassesSureCells(t *testing.T) {
	r := readAtTrueCorners(t, 20001)
	defer r.Close()
	c := &r.cc
	const sure, even = 3, 12
	for k := range c.netLP[sure] {
		c.netLP[sure][k], c.netLP[even][k] = -20, -2
	}
	c.netLP[sure][1], c.netLP[even][1], c.netLP[even][2] = 0, -0.5, -0.6
	for i := range c.lookIn[sure*lookInputs : (sure+1)*lookInputs] {
		c.lookIn[sure*lookInputs+i] = 99 // stale inputs must stay untouched
	}
	before := c.netLP
	c.secondLook(&r.px, &r.model, builtinLookNets)
	if c.netLP[sure] != before[sure] {
		t.Errorf("sure cell's odds changed: %v -> %v", before[sure], c.netLP[sure])
	}
	if c.netLP[even] == before[even] {
		t.Error("the even cell's odds were not corrected")
	}
	x := c.lookIn[sure*lookInputs : (sure+1)*lookInputs]
	geom := c.netRow(0, sure)[netInputs-netGeom:]
	for j, v := range geom {
		if x[lookInputs-netGeom+j] != v {
			t.Errorf("sure cell's geometry input %d is %v, want %v", j, x[lookInputs-netGeom+j], v)
		}
	}
	if x[0] != 99 {
		t.Errorf("sure cell's odds inputs were filled (%v): its look was not passed by", x[0])
	}
}

func TestLead(t *testing.T) {
	for _, c := range []struct {
		top, next, rest float64
		want            float64
	}{{0, -8, -30, 8}, {-1, -1, -5, 0}, {-3, -4.5, -4.5, 1.5}} {
		var lp [nHyp]float64
		for k := range lp {
			lp[k] = c.rest
		}
		lp[5], lp[nHyp-1] = c.top, c.next
		if got := lead(&lp); got != c.want {
			t.Errorf("lead(top %v, next %v, rest %v) = %v, want %v", c.top, c.next, c.rest, got, c.want)
		}
	}
}

// BenchmarkSecondLook times the second look on one frame read with its
// true corners: the inputs and corrections of the cells the networks are
// not sure of (sureLookLead).
func BenchmarkSecondLook(b *testing.B) {
	r := readAtTrueCorners(b, 20001)
	defer r.Close()
	lp := r.cc.netLP
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.cc.netLP = lp
		r.cc.secondLook(&r.px, &r.model, builtinLookNets)
	}
}

// lookProbe gives a second look's test input (values i mod m, centred)
// and its scratch.
func lookProbe(m int) (x, xs, hid []float32) {
	x = make([]float32, lookInputs)
	for i := range x {
		x[i] = float32(i%m - m/2)
	}
	return x, make([]float32, lookInputs), make([]float32, lookHidden)
}

// TestDiagInputTellsRoundFromSquare paints, as the camera would see it, a
// level-2 block's square top and then level 3's round top, bright on a
// dark frame: along the diagonals the square's contrast must peak at its
// corners and the round top's at its radius, with nothing where a square
// of its width would have its corners.
func TestDiagInputTellsRoundFromSquare(t *testing.T) {
	c := obliqueCtx(t)
	const w, cell = obliqueSide, 12 // C3, the middle
	stepOf := func(r float64) int { return int(math.Round((r - lookDiagFirst) / lookDiagStep)) }
	paint := func(n int, radius, z float64) {
		poly := make([]pt, n)
		for k := range poly {
			a := 2*math.Pi*float64(k)/float64(n) + math.Pi/float64(n)
			poly[k] = c.cam.project(2.5+radius*math.Cos(a), 2.5+radius*math.Sin(a), z)
		}
		img := make([]uint8, w*w)
		for y := 0; y < w; y++ {
			for x := 0; x < w; x++ {
				img[y*w+x] = 200
				px, py := float64(x)+0.5, float64(y)+0.5 // the pixel's centre
				for k := range poly {
					a, b := poly[k], poly[(k+1)%n]
					if (b.X-a.X)*(py-a.Y)-(b.Y-a.Y)*(px-a.X) < 0 {
						img[y*w+x] = 40
						break
					}
				}
			}
		}
		c.gray = grayImg{img, w, w}
	}
	tests := []struct {
		name       string
		sides      int
		radius     float64 // of the painted polygon's corners
		tier       int
		peak, none int // the steps with the edge and with no edge
	}{
		{"level 2's square", 4, defaultSet.tier2Width / math.Sqrt2, 1,
			stepOf(defaultSet.tier2Width / math.Sqrt2), stepOf(defaultSet.tier2Width / 2)},
		{"level 3's round top", 64, defaultSet.tier3Width / 2, 2,
			stepOf(defaultSet.tier3Width / 2), stepOf(defaultSet.tier3Width / math.Sqrt2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.peak < 0 || tc.none < 0 || tc.peak >= lookDiagSteps || tc.none >= lookDiagSteps || tc.peak == tc.none {
				t.Fatalf("steps %d and %d: the default set's widths fall outside the diagonals' samples", tc.peak, tc.none)
			}
			top := defaultSet.tierTops()[tc.tier]
			paint(tc.sides, tc.radius, top)
			out := make([]float32, lookDiags)
			if n := c.diagInput(cell, out); n != lookDiags {
				t.Fatalf("diagInput gave %d, want %d", n, lookDiags)
			}
			for d := 0; d < 4; d++ {
				row := out[(tc.tier*4+d)*lookDiagSteps : (tc.tier*4+d+1)*lookDiagSteps]
				best := 0
				for st := range row {
					if row[st] > row[best] {
						best = st
					}
				}
				if best < tc.peak-1 || best > tc.peak+1 {
					t.Errorf("diagonal %d: contrast peaks at step %d (%v), want about %d", d, best, row, tc.peak)
				}
				if row[tc.none] > row[best]/3 {
					t.Errorf("diagonal %d: contrast %.2f at step %d, want little beside the peak's %.2f", d, row[tc.none], tc.none, row[best])
				}
			}
		})
	}
}

// readAtTrueCorners gives a reader that has just read seed's frame at its
// true corners; the caller closes it.
func readAtTrueCorners(tb testing.TB, seed int64) *Reader {
	tb.Helper()
	r := NewReader()
	m, truth := simFrame(tb, seed)
	_, err := r.ReadWithCorners(m, truth.Corners)
	m.Close()
	if err != nil {
		r.Close()
		tb.Fatal(err)
	}
	return r
}

// TestLookNetCorrectMatchesPlainLoop: correct's hidden layer, four units
// at a time, gives the plain loop's sums to the bit.
func TestLookNetCorrectMatchesPlainLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	f := func() float32 { return float32(rng.NormFloat64()) }
	n := &lookNet{}
	for range lookInputs {
		n.mean, n.sd = append(n.mean, f()), append(n.sd, 0.5+rng.Float32())
	}
	for range lookInputs * lookHidden {
		n.w1 = append(n.w1, f())
	}
	for range lookHidden {
		n.b1 = append(n.b1, f())
	}
	for range nHyp * lookHidden {
		n.w2 = append(n.w2, f())
	}
	for range nHyp {
		n.b2 = append(n.b2, f())
	}
	x := make([]float32, lookInputs)
	for i := range x {
		x[i] = 3 * f()
	}
	var got, want [nHyp]float64
	n.correct(x, make([]float32, lookInputs), make([]float32, lookHidden), &got)
	xs, hid := make([]float32, lookInputs), make([]float32, lookHidden)
	for i, v := range x {
		xs[i] = (v - n.mean[i]) / n.sd[i]
	}
	for j := range hid {
		s := n.b1[j]
		for i, v := range xs {
			s += n.w1[j*lookInputs+i] * v
		}
		hid[j] = max(s, 0)
	}
	for k := range want {
		s := n.b2[k]
		for j, h := range hid {
			s += n.w2[k*lookHidden+j] * h
		}
		want[k] += float64(s)
	}
	if got != want {
		t.Fatalf("correct gives %v, the plain loop %v", got, want)
	}
}
