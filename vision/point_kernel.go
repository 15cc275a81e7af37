package vision

/*
#cgo CFLAGS: -O3
#cgo LDFLAGS: -lm
#include <math.h>
#include <stdint.h>
#include <string.h>

// A pixel's floats in the colour model's interleaved planes (llStride).
enum { ll_stride = 8 };

typedef float v8f __attribute__((vector_size(32)));

typedef struct {
	int pw, ph;             // the planes' (and grey's) frame
	int ax0, ay0, ax1, ay1; // where the planes hold this frame's values
	int rx0, ry0, rx1, ry1; // the cell's region in the base map
	int per;                // features per point
} point_args;

// hypot_go is Go's math.Hypot on amd64: max * sqrt(1 + (min/max)^2).
static double hypot_go(double p, double q) {
	p = fabs(p);
	q = fabs(q);
	if (p == 0 && q == 0) return 0;
	double mx = p > q ? p : q, mn = p > q ? q : p;
	double r = mn / mx;
	r = r * r + 1.0;
	return sqrt(r) * mx;
}

// point_features is pointFeatures for n points (xs, ys) at once: per
// point the labels' posteriors from their log-likelihoods averaged over
// the 3x3 pixels about it, the grey contrast, whether a nearer cell
// covers it, and whether it is out of the frame. The posteriors are
// worked in single precision (expf): a reading's 31 250 points took 2.7
// ms in double, 1.5 in single, on one core. The 3x3 sums take the eight
// plane lanes as one vector (each lane adding in the scalar loop's
// order, so the same bits): BenchmarkPointFeatures, best of 15, 1.57-1.60
// -> 1.40-1.48 ms. Most of what is left is the seven expf a point.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void point_features(point_args a, const float *ll,
		const uint8_t *gray, const uint8_t *base,
		int n, const int32_t *xs, const int32_t *ys, float *out) {
	int lx = a.ax0 > 1 ? a.ax0 : 1, ly = a.ay0 > 1 ? a.ay0 : 1;
	int hx = a.ax1 < a.pw - 1 ? a.ax1 : a.pw - 1, hy = a.ay1 < a.ph - 1 ? a.ay1 : a.ph - 1;
	for (int i = 0; i < n; i++) {
		float *o = out + (long)i * a.per;
		for (int j = 0; j < a.per; j++) o[j] = 0;
		int x = xs[i], y = ys[i];
		if (x < lx || y < ly || x >= hx || y >= hy) {
			o[a.per - 1] = 1;
			continue;
		}
		// The planes' eight lanes at once (the eighth unused), each lane
		// summed in the scalar loop's order.
		v8f acc = {0};
		for (int dy = -1; dy <= 1; dy++) {
			long off = (long)(y + dy) * a.pw + x - 1;
			const float *q = ll + off * ll_stride;
			v8f p0, p1, p2;
			memcpy(&p0, q, sizeof p0);
			memcpy(&p1, q + ll_stride, sizeof p1);
			memcpy(&p2, q + 2 * ll_stride, sizeof p2);
			acc += p0 + p1 + p2;
		}
		acc /= 9;
		float sum[8];
		memcpy(sum, &acc, sizeof sum);
		float mx = -INFINITY;
		for (int l = 0; l < 7; l++) {
			if (sum[l] > mx) mx = sum[l];
		}
		float z = 0;
		for (int l = 0; l < 7; l++) {
			sum[l] = expf(sum[l] - mx);
			z += sum[l];
		}
		for (int l = 0; l < 7; l++) o[l] = (float)(sum[l] / z);
		if (gray) {
			double gx = (double)gray[(long)y * a.pw + x + 1] - (double)gray[(long)y * a.pw + x - 1];
			double gy = (double)gray[(long)(y + 1) * a.pw + x] - (double)gray[(long)(y - 1) * a.pw + x];
			o[7] = (float)(hypot_go(gx, gy) / 64);
		}
		if (x >= a.rx0 && y >= a.ry0 && x < a.rx1 && y < a.ry1 && base[(long)y * a.pw + x] == 255) o[8] = 1;
	}
}
*/
import "C"

import "unsafe"

var _ = [1]struct{}{}[llStride-C.ll_stride]

// The kernel's layout of a point's features.
var _ = [1]struct{}{}[netPerPoint-10]

// pointFeaturesC fills out (netPerPoint each) for the points (xs, ys) of
// cell's inputs, as pointFeatures does one by one, in C: a cell reading
// takes some thirty thousand points. It is false, having done nothing,
// when the frame's buffers do not fit the kernel.
func (c *cellCtx) pointFeaturesC(px *pixels, m *colourModel, cell int, xs, ys []int32, out []float32) bool {
	n := len(xs)
	size := px.w * px.h
	if n == 0 || len(ys) != n || len(out) < n*netPerPoint || c.w != px.w || len(c.base) < size {
		return false
	}
	if len(m.ll) < size*llStride {
		return false
	}
	var gray *C.uint8_t
	if g := c.gray; g.p != nil {
		if g.w != px.w || len(g.p) < size {
			return false
		}
		gray = (*C.uint8_t)(&g.p[0])
	}
	reg := c.region[cell]
	a := C.point_args{
		pw: C.int(px.w), ph: C.int(px.h),
		ax0: C.int(c.netAll.Min.X), ay0: C.int(c.netAll.Min.Y), ax1: C.int(c.netAll.Max.X), ay1: C.int(c.netAll.Max.Y),
		rx0: C.int(reg.Min.X), ry0: C.int(reg.Min.Y), rx1: C.int(reg.Max.X), ry1: C.int(reg.Max.Y),
		per: netPerPoint,
	}
	C.point_features(a, plane(m.ll),
		gray, (*C.uint8_t)(&c.base[0]), C.int(n), (*C.int32_t)(unsafe.Pointer(&xs[0])), (*C.int32_t)(unsafe.Pointer(&ys[0])),
		(*C.float)(unsafe.Pointer(&out[0])))
	return true
}
