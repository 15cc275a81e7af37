package vision

/*
#cgo CFLAGS: -O3
#include <string.h>

// conv is a convolution (kh x kw kernel, stride, dilation, padding pad
// on every side) of one image in [C][H][W] into out [K][Ho][Wo], with the
// bias added and, if relu, negative outputs made zero. It copies the
// image once into pad, zero-bordered and channels last, plus slack for a
// tile's overreach (conv_pad_len), so that the inner loop runs along the
// channels with no bounds tests, and keeps a tile of 8 output pixels by
// one block of output channels in registers: each weight vector (wt: per
// block, [kh][kw][C][lanes], the block's channels beyond K zero) meets 8
// pixels. OpenCV 4.6's dnn first copies every window into a row, one
// float at a time, which took about a third of its time on the reader's
// networks.
//
// The copy goes 8 pixels of a row at a time, every channel of them (8
// lines written, each filled before the next 8), and zeroes only the
// border and the slack, rather than clearing all of it and writing a
// channel plane at a time (a store every C floats): the corner network's
// convolutions 2.73 -> 2.50 ms, alternating builds on one core.
//
// The block is 16 channels where the CPU has AVX-512, else 8 (AVX and FMA,
// or the baseline); conv_lanes says which, for the weights' packing.

typedef float v16 __attribute__((vector_size(64), aligned(4)));
typedef float v8 __attribute__((vector_size(32), aligned(4)));

typedef struct {
	int C, H, W, K, kh, kw, stride, dil, pad, relu, px;
} conv_shape;

static long conv_pad_len(conv_shape s) {
	return (long)(s.H + 2 * s.pad) * (s.W + 2 * s.pad) * s.C + (long)(8 * s.stride + 1) * s.C;
}

#define CONV_PREP                                                                             \
	int C = s.C, H = s.H, W = s.W, K = s.K, stride = s.stride, dil = s.dil, P = s.pad;         \
	int Hp = H + 2 * P, Wp = W + 2 * P;                                                       \
	int Ho = (Hp - dil * (s.kh - 1) - 1) / stride + 1, Wo = (Wp - dil * (s.kw - 1) - 1) / stride + 1; \
	{                                                                                         \
		long row = (long)Wp * C, all = conv_pad_len(s);                                       \
		memset(pad, 0, sizeof(float) * P * row);                                              \
		memset(pad + (long)(P + H) * row, 0, sizeof(float) * (all - (long)(P + H) * row));    \
		if (P > 0)                                                                            \
			for (int y = 0; y < H; y++) {                                                     \
				memset(pad + (long)(y + P) * row, 0, sizeof(float) * P * C);                  \
				memset(pad + (long)(y + P) * row + (long)(P + W) * C, 0, sizeof(float) * P * C); \
			}                                                                                 \
	}                                                                                         \
	for (int y = 0; y < H; y++) {                                                             \
		const float *src = in + (long)y * W;                                                  \
		float *dst = pad + ((long)(y + P) * Wp + P) * C;                                      \
		for (int x0 = 0; x0 < W; x0 += 8) {                                                   \
			int xn = W - x0 < 8 ? W - x0 : 8;                                                 \
			for (int c = 0; c < C; c++) {                                                     \
				const float *sc = src + (long)c * H * W + x0;                                 \
				float *dc = dst + (long)x0 * C + c;                                           \
				for (int t = 0; t < xn; t++) dc[(long)t * C] = sc[t];                         \
			}                                                                                 \
		}                                                                                     \
	}                                                                                         \
	int taps = s.kh * s.kw;

// CONV_STORE writes block b's accumulators acc (8 pixels from ox0 of row oy).
#define CONV_STORE(acc, b, LANES)                                                             \
	for (int k = 0; k < LANES && (b) * LANES + k < K; k++) {                                  \
		float *o = out + ((long)((b) * LANES + k) * Ho + oy) * Wo + ox0;                      \
		for (int t = 0; t < T; t++) o[t] = s.relu && acc[t][k] < 0 ? 0 : acc[t][k];           \
	}

// CONV_BLOCKS runs output blocks b (and b + 1 if TWO): with two, each
// pixel's value loaded meets two weight vectors (AVX-512 has the
// registers for 16 accumulators).
#define CONV_BLOCKS(VT, LANES, TWO)                                                           \
	{                                                                                         \
		const float *wb0 = wt + (long)b * taps * C * LANES, *wb1 = wb0 + (long)taps * C * LANES; \
		VT bv0 = *(const VT *)(bias + b * LANES), bv1 = bv0;                                  \
		if (TWO) bv1 = *(const VT *)(bias + (b + 1) * LANES);                                 \
		for (int oy = 0; oy < Ho; oy++)                                                       \
			for (int ox0 = 0; ox0 < Wo; ox0 += 8) {                                           \
				VT acc0[8], acc1[8];                                                          \
				for (int t = 0; t < 8; t++) acc0[t] = bv0, acc1[t] = bv1;                     \
				for (int ky = 0; ky < s.kh; ky++)                                             \
					for (int kx = 0; kx < s.kw; kx++) {                                       \
						long q = (long)(ky * s.kw + kx) * C * LANES;                          \
						const float *w0 = wb0 + q, *w1 = wb1 + q;                             \
						const float *row = pad + ((long)(oy * stride + ky * dil) * Wp + ox0 * stride + kx * dil) * C; \
						for (int c = 0; c < C; c++) {                                         \
							VT wv0 = *(const VT *)(w0 + c * LANES);                           \
							if (TWO) {                                                        \
								VT wv1 = *(const VT *)(w1 + c * LANES);                       \
								for (int t = 0; t < 8; t++) {                                 \
									float v = row[(long)t * stride * C + c];                  \
									acc0[t] += v * wv0;                                       \
									acc1[t] += v * wv1;                                       \
								}                                                             \
							} else                                                            \
								for (int t = 0; t < 8; t++) acc0[t] += row[(long)t * stride * C + c] * wv0; \
						}                                                                     \
					}                                                                         \
				int T = Wo - ox0 < 8 ? Wo - ox0 : 8;                                          \
				CONV_STORE(acc0, b, LANES)                                                    \
				if (TWO) {                                                                    \
					CONV_STORE(acc1, b + 1, LANES)                                            \
				}                                                                             \
			}                                                                                 \
	}

#define CONV_BODY(VT, LANES, PAIRS)                                                           \
	CONV_PREP                                                                                 \
	int nb = (K + LANES - 1) / LANES, b = 0;                                                  \
	if (PAIRS)                                                                                \
		for (; b + 1 < nb; b += 2) CONV_BLOCKS(VT, LANES, 1)                                  \
	for (; b < nb; b++) CONV_BLOCKS(VT, LANES, 0)

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("avx512f")))
static void conv_16(const float *in, conv_shape s, const float *wt, const float *bias, float *out, float *pad) {
	CONV_BODY(v16, 16, 1)
}

__attribute__((target("avx,fma")))
static void conv_8fma(const float *in, conv_shape s, const float *wt, const float *bias, float *out, float *pad) {
	CONV_BODY(v8, 8, 0)
}
#endif

static void conv_8(const float *in, conv_shape s, const float *wt, const float *bias, float *out, float *pad) {
	CONV_BODY(v8, 8, 0)
}

// conv_px16 is conv with the lanes along the output row instead of the
// output channels, for shapes (s.px, set by the Go side by pixelLanes:
// stride 1, rows of whole 16s, channels that blocks of 16 fit badly)
// where channel blocks of 16 would leave lanes idle (24 channels fill 32
// lanes, 12 fill 16). It copies the image zero-bordered, channels first,
// so that 16 neighbouring pixels of one channel are one load, and keeps a
// group of output channels (12 over a 32-pixel run, or 24 over 16 pixels)
// in registers, each weight broadcast from wt (per group,
// [kh][kw][C][group]). Each output adds the bias, then tap by tap and
// channel by channel, fused, as conv_16 does: the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PX_GROUP(KN, NP)                                                                      \
	for (int oy = 0; oy < Ho; oy++)                                                           \
		for (int ox0 = 0; ox0 < Wo; ox0 += 16 * NP) {                                         \
			v16 acc[NP][KN];                                                                  \
			for (int p = 0; p < NP; p++)                                                      \
				for (int k = 0; k < KN; k++) acc[p][k] = (v16){} + bias[k0 + k];              \
			for (int ky = 0; ky < s.kh; ky++)                                                 \
				for (int kx = 0; kx < s.kw; kx++) {                                           \
					const float *row = pad + (long)(oy + ky * dil) * Wp + ox0 + kx * dil;     \
					const float *w = wg + (long)(ky * s.kw + kx) * C * KN;                    \
					for (int c = 0; c < C; c++, row += plane, w += KN) {                      \
						v16 x[NP];                                                            \
						for (int p = 0; p < NP; p++) x[p] = *(const v16 *)(row + 16 * p);     \
						_Pragma("GCC unroll 24")                                              \
						for (int k = 0; k < KN; k++) {                                        \
							float wk = w[k];                                                  \
							for (int p = 0; p < NP; p++) acc[p][k] += x[p] * wk;              \
						}                                                                     \
					}                                                                         \
				}                                                                             \
			for (int p = 0; p < NP; p++)                                                      \
				for (int k = 0; k < KN; k++) {                                                \
					v16 v = acc[p][k];                                                        \
					if (s.relu)                                                               \
						for (int t = 0; t < 16; t++) v[t] = v[t] < 0 ? 0 : v[t];              \
					*(v16 *)(out + ((long)(k0 + k) * Ho + oy) * Wo + ox0 + 16 * p) = v;       \
				}                                                                             \
		}

__attribute__((target("avx512f")))
static void conv_px16(const float *in, conv_shape s, const float *wt, const float *bias, float *out, float *pad) {
	int C = s.C, H = s.H, W = s.W, K = s.K, dil = s.dil, P = s.pad;
	int Hp = H + 2 * P, Wp = W + 2 * P;
	int Ho = Hp - dil * (s.kh - 1), Wo = Wp - dil * (s.kw - 1);
	long plane = (long)Hp * Wp;
	for (int c = 0; c < C; c++) {
		float *dc = pad + c * plane;
		memset(dc, 0, sizeof(float) * P * Wp);
		memset(dc + (long)(P + H) * Wp, 0, sizeof(float) * P * Wp);
		for (int y = 0; y < H; y++) {
			float *d = dc + (long)(y + P) * Wp;
			memset(d, 0, sizeof(float) * P);
			memcpy(d + P, in + ((long)c * H + y) * W, sizeof(float) * W);
			memset(d + P + W, 0, sizeof(float) * P);
		}
	}
	long taps = (long)s.kh * s.kw;
	// Runs of 32 pixels where the row has them: each weight broadcast then
	// meets two pixel vectors (one a broadcast leaves the kernel waiting on
	// loads), 12 channels at a time; else 16 pixels, 24 channels.
	int pairs = Wo % 32 == 0, most = pairs ? 12 : 24;
	for (int k0 = 0; k0 < K;) {
		int kn = K - k0 >= most ? most : K - k0;
		const float *wg = wt + (long)k0 * taps * C;
		if (pairs)
			switch (kn) {
			case 12: PX_GROUP(12, 2) break;
			case 8: PX_GROUP(8, 2) break;
			default: PX_GROUP(4, 2) break;
			}
		else
			switch (kn) {
			case 24: PX_GROUP(24, 1) break;
			case 16: PX_GROUP(16, 1) break;
			case 12: PX_GROUP(12, 1) break;
			case 8: PX_GROUP(8, 1) break;
			default: PX_GROUP(4, 1) break;
			}
		k0 += kn;
	}
}
#endif

// gemm_t: out[r][j] = b[j] + sum_i x[r][i] wt[i][j] for rows of nin
// inputs and nout outputs, wt input-major, the outputs as lanes.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "fma", "default")))
#endif
static void gemm_t(const float *x, int rows, int nin, const float *wt, const float *b, int nout, float *out) {
	for (int r = 0; r < rows; r++) {
		float *o = out + (long)r * nout;
		for (int j = 0; j < nout; j++) o[j] = b[j];
		const float *xr = x + (long)r * nin;
		for (int i = 0; i < nin; i++) {
			float v = xr[i];
			const float *w = wt + (long)i * nout;
			for (int j = 0; j < nout; j++) o[j] += v * w[j];
		}
	}
}

// pool2 is a 2x2 pooling at stride 2 (the maximum, or the mean if !isMax)
// of planes images of h x w (even) into out.
static void pool2(const float *in, int planes, int h, int w, int isMax, float *out) {
	int ho = h / 2, wo = w / 2;
	for (int p = 0; p < planes; p++) {
		const float *src = in + (long)p * h * w;
		float *dst = out + (long)p * ho * wo;
		for (int y = 0; y < ho; y++) {
			const float *a = src + (long)2 * y * w, *b = a + w;
			float *o = dst + (long)y * wo;
			if (isMax)
				for (int x = 0; x < wo; x++) {
					float m0 = a[2 * x] > a[2 * x + 1] ? a[2 * x] : a[2 * x + 1];
					float m1 = b[2 * x] > b[2 * x + 1] ? b[2 * x] : b[2 * x + 1];
					o[x] = m0 > m1 ? m0 : m1;
				}
			else
				for (int x = 0; x < wo; x++) o[x] = (a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1]) / 4;
		}
	}
}

// with_constant is out = a op c, or c op a if !after, op 0..3 for add,
// subtract, multiply, divide: one IEEE operation an element, so every
// clone's lanes give the scalar loop's bits (Go's loop divides one float
// at a time; a network's input scaling, about 1 ms a frame).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void with_constant(const float *a, float c, int op, int after, float *out, long n) {
	switch (op * 2 + after) {
	case 0: case 1: for (long i = 0; i < n; i++) out[i] = a[i] + c; break;
	case 2: for (long i = 0; i < n; i++) out[i] = c - a[i]; break;
	case 3: for (long i = 0; i < n; i++) out[i] = a[i] - c; break;
	case 4: case 5: for (long i = 0; i < n; i++) out[i] = a[i] * c; break;
	case 6: for (long i = 0; i < n; i++) out[i] = c / a[i]; break;
	default: for (long i = 0; i < n; i++) out[i] = a[i] / c;
	}
}

static int conv_lanes(void) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	if (__builtin_cpu_supports("avx512f")) return 16;
#endif
	return 8;
}

static void conv(const float *in, conv_shape s, const float *wt, const float *bias, float *out, float *pad) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	if (s.px) {
		conv_px16(in, s, wt, bias, out, pad);
		return;
	}
	if (__builtin_cpu_supports("avx512f")) {
		conv_16(in, s, wt, bias, out, pad);
		return;
	}
	if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx")) {
		conv_8fma(in, s, wt, bias, out, pad);
		return;
	}
#endif
	conv_8(in, s, wt, bias, out, pad);
}
*/
import "C"

import "unsafe"

// convLanes is the C kernel's block of output channels on this CPU.
var convLanes = int(C.conv_lanes())

// convShape is a convolution's shape: the image (c x h x w), the output
// channels k, the kernel (kh x kw), its stride, dilation and padding (on
// every side), and whether a ReLU follows.
type convShape struct {
	c, h, w, k, kh, kw, stride, dil, pad int
	relu                                 bool
	// px runs conv_px16 (lanes along the row; pixelLanes says when); its
	// weights are packed for it.
	px bool
}

// pixelLanes says whether s runs with its lanes along the output row: on
// AVX-512, at stride 1, with rows of whole 16s, where the channels are no
// multiple of 16 (blocks of 16 would idle lanes) or just 16 (one block
// has no second to share its loads), and split into groups (pixelGroup)
// and one the kernel has. Channel blocks were as fast or faster at 32 and
// 48 channels (scratch timings, one core).
func pixelLanes(s convShape) bool {
	_, wo := s.out()
	if convLanes != 16 || s.stride != 1 || wo%16 != 0 || (s.k%16 == 0 && s.k != 16) {
		return false
	}
	switch s.k % pixelGroup(s) {
	case 0, 4, 8, 12, 16:
		return true
	}
	return false
}

// pixelGroup is how many output channels conv_px16 keeps in registers at
// once: 12 on rows of whole 32s (two pixel vectors each), else 24.
func pixelGroup(s convShape) int {
	if _, wo := s.out(); wo%32 == 0 {
		return 12
	}
	return 24
}

func (s convShape) out() (ho, wo int) {
	return (s.h+2*s.pad-s.dil*(s.kh-1)-1)/s.stride + 1, (s.w+2*s.pad-s.dil*(s.kw-1)-1)/s.stride + 1
}

func (s convShape) cShape() C.conv_shape {
	return C.conv_shape{C: C.int(s.c), H: C.int(s.h), W: C.int(s.w), K: C.int(s.k), kh: C.int(s.kh), kw: C.int(s.kw),
		stride: C.int(s.stride), dil: C.int(s.dil), pad: C.int(s.pad), relu: C.int(b2i(s.relu)), px: C.int(b2i(s.px))}
}

// padLen is the scratch the kernel needs.
func (s convShape) padLen() int { return int(C.conv_pad_len(s.cShape())) }

// packConv lays out weights w ([k][c][kh][kw]) and bias for the kernel:
// blocks of convLanes output channels, each [kh][kw][c][lanes], zero
// beyond k.
func packConv(w, bias []float32, s convShape) (wt, b []float32) {
	if s.px {
		return packPixelLanes(w, bias, s)
	}
	lanes, taps := convLanes, s.kh*s.kw
	nb := (s.k + lanes - 1) / lanes
	wt, b = make([]float32, nb*taps*s.c*lanes), make([]float32, nb*lanes)
	copy(b, bias)
	for o := 0; o < s.k; o++ {
		blk, lane := o/lanes, o%lanes
		for ci := 0; ci < s.c; ci++ {
			for q := 0; q < taps; q++ {
				wt[((blk*taps+q)*s.c+ci)*lanes+lane] = w[(o*s.c+ci)*taps+q]
			}
		}
	}
	return wt, b
}

// packPixelLanes lays out weights w ([k][c][kh][kw]) for conv_px16: per
// group of pixelGroup output channels (the last maybe fewer),
// [kh][kw][c][group].
func packPixelLanes(w, bias []float32, s convShape) (wt, b []float32) {
	taps := s.kh * s.kw
	wt, b = make([]float32, s.k*taps*s.c), append([]float32(nil), bias[:s.k]...)
	group := pixelGroup(s)
	for k0 := 0; k0 < s.k; k0 += group {
		kn := min(group, s.k-k0)
		g := wt[k0*taps*s.c:]
		for o := 0; o < kn; o++ {
			for ci := 0; ci < s.c; ci++ {
				for q := 0; q < taps; q++ {
					g[(q*s.c+ci)*kn+o] = w[((k0+o)*s.c+ci)*taps+q]
				}
			}
		}
	}
	return wt, b
}

// conv runs the kernel on one image in ([c][h][w]) into out ([k][ho][wo]),
// with weights packed by packConv; pad is scratch of s.padLen().
func conv(in []float32, s convShape, wt, bias []float32, out, pad []float32) {
	ho, wo := s.out()
	nb := (s.k + convLanes - 1) / convLanes
	if s.px {
		nb = 0
		if !pixelLanes(s) || len(wt) < s.k*s.kh*s.kw*s.c || len(bias) < s.k {
			panic("vision: internal: conv's pixel-lane shape or weights are wrong")
		}
	}
	if len(in) < s.c*s.h*s.w || len(out) < s.k*ho*wo || len(pad) < s.padLen() ||
		len(wt) < nb*s.kh*s.kw*s.c*convLanes || len(bias) < nb*convLanes {
		panic("vision: internal: conv's buffers are too small")
	}
	C.conv((*C.float)(unsafe.Pointer(&in[0])), s.cShape(), (*C.float)(unsafe.Pointer(&wt[0])),
		(*C.float)(unsafe.Pointer(&bias[0])), (*C.float)(unsafe.Pointer(&out[0])), (*C.float)(unsafe.Pointer(&pad[0])))
}

// gemmT is out = x W^T + b for rows of x, with wt W transposed (nin rows
// of nout).
func gemmT(x []float32, rows, nin int, wt, b []float32, nout int, out []float32) {
	if rows == 0 {
		return
	}
	if len(x) < rows*nin || len(wt) < nin*nout || len(b) < nout || len(out) < rows*nout {
		panic("vision: internal: gemmT's buffers are too small")
	}
	C.gemm_t((*C.float)(unsafe.Pointer(&x[0])), C.int(rows), C.int(nin), (*C.float)(unsafe.Pointer(&wt[0])),
		(*C.float)(unsafe.Pointer(&b[0])), C.int(nout), (*C.float)(unsafe.Pointer(&out[0])))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pool2 is a 2x2 pooling at stride 2, the maximum or the mean, of planes
// h x w images (h and w even) in into out.
func pool2(in []float32, planes, h, w int, isMax bool, out []float32) {
	if planes == 0 {
		return
	}
	if len(in) < planes*h*w || len(out) < planes*(h/2)*(w/2) || h%2 != 0 || w%2 != 0 {
		panic("vision: internal: pool2's buffers are too small")
	}
	C.pool2((*C.float)(unsafe.Pointer(&in[0])), C.int(planes), C.int(h), C.int(w), C.int(b2i(isMax)), (*C.float)(unsafe.Pointer(&out[0])))
}

// constOps are the ops with_constant knows, by its numbering.
var constOps = map[string]int{"Add": 0, "Sub": 1, "Mul": 2, "Div": 3}

// withConstantC is out = a op c (after) or c op a, op numbered as in
// constOps; out is as long as a.
func withConstantC(op int, a []float32, c float32, after bool, out []float32) {
	if len(out) != len(a) {
		panic("vision: internal: withConstantC's output is not its input's length")
	}
	C.with_constant((*C.float)(unsafe.Pointer(&a[0])), C.float(c), C.int(op), C.int(b2i(after)),
		(*C.float)(unsafe.Pointer(&out[0])), C.long(len(a)))
}
