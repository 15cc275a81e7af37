package vision

import (
	"bytes"
	"image"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// kernelFrame is a w x h frame of random pixels with a colour model whose
// planes the Go loop filled over all of it.
func kernelFrame(rng *rand.Rand, w, h int, hasBlock, noBoard bool) (*pixels, *colourModel) {
	px := &pixels{w: w, h: h, bgr: make([]uint8, 3*w*h)}
	for i := range px.bgr {
		px.bgr[i] = uint8(rng.Intn(256))
	}
	m := &colourModel{
		board:    [3]float64{rng.Float64() - 0.5, rng.Float64()*0.2 - 0.1, rng.Float64()*0.2 - 0.1},
		sd:       [3]float64{0.05 + rng.Float64()*0.2, 0.01 + rng.Float64()*0.05, 0.01 + rng.Float64()*0.05},
		block:    [3]float64{rng.Float64() - 0.5, rng.Float64()*0.1 - 0.05, rng.Float64()*0.1 - 0.05},
		blockSD:  [3]float64{0.05 + rng.Float64()*0.2, 0.01 + rng.Float64()*0.05, 0.01 + rng.Float64()*0.05},
		hasBlock: hasBlock,
		noBoard:  noBoard,
		bgHist:   make([]float64, nBins),
	}
	for k := range m.bgHist {
		m.bgHist[k] = -5 - 10*rng.Float64()
	}
	return px, m
}

// randomPlanes fills the model's planes (n pixels each) with random
// log-likelihoods down to -depth.
func randomPlanes(rng *rand.Rand, m *colourModel, n int, depth float64) {
	m.ll = make([]float32, n*llStride)
	for l := 0; l < nPlanes; l++ {
		for i := 0; i < n; i++ {
			m.ll[i*llStride+l] = float32(-depth * rng.Float64())
		}
	}
}

// TestComputeKernelMatchesGo: the C loop fills the colour model's planes
// exactly as the Go loop does, bit for bit, block colour or not, on a frame
// of random colours and on one of a few colours repeated (the kernel's
// memo of colours seen, which must not outlive a call's constants).
func TestComputeKernelMatchesGo(t *testing.T) {
	for _, scalar := range []bool{false, true} {
		setColourForceScalar(scalar)
		t.Run(map[bool]string{false: "machine", true: "scalar"}[scalar], testComputeKernelMatchesGo)
	}
	setColourForceScalar(false)
}

func testComputeKernelMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, tc := range []struct {
		hasBlock, noBoard bool
		palette           int  // 0: every pixel random
		lit               bool // the board's and block's brightness a frame's: shadows, sides and every bin in reach
	}{{true, false, 0, false}, {false, false, 0, false}, {true, true, 0, false}, {false, true, 0, false}, {true, false, 40, false}, {false, true, 40, false},
		{true, false, 0, true}, {false, false, 0, true}, {true, true, 0, true}, {true, false, 40, true}} {
		px, m := kernelFrame(rng, 97, 61, tc.hasBlock, tc.noBoard)
		if tc.lit {
			m.board[0], m.block[0] = 4.5+rng.Float64(), 3.5+2*rng.Float64()
			// One pixel in three in deep shadow: below the lowest bin.
			for i := 0; i < len(px.bgr); i += 9 {
				for c := i; c < i+3; c++ {
					px.bgr[c] /= 16
				}
			}
		}
		if tc.palette > 0 {
			colours := make([][3]uint8, tc.palette)
			for i := range colours {
				colours[i] = [3]uint8{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256))}
			}
			for i := 0; i < len(px.bgr); i += 3 {
				copy(px.bgr[i:i+3], colours[rng.Intn(len(colours))][:])
			}
		}
		rect := image.Rect(3, 5, 90, 58)
		is := [3]float64{1 / m.sd[0], 1 / m.sd[1], 1 / m.sd[2]}
		ib := [3]float64{1 / m.blockSD[0], 1 / m.blockSD[1], 1 / m.blockSD[2]}
		k := colourKernelArgs{is: is, ib: ib, gBoard: -1.5, lBg: math.Log(0.4), gChroma: 2.5, gTop: 0.3, lTop: math.Log(0.6), gSide: -0.9, lSide: math.Log(0.7)}
		// A call with other constants first (every log-likelihood raised by
		// 2): its memo of colours must not serve the calls after it.
		other := k
		for _, v := range []*float64{&other.gBoard, &other.lBg, &other.gChroma, &other.gTop, &other.lTop, &other.gSide, &other.lSide} {
			*v += 2
		}
		m.ll = make([]float32, px.w*px.h*llStride)
		m.computeC(px, rect.Inset(-1), other, &m.lut().obj)
		m.compute(px, rect) // the C loop
		for i := llStride - 1; i < len(m.ll); i += llStride {
			if m.ll[i] != 0 {
				t.Fatalf("block %v noBoard %v: pixel %d's unused eighth float is %v, not nought", tc.hasBlock, tc.noBoard, i/llStride, m.ll[i])
			}
		}
		got := append([]float32(nil), m.ll...)
		for i := range m.ll {
			m.ll[i] = float32(math.NaN())
		}
		// Both loops with the same constants.
		if !m.computeC(px, rect.Inset(-1), k, &m.lut().obj) {
			t.Fatal("computeC refused a frame that fits")
		}
		copy(got, m.ll)
		m.computeGo(px, rect.Inset(-1), k, &m.lut().obj)
		n := 0
		for i := range got {
			a, b := got[i], m.ll[i]
			if math.Float32bits(a) != math.Float32bits(b) && !(a != a && b != b) {
				if n < 5 {
					t.Errorf("block %v noBoard %v: plane %d pixel %d: C %v, Go %v", tc.hasBlock, tc.noBoard, i%llStride, i/llStride, a, b)
				}
				n++
			}
		}
		if n > 0 {
			t.Errorf("%d values differ", n)
		}
	}
}

// TestScoreKernelMatchesGo: the C sum over the spans of a cell's box
// drawn on equals the Go loop's over the whole box to the last bit, with
// and without the cell's pawn drawn, where nearer cells cover pixels and
// where the labels agree.
func TestScoreKernelMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const w, h = 83, 57
	_, m := kernelFrame(rng, w, h, true, false)
	randomPlanes(rng, m, w*h, 20)
	labels := []uint8{labBoard, labBlock, labDome, labTop, labBlue, labLight, labDark}
	base, lab := make([]uint8, w*h), make([]uint8, w*h)
	summed := 0
	for trial := 0; trial < 50; trial++ {
		mine := trial%2 == 0
		for i := range base {
			base[i] = labels[rng.Intn(len(labels))]
			if rng.Intn(6) == 0 {
				base[i] = labNear
			}
			lab[i] = base[i]
			if rng.Intn(2) == 0 {
				lab[i] = labels[rng.Intn(4)]
				if mine && rng.Intn(3) == 0 {
					lab[i] = labMine
				}
			}
		}
		x0, y0 := rng.Intn(w/2), rng.Intn(h/2)
		box := image.Rect(x0, y0, x0+1+rng.Intn(w-x0-1), y0+1+rng.Intn(h-y0-1))
		// The box's rows drawn on only within spans (some rows not at
		// all): the spans' sums are the whole box's.
		spans := make([]rowSpan, box.Dy())
		for r := range spans {
			spans[r] = rowSpan{1, 0}
			if rng.Intn(4) > 0 {
				a, b := box.Min.X+rng.Intn(box.Dx()), box.Min.X+rng.Intn(box.Dx())
				spans[r] = rowSpan{int32(min(a, b)), int32(max(a, b))}
			}
			o := (box.Min.Y + r) * w
			for x := box.Min.X; x < box.Max.X; x++ {
				if x < int(spans[r].lo) || x > int(spans[r].hi) {
					lab[o+x] = base[o+x]
				}
			}
		}
		got, want := scoreSpans(base, lab, m, w, box, spans, mine), scoreBoxGo(base, lab, m, w, box, mine)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("trial %d (pawn %v, box %v): spans in C %v, whole box in Go %v", trial, mine, box, got, want)
			}
		}
		if want != ([3]float64{}) {
			summed++
		}
	}
	if summed < 40 {
		t.Fatalf("only %d of 50 trials summed anything; the test is too weak", summed)
	}
}

// TestPointKernelMatchesGo: the C batch gives each sample point the
// features pointFeatures gives it, inside the frame, on its edge and out
// of it, with and without the grey contrast. The exponentials are C's,
// not Go's: a posterior may differ in its last float32 bit, no more.
func TestPointKernelMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const w, h = 71, 53
	px, m := kernelFrame(rng, w, h, true, false)
	randomPlanes(rng, m, w*h, 30)
	g := make([]uint8, w*h)
	for i := range g {
		g[i] = uint8(rng.Intn(256))
	}
	c := &cellCtx{w: w, h: h, base: make([]uint8, w*h), netAll: image.Rect(2, 3, 66, 50)}
	for i := range c.base {
		if rng.Intn(4) == 0 {
			c.base[i] = labNear
		}
	}
	c.region[7] = image.Rect(10, 8, 40, 30)
	var xs, ys []int32
	for k := 0; k < 400; k++ {
		xs, ys = append(xs, int32(rng.Intn(w+10)-5)), append(ys, int32(rng.Intn(h+10)-5))
	}
	xs, ys = append(xs, -1, 0, 1, 65, 66, w-1), append(ys, 3, 3, 49, 49, 20, 2)
	for _, withGray := range []bool{true, false} {
		c.gray = grayImg{}
		if withGray {
			c.gray = grayImg{g, w, h}
		}
		got := make([]float32, len(xs)*netPerPoint)
		if !c.pointFeaturesC(px, m, 7, xs, ys, got) {
			t.Fatal("pointFeaturesC refused buffers that fit")
		}
		want := make([]float32, netPerPoint)
		inside := 0
		for k := range xs {
			c.pointFeatures(px, m, 7, int(xs[k]), int(ys[k]), want)
			if want[netPerPoint-1] == 0 {
				inside++
			}
			for j, v := range want {
				a := got[k*netPerPoint+j]
				if d := math.Float32bits(a) - math.Float32bits(v); a != v && d != 1 && d != ^uint32(0) {
					t.Fatalf("gray %v point (%d, %d) feature %d: C %v, Go %v", withGray, xs[k], ys[k], j, a, v)
				}
			}
		}
		if inside < 100 || inside == len(xs) {
			t.Fatalf("%d of %d points inside: the test does not cover both cases", inside, len(xs))
		}
	}
}

// BenchmarkPointFeatures: one cell reading's sample points (25 cells, 10
// heights, 5 x 5 points, on the grid and its four shifts: 31 250), in
// clusters as a cell's lie, on a 640 x 360 reduced frame.
func BenchmarkPointFeatures(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	const w, h = 640, 360
	px, m := kernelFrame(rng, w, h, true, false)
	randomPlanes(rng, m, w*h, 30)
	c := &cellCtx{w: w, h: h, base: make([]uint8, w*h), netAll: image.Rect(100, 50, 540, 330), gray: grayImg{make([]uint8, w*h), w, h}}
	c.region[7] = image.Rect(200, 100, 300, 200)
	var xs, ys []int32
	for k := 0; k < 31250; k++ {
		cx, cy := 120+(k/250)%20*20, 70+(k/5000)*40
		xs, ys = append(xs, int32(cx+rng.Intn(60))), append(ys, int32(cy+rng.Intn(60)))
	}
	out := make([]float32, len(xs)*netPerPoint)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !c.pointFeaturesC(px, m, 7, xs, ys, out) {
			b.Fatal("pointFeaturesC refused buffers that fit")
		}
	}
}

// BenchmarkColourCompute: the colour model's planes over a 440 x 280
// region of a 640 x 360 reduced frame, with a block colour.
//
// random: every pixel a random colour; frame: the benchmark frame shrunk
// as a reading shrinks it, whose colours repeat as a board's do.
func BenchmarkColourCompute(b *testing.B) {
	rng := rand.New(rand.NewSource(4))
	const w, h = 640, 360
	px, m := kernelFrame(rng, w, h, true, false)
	rect := image.Rect(100, 50, 540, 330)
	b.Run("random", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.compute(px, rect)
		}
	})
	frame, _ := benchFrame(b)
	defer frame.Close()
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(frame, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	if err := px.load(small); err != nil {
		b.Fatal(err)
	}
	b.Run("frame", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.compute(px, rect)
		}
	})
}

// TestScoreHypMatchesGo: score_hyp scores every hypothesis of every cell
// as scoreGo does, to the last bit, with and without the edge term, on
// the cell context a real reading left (its pose, colour model, rasters
// and nearer cells), and leaves the label map as it found it.
func TestScoreHypMatchesGo(t *testing.T) {
	r := NewReader()
	defer r.Close()
	frames, _ := renderFrames(t, benchSeeds[:4], 1280, 720)
	compared, nonzero := 0, 0
	for f, frame := range frames {
		if _, err := r.Read(frame); err != nil {
			t.Fatalf("seed %d: %v", benchSeeds[f], err)
		}
		c := &r.cc
		gray := c.gray
		for _, edges := range []bool{true, false} {
			if !edges {
				c.gray.p = nil
			}
			for i := 0; i < 25; i++ {
				c.drawBase(i)
				reg, w := c.region[i], c.w
				for y := reg.Min.Y; y < reg.Max.Y; y++ {
					copy(c.lab[y*w+reg.Min.X:y*w+reg.Max.X], c.base[y*w+reg.Min.X:y*w+reg.Max.X])
				}
				before := append([]uint8(nil), c.lab...)
				for k := 0; k < nHyp; k++ {
					box := c.box[i][k].Intersect(reg)
					if box.Empty() || len(c.shapes[i][k]) == 0 {
						continue
					}
					got, ok := c.scoreC(i, k, c.model, box)
					if !ok {
						t.Fatalf("seed %d cell %d hyp %d: the kernel refused the reader's own arguments", benchSeeds[f], i, k)
					}
					if !bytes.Equal(c.lab, before) {
						t.Fatalf("seed %d cell %d hyp %d: score_hyp left the label map changed", benchSeeds[f], i, k)
					}
					want := c.scoreGo(i, k, c.model, box)
					for j := range got {
						if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
							t.Fatalf("seed %d cell %d hyp %d edges %v: C %v, Go %v", benchSeeds[f], i, k, edges, got, want)
						}
					}
					compared++
					if want != ([3]float64{}) {
						nonzero++
					}
				}
			}
		}
		c.gray = gray
	}
	if compared < 1000 || nonzero < compared/2 {
		t.Fatalf("%d hypotheses compared, %d scored non-zero: the test is too weak", compared, nonzero)
	}
	t.Logf("%d hypotheses compared, %d non-zero", compared, nonzero)
}

// TestRingHistogramKeepsSamples: the ring's samples, kept for the grid and
// frame, give the same histogram as a model taking them afresh, for
// another board colour too; a new frame (forgetRing) or another grid
// takes new samples.
func TestRingHistogramKeepsSamples(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	px, m := kernelFrame(rng, 160, 120, true, false)
	h, _ := homographyFromCorners([4][2]float64{{50, 30}, {110, 32}, {112, 90}, {48, 88}})
	fresh := func(board0 float64) []float64 {
		f := &colourModel{board: m.board}
		f.board[0] = board0
		f.ringHistogram(px, h)
		return f.bgHist
	}
	for _, b0 := range []float64{m.board[0], m.board[0] + 0.3, m.board[0] - 0.2} {
		m.board[0] = b0
		m.ringHistogram(px, h)
		want := fresh(b0)
		for k := range want {
			if math.Float64bits(m.bgHist[k]) != math.Float64bits(want[k]) {
				t.Fatalf("board %.2f: bin %d %v, afresh %v", b0, k, m.bgHist[k], want[k])
			}
		}
	}
	kept := len(m.ring)
	if kept < 1000 {
		t.Fatalf("only %d ring samples: the test frame misses the ring", kept)
	}
	h2, _ := homographyFromCorners([4][2]float64{{40, 20}, {120, 22}, {122, 100}, {38, 98}})
	if len(m.ringSamples(px, h2)) == kept {
		t.Fatal("another grid kept the last grid's samples")
	}
	before := m.ringSamples(px, h)[0]
	for i := range px.bgr {
		px.bgr[i] ^= 0xff // a new frame in the same buffer
	}
	m.forgetRing()
	if got := m.ringSamples(px, h); len(got) != kept || got[0] == before {
		t.Fatalf("after forgetRing: %d samples, the first %v (before %v): not taken afresh", len(got), got[0], before)
	}
}

// TestSmoothMatchesDividedLoop: smooth, walking the bins by their places
// on each axis, gives the box passes that divide each bin's place out (with
// the same finish), to the bit, on random histograms.
func TestSmoothMatchesDividedLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	divided := func(h []float64) []float64 {
		box, tmp := append([]float64(nil), h...), make([]float64, len(h))
		for _, ax := range [3][2]int{{1, binsC}, {binsC, binsC}, {binsC * binsC, binsL}} {
			stride, n := ax[0], ax[1]
			for i := range box {
				p := (i / stride) % n
				v := box[i]
				if p > 0 {
					v += box[i-stride]
				}
				if p < n-1 {
					v += box[i+stride]
				}
				tmp[i] = v
			}
			box, tmp = tmp, box
		}
		smoothFinish(h, box, tmp)
		return tmp
	}
	for trial := 0; trial < 5; trial++ {
		h := make([]float64, nBins)
		for k := range h {
			if rng.Intn(3) == 0 {
				h[k] = float64(rng.Intn(50)) + rng.Float64()
			}
		}
		got, want := smooth(h), divided(h)
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d bin %d: %v, the divided loop %v", trial, k, got[k], want[k])
			}
		}
	}
}
