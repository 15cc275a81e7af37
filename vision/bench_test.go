package vision

import (
	"fmt"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

// BenchmarkRead times recognition alone (decoding excluded) on simulated
// frames rendered off the clock at the two usual sizes.
func BenchmarkRead(b *testing.B) {
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			r := NewReader()
			defer r.Close()
			// A frame the reader reads through (grid found, cells read),
			// rendered off the clock.
			var frame gocv.Mat
			for _, seed := range []int64{1014, 1018, 1000, 1024} {
				sc := sim.RandomScene(seed)
				sc.Width, sc.Height = size[0], size[1]
				img, _ := sim.Render(sc)
				m, err := gocv.ImageToMatRGB(img)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Read(m); err == nil {
					frame = m
					break
				}
				m.Close()
			}
			if frame.Ptr() == nil {
				b.Fatal("no benchmark frame was read")
			}
			defer frame.Close()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := r.Read(frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
