package vision

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// convCase is a network the reader runs through OpenCV's dnn, with random
// inputs of the size it takes.
type convCase struct {
	name   string
	file   []byte
	rows   int
	fill   func(rng *rand.Rand, pix []uint8, extra []float32)
	opencv func(t testing.TB, pix []uint8, extra []float32, rows int) []float32
}

func patchNetOpenCV(t testing.TB, pix []uint8, extra []float32, rows int) []float32 {
	var p patchNet
	defer p.close()
	useOwnConvNet = false
	defer func() { useOwnConvNet = true }()
	var out []float32
	lp := make([][nHyp]float64, rows)
	if err := p.correct(pix, extra, lp); err != nil {
		t.Fatal(err)
	}
	// correct clips and adds to lp; the raw outputs are within the clip
	// (the graph bounds them at 2 tanh), so lp is the output.
	for _, r := range lp {
		for _, v := range r {
			out = append(out, float32(v))
		}
	}
	return out
}

func refineNetOpenCV(t testing.TB, pix []uint8, _ []float32, rows int) []float32 {
	var n refineNet
	defer n.close()
	if err := n.load(); err != nil {
		t.Fatal(err)
	}
	copy(n.pix, pix)
	useOwnConvNet = false
	defer func() { useOwnConvNet = true }()
	o, err := n.forward4()
	if err != nil {
		t.Fatal(err)
	}
	if n.own == nil {
		t.Error("convNet cannot run the refinement network")
	}
	return append([]float32(nil), o...)
}

func randomPatches(rng *rand.Rand, pix []uint8) {
	// Smooth patches with edges, like the frames', rather than noise.
	for i := range pix {
		pix[i] = uint8(128 + 100*math.Sin(float64(i%97)/7+float64(i/1024)) + 20*rng.NormFloat64()*0.1)
	}
}

func TestConvNetMatchesOpenCV(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, rows := range []int{1, 3, 8} {
		pix := make([]uint8, rows*patchPixels)
		extra := make([]float32, rows*patchExtra)
		randomPatches(rng, pix)
		for i := range extra {
			extra[i] = float32(rng.NormFloat64())
		}
		want := patchNetOpenCV(t, pix, extra, rows)
		n, err := newConvNet(patchNetONNX, map[string][]int{"patch": {patchChannels, patchSide, patchSide}, "extra": {patchExtra}})
		if err != nil {
			t.Fatal(err)
		}
		assertConvNet(t, n, "patch", rows, pix, extra, "corr", want)
	}
	pix := make([]uint8, 4*refinePixels)
	randomPatches(rng, pix)
	want := refineNetOpenCV(t, pix, nil, 4)
	n, err := newConvNet(refineNetONNX, map[string][]int{"patch": {refineChannels, refineSide, refineSide}})
	if err != nil {
		t.Fatal(err)
	}
	assertConvNet(t, n, "refine", 4, pix, nil, "off", want)
}

// TestConvNetRunsEveryPatchNetwork runs each patch-shaped network the
// reader embeds both ways through patchRun, on random inputs: convNet
// must take every one (no silent fall back to OpenCV) and agree with it.
func TestConvNetRunsEveryPatchNetwork(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	tiers := newTierNets()
	looks := []cellLook{newDomeLook(), newPawnLook(), newHiddenLook(), tiers[0].cellLook, tiers[1].cellLook}
	for _, l := range looks {
		if err := l.load(); err != nil {
			t.Fatal(err)
		}
		randomPatches(rng, l.pix)
		for i := range l.extra {
			l.extra[i] = float32(rng.NormFloat64())
		}
		runBothWays(t, l.name, &l.run, l.pix, l.extra)
		l.close()
	}
	for _, file := range [][]byte{patchNetONNX, soloLookONNX} {
		p := patchNet{file: file}
		if err := p.load(); err != nil {
			t.Fatal(err)
		}
		pix, extra := make([]uint8, 3*patchPixels), make([]float32, 3*patchExtra)
		randomPatches(rng, pix)
		for i := range extra {
			extra[i] = float32(rng.NormFloat64())
		}
		// The 2-row run, as OpenCV runs it.
		runBothWays(t, "a patch network", &p.runs[2], pix[:2*patchPixels], extra[:2*patchExtra])
		p.close()
	}
}

// runBothWays runs r on pix and extra with convNet and with OpenCV and
// fails where they differ.
func runBothWays(t *testing.T, what string, r *patchRun, pix []uint8, extra []float32) {
	t.Helper()
	own := r.ownNet()
	if own == nil {
		t.Errorf("%s: convNet cannot run it", what)
		return
	}
	want := own.vals["corr"].size() * (len(pix) / own.vals["patch"].size())
	got, err := r.run(pix, extra, want)
	if err != nil {
		t.Fatal(err)
	}
	got = append([]float32(nil), got...)
	useOwnConvNet = false
	ref, err := r.run(pix, extra, want)
	useOwnConvNet = true
	if err != nil {
		t.Fatal(err)
	}
	assertAgree(t, what, got, ref)
}

// assertAgree fails where convNet's outputs got differ from OpenCV's ref
// by more than 1e-4 of their scale, or ref is all zero (nothing tested).
func assertAgree(t *testing.T, what string, got, ref []float32) {
	t.Helper()
	if len(got) != len(ref) {
		t.Fatalf("%s: %d outputs, OpenCV %d", what, len(got), len(ref))
	}
	worst, spread := 0.0, 0.0
	for i := range got {
		worst = math.Max(worst, math.Abs(float64(got[i]-ref[i])))
		spread = math.Max(spread, math.Abs(float64(ref[i])))
	}
	t.Logf("%s: %d outputs, largest difference %.2g (outputs up to %.3g)", what, len(got), worst, spread)
	if worst > 1e-4*math.Max(1, spread) || spread == 0 {
		t.Errorf("%s: convNet differs from OpenCV by up to %g (outputs up to %g)", what, worst, spread)
	}
}

func assertConvNet(t *testing.T, n *convNet, what string, rows int, pix []uint8, extra []float32, out string, want []float32) {
	t.Helper()
	in, err := n.input("patch", rows)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range pix {
		in[i] = float32(v)
	}
	if extra != nil {
		e, err := n.input("extra", rows)
		if err != nil {
			t.Fatal(err)
		}
		copy(e, extra)
	}
	got, err := n.run(rows, out, len(want))
	if err != nil {
		t.Fatal(err)
	}
	assertAgree(t, fmt.Sprintf("%s, %d rows", what, rows), got, want)
}

// BenchmarkConvNetPatch times the patch network on 1 and 8 rows with
// convNet and with OpenCV's dnn; BenchmarkConvNetRefine the refinement
// network's round (four corners).
func BenchmarkConvNetPatch(b *testing.B) {
	for _, rows := range []int{1, 8} {
		pix := make([]uint8, rows*patchPixels)
		extra := make([]float32, rows*patchExtra)
		randomPatches(rand.New(rand.NewSource(1)), pix)
		b.Run("own/"+itoa(rows), func(b *testing.B) {
			n, err := newConvNet(patchNetONNX, map[string][]int{"patch": {patchChannels, patchSide, patchSide}, "extra": {patchExtra}})
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				in, _ := n.input("patch", rows)
				for k, v := range pix {
					in[k] = float32(v)
				}
				e, _ := n.input("extra", rows)
				copy(e, extra)
				if _, err := n.run(rows, "corr", rows*nHyp); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("opencv/"+itoa(rows), func(b *testing.B) {
			var p patchNet
			defer p.close()
			useOwnConvNet = false
			defer func() { useOwnConvNet = true }()
			lp := make([][nHyp]float64, rows)
			for i := 0; i < b.N; i++ {
				if err := p.correct(pix, extra, lp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkConvNetRefine(b *testing.B) {
	for _, own := range []bool{true, false} {
		name := "own"
		if !own {
			name = "opencv"
		}
		b.Run(name, func(b *testing.B) {
			var n refineNet
			defer n.close()
			if err := n.load(); err != nil {
				b.Fatal(err)
			}
			randomPatches(rand.New(rand.NewSource(1)), n.pix)
			useOwnConvNet = own
			defer func() { useOwnConvNet = true }()
			for i := 0; i < b.N; i++ {
				if _, err := n.forward4(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestConvNetRunsTheFrameNetworks runs the corner networks and the hand
// network on a rendered frame, shrunk as the reader shrinks it, with
// convNet and with OpenCV.
func TestConvNetRunsTheFrameNetworks(t *testing.T) {
	frames, _ := renderFrames(t, []int64{5000}, 1280, 720)
	for _, f := range []struct {
		what, out string
		file      []byte
		want      int
	}{
		{"the corner network", "heat", cornerNetONNX, 4 * cornerNetMapW * cornerNetMapH},
		{"the second corner network", "heat", secondCornerNetONNX, 4 * cornerNetMapW * cornerNetMapH},
		{"the hand network", "hand", handNetONNX, 1},
	} {
		var n onnxNet
		if err := n.load(f.file, f.what, nil); err != nil {
			t.Fatal(err)
		}
		small := n.shrink(frames[0])
		got, err := n.forwardFrame(small, f.out, f.want, true)
		if err != nil {
			t.Fatal(err)
		}
		if n.own == nil {
			t.Errorf("%s: convNet cannot run it", f.what)
		}
		got = append([]float32(nil), got...)
		ref, err := n.forwardFrame(small, f.out, f.want, false)
		if err != nil {
			t.Fatal(err)
		}
		assertAgree(t, f.what, got, ref)
		n.close()
	}
}

// TestWithConstantMatchesGo: the C kernel gives Go's loop's bits for every
// op, on either side, at lengths around the vector widths, zeros,
// infinities and NaNs among the values.
func TestWithConstantMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, 3e38}
	for _, op := range []string{"Add", "Sub", "Mul", "Div"} {
		for _, pos := range []int{0, 1} {
			for _, n := range []int{1, 7, 16, 33, 1000} {
				a := make([]float32, n)
				for i := range a {
					a[i] = float32(rng.NormFloat64() * 100)
					if rng.Intn(8) == 0 {
						a[i] = special[rng.Intn(len(special))]
					}
				}
				c := float32(rng.NormFloat64())
				got, want := make([]float32, n), make([]float32, n)
				withConstant(op, a, c, pos, got)
				withConstantGo(op, a, c, pos, want)
				for i := range a {
					g, w := got[i], want[i]
					if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
						t.Fatalf("%s pos %d n %d: element %d (%v with %v): C %v, Go %v", op, pos, n, i, a[i], c, g, w)
					}
				}
			}
		}
	}
}

// TestPixelLanesMatchChannelLanes: conv with its lanes along the row gives
// the channel-block kernel's bits, for the networks' shapes it runs and
// others at its limits (a 24-channel group and a 16, 12, 8 or 4 after it,
// dilation, no padding, a 1x1 kernel).
func TestPixelLanesMatchChannelLanes(t *testing.T) {
	if convLanes != 16 {
		t.Skip("the pixel-lane kernel needs AVX-512")
	}
	rng := rand.New(rand.NewSource(5))
	shapes := []convShape{
		{c: 12, h: 32, w: 32, k: 24, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1, relu: true},
		{c: 24, h: 32, w: 32, k: 24, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1, relu: true},
		{c: 4, h: 64, w: 64, k: 12, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1},
		{c: 88, h: 18, w: 32, k: 40, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1, relu: true},
		{c: 5, h: 9, w: 20, k: 36, kh: 3, kw: 3, stride: 1, dil: 2, pad: 0},
		{c: 7, h: 6, w: 16, k: 56, kh: 3, kw: 3, stride: 1, dil: 4, pad: 4, relu: true},
		{c: 32, h: 36, w: 64, k: 4, kh: 1, kw: 1, stride: 1, dil: 1, pad: 0},
		{c: 3, h: 5, w: 16, k: 8, kh: 1, kw: 1, stride: 1, dil: 1, pad: 0, relu: true},
		{c: 4, h: 64, w: 64, k: 16, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1, relu: true},
		{c: 6, h: 4, w: 16, k: 16, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1},
		{c: 9, h: 7, w: 32, k: 20, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1, relu: true},
		{c: 9, h: 7, w: 16, k: 28, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1, relu: true},
	}
	for _, s := range shapes {
		if !pixelLanes(s) {
			t.Fatalf("%+v: not a pixel-lane shape", s)
		}
		in := make([]float32, s.c*s.h*s.w)
		for i := range in {
			in[i] = float32(rng.NormFloat64())
		}
		w, bias := make([]float32, s.k*s.c*s.kh*s.kw), make([]float32, s.k)
		for i := range w {
			w[i] = float32(rng.NormFloat64() * 0.3)
		}
		for i := range bias {
			bias[i] = float32(rng.NormFloat64())
		}
		ho, wo := s.out()
		got, want := make([]float32, s.k*ho*wo), make([]float32, s.k*ho*wo)
		pad := make([]float32, s.padLen())
		px := s
		px.px = true
		wt, b := packConv(w, bias, px)
		conv(in, px, wt, b, got, pad)
		wt, b = packConv(w, bias, s)
		conv(in, s, wt, b, want, pad)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%+v: output %d (channel %d): pixel lanes %v, channel blocks %v", s, i, i/(ho*wo), got[i], want[i])
			}
		}
	}
	for _, s := range []convShape{
		{c: 12, h: 32, w: 32, k: 32, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1},
		{c: 12, h: 16, w: 16, k: 48, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1},
		{c: 12, h: 32, w: 32, k: 24, kh: 3, kw: 3, stride: 2, dil: 1, pad: 1},
		{c: 12, h: 8, w: 8, k: 24, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1},
		{c: 12, h: 16, w: 16, k: 26, kh: 3, kw: 3, stride: 1, dil: 1, pad: 1},
	} {
		if pixelLanes(s) {
			t.Errorf("%+v: taken for pixel lanes", s)
		}
	}
}
