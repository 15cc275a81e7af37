package vision

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"companion/sim"
)

var (
	trainNet    = flag.String("trainnet", "", "train the cell network on these sim seeds (ranges a-b,c-d; never 5000-5039 or 100000-299999) and rewrite cellnet.bin")
	valNet      = flag.String("valnet", "20000-20299", "with -trainnet: the seeds it is checked on")
	netCache    = flag.String("netcache", "", "with -trainnet: keep the collected features in this folder")
	netEpochs   = flag.Int("netepochs", 20, "with -trainnet: training epochs")
	netNoWrite  = flag.Bool("netnowrite", false, "with -trainnet: do not rewrite cellnet.bin")
	netLearning = flag.Float64("netlr", 1e-3, "with -trainnet: Adam's step size")
	// Trained on seeds 1-4000, 3e-4 read 94.16 % of the check seeds' cells
	// right, against 93.18 % at 3e-3 (the loss stalled until the step size
	// fell), 93.81 % at 1e-3 over 30 epochs, 93.96 % at 1e-4 and 93.55 % at
	// 3e-5; on seeds 1-4000 and 5040-7999, 94.66 %. The shipped pair
	// (-netcount 2 -netnear, seeds 1-4999 and 5040-9999, 10 epochs): 94.95 %
	// and 95.06 % alone, 95.29 % averaged.
	netDecay  = flag.Float64("netdecay", 3e-4, "with -trainnet: weight decay")
	netOut    = flag.String("netout", "cellnet.bin", "with -trainnet: where the network is written")
	netSeed   = flag.Int64("netseed", 1, "with -trainnet: the seed of the weights' start and the batches' order")
	netEns    = flag.String("netens", "", "with -valnet: network files, comma-separated, whose average is checked")
	netCount  = flag.Int("netcount", 1, "with -trainnet: how many networks (seeds -netseed on) are trained and averaged")
	netNear   = flag.Bool("netnear", false, "with -trainnet: also train on the cells read near knocked true corners")
	netInit   = flag.String("netinit", "", "with -trainnet: start from these networks' weights and standardisation (the k-th network from the k-th of the file)")
	netMirror = flag.Bool("netmirror", false, "with -trainnet: train on each cell and its mirror image (mirrorInputs), in turn by epoch")
)

// seedRange reads seeds "a-b"; training seeds must not be the hold-out's
// or the regression suite's.
func seedRange(t *testing.T, rg string, training bool) (a, b int64) {
	if _, err := fmt.Sscanf(rg, "%d-%d", &a, &b); err != nil {
		t.Fatalf("seeds %q: want a-b", rg)
	}
	if training && (sim.TouchesHoldOut(a, b) || (a <= 5039 && b >= 5000)) {
		t.Fatalf("seeds %d-%d are the hold-outs and 5000-5039 the regression suite: never train on them", sim.HoldOutFirst, sim.HoldOutLast)
	}
	return a, b
}

// collectRange is collectCells over seeds "a-b", and with -netnear
// collectNearCells too.
func collectRange(t *testing.T, rg string) []netSample {
	a, b := seedRange(t, rg, true)
	out := collectCells(t, a, b)
	if *netNear {
		out = append(out, cachedCells(t, fmt.Sprintf("near-%d-%d-%d", a, b, netInputs), func() []netSample { return collectNearCells(t, a, b) })...)
	}
	return out
}

// collectCheck is the check seeds' cells (-valnet), as collectCells.
func collectCheck(t *testing.T) []netSample {
	var a, b int64
	if _, err := fmt.Sscanf(*valNet, "%d-%d", &a, &b); err != nil {
		t.Fatalf("check seeds %q: want a-b", *valNet)
	}
	return collectCells(t, a, b)
}

// collectNearCells reads each seed near its true corners knocked by up to
// a tenth of a pitch, as at the table with the camera unmoved, and gives
// every cell's inputs with its truth when the grid is right. The grids
// refined there are off by a few hundredths of a pitch, with a long tail,
// unlike the random knocks of netJitter; the network learns to read
// through them.
func collectNearCells(t *testing.T, a, b int64) []netSample {
	defer func(f func() cellNets) { cellNetInUse = f }(cellNetInUse)
	cellNetInUse = func() cellNets { return nil }
	r := NewReader()
	defer r.Close()
	var out []netSample
	for s := a; s <= b; s++ {
		m, truth := simFrame(t, s)
		rng := rand.New(rand.NewSource(s + 1))
		res, err := r.ReadNear(m, sim.Nudge(truth.Corners, 0.1, rng))
		m.Close()
		pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
		if err != nil || cornerErr(res.Corners, truth.Corners) >= pitch/4 {
			continue
		}
		var want [25]int
		for i, sq := range truth.Board {
			want[i] = hypIndex(sq)
		}
		out = appendCells(out, r, want)
	}
	return out
}

// appendCells appends the last reading's cells: each cell's network
// inputs with its true hypothesis.
func appendCells(out []netSample, r *Reader, want [25]int) []netSample {
	for i := 0; i < 25; i++ {
		x := make([]float32, netInputs)
		copy(x, r.cc.netRow(0, i))
		out = append(out, netSample{x, want[i]})
	}
	return out
}

// cachedCells gives the samples kept under name in -netcache, collecting
// and keeping them when they are not there.
func cachedCells(t *testing.T, name string, collect func() []netSample) []netSample {
	if *netCache == "" {
		return collect()
	}
	path := fmt.Sprintf("%s/cells-%s.gob", *netCache, name)
	var out []netSample
	if loadGob(path, &out) {
		return out
	}
	out = collect()
	keepGob(t, path, out)
	return out
}

// netJitter are the spreads (pitches) of the corners moved at random, one
// reading each, besides the true corners and the grid found.
var netJitter = []float64{0.02, 0.04}

// netSample is one cell's network inputs and its true hypothesis.
type netSample struct {
	X []float32
	Y int
}

// trainCell is a training cell held in half the memory: its inputs
// rounded to bfloat16 (a float32's top half, 8 bits of mantissa: far finer
// than the inputs' noise: a network trained so reads as one trained on
// float32). Held as float32, 9960 seeds' 1.2 million cells took 21 GB of
// this 23 GB machine; packed, 14960 seeds' 1.8 million loaded in 20 GB.
type trainCell struct {
	x []uint16
	y uint8
}

// packCells appends the samples packed (trainCell).
func packCells(out []trainCell, in []netSample) []trainCell {
	for _, s := range in {
		x := make([]uint16, len(s.X))
		for j, v := range s.X {
			x[j] = toBfloat16(v)
		}
		out = append(out, trainCell{x, uint8(s.Y)})
	}
	return out
}

// toBfloat16 rounds v to the nearest bfloat16, ties to even.
func toBfloat16(v float32) uint16 {
	b := math.Float32bits(v)
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

func fromBfloat16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// unpack writes the cell's inputs into dst.
func (c trainCell) unpack(dst []float32) {
	for j, h := range c.x {
		dst[j] = fromBfloat16(h)
	}
}

// collectCells reads each seed with the true corners, and with the grid
// the reader finds when that grid is right (every corner within a quarter
// pitch), and gives every cell's inputs with its truth. Render and compare
// alone decides while collecting.
func collectCells(t *testing.T, a, b int64) []netSample {
	return cachedCells(t, fmt.Sprintf("%d-%d-%d-j%d", a, b, netInputs, len(netJitter)), func() []netSample { return collectCellsNow(t, a, b) })
}

func collectCellsNow(t *testing.T, a, b int64) []netSample {
	defer func(f func() cellNets) { cellNetInUse = f }(cellNetInUse)
	cellNetInUse = func() cellNets { return nil }
	r := NewReader()
	defer r.Close()
	var out []netSample
	add := func(want [25]int) { out = appendCells(out, r, want) }
	for s := a; s <= b; s++ {
		m, truth := simFrame(t, s)
		var want [25]int
		for i, sq := range truth.Board {
			want[i] = hypIndex(sq)
		}
		if _, err := r.ReadWithCorners(m, truth.Corners); err != nil {
			t.Fatal(err)
		}
		add(want)
		pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
		res, err := r.Read(m)
		if err == nil && cornerErr(res.Corners, truth.Corners) < pitch/4 {
			add(want)
		}
		// The grids found are a few hundredths of a pitch off: corners
		// moved that much teach the network to read through it.
		rng := rand.New(rand.NewSource(s))
		for _, sd := range netJitter {
			c := truth.Corners
			for k := range c {
				c[k][0] += rng.NormFloat64() * sd * pitch
				c[k][1] += rng.NormFloat64() * sd * pitch
			}
			if _, err := r.ReadWithCorners(m, c); err != nil {
				t.Fatal(err)
			}
			add(want)
		}
		m.Close()
	}
	return out
}

// TestTrainCellNet trains the cell network (development step; rewrites
// cellnet.bin). It prints the check seeds' cells read right by render
// and compare alone and by the network.
func TestTrainCellNet(t *testing.T) {
	if *trainNet == "" {
		t.Skip("run with -trainnet A-B [-valnet C-D] [-netcache DIR]")
	}
	var train []trainCell
	var val []netSample
	// The float32 cells of each cache file are garbage once packed: the
	// heap would grow to twice what is live before collecting them (9960
	// seeds' cells ran the 23 GB machine out of memory).
	gcWas := debug.SetGCPercent(25)
	for _, rg := range strings.Split(*trainNet, ",") {
		train = packCells(train, collectRange(t, rg))
	}
	debug.SetGCPercent(gcWas)
	debug.FreeOSMemory()
	val = collectCheck(t)
	t.Logf("%d training cells, %d check cells", len(train), len(val))
	var nets cellNets
	for k := 0; k < *netCount; k++ {
		var from *cellNet
		if *netInit != "" {
			data, err := os.ReadFile(*netInit)
			if err != nil {
				t.Fatal(err)
			}
			init, err := parseCellNets(data)
			if err != nil || k >= len(init) {
				t.Fatalf("-netinit %s: network %d: %v", *netInit, k+1, err)
			}
			from = init[k]
		}
		n := fitNet(train, val, from, *netEpochs, *netLearning, *netSeed+int64(k), t.Logf)
		temp := calibrateNet(n, val)
		t.Logf("network %d: temperature %.2f", k+1, temp)
		t.Logf("check cells right: render and compare %.2f%%, network %.2f%%", 100*rcAccuracy(val), 100*netAccuracy(n, val))
		nets = append(nets, n)
		if len(nets) > 1 {
			t.Logf("check cells right by the %d networks' average: %.2f%%", len(nets), 100*netsAccuracy(nets, val))
		}
		if *netNoWrite {
			continue
		}
		// Written after each network, so that a stopped run keeps those
		// done.
		data, _ := nets.MarshalBinary()
		if err := os.WriteFile(*netOut, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// netsAccuracy is the share of samples whose truth the networks' average
// ranks first.
func netsAccuracy(ns cellNets, v []netSample) float64 {
	xs, hid := make([]float32, netInputs), make([]float32, netHidden)
	right := 0
	var lp [nHyp]float64
	for _, s := range v {
		ns.forward(s.X, xs, hid, &lp)
		if argmax(lp[:]) == s.Y {
			right++
		}
	}
	return float64(right) / float64(len(v))
}

// rcAccuracy is the share of samples whose best render and compare score
// is the truth's.
func rcAccuracy(v []netSample) float64 {
	right := 0
	for _, s := range v {
		sc := s.X[netScoresAt : netScoresAt+nHyp]
		best := 0
		for k := range sc {
			if sc[k] > sc[best] {
				best = k
			}
		}
		if best == s.Y {
			right++
		}
	}
	return float64(right) / float64(len(v))
}

// calibrateNet scales the network's outputs by the temperature that fits
// the check cells' truths best (least cross-entropy), so that its
// probabilities, the cells' confidences, mean what they say; it gives the
// temperature.
func calibrateNet(n *cellNet, v []netSample) float64 {
	xs, hid := make([]float32, netInputs), make([]float32, netHidden)
	logits := make([][nHyp]float64, len(v))
	for i, s := range v {
		n.forward(s.X, xs, hid, &logits[i])
	}
	nll := func(temp float64) float64 {
		var sum float64
		for i, s := range v {
			mx := math.Inf(-1)
			for _, l := range logits[i] {
				mx = math.Max(mx, l/temp)
			}
			var z float64
			for _, l := range logits[i] {
				z += math.Exp(l/temp - mx)
			}
			sum -= logits[i][s.Y]/temp - mx - math.Log(z)
		}
		return sum
	}
	best, bestT := math.Inf(1), 1.0
	for temp := 0.5; temp <= 4; temp += 0.05 {
		if l := nll(temp); l < best {
			best, bestT = l, temp
		}
	}
	for j := range n.w2 {
		n.w2[j] /= float32(bestT)
	}
	for j := range n.b2 {
		n.b2[j] /= float32(bestT)
	}
	return bestT
}

// mixAccuracy is netAccuracy with the render and compare log-softmax added
// at weight w.
func mixAccuracy(n *cellNet, v []netSample, w float64) float64 {
	right := 0
	xs, hid := make([]float32, netInputs), make([]float32, netHidden)
	var lp [nHyp]float64
	for _, s := range v {
		n.forward(s.X, xs, hid, &lp)
		sc := s.X[netScoresAt : netScoresAt+nHyp]
		best := 0
		for k := range lp {
			lp[k] += w * float64(sc[k])
			if lp[k] > lp[best] {
				best = k
			}
		}
		if best == s.Y {
			right++
		}
	}
	return float64(right) / float64(len(v))
}

func netAccuracy(n *cellNet, v []netSample) float64 { return mixAccuracy(n, v, 0) }

// netWorker holds one goroutine's scratch and gradients.
type netWorker struct {
	grads   [][]float32 // as fitNet's params: w1, b1, w2, b2
	xs, hid []float32
	dh      []float32
	loss    float64
	x       []float32 // a sample's inputs, unpacked
	mirror  []float32 // a sample's mirror image (mirrorInputs)
}

func newNetWorker(params [][]float32) *netWorker {
	w := &netWorker{xs: make([]float32, netInputs), hid: make([]float32, netHidden), dh: make([]float32, netHidden), x: make([]float32, netInputs), mirror: make([]float32, netInputs)}
	for _, p := range params {
		w.grads = append(w.grads, make([]float32, len(p)))
	}
	return w
}

// gradients sets the worker's gradients of the cross-entropy summed over
// the samples picked, and its loss.
func (wk *netWorker) gradients(n *cellNet, train []trainCell, picked []int, epoch int) {
	for _, g := range wk.grads {
		for j := range g {
			g[j] = 0
		}
	}
	wk.loss = 0
	var out [nHyp]float64
	xs, hid, dh := wk.xs, wk.hid, wk.dh
	for _, idx := range picked {
		c := train[idx]
		c.unpack(wk.x)
		s := netSample{wk.x, int(c.y)}
		if *netMirror && (idx+epoch)%2 == 1 {
			mirrorInputs(wk.mirror, s.X)
			s.X = wk.mirror
		}
		n.forward(s.X, xs, hid, &out)
		wk.loss -= out[s.Y]
		// Output gradient: softmax minus one-hot.
		for h := range dh {
			dh[h] = 0
		}
		for k := 0; k < nHyp; k++ {
			g := float32(math.Exp(out[k]))
			if k == s.Y {
				g--
			}
			wk.grads[3][k] += g
			w := n.w2[k*netHidden : (k+1)*netHidden]
			gw := wk.grads[2][k*netHidden : (k+1)*netHidden]
			for h, v := range hid {
				gw[h] += g * v
				dh[h] += g * w[h]
			}
		}
		for h := 0; h < netHidden; h++ {
			if hid[h] <= 0 {
				continue
			}
			g := dh[h]
			wk.grads[1][h] += g
			gw := wk.grads[0][h*netInputs : (h+1)*netInputs]
			for j, v := range xs {
				gw[j] += g * v
			}
		}
	}
}

// freshNet is a network standardised over the training cells, its
// weights drawn from rng.
func freshNet(train []trainCell, rng *rand.Rand) *cellNet {
	n := &cellNet{
		mean: make([]float32, netInputs), sd: make([]float32, netInputs),
		w1: make([]float32, netHidden*netInputs), b1: make([]float32, netHidden),
		w2: make([]float32, nHyp*netHidden), b2: make([]float32, nHyp),
	}
	// Standardise each input over the training cells.
	s, s2 := make([]float64, netInputs), make([]float64, netInputs)
	for _, c := range train {
		for j, h := range c.x {
			v := float64(fromBfloat16(h))
			s[j] += v
			s2[j] += v * v
		}
	}
	for j := range s {
		m := s[j] / float64(len(train))
		n.mean[j] = float32(m)
		n.sd[j] = float32(math.Sqrt(math.Max(s2[j]/float64(len(train))-m*m, 0)) + 1e-3)
	}
	for j := range n.w1 {
		n.w1[j] = float32(rng.NormFloat64() * math.Sqrt(2/float64(netInputs)))
	}
	for j := range n.w2 {
		n.w2[j] = float32(rng.NormFloat64() * math.Sqrt(1/float64(netHidden)))
	}
	return n
}

// fitNet trains a network by Adam on minibatches of the cross-entropy.
// A network from is trained on, standardisation and all (nil: afresh).
func fitNet(train []trainCell, val []netSample, from *cellNet, epochs int, lr float64, seed int64, logf func(string, ...any)) *cellNet {
	rng := rand.New(rand.NewSource(seed))
	n := from
	if n == nil {
		n = freshNet(train, rng)
	}
	params := [][]float32{n.w1, n.b1, n.w2, n.b2}
	opt := newAdam(params, float32(*netDecay))
	// Each worker takes a share of every minibatch into its own gradients.
	workers := make([]*netWorker, max(1, runtime.NumCPU()))
	for w := range workers {
		workers[w] = newNetWorker(params)
	}
	const batch = 64
	order := rng.Perm(len(train))
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		rate := lr
		if ep >= epochs*3/4 {
			rate = lr / 10
		}
		var loss float64
		for at := 0; at < len(order); at += batch {
			end := min(at+batch, len(order))
			var wg sync.WaitGroup
			share := (end - at + len(workers) - 1) / len(workers)
			for w, wk := range workers {
				lo, hi := at+w*share, min(at+(w+1)*share, end)
				wg.Add(1)
				go func() {
					defer wg.Done()
					wk.gradients(n, train, order[min(lo, hi):hi], ep)
				}()
			}
			wg.Wait()
			grads := workers[0].grads
			for _, wk := range workers {
				loss += wk.loss
				if wk == workers[0] {
					continue
				}
				for k := range grads {
					for j, v := range wk.grads[k] {
						grads[k][j] += v
					}
				}
			}
			opt.step(grads, rate, 1/float32(end-at))
		}
		if ep%5 == 4 || ep == epochs-1 {
			logf("epoch %d: loss %.4f, check cells right %.2f%%", ep+1, loss/float64(len(train)), 100*netAccuracy(n, val))
		}
	}
	return n
}

// TestCheckEnsemble prints the check seeds' cells read right by each
// network of -netens and by their average (development step).
func TestCheckEnsemble(t *testing.T) {
	if *netEns == "" {
		t.Skip("run with -netens A.bin,B.bin [-valnet C-D] [-netcache DIR]")
	}
	var nets []*cellNet
	for _, f := range strings.Split(*netEns, ",") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var n cellNet
		if err := n.UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		nets = append(nets, &n)
		t.Logf("%s: %d", f, len(nets))
	}
	val := collectCheck(t)
	xs, hid := make([]float32, netInputs), make([]float32, netHidden)
	right := make([]int, len(nets)+1)
	for _, s := range val {
		var sum, lp [nHyp]float64
		for i, n := range nets {
			n.forward(s.X, xs, hid, &lp)
			if argmax(lp[:]) == s.Y {
				right[i]++
			}
			for k := range sum {
				sum[k] += lp[k]
			}
		}
		if argmax(sum[:]) == s.Y {
			right[len(nets)]++
		}
	}
	for i, r := range right {
		name := "average"
		if i < len(nets) {
			name = strings.Split(*netEns, ",")[i]
		}
		t.Logf("%s: %.2f%% of %d check cells right", name, 100*float64(r)/float64(len(val)), len(val))
	}
}

func argmax(v []float64) int {
	best := 0
	for k := range v {
		if v[k] > v[best] {
			best = k
		}
	}
	return best
}

// mirrorInputs writes into dst the inputs of cell x's mirror image across
// the board's columns: the world mirrored left to right is as plausible a
// scene (the pieces are symmetric, the lamps anywhere), so the mirror of
// a training cell is another training cell for free. The sample points
// swap columns, the camera's side flips; the colours' meanings, the
// cover by nearer cells and render and compare's scores stay.
func mirrorInputs(dst, x []float32) {
	for z := 0; z < netHeights; z++ {
		for gy := 0; gy < netGrid; gy++ {
			for gx := 0; gx < netGrid; gx++ {
				from := ((z*netGrid+gy)*netGrid + gx) * netPerPoint
				to := ((z*netGrid+gy)*netGrid + netGrid - 1 - gx) * netPerPoint
				copy(dst[to:to+netPerPoint], x[from:from+netPerPoint])
			}
		}
	}
	copy(dst[netScoresAt:netInputs], x[netScoresAt:netInputs])
	dst[netScoresAt+nHyp] = -x[netScoresAt+nHyp] // the camera's side, across the columns
}

func TestBfloat16Rounds(t *testing.T) {
	for _, tc := range []struct {
		in, want float32
	}{
		{0, 0},
		{1, 1},
		{-2.5, -2.5},
		{1 + 1.0/512, 1},           // below half a step: down
		{1 + 3.0/512, 1 + 1.0/128}, // above half a step: up
		{1 + 1.0/256, 1},           // a tie: to the even mantissa
		{1 + 3.0/256, 1 + 1.0/64},  // a tie: to the even mantissa, up
		{0.1, 0.10009765625},       // the nearest bfloat16
		{-1234.5, -1232},           // 8 bits of mantissa
	} {
		if got := fromBfloat16(toBfloat16(tc.in)); got != tc.want {
			t.Errorf("bfloat16(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
