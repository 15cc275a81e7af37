package vision

/*
#cgo CFLAGS: -O3
#include <stdint.h>
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
			for (int ch = 0; ch < 3; ch++) {
				uint32_t sum = 0;
				for (int dx = 0; dx < k; dx++) sum += c[dx * 3 + ch];
				float v = (float)sum * scale;
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
*/
import "C"

import (
	"image"
	"unsafe"

	"gocv.io/x/gocv"
)

// shrinkArea resizes BGR frame src to size into dst as
// gocv.Resize(..., InterpolationArea) does, bit for bit. Where the frame
// is a whole multiple of size (1280x720 to the networks' 256x144: 5) it
// sums the blocks itself: BenchmarkShrinkArea, one core, 0.54 ms against
// OpenCV's 0.79 (its general whole-scale path adds the block pixel by
// pixel); elsewhere OpenCV resizes.
func shrinkArea(src gocv.Mat, dst *gocv.Mat, size image.Point, scratch *[]uint16) {
	k := src.Cols() / max(size.X, 1)
	whole := k > 2 && k <= 16 && size.X*k == src.Cols() && size.Y*k == src.Rows() && src.Type() == gocv.MatTypeCV8UC3 && src.IsContinuous()
	in, err := src.DataPtrUint8()
	if !whole || err != nil || len(in) < 3*src.Cols()*src.Rows() {
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
	if len(*scratch) < 3*src.Cols() {
		*scratch = make([]uint16, 3*src.Cols())
	}
	C.box_shrink((*C.uint8_t)(unsafe.Pointer(&in[0])), C.int(src.Cols()), C.int(k),
		(*C.uint8_t)(unsafe.Pointer(&out[0])), C.int(size.X), C.int(size.Y), (*C.uint16_t)(unsafe.Pointer(&(*scratch)[0])))
}
