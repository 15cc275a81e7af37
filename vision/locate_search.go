package vision

import "sort"

// Grid search: every proposed grid is refined once and scored; the best
// few are then tried one cell over and one cell wider or narrower each
// way, because on crowded boards the proposals often stop a cell short of
// the frame or run a cell onto it, and the dividers alone cannot tell.

// variantSeeds is how many of the best grids have their neighbours tried.
const variantSeeds = 3

// variantsRefined is how many of the screened neighbours are refined.
const variantsRefined = 6

// variantsFramed is how many neighbours, the best by their dividers, are
// scored by the frame's colours too.
const variantsFramed = 40

type scoredGrid struct {
	h homography // full-resolution frame
	s float64
}

// findGrid gives the best grid (full-resolution frame) and its score;
// scale maps the full frame to the reduced one.
func (r *Reader) findGrid(scale float64, w, h int) (homography, float64, bool) {
	var all []scoredGrid
	try := func(hf homography) {
		if !plausibleGrid(cornersOf(hf), w, h) {
			return
		}
		hr, s := r.refineN(hf, 1, linePoints/2)
		if plausibleGrid(cornersOf(hr), w, h) {
			all = append(all, scoredGrid{hr, s})
		}
	}
	for _, hs := range r.locate() {
		try(scaleHomography(hs, 1/scale))
	}
	if len(all) == 0 {
		return homography{}, 0, false
	}
	sort.Slice(all, func(i, j int) bool { return all[i].s > all[j].s })
	var seeds []homography
	for _, g := range all {
		if len(seeds) >= variantSeeds {
			break
		}
		dup := false
		for _, k := range seeds {
			if sameGridTol(k, g.h, 0.3) {
				dup = true
				break
			}
		}
		if !dup {
			seeds = append(seeds, g.h)
		}
	}
	// The neighbours are screened cheaply (dividers on the reduced frame,
	// the frame's colours) before the best few are refined.
	var screened []scoredGrid
	rw, rh := r.gray.Cols(), r.gray.Rows()
	for _, hs := range seeds {
		for _, a := range gridNeighbours {
			hv := mul3(hs, a)
			if !plausibleGrid(cornersOf(hv), w, h) {
				continue
			}
			s := r.ridgeSupportN(scaleHomography(hv, scale), rw, rh, 6)
			screened = append(screened, scoredGrid{hv, s})
		}
	}
	// The frame's colours cost more: only for the best by the dividers.
	sort.Slice(screened, func(i, j int) bool { return screened[i].s > screened[j].s })
	if len(screened) > variantsFramed {
		screened = screened[:variantsFramed]
	}
	for i := range screened {
		screened[i].s += r.frameEvidence(screened[i].h)
	}
	sort.Slice(screened, func(i, j int) bool { return screened[i].s > screened[j].s })
	for i := 0; i < len(screened) && i < variantsRefined; i++ {
		try(screened[i].h)
	}
	best := all[0]
	for _, g := range all {
		if g.s > best.s {
			best = g
		}
	}
	return best.h, best.s, true
}

// gridNeighbours map a grid's board coordinates to those of its
// neighbours: shifted a cell, or with one cell more or fewer, along either
// axis or both.
var gridNeighbours = func() []homography {
	var out []homography
	for _, su := range []float64{0.8, 1, 1.25} {
		for _, sv := range []float64{0.8, 1, 1.25} {
			for _, tu := range []float64{-1, 0, 1} {
				for _, tv := range []float64{-1, 0, 1} {
					if su == 1 && sv == 1 && tu == 0 && tv == 0 {
						continue
					}
					out = append(out, homography{su, 0, tu * su, 0, sv, tv * sv, 0, 0, 1})
				}
			}
		}
	}
	return out
}()
