package vision

import (
	"encoding/binary"
	"flag"
	"math"
	"os"
	"testing"
)

var learn = flag.Int("learn", 0, "learn the colour histograms from this many sim frames (seeds 1..N, all below 10000) and rewrite colours.bin")

// TestLearnColours learns the colour histograms of each label from
// simulated frames whose truth is known: the truth board is drawn with the
// model's shapes from the true corners, and every pixel well inside a drawn
// label (its neighbours two pixels away agree) counts for that label.
func TestLearnColours(t *testing.T) {
	if *learn == 0 {
		t.Skip("run with -learn N to relearn colours.bin")
	}
	var counts [nLab][nBins]float64
	r := NewReader()
	defer r.Close()
	for seed := int64(1); seed <= int64(*learn); seed++ {
		m, truth := simFrame(t, seed)
		_, scale, err := r.prepare(m)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		h, ok := homographyFromCorners(truth.Corners)
		if !ok {
			t.Fatalf("seed %d: bad truth corners", seed)
		}
		hs := scaleHomography(h, scale)
		c := &r.cc
		all := c.setup(hs, r.px.w, r.px.h)
		r.model.estimateBoard(&r.px, hs)
		for i := range c.hyp {
			c.hyp[i] = hypIndex(truth.Board[i])
		}
		c.draw(all, -1, 0)
		w := r.px.w
		for y := all.Min.Y + 2; y < all.Max.Y-2; y++ {
			for x := all.Min.X + 2; x < all.Max.X-2; x++ {
				o := y*w + x
				l := c.lab[o]
				if c.lab[o-2] != l || c.lab[o+2] != l || c.lab[o-2*w] != l || c.lab[o+2*w] != l {
					continue
				}
				rr, gg, bb := float64(r.px.bgr[3*o+2]), float64(r.px.bgr[3*o+1]), float64(r.px.bgr[3*o])
				f0, f1, f2 := features(rr, gg, bb)
				counts[l][binOf(f0-r.model.board[0], f1, f2)]++
			}
		}
	}
	out := make([]byte, 0, nLab*nBins*4)
	for l := 0; l < nLab; l++ {
		sm := smooth(counts[l][:])
		var tot float64
		for _, v := range sm {
			tot += v
		}
		t.Logf("label %d: %.0f pixels", l, tot)
		for _, v := range sm {
			p := (v + 0.02) / (tot + 0.02*nBins)
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(math.Log(p))))
		}
	}
	if err := os.WriteFile("colours.bin", out, 0o644); err != nil {
		t.Fatal(err)
	}
}
