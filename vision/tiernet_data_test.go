package vision

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

var (
	tierData    = flag.String("tierdata", "", "write the tier look's training cells for these sim seeds (ranges a-b,c-d) to -tierout")
	tierOut     = flag.String("tierout", "", "with -tierdata: the files' prefix (PREFIX_pix.bin, PREFIX_extra.bin, PREFIX_label.bin, PREFIX_meta.txt)")
	tierCheck   = flag.Bool("tiercheck", false, "with -tierdata: the seeds are check seeds")
	tierMinElev = flag.Float64("tierminelev", 73, "with -tierdata: only frames whose camera stands this many degrees or more")
	tierJitters = flag.String("tierjitters", "0.012,0.025", "with -tierdata: one reading per value, at the true corners moved this many pitches (s.d.); a negative value reads the frame cold")
	tierJitSeed = flag.Int64("tierjitseed", 29, "with -tierdata: added to each sim seed to seed the corners' moves")
	tierLower   = flag.Int("tierlower", 1, "with -tierdata: the pair of levels judged, this one and the one above (1 or 2)")
)

type tierRecord struct {
	pix   []uint8
	extra []float32
	label uint8 // 0 the lower level, 1 the upper, 255 neither (a cell read as one of them)
	meta  string
}

// TestTierNetData writes the tier look's training or check cells (a
// development step; scripts/train-tiernet.sh runs it): each frame of
// COMPANION_SIM_CACHE whose camera stands -tierminelev or more, read at
// its true corners moved a little, and every cell that is of the pair's
// levels (-tierlower and the one above) or read as one: its patches
// (uint8, tierPixels each), extra inputs (little-endian float32, tierExtra
// each), label (one byte) and a line of seed, cell, the camera's elevation
// as read, the truth and the reading.
func TestTierNetData(t *testing.T) {
	if *tierData == "" || *tierOut == "" {
		t.Skip("run with -tierdata A-B[,C-D] -tierout PREFIX")
	}
	jitters := parseJitters(t, "-tierjitters", *tierJitters)
	lower := *tierLower
	if lower != 1 && lower != 2 {
		t.Fatalf("-tierlower %d: want 1 (levels 1 and 2) or 2 (levels 2 and 3)", lower)
	}
	seeds := exportSeeds(t, *tierData, *tierCheck, true)
	// The odds handed over are the reading's before the tier look.
	defer func(u bool) { useTierNet = u }(useTierNet)
	useTierNet = false
	recs := overSeedList(t, seeds, func(r *Reader, s int64, m gocv.Mat, truth sim.Truth) []tierRecord {
		if truth.Elevation < *tierMinElev {
			return nil
		}
		var out []tierRecord
		jitteredReads(r, s, m, truth, jitters, *tierJitSeed, func(res Result, toFull float64) {
			for i := 0; i < 25; i++ {
				sq := truth.Board[i]
				occ, ok := tierPair(&r.cc.netLP[i], lower)
				label := uint8(255)
				if int(sq.Level) == lower || int(sq.Level) == lower+1 {
					label = sq.Level - uint8(lower)
					if !ok {
						occ = int(sq.Occupant)
					}
				} else if !ok {
					continue
				}
				rec := tierRecord{pix: make([]uint8, tierPixels), extra: make([]float32, tierExtra), label: label}
				r.cc.sampleTier(&r.full, toFull, i, occ, lower, rec.pix, rec.extra)
				rec.meta = fmt.Sprintf("%d\t%d\t%.2f\t%s\t%s", s, i, r.cc.cam.elevation(), sq, res.Board[i])
				out = append(out, rec)
			}
		})
		return out
	})
	writeTierRecords(t, *tierOut, recs)
	t.Logf("wrote %d cells of %d seeds to %s_*", len(recs), len(seeds), *tierOut)
}

// writeTierRecords writes cells to PREFIX_pix.bin, _extra.bin, _label.bin
// and _meta.txt.
func writeTierRecords(t *testing.T, prefix string, recs []tierRecord) {
	out := createExport(t, prefix, "_pix.bin", "_extra.bin", "_label.bin", "_meta.txt")
	for _, rec := range recs {
		out.w[0].Write(rec.pix)
		if err := binary.Write(out.w[1], binary.LittleEndian, rec.extra); err != nil {
			t.Fatal(err)
		}
		out.w[2].WriteByte(rec.label)
		fmt.Fprintln(out.w[3], rec.meta)
	}
	out.close(t)
}

// parseJitters reads a comma-separated list of corner moves (pitches).
func parseJitters(t *testing.T, flagName, list string) []float64 {
	var jitters []float64
	for _, f := range strings.Split(list, ",") {
		var v float64
		if _, err := fmt.Sscan(f, &v); err != nil {
			t.Fatalf("%s %q: %v", flagName, list, err)
		}
		jitters = append(jitters, v)
	}
	return jitters
}

// jitteredReads reads frame m (seed s) once for each corner move in
// jitters (pitches, s.d.), at its true corners moved at random, and calls
// fn with each reading that reached the cells' networks. A negative move
// reads the frame cold instead, on the grid the reader finds itself: the
// networks then learn from the corners' errors as they come in use.
func jitteredReads(r *Reader, s int64, m gocv.Mat, truth sim.Truth, jitters []float64, jitSeed int64, fn func(res Result, toFull float64)) {
	pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
	rng := rand.New(rand.NewSource(s + jitSeed))
	for _, jit := range jitters {
		c := truth.Corners
		for k := range c {
			c[k][0] += rng.NormFloat64() * jit * pitch
			c[k][1] += rng.NormFloat64() * jit * pitch
		}
		var res Result
		var err error
		if jit < 0 {
			res, err = r.Read(m)
			// A grid lost altogether teaches nothing about a cell.
			if err == nil && cornerErr(res.Corners, truth.Corners) > 0.15*pitch {
				continue
			}
		} else {
			res, err = r.ReadWithCorners(m, c)
		}
		if err != nil || r.full.w == 0 || len(r.cc.lookIn) != 25*lookInputs {
			continue
		}
		fn(res, float64(r.full.w)/float64(r.px.w))
	}
}
