package vision

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	refineData = flag.String("refinedata", "", "write the refinement network's corner patches for these sim seeds (ranges a-b,c-d) to -refineout")
	refineOut  = flag.String("refineout", "", "with -refinedata: the files' prefix (PREFIX_pix.bin, PREFIX_off.bin, PREFIX_kind.bin, PREFIX_seeds.txt)")
	refineChk  = flag.Bool("refinecheck", false, "with -refinedata: the seeds are check seeds")
	refineReps = flag.Int("refinereps", 4, "with -refinedata: jittered grids per seed, besides the cold reading's own")
	refineFine = flag.Bool("refinefine", false, "with -refinedata: the fine stage's patches (fineReach, fineJitters, and the cold grid after a coarse round besides)")
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

func clampAbs(v, m float64) float64 { return math.Max(-m, math.Min(m, v)) }
