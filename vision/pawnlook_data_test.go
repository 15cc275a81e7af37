package vision

import (
	"flag"
	"fmt"
	"math/rand"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	pawnData    = flag.String("pawndata", "", "write the pawn look's training cells for these sim seeds (ranges a-b,c-d) to -pawnout")
	pawnOut     = flag.String("pawnout", "", "with -pawndata: the files' prefix (as -tierout's)")
	pawnCheck   = flag.Bool("pawncheck", false, "with -pawndata: the seeds are check seeds")
	pawnJitters = flag.String("pawnjitters", "0.02", "with -pawndata: one reading per value, at the true corners moved this many pitches (s.d.); a negative value reads the frame cold")
	pawnBare    = flag.Float64("pawnbare", 0.15, "with -pawndata: the share of the sure bare cells kept")
	pawnCovered = flag.Bool("pawncovered", false, "with -pawndata: only the cells whose top nearer pieces cover (the hidden look's), the rest left out")
	pawnMasks   = flag.Bool("pawnmasks", false, "with -pawndata: each cell's two planes of cover after its colours (coverAt), as both pawn looks' networks take them")
)

// TestPawnLookData writes the pawn look's training or check cells (a
// development step; scripts/train-pawnlook.sh runs it): each frame of
// COMPANION_SIM_CACHE read at its true corners moved a little, and each
// cell read at its true level (not a dome) that holds a pawn, is unsure of
// its occupant or, for a share -pawnbare of the rest, neither. Files as
// TestTierNetData's; the label is the true occupant (0 none, 1 blue, 2
// light, 3 dark).
func TestPawnLookData(t *testing.T) {
	if *pawnData == "" || *pawnOut == "" {
		t.Skip("run with -pawndata A-B[,C-D] -pawnout PREFIX")
	}
	jitters := parseJitters(t, "-pawnjitters", *pawnJitters)
	seeds := exportSeeds(t, *pawnData, *pawnCheck, true)
	defer func(u bool) { usePawnLook = u }(usePawnLook)
	usePawnLook = false
	recs := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []tierRecord {
		var out []tierRecord
		rng := rand.New(rand.NewSource(s + 31))
		jitteredReads(r, s, m, truth, jitters, 37, func(res Result, toFull float64) {
			for i := 0; i < 25; i++ {
				sq := truth.Board[i]
				lp := &r.cc.netLP[i]
				level, best, other, ok := pawnPair(lp)
				if !ok || int(sq.Level) != level {
					continue
				}
				if *pawnCovered {
					if _, top := r.cc.cellCover(i, sq); top < hiddenCover {
						continue
					}
				}
				odds := lp[4*level+other] - lp[4*level+best]
				if sq.Occupant == 0 && best == 0 && -odds >= pawnLookGate && rng.Float64() >= *pawnBare {
					continue
				}
				n := tierPixels
				if *pawnMasks {
					n += tierPlanes * tierSide * tierSide
				}
				rec := tierRecord{pix: make([]uint8, n), extra: make([]float32, pawnLookExtra), label: uint8(sq.Occupant)}
				r.cc.samplePawn(&r.full, toFull, i, level, odds, rec.pix, rec.extra)
				rec.meta = fmt.Sprintf("%d\t%d\t%.2f\t%s\t%s\t%d\t%d", s, i, r.cc.cam.elevation(), sq, res.Board[i], best, other)
				out = append(out, rec)
			}
		})
		return out
	})
	writeTierRecords(t, *pawnOut, recs)
	t.Logf("wrote %d cells of %d seeds to %s_*", len(recs), len(seeds), *pawnOut)
}
