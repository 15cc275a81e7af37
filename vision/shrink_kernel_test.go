package vision

import (
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// TestShrinkAreaMatchesOpenCV: shrinkArea gives OpenCV's area resize to
// the bit, on noise (every rounding case) and on a rendered frame, at the
// whole scales it does itself and at the others it hands to OpenCV.
func TestShrinkAreaMatchesOpenCV(t *testing.T) {
	frame, _ := benchFrame(t)
	defer frame.Close()
	noise := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer noise.Close()
	b, err := noise.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for i := range b {
		b[i] = uint8(rng.Intn(256))
	}
	var scratch []uint16
	for _, tc := range []struct {
		name string
		src  gocv.Mat
		size image.Point
	}{
		{"frame 5x", frame, image.Pt(256, 144)},
		{"noise 5x", noise, image.Pt(256, 144)},
		{"noise 4x", noise, image.Pt(320, 180)},
		{"noise 8x", noise, image.Pt(160, 90)},
		{"noise 2x (OpenCV's)", noise, image.Pt(640, 360)},
		{"noise 2.5x (OpenCV's)", noise, image.Pt(512, 288)},
	} {
		want, got := gocv.NewMat(), gocv.NewMat()
		gocv.Resize(tc.src, &want, tc.size, 0, 0, gocv.InterpolationArea)
		shrinkArea(tc.src, &got, tc.size, &scratch)
		w, _ := want.DataPtrUint8()
		g, _ := got.DataPtrUint8()
		if got.Cols() != tc.size.X || got.Rows() != tc.size.Y || len(g) != len(w) {
			t.Fatalf("%s: %dx%d, want %v", tc.name, got.Cols(), got.Rows(), tc.size)
		}
		diff := 0
		for i := range w {
			if w[i] != g[i] {
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("%s: %d of %d bytes differ from OpenCV's", tc.name, diff, len(w))
		}
		want.Close()
		got.Close()
	}
}

// BenchmarkShrinkArea times the networks' shrink of a 1280x720 frame, the
// own kernel against OpenCV's. Run it on one core (taskset -c 0).
func BenchmarkShrinkArea(b *testing.B) {
	frame, _ := benchFrame(b)
	defer frame.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	var scratch []uint16
	size := image.Pt(cornerNetW, cornerNetH)
	b.Run("own", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			shrinkArea(frame, &dst, size, &scratch)
		}
	})
	b.Run("opencv", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			gocv.Resize(frame, &dst, size, 0, 0, gocv.InterpolationArea)
		}
	})
}
