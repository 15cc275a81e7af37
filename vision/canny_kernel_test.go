package vision

import (
	"bytes"
	"fmt"
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// TestCannyMatchesOpenCV: canny gives OpenCV's Canny to the bit on a
// reduced frame and its grey (its uses), on noise (every direction and tie, at
// every size down to one pixel), on noise of a few levels (ties between
// channels and magnitudes near the thresholds), on grey (every channel
// tied) and on blurred noise (long runs of weak candidates for the
// hysteresis), each in colour and in grey, at several thresholds.
func TestCannyMatchesOpenCV(t *testing.T) {
	small, grey := reducedBenchFrame(t)

	type cannyCase struct {
		name      string
		src       gocv.Mat
		low, high int
	}
	cases := []cannyCase{{"frame 40-120", small, 40, 120}, {"frame 10-30", small, 10, 30},
		{"grey frame 40-120", grey, 40, 120}, {"grey frame 10-30", grey, 10, 30}}
	rng := rand.New(rand.NewSource(7))
	sizes := []image.Point{{1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 3}, {17, 13}, {64, 48}, {203, 117}}
	for i, sz := range sizes {
		for _, kind := range []string{"noise", "levels", "grey", "blurred"} {
			m := gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8UC3)
			t.Cleanup(func() { m.Close() })
			fillCannyCase(t, m, kind, rng)
			g := gocv.NewMat()
			t.Cleanup(func() { g.Close() })
			gocv.CvtColor(m, &g, gocv.ColorBGRToGray)
			for _, th := range [][2]int{{40, 120}, {0, 0}, {1, 2}, {5, 300}, {120, 120}} {
				cases = append(cases, cannyCase{fmt.Sprintf("%s %dx%d %d-%d (%d)", kind, sz.X, sz.Y, th[0], th[1], i), m, th[0], th[1]},
					cannyCase{fmt.Sprintf("grey %s %dx%d %d-%d (%d)", kind, sz.X, sz.Y, th[0], th[1], i), g, th[0], th[1]})
			}
		}
	}
	var s cannyScratch
	got, want := gocv.NewMat(), gocv.NewMat()
	defer got.Close()
	defer want.Close()
	edges := 0
	for _, tc := range cases {
		s.canny(tc.src, &got, tc.low, tc.high)
		gocv.Canny(tc.src, &want, float32(tc.low), float32(tc.high))
		g, err := got.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		w, _ := want.DataPtrUint8()
		if got.Rows() != want.Rows() || got.Cols() != want.Cols() || got.Type() != want.Type() || !bytes.Equal(g, w) {
			diff := 0
			for i := range g {
				if i < len(w) && g[i] != w[i] {
					diff++
				}
			}
			t.Errorf("%s: %d of %d pixels differ from OpenCV's (%dx%d type %v against %dx%d %v)",
				tc.name, diff, len(w), got.Cols(), got.Rows(), got.Type(), want.Cols(), want.Rows(), want.Type())
		}
		edges += gocv.CountNonZero(want)
	}
	if edges == 0 {
		t.Fatal("no case had an edge: the comparison proves nothing")
	}
}

// fillCannyCase fills BGR m with a test pattern of the given kind.
func fillCannyCase(t *testing.T, m gocv.Mat, kind string, rng *rand.Rand) {
	t.Helper()
	b, err := m.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		switch kind {
		case "levels":
			b[i] = uint8(rng.Intn(6) * 9)
		case "grey":
			if i%3 == 0 {
				b[i] = uint8(rng.Intn(256))
			} else {
				b[i] = b[i-i%3]
			}
		default:
			b[i] = uint8(rng.Intn(256))
		}
	}
	if kind == "blurred" {
		gocv.GaussianBlur(m, &m, image.Pt(5, 5), 2, 2, gocv.BorderReflect101)
	}
}

// BenchmarkCanny times the edges of a reduced 640x360 frame in colour (the
// outline's) and in grey (the step edges'): OpenCV's Canny against canny.
func BenchmarkCanny(b *testing.B) {
	small, grey := reducedBenchFrame(b)
	out := gocv.NewMat()
	defer out.Close()
	for _, in := range []struct {
		name string
		m    gocv.Mat
	}{{"colour", small}, {"grey", grey}} {
		b.Run(in.name+"/opencv", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gocv.Canny(in.m, &out, 40, 120)
			}
		})
		b.Run(in.name+"/own", func(b *testing.B) {
			var s cannyScratch
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.canny(in.m, &out, 40, 120)
			}
		})
	}
}

// reducedBenchFrame gives the first benchmark frame reduced to 640x360, in
// colour and in grey, closed when tb ends.
func reducedBenchFrame(tb testing.TB) (colour, grey gocv.Mat) {
	tb.Helper()
	frame, _ := benchFrame(tb)
	defer frame.Close()
	colour, grey = gocv.NewMat(), gocv.NewMat()
	tb.Cleanup(func() { colour.Close(); grey.Close() })
	shrinkArea(frame, &colour, image.Pt(640, 360), new([]uint16))
	gocv.CvtColor(colour, &grey, gocv.ColorBGRToGray)
	return colour, grey
}
