package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>

// A pixel's floats in the colour model's interleaved planes (llStride).
enum { ll_stride = 8 };

typedef struct { double s[3]; } sums3;
typedef struct { int32_t lo, hi; } row_span;

// score_px adds pixel o's change to the sums.
static inline void score_px(const uint8_t *base, const uint8_t *lab, const float *ll,
		long o, int mine, double *s0, double *s1, double *s2) {
	uint8_t b = base[o], l = lab[o];
	// Labels past the planes (none are drawn) are passed over rather than
	// read out of bounds.
	if (b == 255 || l == b || b > 6 || l > 7 || (l == 7 && !mine)) return;
	const float *px = ll + o * ll_stride;
	double v = (double)px[b];
	if (!mine) {
		*s0 += (double)px[l] - v;
	} else if (l == 7) {
		*s0 += (double)px[3] - v;
		*s1 += (double)px[4] - v;
		*s2 += (double)px[5] - v;
	} else {
		double d = (double)px[l] - v;
		*s0 += d;
		*s1 += d;
		*s2 += d;
	}
}

// score_spans sums, over rows y0.. of a w-wide label map, each from its
// span's lo to hi (none when lo > hi: where lab may differ from base), the
// change in label log-likelihood where the drawn labels (lab) differ from
// the base map's (base), skipping pixels a nearer cell covers (255).
// Label 7 is the scored cell's pawn: out gets the blue, light and dark
// pawn's sums (planes 3, 4, 5); with no pawn drawn the three are one. The
// sums run pixel by pixel in row order, as the Go loop over the whole box
// does (outside the spans it adds nothing), so the results are the same
// to the last bit.
static sums3 score_spans(const uint8_t *base, const uint8_t *lab, const float *ll,
		int w, int y0, const row_span *spans, int rows, int mine) {
	double s0 = 0, s1 = 0, s2 = 0;
	for (int r = 0; r < rows; r++) {
		long o = (long)(y0 + r) * w;
		for (int x = spans[r].lo; x <= spans[r].hi; x++) score_px(base, lab, ll, o + x, mine, &s0, &s1, &s2);
	}
	if (!mine) s1 = s2 = s0;
	sums3 out = {{s0, s1, s2}};
	return out;
}
*/
import "C"

import (
	"image"
	"unsafe"
)

var _ = [1]struct{}{}[llStride-C.ll_stride]

// The kernel's label numbers.
var _ = [1]struct{}{}[labNear-255]
var _ = [1]struct{}{}[labMine-7]
var _ = [1]struct{}{}[nPlanes-7]
var _ = [1]struct{}{}[labBlue-3]
var _ = [1]struct{}{}[labDark-5]

// scoreSpans is score's sum over box (score_spans), in C, each row only
// over its span (the pixels drawn on): the same sums as scoreBoxGo's over
// the whole box, for outside the spans the label map is the base map's.
func scoreSpans(base, lab []uint8, m *colourModel, w int, box image.Rectangle, spans []rowSpan, mine bool) [3]float64 {
	if box.Empty() {
		return [3]float64{}
	}
	end := (box.Max.Y-1)*w + box.Max.X
	ok := box.Min.X >= 0 && box.Min.Y >= 0 && box.Max.X <= w && len(base) >= end && len(lab) >= end && len(spans) == box.Dy()
	ok = ok && len(m.ll) >= end*llStride
	for _, sp := range spans {
		ok = ok && (sp.lo > sp.hi || int(sp.lo) >= box.Min.X && int(sp.hi) < box.Max.X)
	}
	if !ok {
		return scoreBoxGo(base, lab, m, w, box, mine)
	}
	mi := C.int(0)
	if mine {
		mi = 1
	}
	r := C.score_spans((*C.uint8_t)(&base[0]), (*C.uint8_t)(&lab[0]),
		plane(m.ll), C.int(w), C.int(box.Min.Y), (*C.row_span)(unsafe.Pointer(&spans[0])), C.int(len(spans)), mi)
	return [3]float64{float64(r.s[0]), float64(r.s[1]), float64(r.s[2])}
}

// plane gives a likelihood plane's first element for C.
func plane(p []float32) *C.float { return (*C.float)(unsafe.Pointer(&p[0])) }

// scoreBoxGo is scoreBox in Go: the reference the kernel is tested
// against, and the fallback should its arguments not fit it.
func scoreBoxGo(base, lab []uint8, m *colourModel, w int, box image.Rectangle, mine bool) [3]float64 {
	var s [3]float64
	if mine {
		for y := box.Min.Y; y < box.Max.Y; y++ {
			o := y*w + box.Min.X
			base, lab := base[o:o+box.Dx()], lab[o:o+box.Dx()]
			for x, b := range base {
				l := lab[x]
				if b != labNear && l != b {
					p := m.ll[(o+x)*llStride : (o+x+1)*llStride]
					v := float64(p[b])
					if l == labMine {
						s[0] += float64(p[labBlue]) - v
						s[1] += float64(p[labLight]) - v
						s[2] += float64(p[labDark]) - v
					} else {
						d := float64(p[l]) - v
						s[0] += d
						s[1] += d
						s[2] += d
					}
				}
			}
		}
		return s
	}
	// No pawn drawn: the three scores are one.
	var s0 float64
	for y := box.Min.Y; y < box.Max.Y; y++ {
		o := y*w + box.Min.X
		base, lab := base[o:o+box.Dx()], lab[o:o+box.Dx()]
		for x, b := range base {
			if l := lab[x]; b != labNear && l != b {
				p := m.ll[(o+x)*llStride : (o+x+1)*llStride]
				s0 += float64(p[l]) - float64(p[b])
			}
		}
	}
	return [3]float64{s0, s0, s0}
}
