package vision

import (
	"encoding/binary"
	"math"
	"math/rand"
	"strings"
	"testing"
)

func TestCellNetFileRoundTrip(t *testing.T) {
	data := trainedNet(t)
	ns, err := parseCellNets(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != len(builtinNet) {
		t.Fatalf("round trip gave %d networks, want %d", len(ns), len(builtinNet))
	}
	for i, n := range ns {
		b := builtinNet[i]
		if len(n.w1) != len(b.w1) || n.w2[5] != b.w2[5] || n.sd[3] != b.sd[3] {
			t.Errorf("round trip changed network %d", i+1)
		}
	}
}

// TestCellNetsAverage: two copies of a network read as it does, and a
// network averaged with a different one gives log-probabilities that sum
// to one in probability.
func TestCellNetsAverage(t *testing.T) {
	one := builtinNet[0]
	other := *one
	other.b2 = append([]float32(nil), one.b2...)
	other.b2[3] += 2
	x := make([]float32, netInputs)
	for j := range x {
		x[j] = one.mean[j] + float32(j%7-3)*one.sd[j]/3
	}
	xs, hid := make([]float32, netInputs), make([]float32, netHidden)
	var want, got, mixed [nHyp]float64
	one.forward(x, xs, hid, &want)
	cellNets{one, one}.forward(x, xs, hid, &got)
	cellNets{one, &other}.forward(x, xs, hid, &mixed)
	var z float64
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-9 {
			t.Errorf("hypothesis %d: two copies give %v, one %v", k, got[k], want[k])
		}
		z += math.Exp(mixed[k])
	}
	if math.Abs(z-1) > 1e-9 {
		t.Errorf("averaged probabilities sum to %v", z)
	}
	if mixed[3] <= want[3] {
		t.Errorf("raising one network's hypothesis 3 did not raise the average's (%v, was %v)", mixed[3], want[3])
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
	good := trainedNet(t)[:netFileSize] // one network
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
		{"truncated", good[:len(good)-3], "not a whole number of networks"},
		{"not a number", nan, "not a number"},
		{"one and a bit", append(append([]byte(nil), good...), good[:20]...), "whole number of networks"},
		{"second not a number", append(append([]byte(nil), good...), nan...), "network 2 of the file"},
	} {
		_, err := parseCellNets(c.data)
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
		ns, err := parseCellNets(data)
		if err == nil && len(ns) == 0 {
			t.Fatal("accepted a file of no networks")
		}
		for _, n := range ns {
			if len(n.w1) != netHidden*netInputs {
				t.Fatal("accepted a network of the wrong shape")
			}
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
	count := func(net cellNets) (right int) {
		defer func(f func() cellNets) { cellNetInUse = f }(cellNetInUse)
		cellNetInUse = func() cellNets { return net }
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

// TestCellNetKernel: the C kernel, one input or many at once, gives the
// Go loop's log-probabilities, inputs far out of range (clipped) included.
func TestCellNetKernel(t *testing.T) {
	fast := builtinNet[0]
	if fast.w1t == nil {
		t.Fatal("the built-in network has no transposed weights: the C kernel is unused")
	}
	slow := *fast
	slow.w1t = nil
	const rows = 7
	x := make([]float32, rows*netInputs)
	for j := range x {
		k := j % netInputs
		x[j] = fast.mean[k] + float32((j*7919)%13-6)*fast.sd[k]
	}
	xs, hid := make([]float32, len(x)), make([]float32, rows*netHidden)
	got := make([][nHyp]float64, rows)
	fast.forwardRows(x, xs, hid, got)
	for r := 0; r < rows; r++ {
		var want, one [nHyp]float64
		slow.forward(x[r*netInputs:(r+1)*netInputs], xs[:netInputs], hid[:netHidden], &want)
		fast.forward(x[r*netInputs:(r+1)*netInputs], xs[:netInputs], hid[:netHidden], &one)
		for k := range want {
			if math.Abs(got[r][k]-want[k]) > 1e-3 || math.Abs(one[k]-want[k]) > 1e-3 {
				t.Errorf("row %d hypothesis %d: kernel %v (one at a time %v), Go %v", r, k, got[r][k], one[k], want[k])
			}
		}
	}
	// Buffers too short: the kernel declines and the Go loop answers.
	if fast.hiddenFast(x, xs[:10], hid) {
		t.Error("the kernel ran with a short scratch")
	}
}

// TestCellNetKernelRowsAlike: the kernel's versions (four rows at a time
// on AVX-512, one at a time elsewhere) give the same bits for every row
// count, the remainder rows included, where both fuse multiply-adds.
func TestCellNetKernelRowsAlike(t *testing.T) {
	if !cpuHasFMA {
		t.Skip("without FMA the one-row version rounds differently")
	}
	n := builtinNet[0]
	for _, rows := range []int{1, 3, 4, 5, 9, 125} {
		x := make([]float32, rows*netInputs)
		for j := range x {
			k := j % netInputs
			x[j] = n.mean[k] + float32((j*7919)%13-6)*n.sd[k]*0.37
		}
		xs := make([]float32, len(x))
		fast, slow := make([]float32, rows*netHidden), make([]float32, rows*netHidden)
		if !n.hiddenKernel(x, xs, fast, false) || !n.hiddenKernel(x, xs, slow, true) {
			t.Fatal("the kernel declined buffers of the right size")
		}
		for k := range fast {
			if math.Float32bits(fast[k]) != math.Float32bits(slow[k]) {
				t.Fatalf("%d rows: unit %d of row %d: %v, one row at a time %v", rows, k%netHidden, k/netHidden, fast[k], slow[k])
			}
		}
	}
}

// TestMirrorInputs checks that the mirror image swaps the sample points'
// columns and the camera's side, keeps the rest, and is its own inverse.
func TestMirrorInputs(t *testing.T) {
	x := make([]float32, netInputs)
	for j := range x {
		x[j] = float32(j%97) + 0.5
	}
	m, back := make([]float32, netInputs), make([]float32, netInputs)
	mirrorInputs(m, x)
	point := func(z, gy, gx int) int { return ((z*netGrid+gy)*netGrid + gx) * netPerPoint }
	for _, c := range []struct{ z, gy, gx int }{{0, 0, 0}, {3, 2, 1}, {netHeights - 1, netGrid - 1, netGrid - 1}} {
		for f := 0; f < netPerPoint; f++ {
			if got, want := m[point(c.z, c.gy, netGrid-1-c.gx)+f], x[point(c.z, c.gy, c.gx)+f]; got != want {
				t.Errorf("point %v feature %d: mirrored %v, want %v", c, f, got, want)
			}
		}
	}
	if m[netScoresAt+nHyp] != -x[netScoresAt+nHyp] {
		t.Errorf("camera across the columns: %v, want %v", m[netScoresAt+nHyp], -x[netScoresAt+nHyp])
	}
	for j := netScoresAt; j < netInputs; j++ {
		if j != netScoresAt+nHyp && m[j] != x[j] {
			t.Errorf("input %d changed: %v, want %v", j, m[j], x[j])
		}
	}
	mirrorInputs(back, m)
	for j := range x {
		if back[j] != x[j] {
			t.Fatalf("mirrored twice, input %d is %v, want %v", j, back[j], x[j])
		}
	}
}

// TestCellNetOutputMatchesPlainLoop: the output layer, four sums at a
// time, gives each hypothesis the bits of its sum taken alone.
func TestCellNetOutputMatchesPlainLoop(t *testing.T) {
	n := builtinNet[0]
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 50; trial++ {
		hid := make([]float32, netHidden)
		for h := range hid {
			hid[h] = float32(max(0, rng.NormFloat64()*2))
		}
		var got, want [nHyp]float64
		n.output(hid, &got)
		for k := 0; k < nHyp; k++ {
			s := n.b2[k]
			for h, v := range hid {
				s += n.w2[k*netHidden+h] * v
			}
			want[k] = float64(s)
		}
		logNormalise(&want)
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d hypothesis %d: %v, alone %v", trial, k, got[k], want[k])
			}
		}
	}
}
