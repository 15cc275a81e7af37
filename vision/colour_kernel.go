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

// colour_ll fills the seven label planes over the rectangle, pixel by
// pixel with the same operations in the same order as the Go loop it
// replaces, so the planes are the same to the last bit.
//
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
			slot->key = key;
			for (int i = 0; i < 7; i++) slot->v[i] = v[i];
		}
	}
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
	C.colour_ll(p, (*C.uint8_t)(&px.bgr[0]), (*C.double)(&logSum[0]), (*C.double)(&m.bgHist[0]),
		(*C.float)(unsafe.Pointer(&obj[0][0])), nBins, (*C.double)(&log1pExpTable[0]), C.int(len(log1pExpTable)),
		plane(m.ll), m.memo())
	return true
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
