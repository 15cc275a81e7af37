package vision

import (
	"flag"
	"fmt"
	"testing"

	"companion/observation"
	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	domeData    = flag.String("domedata", "", "write the dome look's training cells for these sim seeds (ranges a-b,c-d) to -domeout")
	domeOut     = flag.String("domeout", "", "with -domedata: the files' prefix (as -tierout's)")
	domeCheck   = flag.Bool("domecheck", false, "with -domedata: the seeds are check seeds (only the cells the reader hands over are written)")
	domeJitters = flag.String("domejitters", "0.02", "with -domedata: one reading per value, at the true corners moved this many pitches (s.d.)")
)

// TestDomeLookData writes the dome look's training or check cells (a
// development step; scripts/train-domelook.sh runs it): each frame of
// COMPANION_SIM_CACHE read at its true corners moved a little, and each
// cell that holds a blue pawn on level 3 (label 0) or a dome (label 1);
// for check seeds only those read as one of the two. Files as
// TestTierNetData's, which tiernet_train.py reads.
func TestDomeLookData(t *testing.T) {
	if *domeData == "" || *domeOut == "" {
		t.Skip("run with -domedata A-B[,C-D] -domeout PREFIX")
	}
	jitters := parseJitters(t, "-domejitters", *domeJitters)
	seeds := exportSeeds(t, *domeData, *domeCheck, true)
	defer func(u bool) { useDomeLook = u }(useDomeLook)
	useDomeLook = false
	blueOnThree := observation.Square{Level: 3, Occupant: observation.Blue}
	recs := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []tierRecord {
		var out []tierRecord
		jitteredReads(r, s, m, truth, jitters, 41, func(res Result, toFull float64) {
			for i := 0; i < 25; i++ {
				sq := truth.Board[i]
				if sq != blueOnThree && sq.Level != 4 {
					continue
				}
				odds, read := domeOdds(&r.cc.netLP[i])
				if *domeCheck && !read {
					continue
				}
				rec := tierRecord{pix: make([]uint8, tierPixels), extra: make([]float32, pawnLookExtra)}
				if sq.Level == 4 {
					rec.label = 1
				}
				r.cc.sampleDome(&r.full, toFull, i, odds, rec.pix, rec.extra)
				rec.meta = fmt.Sprintf("%d\t%d\t%.2f\t%s\t%s", s, i, r.cc.cam.elevation(), sq, res.Board[i])
				out = append(out, rec)
			}
		})
		return out
	})
	writeTierRecords(t, *domeOut, recs)
	t.Logf("wrote %d cells of %d seeds to %s_*", len(recs), len(seeds), *domeOut)
}
