package vision

import (
	"bytes"
	"fmt"
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
	rng := rand.New(rand.NewSource(3))
	noise := noiseFrame(t, 1280, 720, 1)
	defer noise.Close()
	noise1080 := noiseFrame(t, 1920, 1080, 2)
	defer noise1080.Close()
	var scratch []uint16
	type shrinkCase struct {
		name string
		src  gocv.Mat
		size image.Point
	}
	// Odd sizes too: every scale, whole or not, either way.
	var odd []shrinkCase
	for k := 0; k < 30; k++ {
		src := noise
		if k%2 == 1 {
			src = noise1080
		}
		sz := image.Pt(1+rng.Intn(src.Cols()-1), 1+rng.Intn(src.Rows()-1))
		odd = append(odd, shrinkCase{fmt.Sprintf("noise %dx%d to %v", src.Cols(), src.Rows(), sz), src, sz})
	}
	for _, tc := range append([]shrinkCase{
		{"frame 5x", frame, image.Pt(256, 144)},
		{"noise 5x", noise, image.Pt(256, 144)},
		{"noise 4x", noise, image.Pt(320, 180)},
		{"noise 8x", noise, image.Pt(160, 90)},
		{"noise 3x (1920x1080 to the reduced frame)", noise1080, image.Pt(640, 360)},
		{"noise 7.5x", noise1080, image.Pt(256, 144)},
		{"noise 2.5x", noise, image.Pt(512, 288)},
		{"noise 5x by 3.33x", noise, image.Pt(256, 216)},
		{"noise 1280x720 to 1000x700", noise, image.Pt(1000, 700)},
		{"noise 1280x720 to 7x5", noise, image.Pt(7, 5)},
		{"noise 1920x1080 to 333x191", noise1080, image.Pt(333, 191)},
		{"noise 1920x1080 to 1280x720", noise1080, image.Pt(1280, 720)},
		{"noise 2x (OpenCV's)", noise, image.Pt(640, 360)},
	}, odd...) {
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

// noiseFrame is a w x h BGR frame of uniform noise from seed.
func noiseFrame(t testing.TB, w, h int, seed int64) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	b, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	for i := range b {
		b[i] = uint8(rng.Intn(256))
	}
	return m
}

// BenchmarkShrinkArea times the networks' shrink of a 1280x720 frame, the
// own kernel against OpenCV's. Run it on one core (taskset -c 0).
func BenchmarkShrinkArea(b *testing.B) {
	frame, _ := benchFrame(b)
	defer frame.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	big := noiseFrame(b, 1920, 1080, 2)
	defer big.Close()
	var scratch []uint16
	for _, tc := range []struct {
		name string
		src  gocv.Mat
		size image.Point
	}{
		{"1280x720-to-net", frame, image.Pt(cornerNetW, cornerNetH)},
		{"1920x1080-to-reduced", big, image.Pt(640, 360)},
		{"1920x1080-to-net", big, image.Pt(cornerNetW, cornerNetH)},
	} {
		b.Run(tc.name+"/own", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				shrinkArea(tc.src, &dst, tc.size, &scratch)
			}
		})
		b.Run(tc.name+"/opencv", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gocv.Resize(tc.src, &dst, tc.size, 0, 0, gocv.InterpolationArea)
			}
		})
	}
}

// FuzzShrinkArea: at any sizes (a frame of up to 300x300 to any smaller
// or equal size) shrinkArea gives OpenCV's bytes and never reads or
// writes out of bounds.
func FuzzShrinkArea(f *testing.F) {
	f.Add(uint16(1280%300), uint16(720%300), uint16(256%300), uint16(144), int64(1))
	f.Add(uint16(299), uint16(7), uint16(2), uint16(7), int64(2))
	f.Add(uint16(1), uint16(1), uint16(1), uint16(1), int64(3))
	f.Fuzz(func(t *testing.T, w, h, ow, oh uint16, seed int64) {
		sw, sh := 1+int(w)%300, 1+int(h)%300
		size := image.Pt(1+int(ow)%sw, 1+int(oh)%sh)
		src := noiseFrame(t, sw, sh, seed)
		defer src.Close()
		want, got := gocv.NewMat(), gocv.NewMat()
		defer want.Close()
		defer got.Close()
		var scratch []uint16
		gocv.Resize(src, &want, size, 0, 0, gocv.InterpolationArea)
		shrinkArea(src, &got, size, &scratch)
		wb, _ := want.DataPtrUint8()
		gb, _ := got.DataPtrUint8()
		if got.Cols() != size.X || got.Rows() != size.Y || !bytes.Equal(wb, gb) {
			t.Fatalf("%dx%d to %v: shrinkArea differs from OpenCV's", sw, sh, size)
		}
	})
}
