package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>

// A pixel's floats in the colour model's interleaved planes (llStride).
enum { ll_stride = 8 };

// colour_params are compute's per-frame constants (see colourModel.compute).
typedef struct {
	double board[3], is[3], block[3], ib[3];
	double gBoard, lBg, gChroma, gTop, lTop, gSide, lSide;
	double shadowSD, sideSpan;
	int noBoard, hasBlock, w, binsL, binsC;
	int x0, y0, x1, y1;
} colour_params;

static double log_add_exp(double a, double b, const double *t, int n) {
	if (a < b) {
		double s = a;
		a = b;
		b = s;
	}
	double d = (a - b) * 16;
	if (!(d < (double)(n - 1))) return a; // NaN too: never an index
	int i = (int)d;
	double f = d - (double)i;
	return a + t[i] * (1 - f) + t[i + 1] * f;
}

static int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

// A pixel's seven values depend on its colour alone, and a frame's board
// repeats its colours (two pixels in three to three in four found in a memo of
// the colours last seen, direct-mapped): memo (colour_memo_size entries)
// keeps each slot's colour and values, and a pixel whose colour is in its
// slot copies them instead of computing them again.
enum { colour_memo_bits = 14, colour_memo_size = 1 << colour_memo_bits };
typedef struct {
	uint32_t key; // the colour (b, g, r bytes) plus one; 0: empty
	float v[7];
} colour_memo;

// colour_px computes pixel o's seven values into v.
static inline void colour_px(const colour_params *pp, const uint8_t *bgr, long o, const double *logSum,
		const double *bgHist, const float *obj, int nBins, const double *l1p, int nl1p, float *v) {
	const colour_params p = *pp;
	double r = bgr[3 * o + 2], g = bgr[3 * o + 1], b = bgr[3 * o];
	double s = r + g + b + 24;
	double l = logSum[(int)(r + g + b)];
	double a = (r - g) / s, bb = ((r + g) / 2 - b) / s;
	l -= p.board[0];
	int il = clampi((int)((l + 2) / 3 * p.binsL), p.binsL - 1);
	int ia = clampi((int)((a + 0.4) / 0.8 * p.binsC), p.binsC - 1);
	int ib = clampi((int)((bb + 0.4) / 0.8 * p.binsC), p.binsC - 1);
	int k = (il * p.binsC + ia) * p.binsC + ib;
	double zl = l * p.is[0];
	if (l < 0) zl = l / p.shadowSD;
	double za = (a - p.board[1]) * p.is[1];
	double zb = (bb - p.board[2]) * p.is[2];
	if (p.noBoard) {
		v[0] = (float)bgHist[k];
	} else {
		double gl = -0.5 * (zl * zl + za * za + zb * zb) + p.gBoard;
		v[0] = (float)log_add_exp(gl, bgHist[k] + p.lBg, l1p, nl1p);
	}
	for (int c = 0; c < 5; c++) v[1 + c] = obj[c * nBins + k];
	v[6] = obj[k];
	if (p.hasBlock) {
		double dl = l + p.board[0] - p.block[0];
		double zl2 = dl * p.ib[0];
		if (dl < 0) zl2 = dl / p.shadowSD;
		double za2 = (a - p.block[1]) * p.ib[1];
		double zb2 = (bb - p.block[2]) * p.ib[2];
		double gc = -0.5 * (za2 * za2 + zb2 * zb2) + p.gChroma;
		double learned = obj[k];
		v[6] = (float)log_add_exp(gc - 0.5 * zl2 * zl2 + p.gTop, learned + p.lTop, l1p, nl1p);
		if (dl > -p.sideSpan && dl < 0.3)
			v[1] = (float)log_add_exp(gc + p.gSide, learned + p.lSide, l1p, nl1p);
	}
}

// colour_ll fills the seven label planes over the rectangle, pixel by
// pixel with the same operations in the same order as the Go loop it
// replaces, so the planes are the same to the last bit.
static void colour_ll(colour_params p, const uint8_t *bgr, const double *logSum,
		const double *bgHist, const float *obj, int nBins, const double *l1p, int nl1p,
		float *ll, colour_memo *memo) {
	for (int i = 0; i < colour_memo_size; i++) memo[i].key = 0;
	for (int y = p.y0; y < p.y1; y++) {
		for (int x = p.x0; x < p.x1; x++) {
			long o = (long)y * p.w + x;
			uint32_t key = ((uint32_t)bgr[3 * o] | (uint32_t)bgr[3 * o + 1] << 8 | (uint32_t)bgr[3 * o + 2] << 16) + 1;
			colour_memo *slot = &memo[(key * 2654435761u) >> (32 - colour_memo_bits)];
			float *v = ll + o * ll_stride;
			if (slot->key == key) {
				for (int i = 0; i < 7; i++) v[i] = slot->v[i];
				continue;
			}
			colour_px(&p, bgr, o, logSum, bgHist, obj, nBins, l1p, nl1p, v);
			slot->key = key;
			for (int i = 0; i < 7; i++) slot->v[i] = v[i];
		}
	}
}

// colour_ll_avx512 is colour_ll eight pixels at a time, with no memo: a
// pixel's seven values computed in AVX-512 cost about what the memo's
// look-up does in the scalar loop. Each lane runs the scalar loop's
// operations in its order (no fused multiply-adds: the attribute keeps
// the compiler from contracting them), so the planes are the same to the
// last bit. The last pixels of a row, fewer than eight, go to the scalar
// loop's arithmetic (colour_px).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>
#define COLOUR_AVX512 1

// lae8 is log_add_exp on eight lanes.
__attribute__((target("avx512f"), optimize("fp-contract=off")))
static inline __m512d lae8(__m512d a, __m512d b, const double *t, int n) {
	__mmask8 sw = _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ);
	__m512d hi = _mm512_mask_blend_pd(sw, a, b), lo = _mm512_mask_blend_pd(sw, b, a);
	__m512d d = _mm512_mul_pd(_mm512_sub_pd(hi, lo), _mm512_set1_pd(16));
	__mmask8 in = _mm512_cmp_pd_mask(d, _mm512_set1_pd((double)(n - 1)), _CMP_LT_OQ);
	__m256i i = _mm512_cvttpd_epi32(d);
	__m512d f = _mm512_sub_pd(d, _mm512_cvtepi32_pd(i));
	__m512d t0 = _mm512_mask_i32gather_pd(hi, in, i, t, 8);
	__m512d t1 = _mm512_mask_i32gather_pd(hi, in, _mm256_add_epi32(i, _mm256_set1_epi32(1)), t, 8);
	__m512d one = _mm512_set1_pd(1);
	__m512d v = _mm512_add_pd(_mm512_add_pd(hi, _mm512_mul_pd(t0, _mm512_sub_pd(one, f))), _mm512_mul_pd(t1, f));
	return _mm512_mask_blend_pd(in, hi, v);
}

__attribute__((target("avx512f"), optimize("fp-contract=off")))
static void colour_ll_avx512(colour_params p, const uint8_t *bgr, const double *logSum,
		const double *bgHist, const float *obj, int nBins, const double *l1p, int nl1p, float *ll) {
	const __m512d board0 = _mm512_set1_pd(p.board[0]), board1 = _mm512_set1_pd(p.board[1]), board2 = _mm512_set1_pd(p.board[2]);
	const __m512d is0 = _mm512_set1_pd(p.is[0]), is1 = _mm512_set1_pd(p.is[1]), is2 = _mm512_set1_pd(p.is[2]);
	const __m512d block0 = _mm512_set1_pd(p.block[0]), block1 = _mm512_set1_pd(p.block[1]), block2 = _mm512_set1_pd(p.block[2]);
	const __m512d ib0 = _mm512_set1_pd(p.ib[0]), ib1 = _mm512_set1_pd(p.ib[1]), ib2 = _mm512_set1_pd(p.ib[2]);
	const __m512d shadow = _mm512_set1_pd(p.shadowSD), zero = _mm512_setzero_pd();
	const __m512d half = _mm512_set1_pd(0.5), mhalf = _mm512_set1_pd(-0.5);
	const __m512d c2 = _mm512_set1_pd(2), c3 = _mm512_set1_pd(3), c04 = _mm512_set1_pd(0.4), c08 = _mm512_set1_pd(0.8), c24 = _mm512_set1_pd(24);
	const __m512d bL = _mm512_set1_pd((double)p.binsL), bC = _mm512_set1_pd((double)p.binsC);
	const __m256i zi = _mm256_setzero_si256(), hiL = _mm256_set1_epi32(p.binsL - 1), hiC = _mm256_set1_epi32(p.binsC - 1);
	const __m256i nC = _mm256_set1_epi32(p.binsC);
	const __m512d lSideLo = _mm512_set1_pd(-p.sideSpan), lSideHi = _mm512_set1_pd(0.3);
	for (int y = p.y0; y < p.y1; y++) {
		int x = p.x0;
		for (; x + 8 <= p.x1; x += 8) {
			long o0 = (long)y * p.w + x;
			int32_t ri[8], gi[8], bi[8], si[8];
			for (int j = 0; j < 8; j++) {
				const uint8_t *q = bgr + 3 * (o0 + j);
				bi[j] = q[0];
				gi[j] = q[1];
				ri[j] = q[2];
				si[j] = q[0] + q[1] + q[2];
			}
			__m512d r = _mm512_cvtepi32_pd(_mm256_loadu_si256((const __m256i *)ri));
			__m512d g = _mm512_cvtepi32_pd(_mm256_loadu_si256((const __m256i *)gi));
			__m512d b = _mm512_cvtepi32_pd(_mm256_loadu_si256((const __m256i *)bi));
			__m512d s = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(r, g), b), c24);
			__m512d l = _mm512_i32gather_pd(_mm256_loadu_si256((const __m256i *)si), logSum, 8);
			__m512d a = _mm512_div_pd(_mm512_sub_pd(r, g), s);
			__m512d bb = _mm512_div_pd(_mm512_sub_pd(_mm512_div_pd(_mm512_add_pd(r, g), c2), b), s);
			l = _mm512_sub_pd(l, board0);
			__m256i il = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_div_pd(_mm512_add_pd(l, c2), c3), bL));
			__m256i ia = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_div_pd(_mm512_add_pd(a, c04), c08), bC));
			__m256i ib = _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_div_pd(_mm512_add_pd(bb, c04), c08), bC));
			il = _mm256_min_epi32(_mm256_max_epi32(il, zi), hiL);
			ia = _mm256_min_epi32(_mm256_max_epi32(ia, zi), hiC);
			ib = _mm256_min_epi32(_mm256_max_epi32(ib, zi), hiC);
			__m256i k = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_add_epi32(_mm256_mullo_epi32(il, nC), ia), nC), ib);
			__mmask8 neg = _mm512_cmp_pd_mask(l, zero, _CMP_LT_OQ);
			__m512d zl = _mm512_mask_blend_pd(neg, _mm512_mul_pd(l, is0), _mm512_div_pd(l, shadow));
			__m512d za = _mm512_mul_pd(_mm512_sub_pd(a, board1), is1);
			__m512d zb = _mm512_mul_pd(_mm512_sub_pd(bb, board2), is2);
			__m512d bg = _mm512_i32gather_pd(k, bgHist, 8);
			__m512d v0 = bg;
			if (!p.noBoard) {
				__m512d q = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(zl, zl), _mm512_mul_pd(za, za)), _mm512_mul_pd(zb, zb));
				__m512d gl = _mm512_add_pd(_mm512_mul_pd(mhalf, q), _mm512_set1_pd(p.gBoard));
				v0 = lae8(gl, _mm512_add_pd(bg, _mm512_set1_pd(p.lBg)), l1p, nl1p);
			}
			__m256 out[7];
			out[0] = _mm512_cvtpd_ps(v0);
			for (int c = 0; c < 5; c++) out[1 + c] = _mm256_i32gather_ps(obj + (long)c * nBins, k, 4);
			out[6] = out[1];
			if (p.hasBlock) {
				__m512d dl = _mm512_sub_pd(_mm512_add_pd(l, board0), block0);
				__mmask8 dneg = _mm512_cmp_pd_mask(dl, zero, _CMP_LT_OQ);
				__m512d zl2 = _mm512_mask_blend_pd(dneg, _mm512_mul_pd(dl, ib0), _mm512_div_pd(dl, shadow));
				__m512d za2 = _mm512_mul_pd(_mm512_sub_pd(a, block1), ib1);
				__m512d zb2 = _mm512_mul_pd(_mm512_sub_pd(bb, block2), ib2);
				__m512d gc = _mm512_add_pd(_mm512_mul_pd(mhalf, _mm512_add_pd(_mm512_mul_pd(za2, za2), _mm512_mul_pd(zb2, zb2))), _mm512_set1_pd(p.gChroma));
				__m512d learned = _mm512_cvtps_pd(out[1]);
				__m512d top = _mm512_add_pd(_mm512_sub_pd(gc, _mm512_mul_pd(_mm512_mul_pd(half, zl2), zl2)), _mm512_set1_pd(p.gTop));
				out[6] = _mm512_cvtpd_ps(lae8(top, _mm512_add_pd(learned, _mm512_set1_pd(p.lTop)), l1p, nl1p));
				__mmask8 side = _mm512_cmp_pd_mask(dl, lSideLo, _CMP_GT_OQ) & _mm512_cmp_pd_mask(dl, lSideHi, _CMP_LT_OQ);
				if (side) {
					__m512d sv = lae8(_mm512_add_pd(gc, _mm512_set1_pd(p.gSide)), _mm512_add_pd(learned, _mm512_set1_pd(p.lSide)), l1p, nl1p);
					__m512 wide = _mm512_castps256_ps512(out[1]);
					out[1] = _mm512_castps512_ps256(_mm512_mask_mov_ps(wide, (__mmask16)side, _mm512_castps256_ps512(_mm512_cvtpd_ps(sv))));
				}
			}
			// The planes across the eight pixels, transposed to each
			// pixel's eight floats (the eighth, which no plane uses, stays
			// the nought it always is).
			__m256 z = _mm256_setzero_ps();
			__m256 t0 = _mm256_unpacklo_ps(out[0], out[1]), t1 = _mm256_unpackhi_ps(out[0], out[1]);
			__m256 t2 = _mm256_unpacklo_ps(out[2], out[3]), t3 = _mm256_unpackhi_ps(out[2], out[3]);
			__m256 t4 = _mm256_unpacklo_ps(out[4], out[5]), t5 = _mm256_unpackhi_ps(out[4], out[5]);
			__m256 t6 = _mm256_unpacklo_ps(out[6], z), t7 = _mm256_unpackhi_ps(out[6], z);
			__m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
			__m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
			__m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
			__m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
			float *v = ll + o0 * ll_stride;
			_mm256_storeu_ps(v + 0 * ll_stride, _mm256_permute2f128_ps(u0, u4, 0x20));
			_mm256_storeu_ps(v + 1 * ll_stride, _mm256_permute2f128_ps(u1, u5, 0x20));
			_mm256_storeu_ps(v + 2 * ll_stride, _mm256_permute2f128_ps(u2, u6, 0x20));
			_mm256_storeu_ps(v + 3 * ll_stride, _mm256_permute2f128_ps(u3, u7, 0x20));
			_mm256_storeu_ps(v + 4 * ll_stride, _mm256_permute2f128_ps(u0, u4, 0x31));
			_mm256_storeu_ps(v + 5 * ll_stride, _mm256_permute2f128_ps(u1, u5, 0x31));
			_mm256_storeu_ps(v + 6 * ll_stride, _mm256_permute2f128_ps(u2, u6, 0x31));
			_mm256_storeu_ps(v + 7 * ll_stride, _mm256_permute2f128_ps(u3, u7, 0x31));
		}
		for (; x < p.x1; x++) {
			long o = (long)y * p.w + x;
			colour_px(&p, bgr, o, logSum, bgHist, obj, nBins, l1p, nl1p, ll + o * ll_stride);
		}
	}
}
#endif

// colour_force_scalar makes colour_run take the scalar loop whatever the
// machine (the tests compare both paths with Go).
static int colour_force_scalar;

static void set_colour_force_scalar(int v) { colour_force_scalar = v; }

// colour_run fills the planes with the AVX-512 loop where the machine has
// it, else the scalar loop and its memo.
static void colour_run(colour_params p, const uint8_t *bgr, const double *logSum,
		const double *bgHist, const float *obj, int nBins, const double *l1p, int nl1p,
		float *ll, colour_memo *memo) {
#ifdef COLOUR_AVX512
	if (!colour_force_scalar && __builtin_cpu_supports("avx512f")) {
		colour_ll_avx512(p, bgr, logSum, bgHist, obj, nBins, l1p, nl1p, ll);
		return;
	}
#endif
	colour_ll(p, bgr, logSum, bgHist, obj, nBins, l1p, nl1p, ll, memo);
}
*/
import "C"

import (
	"image"
	"unsafe"
)

var _ = [1]struct{}{}[llStride-C.ll_stride]

// The kernel's plane order: board, then block, dome, blue, light, dark
// (the learned histograms' order), then the top.
var _ = [1]struct{}{}[labBlock-1]
var _ = [1]struct{}{}[labTop-6]
var _ = [1]struct{}{}[nLab-6]

// colourKernelArgs are compute's constants for the C loop.
type colourKernelArgs struct {
	is, ib                                         [3]float64
	gBoard, lBg, gChroma, gTop, lTop, gSide, lSide float64
}

// computeC is compute's pixel loop over rect, in C: it took about a sixth
// of a cell reading's time in Go.
func (m *colourModel) computeC(px *pixels, rect image.Rectangle, k colourKernelArgs, obj *[nLab - 1][nBins]float32) bool {
	n := px.w * px.h
	if rect.Empty() || !rect.In(image.Rect(0, 0, px.w, px.h)) || len(px.bgr) < 3*n || len(m.bgHist) < nBins {
		return false
	}
	if len(m.ll) < n*llStride {
		return false
	}
	var p C.colour_params
	for i := 0; i < 3; i++ {
		p.board[i], p.is[i], p.block[i], p.ib[i] = C.double(m.board[i]), C.double(k.is[i]), C.double(m.block[i]), C.double(k.ib[i])
	}
	p.gBoard, p.lBg, p.gChroma, p.gTop = C.double(k.gBoard), C.double(k.lBg), C.double(k.gChroma), C.double(k.gTop)
	p.lTop, p.gSide, p.lSide = C.double(k.lTop), C.double(k.gSide), C.double(k.lSide)
	p.shadowSD, p.sideSpan = shadowSD, sideSpan
	if m.noBoard {
		p.noBoard = 1
	}
	if m.hasBlock {
		p.hasBlock = 1
	}
	p.w, p.binsL, p.binsC = C.int(px.w), binsL, binsC
	p.x0, p.y0, p.x1, p.y1 = C.int(rect.Min.X), C.int(rect.Min.Y), C.int(rect.Max.X), C.int(rect.Max.Y)
	C.colour_run(p, (*C.uint8_t)(&px.bgr[0]), (*C.double)(&logSum[0]), (*C.double)(&m.bgHist[0]),
		(*C.float)(unsafe.Pointer(&obj[0][0])), nBins, (*C.double)(&log1pExpTable[0]), C.int(len(log1pExpTable)),
		plane(m.ll), m.memo())
	return true
}

// setColourForceScalar makes computeC take the scalar loop (with its
// memo) even where the machine has AVX-512, for the tests.
func setColourForceScalar(on bool) {
	v := C.int(0)
	if on {
		v = 1
	}
	C.set_colour_force_scalar(v)
}

// colourMemoSlot is the C colour_memo's layout, so that Go owns the memo.
type colourMemoSlot struct {
	key uint32
	v   [7]float32
}

var _ = [1]struct{}{}[unsafe.Sizeof(colourMemoSlot{})-C.sizeof_colour_memo]

// memo gives the kernel's colour memo, made on first use: 512 KB a model.
func (m *colourModel) memo() *C.colour_memo {
	if m.colourMemo == nil {
		m.colourMemo = make([]colourMemoSlot, C.colour_memo_size)
	}
	return (*C.colour_memo)(unsafe.Pointer(&m.colourMemo[0]))
}
