package vision

import (
	"math/rand"
	"testing"
)

// TestSampleRange: every sample along a segment that lies within the
// margin of the frame is in the range sampleRange gives, whatever the
// segment (inside, crossing, far off, along an edge, a point), and the
// range of a segment far from the frame is empty.
func TestSampleRange(t *testing.T) {
	const w, h, margin = 64.0, 48.0, 4.0
	rng := rand.New(rand.NewSource(1))
	coord := func() float64 {
		switch rng.Intn(4) {
		case 0:
			return rng.Float64()*200 - 70
		case 1:
			return rng.Float64()*2e5 - 1e5
		case 2:
			return -margin
		}
		return rng.Float64() * 64
	}
	near := 0
	for n := 0; n < 20000; n++ {
		a, b := pt{coord(), coord()}, pt{coord(), coord()}
		if n%50 == 0 {
			b = a
		}
		m := 1 + rng.Intn(400)
		qa, qb, in := sampleRange(a, b, m, w, h, margin)
		for q := 0; q < m; q++ {
			s := (float64(q) + 0.5) / float64(m)
			x, y := a.X+s*(b.X-a.X), a.Y+s*(b.Y-a.Y)
			if x < -margin || y < -margin || x > w+margin || y > h+margin {
				continue
			}
			near++
			if !in || q < qa || q >= qb {
				t.Fatalf("segment %v-%v, %d samples: sample %d at (%.2f, %.2f) is near the frame but outside [%d, %d) (in %v)", a, b, m, q, x, y, qa, qb, in)
			}
		}
	}
	if near == 0 {
		t.Fatal("no sample fell near the frame: the test shows nothing")
	}
	if _, _, in := sampleRange(pt{1e4, 1e4}, pt{2e4, 3e4}, 100, w, h, margin); in {
		t.Error("a segment far off the frame has samples to walk")
	}
}

func TestWhiterCell(t *testing.T) {
	stone := [3]float64{5.07, -0.019, -0.017} // the cluster taken as block tops
	shade := [3]float64{4.32, -0.006, -0.024}
	block := [3]float64{5.34, -0.008, -0.014}
	lit := [3]float64{5.15, -0.019, -0.017} // the same stone in a lamp's light
	grass := [3]float64{5.9, 0.15, 0.1}     // too coloured for a block, though bright
	var bare, withBlocks, litBare, coloured [25][3]float64
	for i := range bare {
		bare[i], withBlocks[i], litBare[i], coloured[i] = stone, stone, stone, stone
		if i%3 == 0 {
			bare[i], withBlocks[i], litBare[i], coloured[i] = shade, shade, shade, shade
		}
	}
	withBlocks[7], withBlocks[14] = block, stone
	withBlocks[20] = [3]float64{5.30, -0.01, -0.014}
	litBare[4], litBare[8] = lit, lit
	coloured[8] = grass
	tests := []struct {
		name  string
		cells [25][3]float64
		want  [3]float64
		ok    bool
	}{
		{"bare stone", bare, stone, false},
		{"two blocks, the whitest taken", withBlocks, block, true},
		{"a lamp's hot spot is the same surface", litBare, stone, false},
		{"a coloured cell is no block", coloured, stone, false},
	}
	for _, tc := range tests {
		got, ok := whiterCell(tc.cells, stone)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: whiterCell = %.3v, %v; want %.3v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
