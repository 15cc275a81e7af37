package vision

/*
#cgo CFLAGS: -O3
#cgo LDFLAGS: -lm
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The standard Hough transform of a binary image, giving the same lines in
// the same order as OpenCV 4.6's cv::HoughLines (rho step 1, theta step
// pi/180) to the bit, two to three times faster: the votes are cast an
// angle at a time over the list of set pixels (the rows being counted stay
// in the first-level cache), the peaks are scanned row by row, and they
// are ordered by a counting sort on their votes (the same total order as
// OpenCV's sort: most votes first, then the lower accumulator index). The
// rounding is to nearest even, as OpenCV's cvRound, and no product is
// fused into an addition: like OpenCV's, this code is built for the
// x86-64 baseline, which has no fused multiply-add (no target_clones
// here), and elsewhere GCC is told not to fuse.

// round_even rounds v to the nearest integer, ties to even.
static inline int round_even(float v) {
#if defined(__SSE2__)
	return _mm_cvtss_si32(_mm_set_ss(v));
#else
	return (int)lrintf(v);
#endif
}

// hough_tables fills the sines and cosines of the numangle angles, added
// up in float from 0 a step theta at a time, each taken in double.
static void hough_tables(float theta, int numangle, float *tabCos, float *tabSin) {
	float ang = 0;
	for (int n = 0; n < numangle; ang += theta, n++) {
		tabSin[n] = (float)sin((double)ang);
		tabCos[n] = (float)cos((double)ang);
	}
}

// hough_accumulate clears accum ((numangle+2) x (numrho+2)) and casts every
// set pixel's votes; xs and ys are room for w*h coordinates. It gives the
// number of set pixels.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("fp-contract=off")))
#endif
static int hough_accumulate(const uint8_t *img, int w, int h, int step,
		const float *tabCos, const float *tabSin, int numangle, int numrho,
		int32_t *accum, int32_t *sub, float *xs, float *ys) {
	int n = 0;
	for (int i = 0; i < h; i++) {
		const uint8_t *row = img + (long)i * step;
		for (int j = 0; j < w; j++) {
			if (row[j]) {
				xs[n] = (float)j;
				ys[n] = (float)i;
				n++;
			}
		}
	}
	memset(accum, 0, sizeof(int32_t) * (long)(numangle + 2) * (numrho + 2));
	// Each of four lanes counts into its own row (sub, 4 x numrho, zero on
	// entry and on return): neighbouring pixels often vote for the same
	// cell, and one row would make each increment wait for the last.
	int off = (numrho - 1) / 2;
	int32_t *s0 = sub + off, *s1 = s0 + numrho, *s2 = s1 + numrho, *s3 = s2 + numrho;
	for (int a = 0; a < numangle; a++) {
		int k = 0;
#if defined(__SSE2__)
		__m128 c = _mm_set1_ps(tabCos[a]), s = _mm_set1_ps(tabSin[a]);
		for (; k + 4 <= n; k += 4) {
			__m128 v = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(xs + k), c), _mm_mul_ps(_mm_loadu_ps(ys + k), s));
			int32_t r[4];
			_mm_storeu_si128((__m128i *)r, _mm_cvtps_epi32(v));
			s0[r[0]]++;
			s1[r[1]]++;
			s2[r[2]]++;
			s3[r[3]]++;
		}
#endif
		for (; k < n; k++) {
			float v = xs[k] * tabCos[a] + ys[k] * tabSin[a];
			s0[round_even(v)]++;
		}
		int32_t *acc = accum + (long)(a + 1) * (numrho + 2) + 1;
		for (int r = 0; r < numrho; r++) {
			acc[r] = sub[r] + sub[numrho + r] + sub[2 * numrho + r] + sub[3 * numrho + r];
			sub[r] = sub[numrho + r] = sub[2 * numrho + r] = sub[3 * numrho + r] = 0;
		}
	}
	return n;
}

// hough_peaks lists, in increasing accumulator index, the cells over
// threshold that beat their left and upper neighbours and at least match
// their right and lower ones (OpenCV's test), and gives their number and,
// in maxv, their most votes.
static int hough_peaks(const int32_t *accum, int numangle, int numrho, int threshold,
		int32_t *cand, int32_t *maxv) {
	int nc = 0, m = 0, stride = numrho + 2;
	for (int a = 0; a < numangle; a++) {
		const int32_t *row = accum + (long)(a + 1) * stride + 1;
		for (int r = 0; r < numrho; r++) {
			int32_t v = row[r];
			if (v > threshold && v > row[r - 1] && v >= row[r + 1] &&
					v > row[r - stride] && v >= row[r + stride]) {
				cand[nc++] = (int32_t)((a + 1) * stride + r + 1);
				if (v > m) m = v;
			}
		}
	}
	*maxv = m;
	return nc;
}

// hough_order writes the peaks as (rho, theta) pairs into out, most votes
// first and, among equal votes, in increasing index; hist is room for
// maxv+2 counts.
static void hough_order(const int32_t *accum, const int32_t *cand, int nc, int32_t *hist, int maxv,
		int numrho, float theta, int32_t *order, float *out) {
	memset(hist, 0, sizeof(int32_t) * (maxv + 2));
	for (int k = 0; k < nc; k++) hist[maxv - accum[cand[k]]]++;
	int32_t sum = 0;
	for (int v = 0; v <= maxv; v++) {
		int32_t c = hist[v];
		hist[v] = sum;
		sum += c;
	}
	for (int k = 0; k < nc; k++) order[hist[maxv - accum[cand[k]]]++] = cand[k];
	int stride = numrho + 2;
	for (int k = 0; k < nc; k++) {
		int idx = order[k];
		int a = idx / stride - 1;
		int r = idx - (a + 1) * stride - 1;
		out[2 * k] = r - (numrho - 1) * 0.5f;
		out[2 * k + 1] = 0.0f + a * theta;
	}
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"gocv.io/x/gocv"
)

// houghLines is the standard Hough transform at a pixel and a degree,
// reused across frames: lines gives what gocv.HoughLines(img, lines, 1,
// math.Pi/180, threshold) would, as (rho, theta) pairs.
type houghLines struct {
	w, h, numangle, numrho  int
	cos, sin                []float32
	accum, sub, cand, order []int32
	hist                    []int32
	xs, ys                  []float32
	out                     []float32
}

// houghTheta is the angle step, as OpenCV takes it (a float).
const houghTheta = float32(float64(math.Pi / 180))

// setup sizes the tables for a w x h image, as OpenCV's HoughLinesStandard
// does: its angles are added up in float from 0, each sine and cosine
// taken in double and rounded to float.
func (hl *houghLines) setup(w, h int) {
	if w == hl.w && h == hl.h {
		return
	}
	hl.w, hl.h = w, h
	hl.numangle = houghAngles(houghTheta)
	hl.numrho = (w+h)*2 + 1
	hl.cos = make([]float32, hl.numangle)
	hl.sin = make([]float32, hl.numangle)
	C.hough_tables(C.float(houghTheta), C.int(hl.numangle), (*C.float)(&hl.cos[0]), (*C.float)(&hl.sin[0]))
	hl.accum = make([]int32, (hl.numangle+2)*(hl.numrho+2))
	hl.sub = make([]int32, 4*hl.numrho)
	hl.xs = make([]float32, w*h)
	hl.ys = make([]float32, w*h)
	hl.cand = make([]int32, hl.numangle*hl.numrho)
}

// houghAngles is OpenCV 4.6's number of angles from 0 to pi at step theta:
// the last one is dropped when it would be pi itself, which is the line
// at angle 0 again.
func houghAngles(theta float32) int {
	t := float64(theta)
	n := int(math.Floor(math.Pi/t)) + 1
	if n > 1 && math.Abs(math.Pi-float64(n-1)*t) < t/2 {
		n--
	}
	return n
}

// lines gives the lines of the 8-bit one-channel img with more than
// threshold votes, best first, as (rho, theta) pairs; the slice is reused
// by the next call.
func (hl *houghLines) lines(img gocv.Mat, threshold int) ([]float32, error) {
	if img.Type() != gocv.MatTypeCV8UC1 || img.Empty() {
		return nil, fmt.Errorf("vision: Hough lines of a %v image (want 8-bit grey)", img.Type())
	}
	data, err := img.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("vision: Hough lines: %w", err)
	}
	w, h := img.Cols(), img.Rows()
	step := img.Step()
	if len(data) < (h-1)*step+w {
		return nil, fmt.Errorf("vision: Hough lines: image data too short")
	}
	hl.setup(w, h)
	C.hough_accumulate((*C.uint8_t)(unsafe.Pointer(&data[0])), C.int(w), C.int(h), C.int(step),
		(*C.float)(&hl.cos[0]), (*C.float)(&hl.sin[0]), C.int(hl.numangle), C.int(hl.numrho),
		(*C.int32_t)(&hl.accum[0]), (*C.int32_t)(&hl.sub[0]), (*C.float)(&hl.xs[0]), (*C.float)(&hl.ys[0]))
	var maxv C.int32_t
	nc := int(C.hough_peaks((*C.int32_t)(&hl.accum[0]), C.int(hl.numangle), C.int(hl.numrho), C.int(threshold),
		(*C.int32_t)(&hl.cand[0]), &maxv))
	if nc == 0 {
		return hl.out[:0], nil
	}
	if len(hl.hist) < int(maxv)+2 {
		hl.hist = make([]int32, int(maxv)+2)
	}
	if len(hl.order) < nc {
		hl.order = make([]int32, nc)
	}
	if cap(hl.out) < 2*nc {
		hl.out = make([]float32, 2*nc)
	}
	hl.out = hl.out[:2*nc]
	C.hough_order((*C.int32_t)(&hl.accum[0]), (*C.int32_t)(&hl.cand[0]), C.int(nc), (*C.int32_t)(&hl.hist[0]), maxv,
		C.int(hl.numrho), C.float(houghTheta), (*C.int32_t)(&hl.order[0]), (*C.float)(&hl.out[0]))
	return hl.out, nil
}
