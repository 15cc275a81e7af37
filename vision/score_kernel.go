package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>
#include <string.h>

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
// hyp_shape is one outline of a hypothesis: its raster (rows y0 .. y0+n-1
// at rows[off..]), the label it draws, and its edge samples [ea, eb).
typedef struct { int32_t y0, off, n, lab, ea, eb; } hyp_shape;
typedef struct { int32_t x, y, ax, ay, bx, by; float s; } edge_sample;

// edge_label is the label drawn at (x, y) for the edge term: the board
// outside the cell's region [rx0, rx1) x [ry0, ry1), the base map's behind
// a nearer cell or outside the drawn box [bx0, bx1) x [by0, by1), else lab.
static inline uint8_t edge_label(const uint8_t *base, const uint8_t *lab, int w, int x, int y,
		int rx0, int ry0, int rx1, int ry1, int bx0, int by0, int bx1, int by1) {
	if (x < rx0 || y < ry0 || x >= rx1 || y >= ry1) return 0;
	long o = (long)y * w + x;
	uint8_t l = base[o];
	if (l == 255 || x < bx0 || y < by0 || x >= bx1 || y >= by1) return l;
	return lab[o];
}

// score_hyp is cellCtx.score in one call: it draws the shapes on lab
// clipped to the box, sums the change in log-likelihood (score_spans),
// adds the edge term where samples are given (es not NULL), and puts lab
// back to base. Each sum runs in the Go code's order, so the result is
// the same to the last bit.
static sums3 score_hyp(const uint8_t *base, uint8_t *lab, const float *ll, int w,
		int bx0, int by0, int bx1, int by1, int rx0, int ry0, int rx1, int ry1,
		const hyp_shape *sh, int nsh, const row_span *rows, row_span *spans, int mine,
		const edge_sample *es) {
	const int nr = by1 - by0;
	for (int r = 0; r < nr; r++) spans[r].lo = INT32_MAX, spans[r].hi = -1;
	for (int q = 0; q < nsh; q++) {
		const hyp_shape *d = &sh[q];
		int ya = by0 > d->y0 ? by0 : d->y0;
		int yb = by1 - 1 < d->y0 + d->n - 1 ? by1 - 1 : d->y0 + d->n - 1;
		for (int y = ya; y <= yb; y++) {
			row_span sp = rows[d->off + y - d->y0];
			int xa = bx0 > sp.lo ? bx0 : sp.lo, xb = bx1 - 1 < sp.hi ? bx1 - 1 : sp.hi;
			if (xa > xb) continue;
			memset(lab + (long)y * w + xa, d->lab, (size_t)(xb - xa + 1));
			row_span *o = &spans[y - by0];
			if (xa < o->lo) o->lo = xa;
			if (xb > o->hi) o->hi = xb;
		}
	}
	sums3 out = score_spans(base, lab, ll, w, by0, spans, nr, mine);
	if (es) {
		double e = 0;
		for (int q = 0; q < nsh; q++) {
			for (int j = sh[q].ea; j < sh[q].eb; j++) {
				const edge_sample *v = &es[j];
				uint8_t la = edge_label(base, lab, w, v->ax, v->ay, rx0, ry0, rx1, ry1, bx0, by0, bx1, by1);
				uint8_t lb = edge_label(base, lab, w, v->bx, v->by, rx0, ry0, rx1, ry1, bx0, by0, bx1, by1);
				if (la != lb && la != 255 && lb != 255) e += (double)v->s;
			}
		}
		out.s[0] += e;
		out.s[1] += e;
		out.s[2] += e;
	}
	for (int r = 0; r < nr; r++) {
		if (spans[r].lo <= spans[r].hi) {
			long o = (long)(by0 + r) * w + spans[r].lo;
			memcpy(lab + o, base + o, (size_t)(spans[r].hi - spans[r].lo + 1));
		}
	}
	return out;
}
*/
import "C"

import (
	"image"
	"unsafe"
)

var _ = [1]struct{}{}[llStride-C.ll_stride]

// hypShape is score_hyp's hyp_shape; edgeSample is its edge_sample.
type hypShape struct{ y0, off, n, lab, ea, eb int32 }

var _ = [1]struct{}{}[unsafe.Sizeof(hypShape{})-unsafe.Sizeof(C.hyp_shape{})]
var _ = [1]struct{}{}[unsafe.Sizeof(edgeSample{})-unsafe.Sizeof(C.edge_sample{})]
var _ = [1]struct{}{}[unsafe.Sizeof(rowSpan{})-unsafe.Sizeof(C.row_span{})]
var _ = [1]struct{}{}[labBoard]

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

// scoreC is score on box (the hypothesis's box within the cell's region)
// in one call of score_hyp. It reports false, having changed nothing,
// where the arguments do not fit the kernel (scoreGo then scores).
func (c *cellCtx) scoreC(i, k int, m *colourModel, box image.Rectangle) ([3]float64, bool) {
	reg, w := c.region[i], c.w
	frame := image.Rect(0, 0, c.w, c.h)
	if !reg.In(frame) || !box.In(reg) || len(c.lab) < w*c.h || len(c.base) < w*c.h || len(m.ll) < w*c.h*llStride {
		return [3]float64{}, false
	}
	edges := c.gray.p != nil
	c.drawing = c.drawing[:0]
	mine := false
	for s, r := range c.shapeRasters(i, k) {
		d := c.shapes[i][k][s]
		l := d.lab
		if l >= labBlue && l <= labDark {
			l = labMine
			mine = true
		}
		if r.n > 0 && (r.off < 0 || int(r.off)+int(r.n) > len(c.rows) || r.y0 < 0 || int(r.y0+r.n) > c.h) {
			return [3]float64{}, false
		}
		var rg [2]int32
		if edges {
			rg = c.edgeRange(i, d)
		}
		c.drawing = append(c.drawing, hypShape{r.y0, r.off, r.n, int32(l), rg[0], rg[1]})
	}
	if cap(c.spans) < box.Dy() {
		c.spans = make([]rowSpan, max(c.h, box.Dy()))
	}
	var rows *C.row_span
	if len(c.rows) > 0 {
		rows = (*C.row_span)(unsafe.Pointer(&c.rows[0]))
	}
	var es *C.edge_sample
	if edges && len(c.eslab) > 0 {
		es = (*C.edge_sample)(unsafe.Pointer(&c.eslab[0]))
	}
	if edges && es == nil {
		// No samples made yet for any outline: an empty edge term.
		es = (*C.edge_sample)(unsafe.Pointer(&zeroSample))
	}
	mi := C.int(0)
	if mine {
		mi = 1
	}
	r := C.score_hyp((*C.uint8_t)(&c.base[0]), (*C.uint8_t)(&c.lab[0]), plane(m.ll), C.int(w),
		C.int(box.Min.X), C.int(box.Min.Y), C.int(box.Max.X), C.int(box.Max.Y),
		C.int(reg.Min.X), C.int(reg.Min.Y), C.int(reg.Max.X), C.int(reg.Max.Y),
		(*C.hyp_shape)(unsafe.Pointer(&c.drawing[0])), C.int(len(c.drawing)), rows,
		(*C.row_span)(unsafe.Pointer(&c.spans[0])), mi, es)
	return [3]float64{float64(r.s[0]), float64(r.s[1]), float64(r.s[2])}, true
}

// zeroSample stands for the edge samples when none are made: score_hyp
// reads none of it (every range is empty).
var zeroSample edgeSample
