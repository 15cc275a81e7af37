package vision

/*
#cgo CFLAGS: -O3
#include <string.h>

// conv3x3 is a 3x3 convolution with padding 1 and stride 1 or 2 of one
// image in [C][H][W] into out [K][Ho][Wo], with the bias added. It copies
// the image once into pad, zero-bordered and channels last ((H+2) x (W+2)
// x C, plus slack for a tile's overreach), so that the inner loop runs
// along the channels with no bounds tests, and keeps a tile of 8 output
// pixels by one block of output channels in registers: each weight vector
// (wt: per block, [3][3][C][lanes], the block's channels beyond K zero)
// meets 8 pixels. OpenCV 4.6's dnn first copies every 3x3 window into a
// row, one float at a time, which took about a third of its time on the
// reader's networks.
//
// The block is 16 channels where the CPU has AVX-512, else 8 (AVX and FMA,
// or the baseline); conv_lanes says which, for the weights' packing.

typedef float v16 __attribute__((vector_size(64), aligned(4)));
typedef float v8 __attribute__((vector_size(32), aligned(4)));

#define CONV_BODY(VT, LANES)                                                              \
	int Hp = H + 2, Wp = W + 2;                                                           \
	int Ho = (H - 1) / stride + 1, Wo = (W - 1) / stride + 1;                             \
	memset(pad, 0, sizeof(float) * ((long)Hp * Wp * C + (long)(16 * stride + 3) * C));    \
	for (int c = 0; c < C; c++)                                                           \
		for (int y = 0; y < H; y++) {                                                     \
			const float *src = in + ((long)c * H + y) * W;                                \
			float *dst = pad + ((long)(y + 1) * Wp + 1) * C + c;                          \
			for (int x = 0; x < W; x++) dst[(long)x * C] = src[x];                        \
		}                                                                                 \
	int nb = (K + LANES - 1) / LANES;                                                     \
	for (int b = 0; b < nb; b++) {                                                        \
		const float *wb = wt + (long)b * 9 * C * LANES;                                   \
		VT bv = *(const VT *)(bias + b * LANES);                                          \
		for (int oy = 0; oy < Ho; oy++)                                                   \
			for (int ox0 = 0; ox0 < Wo; ox0 += 8) {                                       \
				VT acc[8];                                                                \
				for (int t = 0; t < 8; t++) acc[t] = bv;                                  \
				for (int ky = 0; ky < 3; ky++)                                            \
					for (int kx = 0; kx < 3; kx++) {                                      \
						const float *w = wb + (long)(ky * 3 + kx) * C * LANES;            \
						const float *row = pad + ((long)(oy * stride + ky) * Wp + ox0 * stride + kx) * C; \
						for (int c = 0; c < C; c++) {                                     \
							VT wv = *(const VT *)(w + c * LANES);                         \
							for (int t = 0; t < 8; t++) acc[t] += row[(long)t * stride * C + c] * wv; \
						}                                                                 \
					}                                                                     \
				int T = Wo - ox0 < 8 ? Wo - ox0 : 8;                                      \
				for (int k = 0; k < LANES && b * LANES + k < K; k++) {                    \
					float *o = out + ((long)(b * LANES + k) * Ho + oy) * Wo + ox0;        \
					for (int t = 0; t < T; t++) o[t] = relu && acc[t][k] < 0 ? 0 : acc[t][k];                         \
				}                                                                         \
			}                                                                             \
	}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("avx512f")))
static void conv3x3_16(const float *in, int C, int H, int W, const float *wt, const float *bias,
		int K, int stride, int relu, float *out, float *pad) {
	CONV_BODY(v16, 16)
}

__attribute__((target("avx,fma")))
static void conv3x3_8fma(const float *in, int C, int H, int W, const float *wt, const float *bias,
		int K, int stride, int relu, float *out, float *pad) {
	CONV_BODY(v8, 8)
}
#endif

static void conv3x3_8(const float *in, int C, int H, int W, const float *wt, const float *bias,
		int K, int stride, int relu, float *out, float *pad) {
	CONV_BODY(v8, 8)
}

// gemm_t: out[r][j] = b[j] + sum_i x[r][i] wt[i][j] for rows of nin
// inputs and nout outputs, wt input-major, the outputs as lanes.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("fma", "default")))
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

static int conv_lanes(void) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	if (__builtin_cpu_supports("avx512f")) return 16;
#endif
	return 8;
}

static void conv3x3(const float *in, int C, int H, int W, const float *wt, const float *bias,
		int K, int stride, int relu, float *out, float *pad) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	if (__builtin_cpu_supports("avx512f")) {
		conv3x3_16(in, C, H, W, wt, bias, K, stride, relu, out, pad);
		return;
	}
	if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx")) {
		conv3x3_8fma(in, C, H, W, wt, bias, K, stride, relu, out, pad);
		return;
	}
#endif
	conv3x3_8(in, C, H, W, wt, bias, K, stride, relu, out, pad);
}
*/
import "C"

import "unsafe"

// convLanes is the C kernel's block of output channels on this CPU.
var convLanes = int(C.conv_lanes())

// convPadLen is the scratch conv3x3 needs for a C x H x W image.
func convPadLen(c, h, w, stride int) int { return (h+2)*(w+2)*c + (16*stride+3)*c }

// packConv3x3 lays out weights w ([K][C][3][3]) and bias for conv3x3:
// blocks of convLanes output channels, each [3][3][C][lanes], zero beyond
// K.
func packConv3x3(w, bias []float32, k, c int) (wt, b []float32) {
	lanes := convLanes
	nb := (k + lanes - 1) / lanes
	wt, b = make([]float32, nb*9*c*lanes), make([]float32, nb*lanes)
	copy(b, bias)
	for o := 0; o < k; o++ {
		blk, lane := o/lanes, o%lanes
		for ci := 0; ci < c; ci++ {
			for q := 0; q < 9; q++ {
				wt[((blk*9+q)*c+ci)*lanes+lane] = w[(o*c+ci)*9+q]
			}
		}
	}
	return wt, b
}

// conv3x3 runs the kernel on one image in ([c][h][w]) into out
// ([k][ho][wo]), negative outputs made zero if relu; pad is scratch of
// convPadLen.
func conv3x3(in []float32, c, h, w int, wt, bias []float32, k, stride int, relu bool, out, pad []float32) {
	ho, wo := (h-1)/stride+1, (w-1)/stride+1
	if len(in) < c*h*w || len(out) < k*ho*wo || len(pad) < convPadLen(c, h, w, stride) ||
		len(wt) < ((k+convLanes-1)/convLanes)*9*c*convLanes || len(bias) < ((k+convLanes-1)/convLanes)*convLanes {
		panic("vision: internal: conv3x3's buffers are too small")
	}
	C.conv3x3((*C.float)(unsafe.Pointer(&in[0])), C.int(c), C.int(h), C.int(w),
		(*C.float)(unsafe.Pointer(&wt[0])), (*C.float)(unsafe.Pointer(&bias[0])),
		C.int(k), C.int(stride), C.int(b2i(relu)), (*C.float)(unsafe.Pointer(&out[0])), (*C.float)(unsafe.Pointer(&pad[0])))
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
