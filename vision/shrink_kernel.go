package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

// box_shrink averages each k x k block of a w-wide BGR image into one
// pixel of dst (ow x oh), as OpenCV 4.6's area resize does at a whole
// scale other than 2: the block's integer sum times the float 1/(k*k),
// rounded to nearest even. OpenCV adds the block pixel by pixel through
// an offset table; this sums the k rows first (vectorised) then each
// block's k columns. col is a scratch row of w*3 sums (k is at most 16,
// so a column's sum fits 16 bits and the block's 32).
static void box_shrink(const uint8_t *src, int w, int k, uint8_t *dst, int ow, int oh, uint16_t *col) {
	const float scale = 1.f / (float)(k * k);
	const int n = w * 3;
	for (int oy = 0; oy < oh; oy++) {
		const uint8_t *s = src + (long)oy * k * n;
		for (int x = 0; x < n; x++) col[x] = s[x];
		for (int dy = 1; dy < k; dy++) {
			const uint8_t *r = s + (long)dy * n;
			for (int x = 0; x < n; x++) col[x] += r[x];
		}
		uint8_t *d = dst + (long)oy * ow * 3;
		for (int ox = 0; ox < ow; ox++) {
			const uint16_t *c = col + ox * k * 3;
			uint32_t sum[3] = {0, 0, 0};
			for (int dx = 0; dx < k; dx++, c += 3) {
				sum[0] += c[0];
				sum[1] += c[1];
				sum[2] += c[2];
			}
			for (int ch = 0; ch < 3; ch++) {
				float v = (float)sum[ch] * scale;
#if defined(__SSE__)
				int q = _mm_cvtss_si32(_mm_set_ss(v));
#else
				int q = (int)__builtin_lrintf(v);
#endif
				d[ox * 3 + ch] = (uint8_t)(q > 255 ? 255 : q);
			}
		}
	}
}
static inline uint8_t round_sat(float v) {
#if defined(__SSE__)
	int q = _mm_cvtss_si32(_mm_set_ss(v));
#else
	int q = (int)__builtin_lrintf(v);
#endif
	return (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
}

// area_weight is one source pixel's share of one output pixel.
typedef struct { int d, s; float a; } area_weight;

// area_weights lists, in order, the shares of source pixels 0..n-1 in the
// m output pixels at a fractional scale (n/m, as OpenCV computes it): the
// part-covered pixel at each end of an output pixel's span gets its
// covered fraction. It gives the count written to w (at most 2n+2m).
static int area_weights(int n, int m, double scale, area_weight *w) {
	int k = 0;
	for (int d = 0; d < m; d++) {
		double f1 = d * scale, f2 = f1 + scale;
		double width = scale < n - f1 ? scale : n - f1;
		int s1 = (int)ceil(f1), s2 = (int)floor(f2);
		if (s2 > n - 1) s2 = n - 1;
		if (s1 > s2) s1 = s2;
		if (s1 - f1 > 1e-3) w[k++] = (area_weight){d, s1 - 1, (float)((s1 - f1) / width)};
		for (int s = s1; s < s2; s++) w[k++] = (area_weight){d, s, (float)(1.0 / width)};
		if (f2 - s2 > 1e-3) {
			double part = f2 - s2 < 1.0 ? f2 - s2 : 1.0;
			if (part > width) part = width;
			w[k++] = (area_weight){d, s2, (float)(part / width)};
		}
	}
	return k;
}

// frac_shrink is OpenCV 4.6's area resize of a BGR image (w x h to
// ow x oh) at a scale that is not whole: each source row is spread over
// a row of float sums with the columns' shares, and the rows are added
// with theirs, in the same order and precision as OpenCV (so bit for bit).
// It reports 0 when out of memory.
static int frac_shrink(const uint8_t *src, int w, int h, uint8_t *dst, int ow, int oh) {
	double sx = 1.0 / ((double)ow / w), sy = 1.0 / ((double)oh / h);
	area_weight *xt = malloc(sizeof(area_weight) * (2 * (size_t)w + 2 * ow + 2));
	area_weight *yt = malloc(sizeof(area_weight) * (2 * (size_t)h + 2 * oh + 2));
	float *buf = malloc(sizeof(float) * (6 * (size_t)ow + 3 * (size_t)w));
	if (!xt || !yt || !buf) {
		free(xt);
		free(yt);
		free(buf);
		return 0;
	}
	float *sum = buf + 3 * ow, *rowf = sum + 3 * ow;
	int nx = area_weights(w, ow, sx, xt), ny = area_weights(h, oh, sy, yt);
	for (int k = 0; k < nx; k++) xt[k].d *= 3, xt[k].s *= 3;
	for (int x = 0; x < 3 * ow; x++) sum[x] = 0;
	int prev = yt[0].d;
	for (int j = 0; j < ny; j++) {
		const float beta = yt[j].a;
		const uint8_t *row = src + (long)yt[j].s * w * 3;
		// Each output pixel's sums in registers, its shares in order: the
		// same additions as OpenCV's through its row buffer, but output
		// pixels' chains overlap.
		for (int x = 0; x < 3 * w; x++) rowf[x] = row[x];
		for (int d = 0, k = 0; d < ow; d++) {
			float b0 = 0, b1 = 0, b2 = 0;
			for (; k < nx && xt[k].d == 3 * d; k++) {
				const float *p = rowf + xt[k].s;
				const float a = xt[k].a;
				b0 = b0 + p[0] * a;
				b1 = b1 + p[1] * a;
				b2 = b2 + p[2] * a;
			}
			buf[3 * d] = b0;
			buf[3 * d + 1] = b1;
			buf[3 * d + 2] = b2;
		}
		if (yt[j].d != prev) {
			uint8_t *out = dst + (long)prev * ow * 3;
			for (int x = 0; x < 3 * ow; x++) {
				out[x] = round_sat(sum[x]);
				sum[x] = beta * buf[x];
			}
			prev = yt[j].d;
		} else {
			for (int x = 0; x < 3 * ow; x++) sum[x] += beta * buf[x];
		}
	}
	uint8_t *out = dst + (long)prev * ow * 3;
	for (int x = 0; x < 3 * ow; x++) out[x] = round_sat(sum[x]);
	free(xt);
	free(yt);
	free(buf);
	return 1;
}
*/
import "C"

import (
	"image"
	"unsafe"

	"gocv.io/x/gocv"
)

// shrinkArea resizes BGR frame src to size into dst as
// gocv.Resize(..., InterpolationArea) does, bit for bit, where it shrinks
// both ways. Where the frame is a whole multiple of size from 3 (1280x720
// to the networks' 256x144: 5; 1920x1080 to the reduced 640x360: 3) it
// sums the blocks itself (OpenCV's general whole-scale path adds the
// block pixel by pixel through an offset table); at other scales
// (1920x1080 to 256x144: 7.5) it spreads the rows as OpenCV does but
// without its per-pixel dispatch. BenchmarkShrinkArea gives the times.
// A 2x shrink, which OpenCV does with vectors, and any other stays
// OpenCV's.
func shrinkArea(src gocv.Mat, dst *gocv.Mat, size image.Point, scratch *[]uint16) {
	w, h := src.Cols(), src.Rows()
	k := w / max(size.X, 1)
	whole := size.X*k == w && size.Y*k == h
	mine := src.Type() == gocv.MatTypeCV8UC3 && src.IsContinuous() &&
		size.X > 0 && size.Y > 0 && size.X < w && size.Y < h &&
		(whole && k > 2 && k <= 16 || !whole && (w%size.X != 0 || h%size.Y != 0))
	in, err := src.DataPtrUint8()
	if !mine || err != nil || len(in) < 3*w*h {
		gocv.Resize(src, dst, size, 0, 0, gocv.InterpolationArea)
		return
	}
	if dst.Cols() != size.X || dst.Rows() != size.Y || dst.Type() != gocv.MatTypeCV8UC3 || !dst.IsContinuous() {
		dst.Close()
		*dst = gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC3)
	}
	out, err := dst.DataPtrUint8()
	if err != nil || len(out) < 3*size.X*size.Y {
		gocv.Resize(src, dst, size, 0, 0, gocv.InterpolationArea)
		return
	}
	if !whole {
		if C.frac_shrink((*C.uint8_t)(unsafe.Pointer(&in[0])), C.int(w), C.int(h),
			(*C.uint8_t)(unsafe.Pointer(&out[0])), C.int(size.X), C.int(size.Y)) == 0 {
			gocv.Resize(src, dst, size, 0, 0, gocv.InterpolationArea)
		}
		return
	}
	if len(*scratch) < 3*w {
		*scratch = make([]uint16, 3*w)
	}
	C.box_shrink((*C.uint8_t)(unsafe.Pointer(&in[0])), C.int(w), C.int(k),
		(*C.uint8_t)(unsafe.Pointer(&out[0])), C.int(size.X), C.int(size.Y), (*C.uint16_t)(unsafe.Pointer(&(*scratch)[0])))
}
