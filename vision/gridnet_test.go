package vision

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// trainedGridNet gives the built-in grid network's file form, failing the
// test when gridnet.bin does not load.
func trainedGridNet(tb testing.TB) []byte {
	tb.Helper()
	if builtinGridNet == nil {
		tb.Fatal("gridnet.bin does not load: train it (see TestTrainGridNet)")
	}
	data, err := builtinGridNet.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestGridNetFileRoundTrip(t *testing.T) {
	data := trainedGridNet(t)
	if len(data) != gridNetFile.size() {
		t.Fatalf("file form is %d bytes, want %d", len(data), gridNetFile.size())
	}
	var n gridNet
	if err := n.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	x := make([]float32, gridNetInputs)
	for i := range x {
		x[i] = float32(i%5) - 2
	}
	xs := make([]float32, gridNetInputs)
	if a, b := n.score(x, xs), builtinGridNet.score(x, xs); a != b {
		t.Errorf("round trip scores %v, the built-in %v", a, b)
	}
}

func TestGridNetFileErrors(t *testing.T) {
	good := trainedGridNet(t)
	nan := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(nan[40:], math.Float32bits(float32(math.NaN())))
	sizes := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(sizes[4:], 7)
	zeroSD := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(zeroSD[12+4*gridNetInputs:], 0)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a network file"},
		{"cell network", []byte("CNET0000000000000000"), "not a network file"},
		{"other sizes", sizes, "train it again"},
		{"truncated", good[:len(good)-3], "bytes, want"},
		{"not a number", nan, "not a number"},
		{"zero deviation", zeroSD, "not positive"},
	} {
		var n gridNet
		err := n.UnmarshalBinary(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func FuzzGridNetUnmarshal(f *testing.F) {
	f.Add([]byte("GNET"))
	f.Add(trainedGridNet(f)[:64])
	f.Fuzz(func(t *testing.T, data []byte) {
		var n gridNet
		if n.UnmarshalBinary(data) == nil && len(n.w1) != gridNetHidden*gridNetInputs {
			t.Fatalf("accepted a network with %d first-layer weights", len(n.w1))
		}
	})
}

// TestGridViewSeesTheFrame: a grey board with a dark frame round it on a
// light table; the view of the right grid has the frame's dark ring just
// outside the grid, a grid a cell off has it through its cells.
func TestGridViewSeesTheFrame(t *testing.T) {
	const pitch, off = 20.0, 40.0 // pixels; the grid starts at (off, off)
	p := pixels{w: 200, h: 200, bgr: make([]uint8, 200*200*3)}
	for y := 0; y < p.h; y++ {
		for x := 0; x < p.w; x++ {
			u, v := (float64(x)-off)/pitch, (float64(y)-off)/pitch
			c := uint8(220) // table
			switch {
			case u >= 0 && u < 5 && v >= 0 && v < 5:
				c = 150 // cells
			case u >= -0.8 && u < 5.8 && v >= -0.8 && v < 5.8:
				c = 30 // frame
			}
			i := (y*p.w + x) * 3
			p.bgr[i], p.bgr[i+1], p.bgr[i+2] = c, c, c
		}
	}
	grid := func(du float64) homography {
		return homography{pitch, 0, off + du*pitch, 0, pitch, off, 0, 0, 1}
	}
	view := make([]float32, viewPixels)
	at := func(u, v float64) float32 {
		i := int(math.Round((v + viewMargin) / viewStep))
		j := int(math.Round((u + viewMargin) / viewStep))
		return view[(i*viewSteps+j)*viewChannels]
	}
	gridView(&p, grid(0), view)
	if ring, cell := at(-0.5, 2.5), at(0.5, 2.5); ring >= cell {
		t.Errorf("right grid: the frame left of it reads %.2f, not darker than its cell %.2f", ring, cell)
	}
	gridView(&p, grid(-1), view)
	if ring, cell := at(-0.5, 2.5), at(0.5, 2.5); ring <= cell {
		t.Errorf("grid a cell left: outside reads %.2f, not lighter than its first column %.2f (the frame)", ring, cell)
	}
	// Outside the frame: the inside flag is off and the colours zero.
	gridView(&p, homography{pitch, 0, -50, 0, pitch, off, 0, 0, 1}, view)
	if k := (10*viewSteps + 0) * viewChannels; view[k+3] != 0 || view[k] != 0 {
		t.Errorf("a sample off the frame has flag %v colour %v, want 0 and 0", view[k+3], view[k])
	}
}

// TestGridVerifierOnlyWhenCrowded: frames with sure dividers are not
// second-guessed.
func TestGridVerifierOnlyWhenCrowded(t *testing.T) {
	r := NewReader()
	defer r.Close()
	if r.gridVerifier(false) != nil {
		t.Error("a verifier was made for a frame whose dividers are sure")
	}
}

// BenchmarkGridVerifier times one candidate's view and score; a crowded
// frame has about 45 candidates.
func BenchmarkGridVerifier(b *testing.B) {
	n := builtinGridNet
	if n == nil {
		b.Fatal("gridnet.bin does not load")
	}
	p := pixels{w: 640, h: 360, bgr: make([]uint8, 640*360*3)}
	for i := range p.bgr {
		p.bgr[i] = uint8(i * 7 % 251)
	}
	hs := homography{40, 5, 200, -2, 30, 80, 0, 0.001, 1}
	view, x, xs := make([]float32, viewPixels), make([]float32, gridNetInputs), make([]float32, gridNetInputs)
	cues := [gridCues]float64{0.1, -0.1, 0.2, 0.05, 0.6, 0.5}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		gridNetInput(&p, hs, cues, view, x)
		n.score(x, xs)
	}
}
