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
	patchData       = flag.String("patchdata", "", "write the patch network's training cells for these sim seeds (ranges a-b,c-d) to -patchout")
	patchOut        = flag.String("patchout", "", "with -patchdata: the files' prefix (PREFIX_pix.bin, PREFIX_extra.bin, PREFIX_label.bin, PREFIX_seeds.txt)")
	patchCheck      = flag.Bool("patchcheck", false, "with -patchdata: the seeds are check seeds (any seeds but the hold-out may be written)")
	patchJit        = flag.Float64("patchjitter", 0.04, "with -patchdata: the true corners are moved by this many pitches (s.d.) before each reading")
	patchReps       = flag.Int("patchreps", 1, "with -patchdata: readings per seed")
	patchJitSeed    = flag.Int64("patchjitseed", 13, "with -patchdata: added to each sim seed to seed the corners' moves (another value moves them otherwise: more training cells from the same renders)")
	patchSolo       = flag.String("patchsolo", "", "with -patchdata: read the cells with these patch-only networks (comma-separated ONNX files, UseCellNetworks) so that the patches are sampled on the grid's own lens, as a solo reading samples them")
	patchOnlyUnsure = flag.Bool("patchunsure", false, "with -patchdata: write only the cells the third look would see (within patchGate); the trainer keeps only those")
)

// patchRecord is one cell's third-look inputs and its truth.
type patchRecord struct {
	pix   []uint8
	extra []float32
	label uint8
	seed  int64
}

// TestPatchNetData writes the patch network's training or check cells
// (development step; scripts/train-patchnet.sh runs it): each seed in
// COMPANION_SIM_CACHE read at its true corners moved a few hundredths of
// a pitch, with the third look off, and every cell's patches (uint8,
// patchPixels each), extra inputs (little-endian float32, patchExtra
// each), true hypothesis (one byte) and seed (one a line).
func TestPatchNetData(t *testing.T) {
	if *patchData == "" || *patchOut == "" {
		t.Skip("run with -patchdata A-B[,C-D] -patchout PREFIX")
	}
	seeds := exportSeeds(t, *patchData, *patchCheck, true)
	defer func(u bool) { usePatchNet = u }(usePatchNet)
	usePatchNet = false
	solo := readFileList(t, "-patchsolo", *patchSolo)
	recs := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []patchRecord {
		r.collectPatches = true
		if len(solo) > 0 && len(r.solo.nets) == 0 {
			if err := r.UseCellNetworks(solo...); err != nil {
				t.Errorf("-patchsolo: %v", err)
				return nil
			}
		}
		var out []patchRecord
		pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
		rng := rand.New(rand.NewSource(s + *patchJitSeed))
		for rep := 0; rep < *patchReps; rep++ {
			c := truth.Corners
			for k := range c {
				c[k][0] += rng.NormFloat64() * *patchJit * pitch
				c[k][1] += rng.NormFloat64() * *patchJit * pitch
			}
			if _, err := r.ReadWithCorners(m, c); err != nil || len(r.cc.patchPix) != 25*patchPixels {
				continue
			}
			for i := 0; i < 25; i++ {
				extra := r.cc.patchExtra[i*patchExtra : (i+1)*patchExtra]
				if *patchOnlyUnsure && !unsureExtra(extra) {
					continue
				}
				out = append(out, patchRecord{
					pix:   append([]uint8(nil), r.cc.patchPix[i*patchPixels:(i+1)*patchPixels]...),
					extra: append([]float32(nil), extra...),
					label: uint8(hypIndex(truth.Board[i])),
					seed:  s,
				})
			}
		}
		return out
	})
	out := createExport(t, *patchOut, "_pix.bin", "_extra.bin", "_label.bin", "_seeds.txt")
	wp, we, wl, ws := out.w[0], out.w[1], out.w[2], out.w[3]
	for _, rec := range recs {
		wp.Write(rec.pix)
		if err := binary.Write(we, binary.LittleEndian, rec.extra); err != nil {
			t.Fatal(err)
		}
		wl.WriteByte(rec.label)
		fmt.Fprintln(ws, rec.seed)
	}
	out.close(t)
	t.Logf("wrote %d cells of %d seeds to %s_*", len(recs), len(seeds), *patchOut)
}

// unsureExtra is unsure on a cell's exported inputs (the log-probabilities
// relative to the best, clipped), as the trainer decides it.
func unsureExtra(extra []float32) bool {
	var lp [nHyp]float64
	for k := range lp {
		lp[k] = float64(extra[k])
	}
	return unsure(&lp)
}
