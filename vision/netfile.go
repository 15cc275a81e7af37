package vision

import (
	"encoding/binary"
	"errors"
	"math"
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
