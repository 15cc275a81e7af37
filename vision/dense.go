package vision

/*
#cgo CFLAGS: -O3

// cellnet_hidden computes the hidden layer of rows inputs (x: rows of
// nin): hid = max(0, b1 + W xs), xs each input standardised by mean and sd
// and clipped to +-clip (into the scratch xs, rows of nin), W given
// transposed (nin rows of 64). The 64 sums are independent lanes, each
// added in input order, so the compiler vectorises across them. W is
// taken a block of inputs at a time for all rows, so that the block stays
// in the first-level cache instead of the whole matrix streaming from
// memory once per row. Where the CPU has AVX-512, or AVX2 and FMA (x86-64
// since 2013), a clone for them is chosen at load time; elsewhere the
// baseline runs. Each lane adds in the same order in every clone.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "fma", "default")))
#endif
static void cellnet_hidden(const float *x, int rows, const float *mean, const float *sd,
		const float *wt, const float *b1, float *hid, float *xs, int nin, float clip) {
	enum { block = 128 };
	for (int r = 0; r < rows; r++) {
		const float *xr = x + (long)r * nin;
		float *sr = xs + (long)r * nin;
		for (int j = 0; j < nin; j++) {
			float v = (xr[j] - mean[j]) / sd[j];
			v = v > clip ? clip : v;
			sr[j] = v < -clip ? -clip : v;
		}
	}
	for (int r = 0; r < rows; r++)
		for (int h = 0; h < 64; h++) hid[r * 64 + h] = b1[h];
	for (int j0 = 0; j0 < nin; j0 += block) {
		int j1 = j0 + block < nin ? j0 + block : nin;
		for (int r = 0; r < rows; r++) {
			float acc[64];
			for (int h = 0; h < 64; h++) acc[h] = hid[r * 64 + h];
			const float *xr = xs + (long)r * nin;
			for (int j = j0; j < j1; j++) {
				float v = xr[j];
				const float *w = wt + (long)j * 64;
				for (int h = 0; h < 64; h++) acc[h] += v * w[h];
			}
			for (int h = 0; h < 64; h++) hid[r * 64 + h] = acc[h];
		}
	}
	for (long k = 0; k < (long)rows * 64; k++) hid[k] = hid[k] > 0 ? hid[k] : 0;
}
*/
import "C"

// The C kernel's lanes are the hidden units.
var _ = [1]struct{}{}[netHidden-64]

// transposeFirst gives the first layer's weights input-major (netInputs
// rows of netHidden), the layout the C kernel reads along.
func transposeFirst(w1 []float32) []float32 {
	t := make([]float32, len(w1))
	for h := 0; h < netHidden; h++ {
		for j := 0; j < netInputs; j++ {
			t[j*netHidden+h] = w1[h*netInputs+j]
		}
	}
	return t
}

// hiddenFast is the hidden layer of cellNet.forward for the inputs x (rows
// of netInputs) into hid (rows of netHidden), in C; xs is scratch as long
// as x. It is false, having done nothing, when the buffers are too short.
func (n *cellNet) hiddenFast(x, xs, hid []float32) bool {
	rows := len(x) / netInputs
	if rows == 0 || len(x) != rows*netInputs || len(xs) < len(x) || len(hid) < rows*netHidden {
		return false
	}
	C.cellnet_hidden((*C.float)(&x[0]), C.int(rows), (*C.float)(&n.mean[0]), (*C.float)(&n.sd[0]),
		(*C.float)(&n.w1t[0]), (*C.float)(&n.b1[0]), (*C.float)(&hid[0]), (*C.float)(&xs[0]), C.int(netInputs), C.float(netClip))
	return true
}

// reluLayer sets hid[j] = max(0, b[j] + w[j] . xs), w holding len(hid)
// rows of len(xs): a network's hidden layer in Go. Four units at a time:
// four independent sums, each in the same order as one at a time (the
// same roundings), that the CPU overlaps (the second look's layer 10.9
// -> 4.7 us).
func reluLayer(w, b, xs, hid []float32) {
	n := len(xs)
	j := 0
	for ; j+4 <= len(hid); j += 4 {
		w0, w1, w2, w3 := w[j*n:(j+1)*n], w[(j+1)*n:(j+2)*n], w[(j+2)*n:(j+3)*n], w[(j+3)*n:(j+4)*n]
		// Lengths the compiler sees equal xs's: no bounds checks below.
		w0, w1, w2, w3 = w0[:len(xs)], w1[:len(xs)], w2[:len(xs)], w3[:len(xs)]
		s0, s1, s2, s3 := b[j], b[j+1], b[j+2], b[j+3]
		for i, v := range xs {
			s0 += w0[i] * v
			s1 += w1[i] * v
			s2 += w2[i] * v
			s3 += w3[i] * v
		}
		hid[j], hid[j+1], hid[j+2], hid[j+3] = max(s0, 0), max(s1, 0), max(s2, 0), max(s3, 0)
	}
	for ; j < len(hid); j++ {
		s := b[j]
		for i, v := range xs {
			s += w[j*n+i] * v
		}
		hid[j] = max(s, 0)
	}
}
