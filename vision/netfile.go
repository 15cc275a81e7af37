package vision

import (
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
)

// The networks' files hold their arrays as little-endian float32s, one
// array after another, after a header of their own.

// appendFloats appends the arrays' values to out.
func appendFloats(out []byte, arrays ...[]float32) []byte {
	for _, a := range arrays {
		for _, v := range a {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
	}
	return out
}

// errNotANumber is readFloats' error for a NaN or infinite value.
var errNotANumber = errors.New("a weight is not a number")

// readFloats reads arrays of the given sizes from p, which must hold at
// least their total; every value must be finite.
func readFloats(p []byte, sizes []int) ([][]float32, error) {
	arrays := make([][]float32, len(sizes))
	for k, s := range sizes {
		a := make([]float32, s)
		for j := range a {
			v := math.Float32frombits(binary.LittleEndian.Uint32(p))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, errNotANumber
			}
			a[j] = v
			p = p[4:]
		}
		arrays[k] = a
	}
	return arrays, nil
}

// netFile describes a network's file form: a magic, the layer sizes, then
// the arrays (the standardisation's means and deviations first).
type netFile struct {
	magic, name string // name starts the errors: "cell network"
	dims        []uint32
	sizes       []int // the arrays' lengths
}

// size is the file form's length.
func (f netFile) size() int {
	n := len(f.magic) + 4*len(f.dims)
	for _, s := range f.sizes {
		n += 4 * s
	}
	return n
}

// marshal gives the file form of arrays, which must have f's lengths.
func (f netFile) marshal(arrays ...[]float32) ([]byte, error) {
	if len(arrays) != len(f.sizes) {
		return nil, fmt.Errorf("%s: %d arrays, want %d", f.name, len(arrays), len(f.sizes))
	}
	for k, a := range arrays {
		if len(a) != f.sizes[k] {
			return nil, fmt.Errorf("%s: array %d has %d values, want %d", f.name, k, len(a), f.sizes[k])
		}
	}
	out := []byte(f.magic)
	for _, d := range f.dims {
		out = binary.LittleEndian.AppendUint32(out, d)
	}
	return appendFloats(out, arrays...), nil
}

// unmarshal reads marshal's form; other layer sizes than f's are an error
// (the inputs changed: train it again), as are values that are not
// numbers and deviations that are not positive.
func (f netFile) unmarshal(data []byte) ([][]float32, error) {
	head := len(f.magic) + 4*len(f.dims)
	if len(data) < head || string(data[:len(f.magic)]) != f.magic {
		return nil, fmt.Errorf("%s: not a network file", f.name)
	}
	got, want := make([]string, len(f.dims)), make([]string, len(f.dims))
	same := true
	for k, d := range f.dims {
		v := binary.LittleEndian.Uint32(data[len(f.magic)+4*k:])
		got[k], want[k] = fmt.Sprint(v), fmt.Sprint(d)
		same = same && v == d
	}
	if !same {
		return nil, fmt.Errorf("%s: sizes %s, this build needs %s (train it again)", f.name, strings.Join(got, "x"), strings.Join(want, "x"))
	}
	if len(data) != f.size() {
		return nil, fmt.Errorf("%s: %d bytes, want %d", f.name, len(data), f.size())
	}
	arrays, err := readFloats(data[head:], f.sizes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.name, err)
	}
	for _, sd := range arrays[1] {
		if sd <= 0 {
			return nil, fmt.Errorf("%s: a standard deviation is not positive", f.name)
		}
	}
	return arrays, nil
}

// ours reports whether data starts with f's magic and this build's layer
// sizes.
func (f netFile) ours(data []byte) bool {
	head := len(f.magic) + 4*len(f.dims)
	if len(data) < head || string(data[:len(f.magic)]) != f.magic {
		return false
	}
	for k, d := range f.dims {
		if binary.LittleEndian.Uint32(data[len(f.magic)+4*k:]) != d {
			return false
		}
	}
	return true
}

// parseNets reads one or more networks of f's file form, back to back
// (so cat joins their files), each by read.
func parseNets[T any](data []byte, f netFile, read func([]byte) (T, error)) ([]T, error) {
	if !f.ours(data) {
		// Not this build's network: one network's errors say why.
		if _, err := read(data); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: not a network file", f.name)
	}
	size := f.size()
	if len(data)%size != 0 {
		return nil, fmt.Errorf("%s: %d bytes is not a whole number of networks of %d bytes", f.name, len(data), size)
	}
	var ns []T
	for p := data; len(p) > 0; p = p[size:] {
		n, err := read(p[:size])
		if err != nil {
			return nil, fmt.Errorf("network %d of the file: %w", len(ns)+1, err)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

// marshalNets gives networks' file forms one after another.
func marshalNets[T encoding.BinaryMarshaler](ns []T) ([]byte, error) {
	var out []byte
	for _, n := range ns {
		b, err := n.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}
