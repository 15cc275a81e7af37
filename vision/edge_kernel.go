package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>

typedef struct { int32_t x, y, ax, ay, bx, by; float s; } edge_out;

// edge_run is one edge of an outline as edgeSamples walks it: from (ax,
// ay) by (dx, dy), its unit normal (nx, ny), m samples of which qa .. qb-1
// are taken.
typedef struct {
	double ax, ay, dx, dy, nx, ny;
	int32_t m, qa, qb, pad;
} edge_run;

enum { edge_reach = 2, edge_np = 2 * edge_reach + 3 };

// edge_samples is edgeSamplesGo's loop over the samples of n edge runs,
// with the same operations in the same order (no fused multiply-adds), so
// each sample is the same to the last bit. It writes to out (room for
// every sample of the runs) and gives how many it wrote. The baseline
// x86-64 has no fused multiply-add, but the attribute keeps it so
// should the flags ever allow one.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("fp-contract=off")))
#endif
static int edge_samples(const edge_run *runs, int n, const uint8_t *g, int gw, int gh,
		double weight, double cap, double bias, edge_out *out) {
	int k = 0;
	for (int e = 0; e < n; e++) {
		const edge_run *u = &runs[e];
		for (int q = u->qa; q < u->qb; q++) {
			double t = ((double)q + 0.5) / (double)u->m;
			double x = u->ax + t * u->dx, y = u->ay + t * u->dy;
			int prof[edge_np];
			int ok = 1;
			for (int j = 0; j < edge_np; j++) {
				double d = (double)(j - edge_reach - 1);
				// The samples range keeps x and y within a few pixels of
				// the frame, so the conversions stay in range.
				int ix = (int)(x + u->nx * d), iy = (int)(y + u->ny * d);
				if (ix < 0 || iy < 0 || ix >= gw || iy >= gh) {
					ok = 0;
					break;
				}
				prof[j] = g[(long)iy * gw + ix];
			}
			if (!ok) continue;
			int con = 0;
			for (int j = 1; j + 1 < edge_np; j++) {
				int d = prof[j + 1] - prof[j - 1];
				if (d < 0) d = -d;
				if (d > con) con = d;
			}
			double c = (double)con;
			if (cap < c) c = cap;
			double s = weight * (c / cap - bias);
			double r = (double)edge_reach;
			edge_out o = {(int32_t)x, (int32_t)y, (int32_t)(x + u->nx * r), (int32_t)(y + u->ny * r),
				(int32_t)(x - u->nx * r), (int32_t)(y - u->ny * r), (float)s};
			out[k++] = o;
		}
	}
	return k;
}
*/
import "C"

import (
	"math"
	"unsafe"
)

var _ = [1]struct{}{}[edgeReach-C.edge_reach]
var _ = [1]struct{}{}[unsafe.Sizeof(edgeSample{})-C.sizeof_edge_out]

// edgeRun is C's edge_run.
type edgeRun struct {
	ax, ay, dx, dy, nx, ny float64
	m, qa, qb, _           int32
}

var _ = [1]struct{}{}[unsafe.Sizeof(edgeRun{})-C.sizeof_edge_run]

// edgeSamples is edgeSamplesGo with the samples taken in C: each edge's
// length, normal and range of samples are worked out here, as there, and
// the per-sample loop (about two thirds of a pose's set-up in Go) runs in
// one call an outline.
func (c *cellCtx) edgeSamples(p poly, out []edgeSample) []edgeSample {
	g := c.gray
	n := len(p)
	if n < 3 || len(g.p) < g.w*g.h || g.w <= 0 || g.h <= 0 {
		return c.edgeSamplesGo(p, out)
	}
	runs := c.edgeRuns[:0]
	total := 0
	for e := 0; e < n; e++ {
		a, b := p[e], p[(e+1)%n]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l < 1 || l > maxOutlineEdge {
			continue
		}
		m := int(l / edgeStep)
		qa, qb, in := sampleRange(a, b, m, float64(g.w), float64(g.h), edgeReach+2)
		if !in {
			continue
		}
		runs = append(runs, edgeRun{ax: a.X, ay: a.Y, dx: dx, dy: dy, nx: -dy / l, ny: dx / l, m: int32(m), qa: int32(qa), qb: int32(qb)})
		total += qb - qa
	}
	c.edgeRuns = runs
	if total == 0 {
		return out
	}
	start := len(out)
	out = append(out, make([]edgeSample, total)...)
	k := C.edge_samples((*C.edge_run)(unsafe.Pointer(&runs[0])), C.int(len(runs)),
		(*C.uint8_t)(&g.p[0]), C.int(g.w), C.int(g.h),
		C.double(edgeWeight), C.double(edgeCap), C.double(edgeBias),
		(*C.edge_out)(unsafe.Pointer(&out[start])))
	return out[:start+int(k)]
}
