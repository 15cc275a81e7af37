package vision

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	trainLook  = flag.String("trainlook", "", "train the second look on these sim seeds (ranges a-b,c-d; seeds the cell networks never saw: 10000-16999)")
	lookCheck  = flag.String("lookcheck", "20000-20299", "with -trainlook: the seeds it is checked on")
	lookCache  = flag.String("lookcache", "", "with -trainlook: keep the collected inputs in this folder")
	lookEpochs = flag.Int("lookepochs", 8, "with -trainlook: training epochs")
	lookLR     = flag.Float64("looklr", 1e-3, "with -trainlook: Adam's step size")
	lookDecay  = flag.Float64("lookdecay", 1e-4, "with -trainlook: weight decay")
	lookOut    = flag.String("lookout", "looknet.bin", "with -trainlook: where the network is written")
	lookSeed   = flag.Int64("lookseed", 1, "with -trainlook: the seed of the weights' start and the batches' order")
	lookCold   = flag.Bool("lookcold", false, "with -trainlook: each seed read cold too (kept when the grid is right), so that the network sees the found grids' errors")
)

// lookSample is one cell's second-look inputs and its true hypothesis.
type lookSample struct {
	X []float32
	Y int
}

// collectLook reads each seed near its true corners knocked by up to a
// tenth of a pitch (kept when the grid is right), cold if -lookcold (kept
// likewise), and at its corners moved a few hundredths of a pitch, the
// cell networks deciding and no second look, and gives every cell's
// second-look inputs with its truth. Two readers share the seeds.
func collectLook(t *testing.T, a, b int64) []lookSample {
	defer func(f func() lookNets) { lookNetInUse = f }(lookNetInUse)
	lookNetInUse = func() lookNets { return nil }
	return overSeeds(t, a, b, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []lookSample {
		var out []lookSample
		pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
		rng := rand.New(rand.NewSource(s + 7))
		add := func() {
			for i := 0; i < 25; i++ {
				x := append([]float32(nil), r.cc.lookIn[i*lookInputs:(i+1)*lookInputs]...)
				out = append(out, lookSample{x, hypIndex(truth.Board[i])})
			}
		}
		if res, err := r.ReadNear(m, sim.Nudge(truth.Corners, 0.1, rng)); err == nil && cornerErr(res.Corners, truth.Corners) < pitch/4 {
			add()
		}
		if *lookCold {
			if res, err := r.Read(m); err == nil && cornerErr(res.Corners, truth.Corners) < pitch/4 {
				add()
			}
		}
		c := truth.Corners
		for k := range c {
			c[k][0] += rng.NormFloat64() * 0.03 * pitch
			c[k][1] += rng.NormFloat64() * 0.03 * pitch
		}
		if _, err := r.ReadWithCorners(m, c); err == nil {
			add()
		}
		return out
	})
}

// overSeeds runs read on each of seeds a..b's frames, two readers sharing
// the seeds, and gives what it gave, the first reader's seeds first.
func overSeeds[T any](t *testing.T, a, b int64, read func(r *Reader, seed int64, m gocv.Mat, truth sim.Truth) []T) []T {
	var seeds []int64
	for s := a; s <= b; s++ {
		seeds = append(seeds, s)
	}
	return overSeedList(t, seeds, read)
}

// overSeedList is overSeeds over a list of seeds.
func overSeedList[T any](t *testing.T, seeds []int64, read func(r *Reader, seed int64, m gocv.Mat, truth sim.Truth) []T) []T {
	const workers = 2
	parts := make([][]T, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewReader()
			defer r.Close()
			for j := w; j < len(seeds); j += workers {
				m, truth, err := loadSimFrame(seeds[j])
				if err != nil {
					errs[w] = err
					return
				}
				parts[w] = append(parts[w], read(r, seeds[j], m, truth)...)
				m.Close()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []T
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// cachedLook is collectLook over "a-b", kept in -lookcache.
func cachedLook(t *testing.T, rg string, training bool) []lookSample {
	a, b := seedRange(t, rg, training)
	if *lookCache == "" {
		return collectLook(t, a, b)
	}
	// Cold reads add cells: a cache collected without them is another.
	cold := ""
	if *lookCold {
		cold = "-cold"
	}
	path := fmt.Sprintf("%s/look-%d-%d-%d%s.gob", *lookCache, a, b, lookInputs, cold)
	var out []lookSample
	if loadGob(path, &out) {
		return out
	}
	out = collectLook(t, a, b)
	keepGob(t, path, out)
	return out
}

// TestTrainLookNet trains the second look (development step): the cell
// networks' log-probabilities plus its corrections, the cross-entropy by
// Adam. It prints the check seeds' cells read right without and with it.
//
//	COMPANION_SIM_CACHE=/tmp/simcache go test -run TestTrainLookNet ./vision -trainlook 10000-12499,12500-14999,15000-16999 -lookcache /tmp/lookcache -timeout 120m
func TestTrainLookNet(t *testing.T) {
	if *trainLook == "" {
		t.Skip("run with -trainlook A-B[,C-D] [-lookcache DIR]")
	}
	var train, check []lookSample
	for _, rg := range strings.Split(*trainLook, ",") {
		train = append(train, cachedLook(t, rg, true)...)
	}
	for _, rg := range strings.Split(*lookCheck, ",") {
		check = append(check, cachedLook(t, rg, false)...)
	}
	if len(train) == 0 {
		t.Fatal("no training cells")
	}
	t.Logf("%d training cells; check cells right by the cell networks alone %.2f%%", len(train), 100*lookAccuracy(nil, check))
	n := fitLookNet(train, check, t.Logf)
	data, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*lookOut, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// lookAccuracy is the share of samples whose best hypothesis, with the
// network's corrections (nil: none), is the truth.
func lookAccuracy(n *lookNet, v []lookSample) float64 {
	if len(v) == 0 {
		return 0
	}
	xs, hid := make([]float32, lookInputs), make([]float32, lookHidden)
	right := 0
	for _, s := range v {
		var lp [nHyp]float64
		for k := range lp {
			lp[k] = float64(s.X[k])
		}
		if n != nil {
			n.correct(s.X, xs, hid, &lp)
		}
		if argmax(lp[:]) == s.Y {
			right++
		}
	}
	return float64(right) / float64(len(v))
}

// fitLookNet trains the second look: standardised over the training
// cells, its output layer at zero (the cell networks alone at the start).
func fitLookNet(train, check []lookSample, logf func(string, ...any)) *lookNet {
	rng := rand.New(rand.NewSource(*lookSeed))
	n := &lookNet{
		mean: make([]float32, lookInputs), sd: make([]float32, lookInputs),
		w1: make([]float32, lookHidden*lookInputs), b1: make([]float32, lookHidden),
		w2: make([]float32, nHyp*lookHidden), b2: make([]float32, nHyp),
	}
	sum, sum2 := make([]float64, lookInputs), make([]float64, lookInputs)
	for _, s := range train {
		for k, v := range s.X {
			sum[k] += float64(v)
			sum2[k] += float64(v) * float64(v)
		}
	}
	for k := range sum {
		m := sum[k] / float64(len(train))
		n.mean[k] = float32(m)
		n.sd[k] = float32(math.Max(1e-3, math.Sqrt(math.Max(0, sum2[k]/float64(len(train))-m*m))))
	}
	for i := range n.w1 {
		n.w1[i] = float32(rng.NormFloat64() * math.Sqrt(2/float64(lookInputs)))
	}
	params := [][]float32{n.w1, n.b1, n.w2, n.b2}
	opt := newAdam(params, float32(*lookDecay))
	grads := make([][]float32, len(params))
	for k, p := range params {
		grads[k] = make([]float32, len(p))
	}
	xs, hid, dh := make([]float32, lookInputs), make([]float32, lookHidden), make([]float32, lookHidden)
	const batch = 64
	order := rng.Perm(len(train))
	for ep := 0; ep < *lookEpochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		rate := *lookLR
		if ep >= *lookEpochs*3/4 {
			rate /= 10
		}
		var loss float64
		for at := 0; at < len(order); at += batch {
			end := min(at+batch, len(order))
			for _, s := range order[at:end] {
				smp := train[s]
				var lp [nHyp]float64
				for k := range lp {
					lp[k] = float64(smp.X[k])
				}
				n.correct(smp.X, xs, hid, &lp)
				logNormalise(&lp)
				loss -= lp[smp.Y]
				for h := range dh {
					dh[h] = 0
				}
				for k := 0; k < nHyp; k++ {
					g := float32(math.Exp(lp[k]))
					if k == smp.Y {
						g--
					}
					grads[3][k] += g
					w := n.w2[k*lookHidden : (k+1)*lookHidden]
					gw := grads[2][k*lookHidden : (k+1)*lookHidden]
					for h, v := range hid {
						gw[h] += g * v
						dh[h] += g * w[h]
					}
				}
				for h := 0; h < lookHidden; h++ {
					if hid[h] <= 0 {
						continue
					}
					g := dh[h]
					grads[1][h] += g
					gw := grads[0][h*lookInputs : (h+1)*lookInputs]
					for j, v := range xs {
						gw[j] += g * v
					}
				}
			}
			opt.step(grads, rate, 1/float32(end-at))
			for _, g := range grads {
				clear(g)
			}
		}
		logf("epoch %d: loss %.4f, check cells right %.2f%%", ep+1, loss/float64(len(train)), 100*lookAccuracy(n, check))
	}
	return n
}
