package vision

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	refineData  = flag.String("refinedata", "", "write the refinement network's corner patches for these sim seeds (ranges a-b,c-d) to -refineout")
	refineOut   = flag.String("refineout", "", "with -refinedata: the files' prefix (PREFIX_pix.bin, PREFIX_off.bin, PREFIX_kind.bin, PREFIX_seeds.txt)")
	refineChk   = flag.Bool("refinecheck", false, "with -refinedata: the seeds are check seeds")
	refineReps  = flag.Int("refinereps", 4, "with -refinedata: jittered grids per seed, besides the cold reading's own")
	refineFine  = flag.Bool("refinefine", false, "with -refinedata: the fine stage's patches (fineReach, fineJitters, and the cold grid after a coarse round besides)")
	refineJudge = flag.String("refinejudge", "", "judge the refinement network on an export's grids (PREFIX as -refineout wrote it)")
	refineONNX  = flag.String("refineonnx", "", "with -refinejudge or BenchmarkRefineNet: the network file to try (default: the embedded refinenet.onnx)")
)

// refineJitters are the spreads (pitches, s.d. per corner, half as much
// again shared by all four) the true grid is moved by: a found grid's
// hundredths of a pitch, and a crowded board's tenths.
var refineJitters = []float64{0.015, 0.05, 0.12, 0.25}

// A fine stage's patches (-refinefine, tried in the fifty-fourth session
// and not kept: it did not beat the grids it was given) reach fineReach
// pitches and are trained on fineJitters: the coarse stage leaves weak
// grids a few hundredths of a pitch off, the search's sure ones about one.
const fineReach = 0.5

var fineJitters = []float64{0.01, 0.025, 0.05, 0.1}

// refineRecord is one grid's four corner patches and their targets.
type refineRecord struct {
	pix  []uint8
	off  [4][2]float64
	kind uint8 // 0 a jittered true grid, 1 the cold reading's grid, 2 that after a coarse round
	seed int64
}

// TestRefineNetData writes the refinement network's training or check
// patches (a development step; scripts/train-refinenet.sh runs it): for
// each seed in COMPANION_SIM_CACHE, the grid the cold reading reports and
// -refinereps true grids moved at random, each as its four corner
// patches (uint8, refinePixels each), the true corners' offsets
// (little-endian float32, two a corner), the kind (one byte a grid) and
// the seed (one a line).
func TestRefineNetData(t *testing.T) {
	if *refineData == "" || *refineOut == "" {
		t.Skip("run with -refinedata A-B[,C-D] -refineout PREFIX")
	}
	seeds := exportSeeds(t, *refineData, *refineChk, true)
	reach, jitters := refineReach, refineJitters
	if *refineFine {
		reach, jitters = fineReach, fineJitters
	}
	// The grids to refine are the reader's own, before any refinement.
	defer func(u bool) { useRefineNet = u }(useRefineNet)
	useRefineNet = false
	recs := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []refineRecord {
		var full pixels
		if err := full.load(m); err != nil {
			t.Error(err)
			return nil
		}
		var out []refineRecord
		add := func(c [4][2]float64, kind uint8) {
			h, ok := homographyFromCorners(c)
			if !ok {
				return
			}
			rec := refineRecord{pix: make([]uint8, 4*refinePixels), off: refineTargets(h, truth.Corners), kind: kind, seed: s}
			if !finiteOffsets(rec.off) {
				return
			}
			sampleCornerPatches(&full, h, reach, rec.pix)
			out = append(out, rec)
		}
		if res, err := r.Read(m); err == nil {
			add(res.Corners, 1)
			if h, ok := homographyFromCorners(res.Corners); ok && *refineFine {
				if c, _, ok := r.refiner.refined(&full, h, 1); ok {
					add(c, 2)
				}
			}
		}
		ht, ok := homographyFromCorners(truth.Corners)
		if !ok {
			return out
		}
		rng := rand.New(rand.NewSource(s*7 + 3))
		for rep := 0; rep < *refineReps; rep++ {
			sd := jitters[rep%len(jitters)]
			sx, sy := rng.NormFloat64()*sd/2, rng.NormFloat64()*sd/2
			var c [4][2]float64
			for k, rc := range refineCorner {
				dx := clampAbs(sx+rng.NormFloat64()*sd, 0.5)
				dy := clampAbs(sy+rng.NormFloat64()*sd, 0.5)
				q := ht.apply(pt{rc.x + dx, rc.y + dy})
				c[k] = [2]float64{q.X, q.Y}
			}
			add(c, 0)
		}
		return out
	})
	out := createExport(t, *refineOut, "_pix.bin", "_off.bin", "_kind.bin", "_seeds.txt")
	for _, rec := range recs {
		out.w[0].Write(rec.pix)
		var f [8]float32
		for k := range rec.off {
			f[2*k], f[2*k+1] = float32(rec.off[k][0]), float32(rec.off[k][1])
		}
		if err := binary.Write(out.w[1], binary.LittleEndian, f); err != nil {
			t.Fatal(err)
		}
		out.w[2].WriteByte(rec.kind)
		fmt.Fprintln(out.w[3], rec.seed)
	}
	out.close(t)
	t.Logf("wrote %d grids of %d seeds to %s_*", len(recs), len(seeds), *refineOut)
}

// TestRefineNetJudge (development step: a retrained network against the
// kept one, as OpenCV runs it) prints, for an export's grids, how far
// the network's corners are off and how its expected errors sort the
// grids at the spreads the reader's gates use (shortcutSpread,
// sureShortcutSpread, refineSpread: a grid's worst corner).
func TestRefineNetJudge(t *testing.T) {
	if *refineJudge == "" {
		t.Skip("run with -refinejudge PREFIX [-refineonnx FILE]")
	}
	pix, err := os.ReadFile(*refineJudge + "_pix.bin")
	if err != nil {
		t.Fatal(err)
	}
	offs, err := os.ReadFile(*refineJudge + "_off.bin")
	if err != nil {
		t.Fatal(err)
	}
	kinds, err := os.ReadFile(*refineJudge + "_kind.bin")
	if err != nil {
		t.Fatal(err)
	}
	grids := len(kinds)
	if len(pix) != grids*4*refinePixels || len(offs) != grids*32 {
		t.Fatalf("%s: %d grids but %d patch bytes and %d offset bytes", *refineJudge, grids, len(pix), len(offs))
	}
	n := &refineNet{onnx: onnxFlag(t, *refineONNX)}
	defer n.close()
	if err := n.load(); err != nil {
		t.Fatal(err)
	}
	type grid struct{ before, after, spread float64 } // worst corner of each, pitches
	byKind := map[byte][]grid{}
	var cornerErr []float64
	for g := 0; g < grids; g++ {
		copy(n.pix, pix[g*4*refinePixels:(g+1)*4*refinePixels])
		d, spread, err := n.run()
		if err != nil {
			t.Fatal(err)
		}
		var gr grid
		for k := 0; k < 4; k++ {
			o := offs[g*32+k*8:]
			tx := float64(math.Float32frombits(binary.LittleEndian.Uint32(o)))
			ty := float64(math.Float32frombits(binary.LittleEndian.Uint32(o[4:])))
			e := math.Hypot(d[k][0]-tx, d[k][1]-ty)
			cornerErr = append(cornerErr, e)
			gr.before = math.Max(gr.before, math.Hypot(tx, ty))
			gr.after = math.Max(gr.after, e)
			gr.spread = math.Max(gr.spread, spread[k])
		}
		byKind[kinds[g]] = append(byKind[kinds[g]], gr)
	}
	t.Logf("%d grids: corner error %s", grids, errStats(cornerErr))
	for _, k := range []byte{1, 0} {
		gs := byKind[k]
		if len(gs) == 0 {
			continue
		}
		name := map[byte]string{0: "jittered", 1: "cold"}[k]
		var before, after, spreads []float64
		for _, g := range gs {
			before, after, spreads = append(before, g.before), append(after, g.after), append(spreads, g.spread)
		}
		sort.Float64s(before)
		sort.Float64s(after)
		sort.Float64s(spreads)
		q := func(v []float64, f float64) float64 { return v[int(f*float64(len(v)-1))] }
		t.Logf("%s grids %d: worst corner median %.4f -> %.4f, p90 %.4f -> %.4f; largest expected error p25 %.4f p50 %.4f p75 %.4f p90 %.4f", name, len(gs),
			q(before, 0.5), q(after, 0.5), q(before, 0.9), q(after, 0.9), q(spreads, 0.25), q(spreads, 0.5), q(spreads, 0.75), q(spreads, 0.9))
		for _, gate := range []float64{shortcutSpread, sureShortcutSpread, refineSpread} {
			var in []float64
			for _, g := range gs {
				if g.spread <= gate {
					in = append(in, g.after)
				}
			}
			if len(in) == 0 {
				t.Logf("  spread <= %.3f: no grid", gate)
				continue
			}
			t.Logf("  spread <= %.3f: %d grids, worst corner %s", gate, len(in), errStats(in))
		}
	}
}

func clampAbs(v, m float64) float64 { return math.Max(-m, math.Min(m, v)) }
