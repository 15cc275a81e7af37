package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Canny's edges of an 8-bit grey or BGR image as OpenCV 4.6's cv::Canny
// gives them (aperture 3, L1 gradient), to the bit. OpenCV's colour path
// is about eight times its grey one (11.5 against 1.4 ms at 640x360 on one
// core), and neither is vectorised for the whole of its work; the
// algorithm is the same: each pixel takes the Sobel gradient of the
// channel whose |dx|+|dy| is largest (the first of equals), keeps it where
// it is a maximum across the gradient's direction (one of four, tested in
// fixed point as OpenCV does), and the kept pixels above low join the
// edges where they connect, through kept pixels, to one above high.

// canny_rows splits three rows of BGR into each channel's vertical
// smoothing (1 2 1) and difference (-1 0 1), a plane each.
static inline __attribute__((always_inline)) void canny_rows(const uint8_t *restrict up, const uint8_t *restrict mid, const uint8_t *restrict dn, int w,
                       int16_t *restrict s0, int16_t *restrict s1, int16_t *restrict s2,
                       int16_t *restrict d0, int16_t *restrict d1, int16_t *restrict d2) {
	for (int x = 0; x < w; x++) {
		const int i = 3 * x;
		s0[x] = (int16_t)(up[i] + 2 * mid[i] + dn[i]);
		s1[x] = (int16_t)(up[i + 1] + 2 * mid[i + 1] + dn[i + 1]);
		s2[x] = (int16_t)(up[i + 2] + 2 * mid[i + 2] + dn[i + 2]);
		d0[x] = (int16_t)(dn[i] - up[i]);
		d1[x] = (int16_t)(dn[i + 1] - up[i + 1]);
		d2[x] = (int16_t)(dn[i + 2] - up[i + 2]);
	}
}

// canny_pad copies each of n planes' (w + 2 apart) end pixels into the
// places either side: the border replicated.
static inline __attribute__((always_inline)) void canny_pad(int16_t *planes, int n, int w) {
	for (int k = 0; k < n; k++) {
		int16_t *p = planes + k * (w + 2) + 1;
		p[-1] = p[0];
		p[w] = p[w - 1];
	}
}

// canny_grad fills row y's magnitudes (mag[0..w-1]) and the chosen
// channel's gradients, Sobel 3x3 with the border replicated. Sobel is
// separable: the rows' smoothing and difference are taken first, a plane
// a channel with one pixel's copy padding either end (the replicated
// border), then the columns' and each pixel's largest channel, all of
// them loops the compiler turns into vectors. planes holds 6 * (w + 2)
// int16s.
static inline __attribute__((always_inline)) void canny_grad(const uint8_t *restrict src, int w, int h, int y, int16_t *restrict planes,
                       int16_t *restrict mag, int16_t *restrict dx, int16_t *restrict dy) {
	const size_t stride = (size_t)w * 3;
	const uint8_t *restrict up = src + (size_t)(y > 0 ? y - 1 : 0) * stride;
	const uint8_t *restrict mid = src + (size_t)y * stride;
	const uint8_t *restrict dn = src + (size_t)(y < h - 1 ? y + 1 : h - 1) * stride;
	const int pw = w + 2;
	int16_t *s0 = planes + 1, *s1 = s0 + pw, *s2 = s1 + pw;
	int16_t *d0 = s2 + pw, *d1 = d0 + pw, *d2 = d1 + pw;
	canny_rows(up, mid, dn, w, s0, s1, s2, d0, d1, d2);
	canny_pad(planes, 6, w);
	// Each channel's gradient written out: a shared helper with
	// out-parameters made this loop and the grey one a tenth slower.
	for (int x = 0; x < w; x++) {
		int16_t a = (int16_t)(s0[x + 1] - s0[x - 1]);
		int16_t b = (int16_t)(d0[x - 1] + 2 * d0[x] + d0[x + 1]);
		int16_t m = (int16_t)((a < 0 ? -a : a) + (b < 0 ? -b : b));
		const int16_t a1 = (int16_t)(s1[x + 1] - s1[x - 1]);
		const int16_t b1 = (int16_t)(d1[x - 1] + 2 * d1[x] + d1[x + 1]);
		const int16_t m1 = (int16_t)((a1 < 0 ? -a1 : a1) + (b1 < 0 ? -b1 : b1));
		const int16_t a2 = (int16_t)(s2[x + 1] - s2[x - 1]);
		const int16_t b2 = (int16_t)(d2[x - 1] + 2 * d2[x] + d2[x + 1]);
		const int16_t m2 = (int16_t)((a2 < 0 ? -a2 : a2) + (b2 < 0 ? -b2 : b2));
		// The first of equal channels, as OpenCV takes it.
		a = m1 > m ? a1 : a;
		b = m1 > m ? b1 : b;
		m = m1 > m ? m1 : m;
		a = m2 > m ? a2 : a;
		b = m2 > m ? b2 : b;
		m = m2 > m ? m2 : m;
		mag[x] = m;
		dx[x] = a;
		dy[x] = b;
	}
}

// canny_rows_grey is canny_rows for one channel.
static inline __attribute__((always_inline)) void canny_rows_grey(const uint8_t *restrict up, const uint8_t *restrict mid,
                       const uint8_t *restrict dn, int w, int16_t *restrict s, int16_t *restrict d) {
	for (int x = 0; x < w; x++) {
		s[x] = (int16_t)(up[x] + 2 * mid[x] + dn[x]);
		d[x] = (int16_t)(dn[x] - up[x]);
	}
}

// canny_grad_grey is canny_grad for one channel: the pixel's own
// gradient. planes holds 2 * (w + 2) int16s.
static inline __attribute__((always_inline)) void canny_grad_grey(const uint8_t *restrict src, int w, int h, int y,
                       int16_t *restrict planes, int16_t *restrict mag, int16_t *restrict dx, int16_t *restrict dy) {
	const uint8_t *restrict up = src + (size_t)(y > 0 ? y - 1 : 0) * w;
	const uint8_t *restrict mid = src + (size_t)y * w;
	const uint8_t *restrict dn = src + (size_t)(y < h - 1 ? y + 1 : h - 1) * w;
	int16_t *restrict s = planes + 1, *restrict d = planes + w + 3;
	canny_rows_grey(up, mid, dn, w, s, d);
	canny_pad(planes, 2, w);
	for (int x = 0; x < w; x++) {
		const int16_t a = (int16_t)(s[x + 1] - s[x - 1]);
		const int16_t b = (int16_t)(d[x - 1] + 2 * d[x] + d[x + 1]);
		mag[x] = (int16_t)((a < 0 ? -a : a) + (b < 0 ? -b : b));
		dx[x] = a;
		dy[x] = b;
	}
}

// canny_row_grad is canny_grad or canny_grad_grey by the channels cn.
static inline __attribute__((always_inline)) void canny_row_grad(const uint8_t *src, int cn, int w, int h, int y,
                       int16_t *planes, int16_t *mag, int16_t *dx, int16_t *dy) {
	if (cn == 1) {
		canny_grad_grey(src, w, h, y, planes, mag, dx, dy);
	} else {
		canny_grad(src, w, h, y, planes, mag, dx, dy);
	}
}

// canny_nms marks row[0..w-1] of the map: 1 where a pixel is not a
// maximum across its gradient (or not above low), else 2 above high and 0
// below. ma, mp and mn are the row's, the previous and the next row's
// magnitudes (one nought either end); gx, gy the row's gradients. Each
// pixel takes every test and keeps the one its direction picks, so that
// the loop is made into vectors.
static inline __attribute__((always_inline)) void canny_nms(
	const int16_t *restrict ma, const int16_t *restrict mp, const int16_t *restrict mn,
	const int16_t *restrict gx, const int16_t *restrict gy, int w, int low, int high, uint8_t *restrict row) {
	// tan 22.5 degrees in 15-bit fixed point, as OpenCV's CANNY_SHIFT.
	const int tg22 = (int)(0.4142135623730950488016887242097 * (1 << 15) + 0.5);
	for (int x = 0; x < w; x++) {
		const int m = ma[x], xs = gx[x], ys = gy[x];
		const int ax = xs < 0 ? -xs : xs;
		const int ay = (ys < 0 ? -ys : ys) << 15;
		const int tx = ax * tg22;
		// Bitwise, not short-circuit, tests: no branches in the loop.
		const int across = (m > ma[x - 1]) & (m >= ma[x + 1]);
		const int down = (m > mp[x]) & (m >= mn[x]);
		// The diagonal the gradient's signs pick: down-right where they
		// agree, down-left where they differ.
		const int agree = (m > mp[x - 1]) & (m > mn[x + 1]);
		const int differ = (m > mp[x + 1]) & (m > mn[x - 1]);
		const int opposed = (xs ^ ys) < 0;
		const int diag = (opposed & differ) | (!opposed & agree);
		const int flat = ay < tx, steep = ay > tx + (ax << 16);
		const int kept = (m > low) & ((flat & across) | (!flat & steep & down) | (!flat & !steep & diag));
		row[x] = (uint8_t)(!kept + 2 * (kept & (m > high)));
	}
}

// canny_run writes src's (w x h, continuous, cn channels: 1 grey or 3
// BGR) edges to out (w x h, 255 on an edge, else 0). rows holds 16 *
// (w + 2) int16s; map (w + 2) * (h + 2) bytes; stack w * h ints.
__attribute__((target_clones("avx2", "default")))
static void canny_run(const uint8_t *src, int cn, int w, int h, int low, int high,
                      uint8_t *out, int16_t *rows, uint8_t *map, int32_t *stack) {
	const int mw = w + 2;
	// Three rows' magnitudes, a row of noughts, three rows' gradients and
	// canny_grad's planes.
	int16_t *mags[3], *dxs[3], *dys[3], *zero = rows + 3 * mw, *planes = rows + 10 * mw;
	for (int i = 0; i < 3; i++) {
		mags[i] = rows + i * mw + 1; // one nought either side
		mags[i][-1] = mags[i][w] = 0;
		dxs[i] = rows + (4 + 2 * i) * mw;
		dys[i] = rows + (5 + 2 * i) * mw;
	}
	memset(zero, 0, sizeof(int16_t) * mw);
	// The map: 1 not an edge (and the border), 0 a candidate, 2 an edge.
	memset(map, 1, (size_t)mw);
	memset(map + (size_t)(h + 1) * mw, 1, (size_t)mw);
	int top = 0;
	canny_row_grad(src, cn, w, h, 0, planes, mags[0], dxs[0], dys[0]);
	for (int y = 0; y < h; y++) {
		const int a = y % 3, n = (y + 1) % 3;
		const int16_t *mp = y > 0 ? mags[(y + 2) % 3] : zero + 1;
		const int16_t *ma = mags[a], *mn;
		if (y + 1 < h) {
			canny_row_grad(src, cn, w, h, y + 1, planes, mags[n], dxs[n], dys[n]);
			mn = mags[n];
		} else {
			mn = zero + 1;
		}
		const int16_t *gx = dxs[a], *gy = dys[a];
		uint8_t *row = map + (size_t)(y + 1) * mw + 1;
		row[-1] = row[w] = 1;
		canny_nms(ma, mp, mn, gx, gy, w, low, high, row);
		for (int x = 0; x < w; x++) {
			if (row[x] == 2) stack[top++] = (int32_t)((y + 1) * mw + x + 1);
		}
	}
	// Hysteresis: the candidates joined to an edge become edges.
	const int off[8] = {-1, 1, -mw - 1, -mw, -mw + 1, mw - 1, mw, mw + 1};
	while (top > 0) {
		const int32_t p = stack[--top];
		for (int k = 0; k < 8; k++) {
			const int32_t q = p + off[k];
			if (map[q] == 0) {
				map[q] = 2;
				stack[top++] = q;
			}
		}
	}
	for (int y = 0; y < h; y++) {
		const uint8_t *row = map + (size_t)(y + 1) * mw + 1;
		uint8_t *o = out + (size_t)y * w;
		for (int x = 0; x < w; x++) o[x] = row[x] == 2 ? 255 : 0;
	}
}
*/
import "C"

import (
	"unsafe"

	"gocv.io/x/gocv"
)

// useOwnCanny takes the reader's Canny edges from canny_run rather than
// OpenCV (the same edges; TestSwitchCost -switch owncanny times it).
var useOwnCanny = true

// cannyScratch is canny's working memory, kept between frames.
type cannyScratch struct {
	rows  []int16
	edges []uint8
	stack []int32
}

// canny is gocv.Canny(src, dst, low, high) for a continuous 8-bit grey
// or BGR src, to the bit (TestCannyMatchesOpenCV), several times faster
// (BenchmarkCanny); any other src goes to OpenCV. The kernel is integer
// arithmetic only, so its vector and scalar builds give the same edges.
func (s *cannyScratch) canny(src gocv.Mat, dst *gocv.Mat, low, high int) {
	w, h := src.Cols(), src.Rows()
	cn := src.Channels()
	in, err := src.DataPtrUint8()
	if !useOwnCanny || src.Type() != gocv.MatTypeCV8UC3 && src.Type() != gocv.MatTypeCV8U || !src.IsContinuous() || err != nil ||
		w < 1 || h < 1 || len(in) < cn*w*h || low > high {
		gocv.Canny(src, dst, float32(low), float32(high))
		return
	}
	if dst.Cols() != w || dst.Rows() != h || dst.Type() != gocv.MatTypeCV8U || !dst.IsContinuous() {
		dst.Close()
		*dst = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	}
	out, err := dst.DataPtrUint8()
	if err != nil || len(out) < w*h {
		gocv.Canny(src, dst, float32(low), float32(high))
		return
	}
	mw := w + 2
	if len(s.rows) < 16*mw {
		s.rows = make([]int16, 16*mw)
	}
	if len(s.edges) < mw*(h+2) {
		s.edges = make([]uint8, mw*(h+2))
	}
	if len(s.stack) < w*h {
		s.stack = make([]int32, w*h)
	}
	C.canny_run((*C.uint8_t)(unsafe.Pointer(&in[0])), C.int(cn), C.int(w), C.int(h), C.int(low), C.int(high),
		(*C.uint8_t)(unsafe.Pointer(&out[0])), (*C.int16_t)(unsafe.Pointer(&s.rows[0])),
		(*C.uint8_t)(unsafe.Pointer(&s.edges[0])), (*C.int32_t)(unsafe.Pointer(&s.stack[0])))
}
