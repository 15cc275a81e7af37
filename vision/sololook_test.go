package vision

import (
	"testing"

	"companion/sim"
)

// withoutSoloLook switches the solo look off for the rest of test t: tests
// of the steps before it see their own reading.
func withoutSoloLook(t *testing.T) {
	u := useSoloLook
	useSoloLook = false
	t.Cleanup(func() { useSoloLook = u })
}

// readBoth reads seed's frame with a fresh reader without the solo look,
// and with it; truth is the frame's.
func readBoth(t *testing.T, seed int64) (without, with Result, truth sim.Truth) {
	t.Helper()
	return readSwitched(t, seed, &useSoloLook)
}

// readSwitched reads seed's frame with a fresh reader with the step that
// on switches off, and on; truth is the frame's.
func readSwitched(t *testing.T, seed int64, on *bool) (without, with Result, truth sim.Truth) {
	t.Helper()
	m, truth := simFrame(t, seed)
	defer m.Close()
	read := func(v bool) Result {
		defer func(u bool) { *on = u }(*on)
		*on = v
		r := NewReader()
		defer r.Close()
		res, err := r.Read(m)
		if err != nil {
			t.Fatalf("seed %d (step on: %v): %v", seed, v, err)
		}
		return res
	}
	return read(false), read(true), truth
}

// The solo look changes only unsure cells' readings, never a confidence
// or the grid; on these frames (five check sets, eighty-fourth session)
// it puts right a cell in sight that the reading had wrong. (20017 B3, a
// blue pawn on level 3 read on level 2, is read right without it since
// its search's grid comes from the corner networks, not the wide outline
// search.)
func TestSoloLookPutsRightUnsureCells(t *testing.T) {
	for _, tc := range []struct {
		seed int64
		cell int
	}{
		{20013, 22}, // a dome read as a blue pawn on level 3
		{20196, 11}, // level 1 read as 2
	} {
		without, with, truth := readBoth(t, tc.seed)
		if with.Confidence != without.Confidence || with.Corners != without.Corners {
			t.Errorf("seed %d: the solo look moved confidences or corners", tc.seed)
		}
		for i := range with.Board {
			if with.Board[i] != without.Board[i] && without.Confidence[i] >= soloLookBelow {
				t.Errorf("seed %d cell %d: sure (%.2f) yet changed %v -> %v", tc.seed, i, without.Confidence[i], without.Board[i], with.Board[i])
			}
		}
		want := truth.Board[tc.cell]
		if without.Board[tc.cell] == want {
			t.Errorf("seed %d cell %d: read right (%v) without the solo look; the case no longer tests it", tc.seed, tc.cell, want)
		}
		if with.Board[tc.cell] != want {
			t.Errorf("seed %d cell %d: %v with the solo look, want %v", tc.seed, tc.cell, with.Board[tc.cell], want)
		}
	}
}

// probability normalises: a mean of log-probabilities is not.
func TestProbability(t *testing.T) {
	var lp [nHyp]float64
	for k := range lp {
		lp[k] = -50
	}
	lp[3], lp[5] = -1, -1 // equal, the rest nothing: a half each
	if p := probability(&lp, 3); p < 0.4999 || p > 0.5001 {
		t.Errorf("probability = %v, want 0.5", p)
	}
	lp[5] = -1 - 2.1972245773362196 // odds 9 to 1
	if p := probability(&lp, 3); p < 0.8999 || p > 0.9001 {
		t.Errorf("probability = %v, want 0.9", p)
	}
}

// BenchmarkSoloLook times the solo look alone on manySeeds' frames
// (rendered off the clock, about half a minute), each read first off the
// clock, and reports how many cells it reads. Run it on one core
// (taskset -c 0).
func BenchmarkSoloLook(b *testing.B) {
	type read struct {
		r   *Reader
		res Result
	}
	frames, _ := renderFrames(b, manySeeds, 1280, 720)
	var reads []read
	cells := 0
	for _, m := range frames {
		r := NewReader()
		b.Cleanup(func() { r.Close() })
		res, err := r.Read(m)
		if err != nil {
			continue
		}
		cells += len(soloLookCells(&res, &r.confIn))
		reads = append(reads, read{r, res})
	}
	if len(reads) == 0 {
		b.Fatal("no frame read")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rd := &reads[i%len(reads)]
		res := rd.res
		rd.r.soloLook(float64(rd.r.full.w)/float64(rd.r.px.w), &res)
	}
	b.ReportMetric(float64(cells)/float64(len(reads)), "cells/read")
}
