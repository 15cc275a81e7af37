package vision

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

func TestCellNetFileRoundTrip(t *testing.T) {
	data := trainedNet(t)
	var n cellNet
	if err := n.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if len(n.w1) != len(builtinNet.w1) || n.w2[5] != builtinNet.w2[5] || n.sd[3] != builtinNet.sd[3] {
		t.Error("round trip changed the network")
	}
}

// trainedNet gives the built-in network's file form, failing the test when
// cellnet.bin does not load.
func trainedNet(tb testing.TB) []byte {
	tb.Helper()
	if builtinNet == nil {
		tb.Fatal("cellnet.bin does not load: train it (go test -run TestTrainCellNet ./vision -trainnet 1-2000)")
	}
	data, err := builtinNet.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestCellNetFileErrors(t *testing.T) {
	good := trainedNet(t)
	nan := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(nan[100:], math.Float32bits(float32(math.NaN())))
	sizes := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(sizes[4:], 7)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a network file"},
		{"other file", []byte("\x89PNG\r\n\x1a\n0000000000"), "not a network file"},
		{"other sizes", sizes, "train it again"},
		{"truncated", good[:len(good)-3], "bytes, want"},
		{"not a number", nan, "not a number"},
	} {
		var n cellNet
		err := n.UnmarshalBinary(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error about %q", c.name, err, c.want)
		}
	}
}

func FuzzCellNetUnmarshal(f *testing.F) {
	good := trainedNet(f)
	f.Add(good[:64])
	f.Add([]byte(netMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n cellNet
		if err := n.UnmarshalBinary(data); err == nil && len(n.w1) != netHidden*netInputs {
			t.Fatal("accepted a network of the wrong shape")
		}
	})
}

// TestCellNetHelps: on check frames never trained on, with the true
// corners, the network reads clearly more cells right than render and
// compare alone.
func TestCellNetHelps(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	count := func(net *cellNet) (right int) {
		defer func(f func() *cellNet) { cellNetInUse = f }(cellNetInUse)
		cellNetInUse = func() *cellNet { return net }
		for s := int64(20200); s < 20220; s++ {
			m, truth := simFrame(t, s)
			res, err := r.ReadWithCorners(m, truth.Corners)
			m.Close()
			if err != nil {
				t.Fatal(err)
			}
			for i := range res.Board {
				if res.Board[i] == truth.Board[i] {
					right++
				}
			}
		}
		return right
	}
	without, with := count(nil), count(builtinNet)
	t.Logf("cells right of 500: %d by render and compare, %d with the network", without, with)
	if with < without+10 {
		t.Errorf("network: %d cells right, want at least %d (render and compare alone %d)", with, without+10, without)
	}
}
