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
			sc := sim.RandomScene(7)
			sc.Width, sc.Height = size[0], size[1]
			img, _ := sim.Render(sc)
			frame, err := gocv.ImageToMatRGB(img)
			if err != nil {
				b.Fatal(err)
			}
			defer frame.Close()
			r := NewReader()
			defer r.Close()
			if _, err := r.Read(frame); err != nil {
				b.Fatal(err)
			}
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
