package vision

import (
	"math"
	"math/rand"
	"testing"

	"companion/observation"
)

func TestLogitBounded(t *testing.T) {
	for _, c := range []struct{ p, want float64 }{
		{0, -confLogitCap}, {1, confLogitCap}, {0.5, 0}, {math.NaN(), -confLogitCap},
		{1 / (1 + math.Exp(-2)), 2},
	} {
		got := logit(c.p)
		if c.p == c.p && math.Abs(got-c.want) > 1e-9 {
			t.Errorf("logit(%v) = %v, want %v", c.p, got, c.want)
		}
		if got < -confLogitCap || got > confLogitCap || got != got {
			t.Errorf("logit(%v) = %v, out of bounds", c.p, got)
		}
	}
}

// A cell the camera does not see is never sure, however sure the networks
// are; the same cell in sight is.
func TestCellConfidenceHidden(t *testing.T) {
	var x [nConfFeatures]float64
	x[confLogit], x[confBoardLogit], x[confNeighbourLow] = confLogitCap, confLogitCap, confLogitCap
	x[confGrid], x[confShiftAgree], x[confRCAgree], x[confElevation] = 1, 1, 1, 0.8
	if p := cellConfidence(x, confWeights); p < SureConfidence {
		t.Errorf("a plainly seen cell the networks are sure of: confidence %.4f, want at least %.2f", p, SureConfidence)
	}
	x[confTopCover] = hiddenCover
	if p := cellConfidence(x, confWeights); p > hiddenConf {
		t.Errorf("a hidden cell: confidence %.4f, want at most %.2f", p, hiddenConf)
	}
}

// The model's weights make sense: surer networks, a surer grid and a
// surer board each make a surer cell.
func TestConfWeightsSigns(t *testing.T) {
	for _, k := range []int{confLogit, confGrid, confBoardLogit, confShiftAgree, confRCAgree} {
		if confWeights[k] <= 0 {
			t.Errorf("weight %d = %v, want positive", k, confWeights[k])
		}
	}
	if confWeights[confBoardLow] >= 0 {
		t.Errorf("weight of the board's unsure share = %v, want negative", confWeights[confBoardLow])
	}
}

// fitConf recovers the weights that drew the samples.
func TestFitConfRecovers(t *testing.T) {
	var w [nConfFeatures + 1]float64
	w[confLogit], w[confGrid], w[nConfFeatures] = 0.8, 1.5, -0.5
	rng := rand.New(rand.NewSource(1))
	var samples []confSample
	for i := 0; i < 20000; i++ {
		var x [nConfFeatures]float64
		x[confLogit] = rng.NormFloat64() * 3
		x[confGrid] = rng.Float64()
		samples = append(samples, confSample{X: x, Right: rng.Float64() < confProb(x, w)})
	}
	got := fitConf(samples, 0, 1)
	for k := range w {
		if math.Abs(got[k]-w[k]) > 0.15 {
			t.Errorf("weight %d = %.3f, want %.3f", k, got[k], w[k])
		}
	}
	// Weighing the wrong cells 4 times shifts the odds of being right by
	// a quarter: the bias drops by log 4, the other weights stay.
	shifted := w
	shifted[nConfFeatures] -= math.Log(4)
	got = fitConf(samples, 0, 4)
	for k := range w {
		if math.Abs(got[k]-shifted[k]) > 0.15 {
			t.Errorf("wrong cells weighed 4: weight %d = %.3f, want %.3f", k, got[k], shifted[k])
		}
	}
}

// The features of a reading: a plain board read with its true corners
// shows no cover on its near cells, and every confidence is a probability.
func TestConfFeaturesOnFrame(t *testing.T) {
	m, truth := simFrame(t, 1000)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	res, err := r.ReadWithCorners(m, truth.Corners)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range r.confIn {
		if x[confGrid] != 1 || x[confUnsure] != 0 {
			t.Errorf("cell %d: grid features %v %v with the corners given", i, x[confGrid], x[confUnsure])
		}
		if x[confCover] < 0 || x[confCover] > 1 || x[confTopCover] < 0 || x[confTopCover] > 1 {
			t.Errorf("cell %d: cover %v %v out of 0..1", i, x[confCover], x[confTopCover])
		}
		if c := res.Confidence[i]; c < 0 || c > 1 || c != c {
			t.Errorf("cell %d: confidence %v", i, c)
		}
	}
	// The near row hides nothing of itself from the camera.
	for i := 20; i < 25; i++ {
		if r.confIn[i][confTopCover] > 0 {
			t.Errorf("near cell %d: top cover %v", i, r.confIn[i][confTopCover])
		}
	}
	if got, want := r.confIn[0][confBuilt], float64(res.Board.Built())/25; got != want {
		t.Errorf("built feature %v, want %v", got, want)
	}
	if res.Board[0].Occupant != observation.Empty && r.confIn[0][confPawn] != 1 {
		t.Errorf("pawn feature %v for %v", r.confIn[0][confPawn], res.Board[0])
	}
}

// Whatever the features, a confidence is a probability: never NaN (which
// read --json could not print) nor outside 0..1.
func FuzzCellConfidence(f *testing.F) {
	f.Add(8.0, 0.0, 1.0, 0.9, 0.5)
	f.Add(math.NaN(), math.Inf(1), math.Inf(-1), 0.0, -1e308)
	f.Fuzz(func(t *testing.T, a, b, c, d, e float64) {
		var x [nConfFeatures]float64
		vals := []float64{a, b, c, d, e}
		for k := range x {
			x[k] = vals[k%len(vals)]
		}
		p := cellConfidence(x, confWeights)
		if p != p || p < 0 || p > 1 {
			t.Fatalf("features %v: confidence %v", x, p)
		}
	})
}
