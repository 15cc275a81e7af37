package vision

import (
	"flag"
	"fmt"
	"math"
	"sort"
	"testing"
)

var verifyN = flag.Int("verifyn", 0, "grid verification experiment on this many seeds from -surveyseed")

func TestVerifyGrid(t *testing.T) {
	if *verifyN == 0 {
		t.Skip()
	}
	r := NewReader()
	defer r.Close()
	for s := *surveySeed; s < *surveySeed+int64(*verifyN); s++ {
		m, truth := simFrame(t, s)
		_, scale, _ := r.prepare(m)
		w, hh := m.Cols(), m.Rows()
		all := r.gridCandidates(scale, w, hh)
		sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
		var seeds []scoredGrid
		for _, g := range all {
			if len(seeds) >= 4 {
				break
			}
			dup := false
			for _, k := range seeds {
				if sameGridTol(k.h, g.h, 0.3) {
					dup = true
				}
			}
			if !dup {
				seeds = append(seeds, g)
			}
		}
		for i, sd := range seeds {
			g := sd.h
			if gf, _ := r.refineFinal(g, 2, linePoints); plausibleGrid(cornersOf(gf), w, hh) && squareError(gf, w, hh) < maxSquareError {
				g = gf
			}
			var res Result
			r.readCells(scaleHomography(g, scale), &res)
			var lc, minc float64
			minc = 1
			right := 0
			for k := range res.Board {
				lc += math.Log(math.Max(res.Confidence[k], 1e-9))
				minc = math.Min(minc, res.Confidence[k])
				if res.Board[k] == truth.Board[k] {
					right++
				}
			}
			fmt.Printf("V %d %d %.3f %.3f %.3f %.3f %.4f %d %.3f %.3f %.1f\n", s, i, pitchErr(cornersOf(g), truth.Corners), sd.s, sd.base, lc/25, minc, right, squareError(g, w, hh), truth.Elevation, float64(len(r.faces)))
		}
		m.Close()
	}
}
