package vision

import (
	"fmt"
	"math"
)

// convNet runs a small convolutional network from its ONNX graph in Go and
// C (conv_kernel.go) instead of OpenCV's dnn module: the operators the
// reader's networks use (convolutions with the ReLU after them fused, 2x2
// and global pools, nearest doubling, fully connected layers, slices,
// concatenations, log-softmax and element-wise arithmetic with
// constants), a batch of rows at a time. Every buffer is kept from one
// run to the next.
type convNet struct {
	steps []convStep
	vals  map[string]*convVal
	pad   []float32
}

// convVal is a tensor: its shape without the batch (C, H, W or F) and the
// batch's values.
type convVal struct {
	shape []int
	data  []float32
}

func (v *convVal) size() int {
	n := 1
	for _, d := range v.shape {
		n *= d
	}
	return n
}

// convStep is one node, made ready to run.
type convStep struct {
	op       string
	in       []string
	out      string
	k        int       // Gemm: outputs
	lo, hi   int       // Slice: the features [lo, hi) kept
	conv     convShape // Conv, with the ReLU after it fused
	wt, b    []float32 // Conv: packed by packConv; Gemm: W transposed
	constArg []float32 // element-wise: the constant operand (one value or one per feature)
	constPos int       // element-wise: which operand is the constant (0 or 1)
}

// newConvNet prepares graph g to run; inShapes gives each input's shape
// without the batch.
func newConvNet(file []byte, inShapes map[string][]int) (*convNet, error) {
	g, err := parseONNX(file)
	if err != nil {
		return nil, err
	}
	n := &convNet{vals: map[string]*convVal{}}
	shapes := map[string][]int{}
	for _, in := range g.inputs {
		s, ok := inShapes[in]
		if !ok {
			return nil, fmt.Errorf("convnet: no shape given for input %q", in)
		}
		shapes[in] = s
	}
	for _, nd := range g.nodes {
		st, shape, err := prepareStep(g, nd, shapes)
		if err != nil {
			return nil, fmt.Errorf("convnet: %s node %v: %w", nd.op, nd.outputs, err)
		}
		shapes[st.out] = shape
		n.steps = append(n.steps, st)
	}
	n.steps = fuseReLUs(n.steps)
	for name, s := range shapes {
		n.vals[name] = &convVal{shape: s}
	}
	return n, nil
}

func constScalarOrVector(t *onnxTensor) ([]float32, bool) {
	if t == nil || len(t.floats) == 0 || len(t.dims) > 1 {
		return nil, false
	}
	return t.floats, true
}

func prepareStep(g *onnxGraph, nd onnxNode, shapes map[string][]int) (convStep, []int, error) {
	st := convStep{op: nd.op}
	if len(nd.outputs) != 1 || len(nd.inputs) == 0 {
		return st, nil, fmt.Errorf("%d outputs, %d inputs", len(nd.outputs), len(nd.inputs))
	}
	st.out = nd.outputs[0]
	in0 := shapes[nd.inputs[0]]
	switch nd.op {
	case "Conv":
		if len(nd.inputs) < 2 {
			return st, nil, fmt.Errorf("no weights")
		}
		w, b := g.consts[nd.inputs[1]], (*onnxTensor)(nil)
		if len(nd.inputs) > 2 {
			b = g.consts[nd.inputs[2]]
		}
		if in0 == nil || len(in0) != 3 || w == nil || len(w.dims) != 4 || int(w.dims[1]) != in0[0] {
			return st, nil, fmt.Errorf("not a convolution of a known image")
		}
		cs := convShape{c: in0[0], h: in0[1], w: in0[2], k: int(w.dims[0]), kh: int(w.dims[2]), kw: int(w.dims[3]), stride: 1, dil: 1}
		if g := nd.ints["group"]; len(g) > 0 && g[0] != 1 {
			return st, nil, fmt.Errorf("group %v", g)
		}
		same := func(name string, v *int) bool {
			a := nd.ints[name]
			if len(a) == 0 {
				return true
			}
			for _, x := range a {
				if x != a[0] {
					return false
				}
			}
			*v = int(a[0])
			return true
		}
		if !same("strides", &cs.stride) || !same("dilations", &cs.dil) || !same("pads", &cs.pad) ||
			cs.stride < 1 || cs.dil < 1 || cs.pad < 0 || cs.stride > 8 || cs.dil > 8 || cs.pad > 8 {
			return st, nil, fmt.Errorf("strides %v, dilations %v, pads %v", nd.ints["strides"], nd.ints["dilations"], nd.ints["pads"])
		}
		ho, wo := cs.out()
		if ho < 1 || wo < 1 {
			return st, nil, fmt.Errorf("no output from a %dx%d image", cs.h, cs.w)
		}
		bias := make([]float32, cs.k)
		if b != nil {
			copy(bias, b.floats)
		}
		cs.px = pixelLanes(cs)
		st.conv = cs
		st.wt, st.b = packConv(w.floats, bias, cs)
		st.in = nd.inputs[:1]
		return st, []int{cs.k, ho, wo}, nil
	case "Resize":
		// A nearest-neighbour doubling (PyTorch's interpolate, scale 2).
		var scales *onnxTensor
		if len(nd.inputs) > 2 {
			scales = g.consts[nd.inputs[2]]
		}
		if in0 == nil || len(in0) != 3 || nd.strs["mode"] != "nearest" || scales == nil || len(scales.floats) != 4 ||
			scales.floats[0] != 1 || scales.floats[1] != 1 || scales.floats[2] != 2 || scales.floats[3] != 2 {
			return st, nil, fmt.Errorf("not a nearest doubling (mode %q)", nd.strs["mode"])
		}
		st.in = nd.inputs[:1]
		return st, []int{in0[0], 2 * in0[1], 2 * in0[2]}, nil
	case "GlobalAveragePool":
		if in0 == nil || len(in0) != 3 {
			return st, nil, fmt.Errorf("not an image")
		}
		st.in = nd.inputs[:1]
		return st, []int{in0[0], 1, 1}, nil
	case "Gemm":
		if len(nd.inputs) < 3 {
			return st, nil, fmt.Errorf("no weights or bias")
		}
		w, b := g.consts[nd.inputs[1]], g.consts[nd.inputs[2]]
		if in0 == nil || len(in0) != 1 || w == nil || b == nil || len(w.dims) != 2 || int(w.dims[1]) != in0[0] ||
			len(nd.ints["transB"]) != 1 || nd.ints["transB"][0] != 1 || len(nd.ints["transA"]) > 0 && nd.ints["transA"][0] != 0 {
			return st, nil, fmt.Errorf("not x W^T + b")
		}
		for _, a := range []string{"alpha", "beta"} {
			if f := nd.floats[a]; len(f) > 0 && f[0] != 1 {
				return st, nil, fmt.Errorf("%s %v", a, f)
			}
		}
		nout, nin := int(w.dims[0]), int(w.dims[1])
		if len(b.floats) != nout {
			return st, nil, fmt.Errorf("%d biases for %d outputs", len(b.floats), nout)
		}
		st.wt = make([]float32, nin*nout)
		for j := 0; j < nout; j++ {
			for i := 0; i < nin; i++ {
				st.wt[i*nout+j] = w.floats[j*nin+i]
			}
		}
		st.b, st.k, st.in = b.floats, nout, nd.inputs[:1]
		return st, []int{nout}, nil
	case "Relu", "Tanh":
		st.in = nd.inputs[:1]
		return st, in0, nil
	case "LogSoftmax":
		if a := nd.ints["axis"]; len(in0) != 1 || len(a) > 0 && a[0] != 1 && a[0] != -1 {
			return st, nil, fmt.Errorf("not over a flat value's features")
		}
		st.in = nd.inputs[:1]
		return st, in0, nil
	case "MaxPool", "AveragePool":
		ks, ss := nd.ints["kernel_shape"], nd.ints["strides"]
		if nd.op == "MaxPool" && in0 != nil && len(in0) == 3 && len(ks) == 2 && int(ks[0]) == in0[1] && int(ks[1]) == in0[2] {
			// The whole image's maximum.
			st.op = "GlobalMaxPool"
			st.in = nd.inputs[:1]
			return st, []int{in0[0], 1, 1}, nil
		}
		if in0 == nil || len(in0) != 3 || len(ks) != 2 || ks[0] != 2 || ks[1] != 2 || len(ss) != 2 || ss[0] != 2 || ss[1] != 2 || in0[1]%2 != 0 || in0[2]%2 != 0 {
			return st, nil, fmt.Errorf("not a 2x2 pool of an even image")
		}
		for _, v := range nd.ints["pads"] {
			if v != 0 {
				return st, nil, fmt.Errorf("pads %v", nd.ints["pads"])
			}
		}
		st.in = nd.inputs[:1]
		return st, []int{in0[0], in0[1] / 2, in0[2] / 2}, nil
	case "Flatten":
		if a := nd.ints["axis"]; len(a) > 0 && a[0] != 1 {
			return st, nil, fmt.Errorf("axis %v", a)
		}
		st.in = nd.inputs[:1]
		n := 1
		for _, d := range in0 {
			n *= d
		}
		return st, []int{n}, nil
	case "Concat":
		if a := nd.ints["axis"]; len(a) != 1 || a[0] != 1 {
			return st, nil, fmt.Errorf("axis %v", a)
		}
		// Along the features, or the channels of images of one size.
		if in0 == nil {
			return st, nil, fmt.Errorf("unknown input")
		}
		n := 0
		for _, in := range nd.inputs {
			s := shapes[in]
			if len(s) != len(in0) || len(s) != 1 && (len(s) != 3 || s[1] != in0[1] || s[2] != in0[2]) {
				return st, nil, fmt.Errorf("inputs of shapes %v and %v", in0, s)
			}
			n += s[0]
		}
		st.in = nd.inputs
		out := append([]int{n}, in0[1:]...)
		return st, out, nil
	case "Slice":
		// Features [start, end) of a flat value (the feature axis, step 1).
		arg := func(k int) (int64, bool) {
			if k >= len(nd.inputs) {
				return 0, false
			}
			t := g.consts[nd.inputs[k]]
			if t == nil || len(t.ints) != 1 {
				return 0, false
			}
			return t.ints[0], true
		}
		start, ok1 := arg(1)
		end, ok2 := arg(2)
		axis, ok3 := arg(3)
		step, ok4 := arg(4)
		if !ok4 {
			step, ok4 = 1, len(nd.inputs) < 5
		}
		if in0 == nil || len(in0) != 1 || !ok1 || !ok2 || !ok3 || !ok4 || axis != 1 || step != 1 {
			return st, nil, fmt.Errorf("not a slice of a flat value's features")
		}
		end = min(end, int64(in0[0]))
		if start < 0 || start >= end {
			return st, nil, fmt.Errorf("slice [%d, %d) of %d", start, end, in0[0])
		}
		st.in, st.lo, st.hi = nd.inputs[:1], int(start), int(end)
		return st, []int{int(end - start)}, nil
	case "Add", "Sub", "Mul", "Div":
		if len(nd.inputs) != 2 {
			return st, nil, fmt.Errorf("%d inputs", len(nd.inputs))
		}
		c0, ok0 := constScalarOrVector(g.consts[nd.inputs[0]])
		c1, ok1 := constScalarOrVector(g.consts[nd.inputs[1]])
		switch {
		case ok1 && !ok0:
			st.constArg, st.constPos, st.in = c1, 1, nd.inputs[:1]
		case ok0 && !ok1:
			st.constArg, st.constPos, st.in = c0, 0, nd.inputs[1:]
			in0 = shapes[nd.inputs[1]]
		case !ok0 && !ok1:
			s1 := shapes[nd.inputs[1]]
			if in0 == nil || fmt.Sprint(in0) != fmt.Sprint(s1) {
				return st, nil, fmt.Errorf("shapes %v and %v", in0, s1)
			}
			st.in = nd.inputs
			return st, in0, nil
		default:
			return st, nil, fmt.Errorf("two constants")
		}
		if in0 == nil {
			return st, nil, fmt.Errorf("unknown input")
		}
		if len(st.constArg) != 1 && (len(in0) != 1 || in0[0] != len(st.constArg)) {
			return st, nil, fmt.Errorf("a constant of %d values on shape %v", len(st.constArg), in0)
		}
		return st, in0, nil
	}
	return st, nil, fmt.Errorf("operator not supported")
}

// buf gives value name's buffer for rows, made or grown as needed.
func (n *convNet) buf(name string, rows int) *convVal {
	v := n.vals[name]
	if need := rows * v.size(); cap(v.data) < need {
		// Room for twice the rows: the row counts grow one at a time.
		v.data = make([]float32, need, 2*need)
	} else {
		v.data = v.data[:need]
	}
	return v
}

// input gives input name's buffer for rows to fill.
func (n *convNet) input(name string, rows int) ([]float32, error) {
	if _, ok := n.vals[name]; !ok {
		return nil, fmt.Errorf("convnet: no input %q", name)
	}
	return n.buf(name, rows).data, nil
}

// run runs the network on rows filled in its inputs and gives output
// name's values (valid until the next run), which must be want.
func (n *convNet) run(rows int, name string, want int) ([]float32, error) {
	for i := range n.steps {
		n.step(&n.steps[i], rows)
	}
	v, ok := n.vals[name]
	if !ok || len(v.data) != rows*v.size() || len(v.data) != want {
		return nil, fmt.Errorf("convnet: output %q is not %d values", name, want)
	}
	return v.data, nil
}

func (n *convNet) step(st *convStep, rows int) {
	in := n.vals[st.in[0]]
	out := n.buf(st.out, rows)
	isz, osz := in.size(), out.size()
	switch st.op {
	case "Conv":
		if need := st.conv.padLen(); len(n.pad) < need {
			n.pad = make([]float32, need)
		}
		for r := 0; r < rows; r++ {
			conv(in.data[r*isz:(r+1)*isz], st.conv, st.wt, st.b, out.data[r*osz:(r+1)*osz], n.pad)
		}
	case "Resize":
		c, h, w := in.shape[0], in.shape[1], in.shape[2]
		for p := 0; p < rows*c; p++ {
			src, dst := in.data[p*h*w:(p+1)*h*w], out.data[p*4*h*w:(p+1)*4*h*w]
			for y := 0; y < 2*h; y++ {
				row, o := src[(y/2)*w:(y/2+1)*w], dst[y*2*w:(y+1)*2*w]
				for x := range o {
					o[x] = row[x/2]
				}
			}
		}
	case "GlobalAveragePool", "GlobalMaxPool":
		hw := in.shape[1] * in.shape[2]
		for p := 0; p < rows*in.shape[0]; p++ {
			a := in.data[p*hw : (p+1)*hw]
			m, sum := a[0], float32(0)
			for _, v := range a {
				if v > m {
					m = v
				}
				sum += v
			}
			if st.op == "GlobalMaxPool" {
				out.data[p] = m
			} else {
				out.data[p] = sum / float32(hw)
			}
		}
	case "Gemm":
		gemmT(in.data, rows, isz, st.wt, st.b, st.k, out.data)
	case "Relu":
		for i, v := range in.data {
			out.data[i] = max(v, 0)
		}
	case "Tanh":
		for i, v := range in.data {
			out.data[i] = float32(math.Tanh(float64(v)))
		}
	case "MaxPool", "AveragePool":
		pool2(in.data, rows*in.shape[0], in.shape[1], in.shape[2], st.op == "MaxPool", out.data)
	case "LogSoftmax": // over each row, in float64 as the values are few
		for r := 0; r < rows; r++ {
			a, o := in.data[r*isz:(r+1)*isz], out.data[r*osz:(r+1)*osz]
			m := a[0]
			for _, v := range a {
				m = max(m, v)
			}
			sum := 0.0
			for _, v := range a {
				sum += math.Exp(float64(v - m))
			}
			ls := float32(math.Log(sum))
			for i, v := range a {
				o[i] = v - m - ls
			}
		}
	case "Flatten":
		copy(out.data, in.data)
	case "Slice":
		for r := 0; r < rows; r++ {
			copy(out.data[r*osz:(r+1)*osz], in.data[r*isz+st.lo:r*isz+st.hi])
		}
	case "Concat":
		at := 0
		for _, name := range st.in {
			v := n.vals[name]
			s := v.size()
			for r := 0; r < rows; r++ {
				copy(out.data[r*osz+at:r*osz+at+s], v.data[r*s:(r+1)*s])
			}
			at += s
		}
	default: // element-wise
		if st.constArg == nil {
			elementwise(st.op, in.data, n.vals[st.in[1]].data, out.data)
		} else if len(st.constArg) == 1 {
			withConstant(st.op, in.data, st.constArg[0], st.constPos, out.data)
		} else {
			m := len(st.constArg)
			for r := 0; r < len(in.data)/m; r++ {
				a, o := in.data[r*m:(r+1)*m], out.data[r*m:(r+1)*m]
				if st.constPos == 1 {
					elementwise(st.op, a, st.constArg, o)
				} else {
					elementwise(st.op, st.constArg, a, o)
				}
			}
		}
	}
}

// fuseReLUs folds each ReLU that follows a convolution, alone taking its
// output, into it.
func fuseReLUs(steps []convStep) []convStep {
	uses := map[string]int{}
	for _, st := range steps {
		for _, in := range st.in {
			uses[in]++
		}
	}
	var out []convStep
	for i := 0; i < len(steps); i++ {
		st := steps[i]
		if st.op == "Conv" && i+1 < len(steps) && steps[i+1].op == "Relu" && steps[i+1].in[0] == st.out && uses[st.out] == 1 {
			st.conv.relu, st.out = true, steps[i+1].out
			i++
		}
		out = append(out, st)
	}
	return out
}

// elementwise is out = a op b, element by element.
func elementwise(op string, a, b, out []float32) {
	b, out = b[:len(a)], out[:len(a)]
	switch op {
	case "Add":
		for i := range a {
			out[i] = a[i] + b[i]
		}
	case "Sub":
		for i := range a {
			out[i] = a[i] - b[i]
		}
	case "Mul":
		for i := range a {
			out[i] = a[i] * b[i]
		}
	default:
		for i := range a {
			out[i] = a[i] / b[i]
		}
	}
}

// withConstant is out = a op c (pos 1) or c op a (pos 0), in C
// (withConstantC) when the op is one it has.
func withConstant(op string, a []float32, c float32, pos int, out []float32) {
	if k, ok := constOps[op]; ok && len(a) > 0 {
		withConstantC(k, a, c, pos == 1, out[:len(a)])
		return
	}
	withConstantGo(op, a, c, pos, out)
}

// withConstantGo is withConstant in Go, the C kernel's reference.
func withConstantGo(op string, a []float32, c float32, pos int, out []float32) {
	out = out[:len(a)]
	switch {
	case op == "Add":
		for i, v := range a {
			out[i] = v + c
		}
	case op == "Mul":
		for i, v := range a {
			out[i] = v * c
		}
	case op == "Sub" && pos == 1:
		for i, v := range a {
			out[i] = v - c
		}
	case op == "Sub":
		for i, v := range a {
			out[i] = c - v
		}
	case pos == 1:
		for i, v := range a {
			out[i] = v / c
		}
	default:
		for i, v := range a {
			out[i] = c / v
		}
	}
}
