package vision

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// houghImage makes a w x h binary image of n random lines (thick or thin)
// and scattered noise pixels, as an edge or ridge map shows.
func houghImage(t testing.TB, rng *rand.Rand, w, h, n int, noise float64) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
	data, err := m.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < n; k++ {
		th := rng.Float64() * math.Pi
		rho := (rng.Float64() - 0.5) * float64(w+h)
		c, s := math.Cos(th), math.Sin(th)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if d := float64(x)*c + float64(y)*s - rho; d > -0.7 && d < 0.7 && rng.Float64() < 0.8 {
					data[y*w+x] = 255
				}
			}
		}
	}
	for i := range data {
		if rng.Float64() < noise {
			data[i] = 255
		}
	}
	return m
}

// TestHoughLinesAsOpenCV: the transform gives OpenCV's lines, in OpenCV's
// order, to the bit, on images of many sizes, densities and thresholds
// (equal votes included: the order among them is OpenCV's too).
func TestHoughLinesAsOpenCV(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var hl houghLines
	want := gocv.NewMat()
	defer want.Close()
	cases := []struct{ w, h, lines int }{
		{640, 360, 12}, {640, 360, 0}, {640, 480, 30}, {320, 180, 6}, {64, 64, 2}, {97, 211, 5}, {640, 360, 60},
	}
	for trial := 0; trial < 3; trial++ {
		for _, c := range cases {
			img := houghImage(t, rng, c.w, c.h, c.lines, rng.Float64()*0.05)
			for _, thr := range []int{5, int(0.08 * float64(c.h)), int(0.12 * float64(c.h)), 200} {
				checkHoughAsOpenCV(t, &hl, want, img, thr, fmt.Sprintf("%dx%d, %d lines, threshold %d", c.w, c.h, c.lines, thr))
			}
			img.Close()
		}
	}
}

// checkHoughAsOpenCV fails t unless hl gives img's lines over thr as
// OpenCV's HoughLines does (into want), bit for bit and in its order.
func checkHoughAsOpenCV(t *testing.T, hl *houghLines, want gocv.Mat, img gocv.Mat, thr int, what string) {
	t.Helper()
	gocv.HoughLines(img, &want, 1, math.Pi/180, thr)
	var ref []float32
	if !want.Empty() {
		var err error
		if ref, err = want.DataPtrFloat32(); err != nil {
			t.Fatal(err)
		}
	}
	got, err := hl.lines(img, thr)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ref) {
		t.Fatalf("%s: %d values, OpenCV %d", what, len(got), len(ref))
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(ref[i]) {
			t.Fatalf("%s: value %d is %v, OpenCV's %v", what, i, got[i], ref[i])
		}
	}
}

// TestHoughLinesBadImage: an image the transform cannot take is an error,
// not a crash.
func TestHoughLinesBadImage(t *testing.T) {
	var hl houghLines
	empty := gocv.NewMat()
	defer empty.Close()
	colour := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)
	defer colour.Close()
	for name, m := range map[string]gocv.Mat{"empty": empty, "colour": colour} {
		if _, err := hl.lines(m, 5); err == nil {
			t.Errorf("%s image: no error", name)
		}
	}
}

func BenchmarkHoughLines(b *testing.B) {
	rng := rand.New(rand.NewSource(2))
	img := houghImage(b, rng, 640, 360, 40, 0.04)
	defer img.Close()
	b.Run("opencv", func(b *testing.B) {
		out := gocv.NewMat()
		defer out.Close()
		for i := 0; i < b.N; i++ {
			gocv.HoughLines(img, &out, 1, math.Pi/180, 28)
		}
	})
	b.Run("kernel", func(b *testing.B) {
		var hl houghLines
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			hl.lines(img, 28)
		}
	})
}

// FuzzHoughLines: any small binary image and threshold give OpenCV's
// lines, in OpenCV's order, to the bit.
func FuzzHoughLines(f *testing.F) {
	f.Add(uint8(16), uint8(9), uint8(3), []byte{0, 255, 255, 0, 1, 0, 0, 7, 255})
	f.Add(uint8(64), uint8(64), uint8(0), []byte("a line of bytes, set and clear, as an edge map shows"))
	var hl houghLines
	want := gocv.NewMat()
	defer want.Close()
	f.Fuzz(func(t *testing.T, w, h, thr uint8, px []byte) {
		cols, rows := 1+int(w)%96, 1+int(h)%96
		img := gocv.NewMatWithSize(rows, cols, gocv.MatTypeCV8UC1)
		defer img.Close()
		data, err := img.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for i := range data {
			data[i] = 0
			if len(px) > 0 && px[i%len(px)]&(1<<(uint(i/len(px))%8)) != 0 {
				data[i] = 255
			}
		}
		checkHoughAsOpenCV(t, &hl, want, img, int(thr), fmt.Sprintf("%dx%d threshold %d", cols, rows, thr))
	})
}
