package vision

import (
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var refineEval = flag.String("refineeval", "", "report the refinement network on these sim seeds' cold grids (ranges a-b,c-d)")

// TestRefineTargetsRoundTrip checks that the targets measured on a grid
// and applied to it give back the corners measured.
func TestRefineTargetsRoundTrip(t *testing.T) {
	truth := [4][2]float64{{300, 100}, {900, 110}, {1000, 600}, {200, 590}}
	h, ok := homographyFromCorners([4][2]float64{{310, 95}, {890, 120}, {1010, 590}, {190, 600}})
	if !ok {
		t.Fatal("no homography")
	}
	got := movedCorners(h, refineTargets(h, truth))
	for k := range got {
		for a := 0; a < 2; a++ {
			if d := got[k][a] - truth[k][a]; d > 1e-6 || d < -1e-6 {
				t.Fatalf("corner %d: %v, want %v", k, got[k], truth[k])
			}
		}
	}
}

// TestRefineNetMovesTowardsTruth moves the true grids of frames the
// network never trained on by about a tenth of a pitch and checks that
// two rounds bring the worst corner closer on most of them.
func TestRefineNetMovesTowardsTruth(t *testing.T) {
	var n refineNet
	defer n.close()
	better, total := 0, 0
	for _, seed := range []int64{5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007} {
		m, truth := simFrame(t, seed)
		var full pixels
		if err := full.load(m); err != nil {
			t.Fatal(err)
		}
		m.Close()
		c := sim.Nudge(truth.Corners, 0.12, rand.New(rand.NewSource(seed)))
		h, ok := homographyFromCorners(c)
		if !ok {
			t.Fatalf("seed %d: no grid", seed)
		}
		got, _, ok := n.refined(&full, h, 2)
		if !ok {
			t.Fatalf("seed %d: the network failed", seed)
		}
		before, after := pitchErr(c, truth.Corners), pitchErr(got, truth.Corners)
		t.Logf("seed %d: worst corner %.3f -> %.3f pitch", seed, before, after)
		total++
		if after < before {
			better++
		}
	}
	if better < total-1 {
		t.Errorf("refined closer on %d of %d grids, want all but one at least", better, total)
	}
}

// TestRefineNetEval (diagnostic, -refineeval SEEDS) reports the cold
// grids' worst corner before and after one and two rounds.
func TestRefineNetEval(t *testing.T) {
	if *refineEval == "" {
		t.Skip("run with -refineeval A-B")
	}
	type row struct {
		seed       int64
		e0, e1, e2 float64
		conf       float64
		g0, g3     float64 // the corner network's grid, before and after three rounds
		m1         float64 // how far one round moved the grid (worst corner, pitches)
		s1         float64 // the largest spread the network expects of that round
	}
	seeds := exportSeeds(t, *refineEval, true, true)
	defer func(u bool) { useRefineNet = u }(useRefineNet)
	useRefineNet = false
	rows := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []row {
		res, err := r.Read(m)
		if err != nil {
			return nil
		}
		h, ok := homographyFromCorners(res.Corners)
		if !ok {
			return nil
		}
		var n refineNet
		defer n.close()
		c1, s1, ok1 := n.refined(&r.full, h, 1)
		c2, _, ok2 := n.refined(&r.full, h, 2)
		if !ok1 || !ok2 {
			return nil
		}
		out := row{seed: s, e0: pitchErr(res.Corners, truth.Corners), e1: pitchErr(c1, truth.Corners), e2: pitchErr(c2, truth.Corners), conf: res.GridConfidence, g0: -1, m1: pitchErr(c1, res.Corners), s1: s1}
		// The corner network's guess is the first reading's (Read may
		// read twice).
		if r.cornerOK {
			if hg, ok := homographyFromCorners(r.cornerGuess); ok {
				if g3, _, ok := n.refined(&r.full, hg, 3); ok {
					out.g0, out.g3 = pitchErr(r.cornerGuess, truth.Corners), pitchErr(g3, truth.Corners)
				}
			}
		}
		return []row{out}
	})
	band := func(name string, keep func(row) bool) {
		var e [3][]float64
		for _, r := range rows {
			if keep(r) {
				e[0], e[1], e[2] = append(e[0], r.e0), append(e[1], r.e1), append(e[2], r.e2)
			}
		}
		if len(e[0]) == 0 {
			return
		}
		s := fmt.Sprintf("%s (%d grids):", name, len(e[0]))
		for i, v := range e {
			s += fmt.Sprintf("  [%d rounds] %s", i, errStats(v))
		}
		t.Log(s)
	}
	var g [2][]float64
	for _, r := range rows {
		if r.g0 >= 0 {
			g[0], g[1] = append(g[0], r.g0), append(g[1], r.g3)
		}
	}
	for i, v := range g {
		if len(v) > 0 {
			t.Logf("corner network's grids (%d), refined %d rounds: %s", len(v), 3*i, errStats(v))
		}
	}
	// The gates: one round kept where it moves the grid at least gate
	// pitches and the network expects at most spread.
	report := func(gate, spread float64) {
		var e []float64
		moved, better := 0, 0
		for _, r := range rows {
			v := r.e0
			if r.m1 >= gate && r.s1 <= spread {
				v = r.e1
				moved++
				if r.e1 < r.e0 {
					better++
				}
			}
			e = append(e, v)
		}
		sort.Float64s(e)
		var within [3]int
		for _, x := range e {
			for i, b := range []float64{0.05, 0.1, 0.25} {
				if x < b {
					within[i]++
				}
			}
		}
		t.Logf("moved %.2f or more, spread %.3f or less: %d moved (%d closer); median %.4f, within 0.05 / 0.1 / 0.25: %d / %d / %d", gate, spread, moved, better, e[len(e)/2], within[0], within[1], within[2])
	}
	var spreads []float64
	for _, r := range rows {
		spreads = append(spreads, r.s1)
	}
	sort.Float64s(spreads)
	for _, q := range []float64{1, 0.5, 0.25} {
		sg := spreads[min(len(spreads)-1, int(q*float64(len(spreads))))]
		for _, gate := range []float64{0.04, 0.06, 0.08, 0.1, 0.15} {
			report(gate, sg)
		}
	}
	band("all", func(row) bool { return true })
	band("found within 0.05", func(r row) bool { return r.e0 < 0.05 })
	band("found 0.05-0.1", func(r row) bool { return r.e0 >= 0.05 && r.e0 < 0.1 })
	band("found 0.1-0.25", func(r row) bool { return r.e0 >= 0.1 && r.e0 < 0.25 })
	band("found 0.25-0.6", func(r row) bool { return r.e0 >= 0.25 && r.e0 < 0.6 })
	band("grid confidence under 0.5", func(r row) bool { return r.conf < 0.5 })
	band("grid confidence 0.5 on", func(r row) bool { return r.conf >= 0.5 })
}

// errStats sorts grid errors v (pitches, at least one) and gives their
// median, 90th percentile and how many are within 0.05.
func errStats(v []float64) string {
	sort.Float64s(v)
	w := 0
	for _, x := range v {
		if x < 0.05 {
			w++
		}
	}
	return fmt.Sprintf("median %.4f p90 %.4f within 0.05 %d", v[len(v)/2], v[len(v)*9/10], w)
}

// BenchmarkRefineNet times one round of the refinement network (sampling
// the four corners' patches, the network) on a 1280x720 frame. Run it on
// one core (taskset -c 0); -refineonnx tries another file.
func BenchmarkRefineNet(b *testing.B) {
	m, truth := benchFrame(b)
	defer m.Close()
	var full pixels
	if err := full.load(m); err != nil {
		b.Fatal(err)
	}
	h, ok := homographyFromCorners(truth.Corners)
	if !ok {
		b.Fatal("no grid")
	}
	n := &refineNet{onnx: onnxFlag(b, *refineONNX)}
	defer n.close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := n.offsets(&full, h); err != nil {
			b.Fatal(err)
		}
	}
}

var shortcutEval = flag.String("shortcuteval", "", "report the corner network's grids after two coarse refinement rounds, refined on the dividers, by the network's expected error, on these sim seeds (ranges a-b,c-d)")

// TestShortcutSpread (diagnostic, -shortcuteval SEEDS): the corner
// network's grid after two coarse rounds, refined on the dividers, by the
// coarse stage's expected error: could that skip the search where the
// dividers alone do not?
func TestShortcutSpread(t *testing.T) {
	if *shortcutEval == "" {
		t.Skip("run with -shortcuteval A-B")
	}
	type row struct {
		spread, err, errNet float64
		sure                bool
		base                float64
	}
	seeds := exportSeeds(t, *shortcutEval, true, true)
	rows := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []row {
		src, scale, err := r.prepare(m)
		if err != nil {
			return nil
		}
		g, ok := r.corner.guessOK(src)
		if !ok {
			return nil
		}
		hc, ok := homographyFromCorners(g)
		if !ok {
			return nil
		}
		c, spread, ok := r.refiner.refined(&r.full, hc, 2)
		if !ok {
			return nil
		}
		out := row{spread: spread, errNet: pitchErr(c, truth.Corners), err: 9}
		if hg, ok := r.nearGrid(c, scale, src.Cols(), src.Rows()); ok {
			out.sure, out.base, out.err = hg.sure, hg.base, pitchErr(cornersOf(hg.h), truth.Corners)
		}
		return []row{out}
	})
	for _, cut := range []float64{0.01, 0.015, 0.02, 0.03, 0.05, 1} {
		var e, en []float64
		far := 0
		for _, r := range rows {
			if r.spread <= cut && r.sure && r.base < cornerShortcutBase {
				e, en = append(e, r.err), append(en, r.errNet)
				if r.err > 0.1 {
					far++
				}
			}
		}
		if len(e) > 0 {
			t.Logf("spread <= %.3f, sure, base under %.1f: %d of %d; refined %s (%d over 0.1); the network's own %s", cut, cornerShortcutBase, len(e), len(rows), errStats(e), far, errStats(en))
		}
	}
}
