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
// memory once per row. Where the CPU has AVX-512, four rows go together
// (cellnet_hidden_16): one row's four sums a step wait on each other's
// latency, four rows' sixteen keep both FMA units busy, and each weight
// vector loaded serves four rows (BenchmarkCellNets 2.33 -> 1.49 ms a
// frame). Elsewhere a clone for AVX2 and FMA (x86-64 since 2013) or the
// baseline runs one row at a time. Each lane adds in the same order in
// every version, with FMA wherever the CPU has it.

#define HIDDEN_PREP                                                                       \
	enum { block = 128 };                                                                 \
	for (int r = 0; r < rows; r++) {                                                      \
		const float *xr = x + (long)r * nin;                                              \
		float *sr = xs + (long)r * nin;                                                   \
		for (int j = 0; j < nin; j++) {                                                   \
			float v = (xr[j] - mean[j]) / sd[j];                                          \
			v = v > clip ? clip : v;                                                      \
			sr[j] = v < -clip ? -clip : v;                                                \
		}                                                                                 \
	}                                                                                     \
	for (int r = 0; r < rows; r++)                                                        \
		for (int h = 0; h < 64; h++) hid[r * 64 + h] = b1[h];

// HIDDEN_ONE adds inputs j0..j1 of row r into its sums.
#define HIDDEN_ONE(r)                                                                     \
	{                                                                                     \
		float acc[64];                                                                    \
		for (int h = 0; h < 64; h++) acc[h] = hid[(r) * 64 + h];                          \
		const float *xr = xs + (long)(r) * nin;                                           \
		for (int j = j0; j < j1; j++) {                                                   \
			float v = xr[j];                                                              \
			const float *w = wt + (long)j * 64;                                           \
			for (int h = 0; h < 64; h++) acc[h] += v * w[h];                              \
		}                                                                                 \
		for (int h = 0; h < 64; h++) hid[(r) * 64 + h] = acc[h];                          \
	}

#define HIDDEN_RELU for (long k = 0; k < (long)rows * 64; k++) hid[k] = hid[k] > 0 ? hid[k] : 0;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("fma", "default")))
#endif
static void cellnet_hidden_rows(const float *x, int rows, const float *mean, const float *sd,
		const float *wt, const float *b1, float *hid, float *xs, int nin, float clip) {
	HIDDEN_PREP
	for (int j0 = 0; j0 < nin; j0 += block) {
		int j1 = j0 + block < nin ? j0 + block : nin;
		for (int r = 0; r < rows; r++) HIDDEN_ONE(r)
	}
	HIDDEN_RELU
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
typedef float hv16 __attribute__((vector_size(64), aligned(4)));

__attribute__((target("avx512f")))
static void cellnet_hidden_16(const float *x, int rows, const float *mean, const float *sd,
		const float *wt, const float *b1, float *hid, float *xs, int nin, float clip) {
	HIDDEN_PREP
	for (int j0 = 0; j0 < nin; j0 += block) {
		int j1 = j0 + block < nin ? j0 + block : nin, r = 0;
		for (; r + 4 <= rows; r += 4) {
			hv16 a[4][4];
			for (int q = 0; q < 4; q++)
				for (int l = 0; l < 4; l++) a[q][l] = *(const hv16 *)(hid + (r + q) * 64 + l * 16);
			const float *x0 = xs + (long)r * nin, *x1 = x0 + nin, *x2 = x1 + nin, *x3 = x2 + nin;
			for (int j = j0; j < j1; j++) {
				const hv16 *w = (const hv16 *)(wt + (long)j * 64);
				hv16 w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
				float v0 = x0[j], v1 = x1[j], v2 = x2[j], v3 = x3[j];
				a[0][0] += v0 * w0, a[0][1] += v0 * w1, a[0][2] += v0 * w2, a[0][3] += v0 * w3;
				a[1][0] += v1 * w0, a[1][1] += v1 * w1, a[1][2] += v1 * w2, a[1][3] += v1 * w3;
				a[2][0] += v2 * w0, a[2][1] += v2 * w1, a[2][2] += v2 * w2, a[2][3] += v2 * w3;
				a[3][0] += v3 * w0, a[3][1] += v3 * w1, a[3][2] += v3 * w2, a[3][3] += v3 * w3;
			}
			for (int q = 0; q < 4; q++)
				for (int l = 0; l < 4; l++) *(hv16 *)(hid + (r + q) * 64 + l * 16) = a[q][l];
		}
		for (; r < rows; r++) HIDDEN_ONE(r)
	}
	HIDDEN_RELU
}
#endif

// cellnet_hidden runs the best version for the CPU, or the row at a time
// one if oneRow.
static void cellnet_hidden(const float *x, int rows, const float *mean, const float *sd,
		const float *wt, const float *b1, float *hid, float *xs, int nin, float clip, int oneRow) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	if (!oneRow && __builtin_cpu_supports("avx512f")) {
		cellnet_hidden_16(x, rows, mean, sd, wt, b1, hid, xs, nin, clip);
		return;
	}
#endif
	cellnet_hidden_rows(x, rows, mean, sd, wt, b1, hid, xs, nin, clip);
}

static int cpu_has_fma(void) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	return __builtin_cpu_supports("fma");
#else
	return 0;
#endif
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

// cpuHasFMA says whether the C kernels' x86 versions fuse their
// multiply-adds (every version then rounds alike).
var cpuHasFMA = C.cpu_has_fma() != 0

// hiddenFast is the hidden layer of cellNet.forward for the inputs x (rows
// of netInputs) into hid (rows of netHidden), in C; xs is scratch as long
// as x. It is false, having done nothing, when the buffers are too short.
func (n *cellNet) hiddenFast(x, xs, hid []float32) bool { return n.hiddenKernel(x, xs, hid, false) }

// hiddenKernel is hiddenFast, run a row at a time if oneRow (the version
// for CPUs without AVX-512, which the tests compare with the others).
func (n *cellNet) hiddenKernel(x, xs, hid []float32, oneRow bool) bool {
	rows := len(x) / netInputs
	if rows == 0 || len(x) != rows*netInputs || len(xs) < len(x) || len(hid) < rows*netHidden {
		return false
	}
	C.cellnet_hidden((*C.float)(&x[0]), C.int(rows), (*C.float)(&n.mean[0]), (*C.float)(&n.sd[0]),
		(*C.float)(&n.w1t[0]), (*C.float)(&n.b1[0]), (*C.float)(&hid[0]), (*C.float)(&xs[0]), C.int(netInputs), C.float(netClip), C.int(b2i(oneRow)))
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
