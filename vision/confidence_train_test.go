package vision

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	trainConf = flag.String("trainconf", "", "learn the confidence model on these sim seeds read cold (ranges a-b,c-d; seeds the networks never saw: 17000-19999)")
	confCheck = flag.String("confcheck", "20000-20299,21000-21199", "with -trainconf: the seeds it is checked on")
	confCache = flag.String("confcache", "", "with -trainconf: keep the collected features in this folder")
	confL2    = flag.Float64("confl2", 1e-3, "with -trainconf: the weights' ridge penalty, per cell")
	confWrong = flag.Float64("confwrong", 1, "with -trainconf: the weight of a cell read wrong against one read right (above 1 the model is surer of fewer cells)")
)

// confSample is one cell of a cold reading: its confidence features,
// whether it was read right, whether the camera sees it (sim.Sight), and
// the confidence reported without the model.
type confSample struct {
	X      [nConfFeatures]float64
	Right  bool
	Hidden bool
	Old    float64
}

// collectConf reads each seed cold, the confidence model off, and gives
// the cells of the frames read. Two readers share the seeds.
func collectConf(t *testing.T, a, b int64) []confSample {
	defer func(f func() bool) { confModelInUse = f }(confModelInUse)
	confModelInUse = func() bool { return false }
	return overSeeds(t, a, b, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []confSample {
		res, err := r.Read(m)
		if err != nil {
			return nil
		}
		var out []confSample
		sight := sim.Sight(sim.RandomScene(s))
		for i := 0; i < 25; i++ {
			out = append(out, confSample{r.confIn[i], res.Board[i] == truth.Board[i], sight[i].Hidden(), res.Confidence[i]})
		}
		return out
	})
}

// cachedConf is collectConf over the ranges "a-b,c-d", each kept in
// -confcache.
func cachedConf(t *testing.T, ranges string, training bool) []confSample {
	var out []confSample
	for _, rg := range strings.Split(ranges, ",") {
		a, b := seedRange(t, rg, training)
		path := fmt.Sprintf("%s/conf-%d-%d-%d.gob", *confCache, a, b, nConfFeatures)
		var part []confSample
		if *confCache == "" || !loadGob(path, &part) {
			part = collectConf(t, a, b)
			if *confCache != "" {
				keepGob(t, path, part)
			}
		}
		out = append(out, part...)
	}
	return out
}

// fitConf fits the logistic model by Newton's method with a ridge penalty
// (not on the bias), the cells read wrong weighed wrongWeight.
func fitConf(samples []confSample, l2, wrongWeight float64) [nConfFeatures + 1]float64 {
	x := make([][]float64, len(samples))
	y, sw := make([]float64, len(samples)), make([]float64, len(samples))
	for i, s := range samples {
		x[i] = append([]float64(nil), s.X[:]...)
		sw[i] = wrongWeight
		if s.Right {
			y[i], sw[i] = 1, 1
		}
	}
	// A little ridge always, so that a feature that never varies leaves
	// the system solvable.
	var w [nConfFeatures + 1]float64
	copy(w[:], fitNewton(x, y, sw, math.Max(l2, 1e-9)))
	return w
}

// confBands summarises confidences against rightness: right and wrong
// cells per tenth, and the share of cells at SureConfidence or more with
// how many of them are wrong, hidden ones apart.
func confBands(samples []confSample, conf func(confSample) float64) string {
	var right, wrong [10]int
	sure, sureWrong, hiddenSure, hiddenSureWrong := 0, 0, 0, 0
	logLoss := 0.0
	for _, s := range samples {
		c := conf(s)
		b := min(9, int(c*10))
		p := math.Min(math.Max(c, 1e-6), 1-1e-6)
		if s.Right {
			right[b]++
			logLoss -= math.Log(p)
		} else {
			wrong[b]++
			logLoss -= math.Log(1 - p)
		}
		if c >= SureConfidence {
			sure++
			if s.Hidden {
				hiddenSure++
			}
			if !s.Right {
				sureWrong++
				if s.Hidden {
					hiddenSureWrong++
				}
			}
		}
	}
	var sb strings.Builder
	for b := range right {
		fmt.Fprintf(&sb, "  %.1f-%.1f: %d right, %d wrong\n", float64(b)/10, float64(b+1)/10, right[b], wrong[b])
	}
	for _, th := range []float64{0.5, 0.8, 0.95, 0.98, 0.99, 0.995, 0.998} {
		n, bad, hid, hidBad := 0, 0, 0, 0
		for _, s := range samples {
			if conf(s) >= th {
				n++
				if !s.Right {
					bad++
				}
				if s.Hidden {
					hid++
					if !s.Right {
						hidBad++
					}
				}
			}
		}
		fmt.Fprintf(&sb, "  at %.3f or more: %.1f %% of cells, %.2f %% of them wrong; hidden %d, %d wrong\n", th, 100*float64(n)/float64(len(samples)), 100*float64(bad)/math.Max(1, float64(n)), hid, hidBad)
	}
	fmt.Fprintf(&sb, "  sure (>= %.2f): %d of %d cells (%.1f %%), %d wrong (%.2f %%); hidden %d, %d wrong; log loss %.4f a cell\n",
		SureConfidence, sure, len(samples), 100*float64(sure)/float64(len(samples)), sureWrong, 100*float64(sureWrong)/math.Max(1, float64(sure)), hiddenSure, hiddenSureWrong, logLoss/float64(len(samples)))
	return sb.String()
}

// TestTrainConfidence learns the confidence model (development step) and
// prints its weights as Go, with the check seeds' confidence bands before
// and after.
//
//	COMPANION_SIM_CACHE=/tmp/simcache go test -run TestTrainConfidence ./vision -trainconf 17000-17999,18000-18999 -confcache /tmp/confcache -timeout 60m -v
func TestTrainConfidence(t *testing.T) {
	if *trainConf == "" {
		t.Skip("run with -trainconf 17000-17999,18000-18999 to learn the confidence model")
	}
	train := cachedConf(t, *trainConf, true)
	check := cachedConf(t, *confCheck, false)
	w := fitConf(train, *confL2, *confWrong)
	var sb strings.Builder
	sb.WriteString("var confWeights = [nConfFeatures + 1]float64{")
	for k, v := range w {
		if k > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%.4f", v)
	}
	sb.WriteString("}")
	t.Log(sb.String())
	old := func(s confSample) float64 { return s.Old }
	model := func(s confSample) float64 { return cellConfidence(s.X, w) }
	for _, set := range []struct {
		name    string
		samples []confSample
	}{{"training " + *trainConf, train}, {"check " + *confCheck, check}} {
		t.Logf("%s, %d cells; before:\n%s", set.name, len(set.samples), confBands(set.samples, old))
		t.Logf("%s; with the model:\n%s", set.name, confBands(set.samples, model))
	}
	if os.Getenv("CONF_ABLATE") != "" {
		for k := 0; k < nConfFeatures; k++ {
			var tr, ch []confSample
			for _, s := range train {
				s.X[k] = 0
				tr = append(tr, s)
			}
			for _, s := range check {
				s.X[k] = 0
				ch = append(ch, s)
			}
			wk := fitConf(tr, *confL2, *confWrong)
			t.Logf("without feature %d:\n%s", k, confBands(ch, func(s confSample) float64 { return confProb(s.X, wk) }))
		}
	}
}
