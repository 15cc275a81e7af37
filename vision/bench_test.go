package vision

import (
	"errors"
	"fmt"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

// benchSeeds are the scenes the benchmark cycles through: easy and hard
// ones alike, since a frame where the grid is hard to find costs more.
var benchSeeds = []int64{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007}

// BenchmarkRead times recognition alone (decoding excluded) per frame, over
// several simulated frames rendered off the clock, at the two usual sizes.
func BenchmarkRead(b *testing.B) { benchRead(b, false) }

// BenchmarkReadWithCorners times the same frames read with their true
// corners given: the cell reading without the grid search.
func BenchmarkReadWithCorners(b *testing.B) { benchRead(b, true) }

func benchRead(b *testing.B, withCorners bool) {
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			r := NewReader()
			defer r.Close()
			var frames []gocv.Mat
			var corners [][4][2]float64
			for _, seed := range benchSeeds {
				sc := sim.RandomScene(seed)
				sc.Width, sc.Height = size[0], size[1]
				img, truth := sim.Render(sc)
				m, err := gocv.ImageToMatRGB(img)
				if err != nil {
					b.Fatal(err)
				}
				defer m.Close()
				frames = append(frames, m)
				corners = append(corners, truth.Corners)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(frames)
				var err error
				if withCorners {
					_, err = r.ReadWithCorners(frames[k], corners[k])
				} else {
					_, err = r.Read(frames[k])
				}
				if err != nil && !errors.Is(err, ErrNoGrid) {
					b.Fatal(err)
				}
			}
		})
	}
}
