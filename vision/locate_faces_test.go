package vision

import (
	"reflect"
	"testing"
)

// faceSeeds are frames with block tops in view (towers seen from above
// and low), for topFaces's tests and benchmark.
var faceSeeds = []int64{5000, 5001, 5002, 5003, 5004, 5005}

// TestTopFacesMatchTheReference checks topFaces against the flood fill it
// replaced (each pixel tested inside the fill): the same faces, in the
// same order, and the same regions labelled.
func TestTopFacesMatchTheReference(t *testing.T) {
	r := NewReader()
	defer r.Close()
	withFaces := 0
	for _, s := range faceSeeds {
		m, _ := simFrame(t, s)
		if _, _, err := r.prepare(m); err != nil {
			m.Close()
			t.Fatal(err)
		}
		m.Close()
		want, wantLab := topFacesReference(r)
		got := r.topFaces()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: %d faces, the reference %d (or they differ)", s, len(got), len(want))
		}
		for i, l := range wantLab {
			if (l >= 0 || r.faceLabels[i] >= 0) && l != r.faceLabels[i] {
				t.Errorf("seed %d: pixel %d labelled %d, the reference %d", s, i, r.faceLabels[i], l)
				break
			}
		}
		if len(want) >= 3 {
			withFaces++
		}
	}
	if withFaces == 0 {
		t.Fatal("no frame showed three top faces: the comparison tested nothing")
	}
}

// BenchmarkTopFaces times topFaces and the reference on one frame (step
// edges made once before).
func BenchmarkTopFaces(b *testing.B) {
	r := NewReader()
	defer r.Close()
	m, _ := simFrame(b, faceSeeds[0])
	defer m.Close()
	if _, _, err := r.prepare(m); err != nil {
		b.Fatal(err)
	}
	r.stepEdges()
	b.Run("mask", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r.topFaces()
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			topFacesReference(r)
		}
	})
}

// topFacesReference is topFaces as it was, each pixel tested as the fill
// reaches it; it gives the labels too.
func topFacesReference(r *Reader) ([]topFace, []int32) {
	w, h := r.px.w, r.px.h
	g, ed, seen := r.faceInputs()
	if !seen {
		return nil, nil
	}
	thr := faceThreshold(g)
	n := w * h
	lab := make([]int32, n)
	for i := range lab {
		lab[i] = -1
	}
	const groove = 10
	const faceStep = 14
	ok := func(x, y int) bool {
		i := y*w + x
		c := int(g[i])
		if g[i] < thr || ed != nil && ed[i] != 0 {
			return false
		}
		if x >= 1 && y >= 1 && x+1 < w && y+1 < h && abs(int(g[i+1])-int(g[i-1]))+abs(int(g[i+w])-int(g[i-w])) > faceStep {
			return false
		}
		if x >= 2 && x+2 < w && int(g[i-2])-c > groove && int(g[i+2])-c > groove {
			return false
		}
		if y >= 2 && y+2 < h && int(g[i-2*w])-c > groove && int(g[i+2*w])-c > groove {
			return false
		}
		p := r.px.bgr[3*i : 3*i+3]
		mx := max(p[0], p[1], p[2])
		mn := min(p[0], p[1], p[2])
		return float64(mx-mn) < 0.3*float64(mx)
	}
	var out []topFace
	var stack []int32
	var pix []int32
	region := int32(0)
	for i0 := 0; i0 < n; i0++ {
		if lab[i0] != -1 {
			continue
		}
		if !ok(i0%w, i0/w) {
			lab[i0] = -2
			continue
		}
		// Flood fill (4-connected).
		pix = pix[:0]
		stack = append(stack[:0], int32(i0))
		lab[i0] = region
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pix = append(pix, i)
			x, y := int(i)%w, int(i)/w
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				j := int32(ny*w + nx)
				if lab[j] != -1 {
					continue
				}
				if !ok(nx, ny) {
					lab[j] = -2
					continue
				}
				lab[j] = region
				stack = append(stack, j)
			}
		}
		region++
		if len(pix) < 4*faceMinArea || len(pix) > 4*faceMaxArea {
			continue
		}
		if f, good := faceOf(pix, w); good {
			out = append(out, f)
		}
	}
	return out, lab
}
