package vision

/*
#cgo CFLAGS: -O3
#include <math.h>
#include <stdint.h>

typedef struct {
	double r[9], t[3], f, cx, cy; // the camera (camera.project)
	double toFull;                // reduced frame to full resolution
	double x0, y0, step;          // the patch's first sample's corner, its spacing
	int side, super, w, h;        // samples a side, sub-samples a side, the frame
} patch_args;

// patch_sample fills side x side samples of each of the planes at heights
// zs (r, g, b planes after each other, per height), each the mean of
// super x super bilinear samples of the full frame bgr spread evenly over
// it, in the same operations and order as samplePatchesGo, so the bytes
// are the same.
static void patch_sample(patch_args a, const uint8_t *bgr, const double *zs, int planes, uint8_t *out) {
	const int n = a.side * a.side;
	const double ss = (double)(a.super * a.super);
	for (int pl = 0; pl < planes; pl++) {
		double z = zs[pl];
		uint8_t *q = out + (long)pl * 3 * n;
		for (int gy = 0; gy < a.side; gy++) {
			for (int gx = 0; gx < a.side; gx++) {
				double v0 = 0, v1 = 0, v2 = 0;
				for (int sy = 0; sy < a.super; sy++) {
					for (int sx = 0; sx < a.super; sx++) {
						double fx = ((double)sx + 0.5) / (double)a.super;
						double fy = ((double)sy + 0.5) / (double)a.super;
						double x = a.x0 + a.step * ((double)gx + fx);
						double y = a.y0 + a.step * ((double)gy + fy);
						double X = a.r[0] * x + a.r[1] * y + a.r[2] * z + a.t[0];
						double Y = a.r[3] * x + a.r[4] * y + a.r[5] * z + a.t[1];
						double Z = a.r[6] * x + a.r[7] * y + a.r[8] * z + a.t[2];
						if (Z < 1e-6) Z = 1e-6;
						double px = a.f * X / Z + a.cx, py = a.f * Y / Z + a.cy;
						double bx = (px + 0.5) * a.toFull - 0.5, by = (py + 0.5) * a.toFull - 0.5;
						double fx0 = floor(bx), fy0 = floor(by);
						double ax = bx - fx0, ay = by - fy0;
						int xi = (int)fx0, yi = (int)fy0;
						double wk[4] = {(1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay};
						double u0 = 0, u1 = 0, u2 = 0;
						for (int k = 0; k < 4; k++) {
							int xx = xi + k % 2, yy = yi + k / 2;
							xx = xx < 0 ? 0 : (xx >= a.w ? a.w - 1 : xx);
							yy = yy < 0 ? 0 : (yy >= a.h ? a.h - 1 : yy);
							const uint8_t *p = bgr + ((long)yy * a.w + xx) * 3;
							u0 += wk[k] * (double)p[2];
							u1 += wk[k] * (double)p[1];
							u2 += wk[k] * (double)p[0];
						}
						v0 += u0;
						v1 += u1;
						v2 += u2;
					}
				}
				v0 /= ss;
				v1 /= ss;
				v2 /= ss;
				int k = gy * a.side + gx;
				q[k] = (uint8_t)(v0 + 0.5);
				q[n + k] = (uint8_t)(v1 + 0.5);
				q[2 * n + k] = (uint8_t)(v2 + 0.5);
			}
		}
	}
}
*/
import "C"

import "unsafe"

// samplePatchC is samplePatchGo's loop in C: sampling the patches in Go
// took about as long as the patch network itself.
func samplePatchC(cam *camera, full *pixels, toFull, col, row float64, planes []float64, out []uint8) bool {
	n := len(planes) * 3 * patchSide * patchSide
	if len(out) < n || full.w <= 0 || full.h <= 0 || len(full.bgr) < 3*full.w*full.h || len(planes) == 0 {
		return false
	}
	var a C.patch_args
	for i := range cam.r {
		a.r[i] = C.double(cam.r[i])
	}
	for i := range cam.t {
		a.t[i] = C.double(cam.t[i])
	}
	a.f, a.cx, a.cy = C.double(cam.f), C.double(cam.cx), C.double(cam.cy)
	a.toFull = C.double(toFull)
	a.x0, a.y0, a.step = C.double(col-patchMargin), C.double(row-patchMargin), C.double(patchStep)
	a.side, a.super, a.w, a.h = C.int(patchSide), C.int(patchSuper), C.int(full.w), C.int(full.h)
	C.patch_sample(a, (*C.uint8_t)(unsafe.Pointer(&full.bgr[0])), (*C.double)(unsafe.Pointer(&planes[0])), C.int(len(planes)), (*C.uint8_t)(unsafe.Pointer(&out[0])))
	return true
}
