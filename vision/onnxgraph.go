package vision

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A minimal reader of the ONNX files the reader embeds: the graph's nodes
// (operator, inputs, outputs, attributes) and its constant tensors
// (initializers and Constant nodes' values, float32 or int64), enough to
// run a small convolutional network without OpenCV's dnn module
// (convnet.go). It decodes protobuf's wire format directly: the fields
// below are ONNX's (onnx.proto), the rest skipped.

// onnxNode is one node of the graph.
type onnxNode struct {
	op      string
	inputs  []string
	outputs []string
	ints    map[string][]int64
	floats  map[string][]float32
	strs    map[string]string
	tensor  *onnxTensor // a Constant node's value
}

// onnxTensor is a constant tensor: float32 values or int64 ones.
type onnxTensor struct {
	dims   []int64
	floats []float32
	ints   []int64
}

// onnxGraph is a model's graph: its nodes in order and its constants by
// name.
type onnxGraph struct {
	nodes  []onnxNode
	consts map[string]*onnxTensor
	inputs []string // the graph's inputs that are no constants
}

var errProto = errors.New("malformed protobuf")

// pbField is one protobuf field: its number, wire type and value (v for
// varints and fixed widths, b for length-delimited bytes).
type pbField struct {
	num  int
	wire int
	v    uint64
	b    []byte
}

// pbFields calls f for each field of message m, in order.
func pbFields(m []byte, f func(pbField) error) error {
	for len(m) > 0 {
		key, n := binary.Uvarint(m)
		if n <= 0 {
			return errProto
		}
		m = m[n:]
		fd := pbField{num: int(key >> 3), wire: int(key & 7)}
		switch fd.wire {
		case 0:
			v, n := binary.Uvarint(m)
			if n <= 0 {
				return errProto
			}
			fd.v, m = v, m[n:]
		case 1:
			if len(m) < 8 {
				return errProto
			}
			fd.v, m = binary.LittleEndian.Uint64(m), m[8:]
		case 2:
			l, n := binary.Uvarint(m)
			if n <= 0 || l > uint64(len(m)-n) {
				return errProto
			}
			fd.b, m = m[n:n+int(l)], m[n+int(l):]
		case 5:
			if len(m) < 4 {
				return errProto
			}
			fd.v, m = uint64(binary.LittleEndian.Uint32(m)), m[4:]
		default:
			return errProto
		}
		if err := f(fd); err != nil {
			return err
		}
	}
	return nil
}

// pbInts appends a repeated int64 field's values, packed or not.
func pbInts(fd pbField, to []int64) ([]int64, error) {
	if fd.wire == 0 {
		return append(to, int64(fd.v)), nil
	}
	if fd.wire != 2 {
		return to, errProto
	}
	b := fd.b
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return to, errProto
		}
		to, b = append(to, int64(v)), b[n:]
	}
	return to, nil
}

// pbFloats appends a repeated float field's values, packed or not.
func pbFloats(fd pbField, to []float32) ([]float32, error) {
	if fd.wire == 5 {
		return append(to, math.Float32frombits(uint32(fd.v))), nil
	}
	if fd.wire != 2 || len(fd.b)%4 != 0 {
		return to, errProto
	}
	for i := 0; i < len(fd.b); i += 4 {
		to = append(to, math.Float32frombits(binary.LittleEndian.Uint32(fd.b[i:])))
	}
	return to, nil
}

// ONNX's element types the reader's files use.
const (
	onnxFloat = 1
	onnxInt64 = 7
)

func parseTensor(b []byte) (name string, t *onnxTensor, err error) {
	t = &onnxTensor{}
	var dtype uint64
	var raw []byte
	err = pbFields(b, func(fd pbField) error {
		var err error
		switch fd.num {
		case 1:
			t.dims, err = pbInts(fd, t.dims)
		case 2:
			dtype = fd.v
		case 4:
			t.floats, err = pbFloats(fd, t.floats)
		case 7:
			t.ints, err = pbInts(fd, t.ints)
		case 8:
			name = string(fd.b)
		case 9:
			raw = fd.b
		case 13, 14:
			return fmt.Errorf("tensor %q: external data is not supported", name)
		}
		return err
	})
	if err != nil {
		return "", nil, err
	}
	switch dtype {
	case onnxFloat:
		if raw != nil {
			if len(raw)%4 != 0 {
				return "", nil, errProto
			}
			for i := 0; i < len(raw); i += 4 {
				t.floats = append(t.floats, math.Float32frombits(binary.LittleEndian.Uint32(raw[i:])))
			}
		}
	case onnxInt64:
		if raw != nil {
			if len(raw)%8 != 0 {
				return "", nil, errProto
			}
			for i := 0; i < len(raw); i += 8 {
				t.ints = append(t.ints, int64(binary.LittleEndian.Uint64(raw[i:])))
			}
		}
	default:
		return "", nil, fmt.Errorf("tensor %q: element type %d is not supported", name, dtype)
	}
	n := int64(1)
	for _, d := range t.dims {
		if d < 0 || d > 1<<24 || n*d > 1<<24 {
			return "", nil, fmt.Errorf("tensor %q: dims %v", name, t.dims)
		}
		n *= d
	}
	if got := int64(len(t.floats) + len(t.ints)); got != n {
		return "", nil, fmt.Errorf("tensor %q: %d values for dims %v", name, got, t.dims)
	}
	return name, t, nil
}

func parseNode(b []byte) (onnxNode, error) {
	nd := onnxNode{ints: map[string][]int64{}, floats: map[string][]float32{}, strs: map[string]string{}}
	err := pbFields(b, func(fd pbField) error {
		switch fd.num {
		case 1:
			nd.inputs = append(nd.inputs, string(fd.b))
		case 2:
			nd.outputs = append(nd.outputs, string(fd.b))
		case 4:
			nd.op = string(fd.b)
		case 5:
			return parseAttribute(fd.b, &nd)
		}
		return nil
	})
	return nd, err
}

func parseAttribute(b []byte, nd *onnxNode) error {
	var name string
	var ints []int64
	var floats []float32
	var tensor *onnxTensor
	var str []byte
	err := pbFields(b, func(fd pbField) error {
		var err error
		switch fd.num {
		case 1:
			name = string(fd.b)
		case 2:
			floats = append(floats, math.Float32frombits(uint32(fd.v)))
		case 3:
			ints = append(ints, int64(fd.v))
		case 4:
			str = fd.b
		case 5:
			_, tensor, err = parseTensor(fd.b)
		case 7:
			floats, err = pbFloats(fd, floats)
		case 8:
			ints, err = pbInts(fd, ints)
		}
		return err
	})
	if err != nil {
		return err
	}
	if ints != nil {
		nd.ints[name] = ints
	}
	if floats != nil {
		nd.floats[name] = floats
	}
	if str != nil {
		nd.strs[name] = string(str)
	}
	if tensor != nil && name == "value" {
		nd.tensor = tensor
	}
	return nil
}

// parseONNX reads a model file's graph.
func parseONNX(file []byte) (*onnxGraph, error) {
	var graph []byte
	err := pbFields(file, func(fd pbField) error {
		if fd.num == 7 && fd.wire == 2 {
			graph = fd.b
		}
		return nil
	})
	if err != nil || graph == nil {
		return nil, fmt.Errorf("reading an ONNX model: no graph (%v)", err)
	}
	g := &onnxGraph{consts: map[string]*onnxTensor{}}
	var inputs []string
	err = pbFields(graph, func(fd pbField) error {
		switch fd.num {
		case 1:
			nd, err := parseNode(fd.b)
			if err != nil {
				return err
			}
			if nd.op == "Constant" && nd.tensor != nil && len(nd.outputs) == 1 {
				g.consts[nd.outputs[0]] = nd.tensor
				return nil
			}
			g.nodes = append(g.nodes, nd)
		case 5:
			name, t, err := parseTensor(fd.b)
			if err != nil {
				return err
			}
			g.consts[name] = t
		case 11:
			return pbFields(fd.b, func(f pbField) error {
				if f.num == 1 {
					inputs = append(inputs, string(f.b))
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading an ONNX model: %w", err)
	}
	for _, in := range inputs {
		if g.consts[in] == nil {
			g.inputs = append(g.inputs, in)
		}
	}
	return g, nil
}
