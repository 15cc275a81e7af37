package vision

// The board as the table's hole. On a crowded board the towers cut the
// frame into small pieces and the dividers are hidden, so neither outlines
// the board; but the table about it is large and flat and reaches the
// image's border. What the table's regions leave in the middle is the
// board with its pedestal and pieces, and the grid is inset from its
// outline.

// useTableHole adds the table's hole's grid to the search's candidates on
// frames whose dividers are not sure.
const useTableHole = true

// holeMinShare is the least share of the half-size frame the hole must
// cover to be taken for a board.
const holeMinShare = 0.03

// holeScratch is tableHole's per-frame scratch, kept between frames.
type holeScratch struct {
	tableRoot []bool  // by region root: a region of the table
	table     []bool  // by pixel: table (closed over thin edges)
	label     []int32 // by pixel: the non-table part it belongs to
	stack     []int32
	mask      []bool
}

// grow gives b resized to n and cleared.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// tableHole gives the mask (half-size pixels) of the largest 4-connected
// part of the frame that is not table: not in a large region reaching the
// image's border. It needs s.root (frameOutlines).
func (s *segImage) tableHole(hs *holeScratch) ([]bool, bool) {
	w, h := s.w, s.h
	n := w * h
	if len(s.root) != n || w < 3 || h < 3 {
		return nil, false
	}
	minSize := max(int32(segMinShare*float64(n)), segPiece)
	hs.tableRoot = grow(hs.tableRoot, n)
	mark := func(i int) {
		if root := s.root[i]; s.size[root] >= minSize {
			hs.tableRoot[root] = true
		}
	}
	for x := 0; x < w; x++ {
		mark(x)
		mark((h-1)*w + x)
	}
	for y := 0; y < h; y++ {
		mark(y * w)
		mark(y*w + w - 1)
	}
	hs.table = grow(hs.table, n)
	isTable := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < w && y < h && hs.tableRoot[s.root[y*w+x]]
	}
	// Edges between the table's regions (a shadow's border, the grain)
	// join no region: lines up to three pixels wide with table on both
	// sides are table too.
	any := false
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			t := isTable(x, y) ||
				(isTable(x-1, y) || isTable(x-2, y)) && (isTable(x+1, y) || isTable(x+2, y)) ||
				(isTable(x, y-1) || isTable(x, y-2)) && (isTable(x, y+1) || isTable(x, y+2))
			hs.table[y*w+x] = t
			any = any || t
		}
	}
	if !any {
		return nil, false
	}
	hs.label = grow(hs.label, n)
	var best, bestSize, next int32
	for i := range hs.label {
		if hs.table[i] || hs.label[i] != 0 {
			continue
		}
		next++
		hs.label[i] = next
		hs.stack = append(hs.stack[:0], int32(i))
		size := int32(0)
		for len(hs.stack) > 0 {
			p := int(hs.stack[len(hs.stack)-1])
			hs.stack = hs.stack[:len(hs.stack)-1]
			size++
			x, y := p%w, p/w
			visit := func(j int) {
				if !hs.table[j] && hs.label[j] == 0 {
					hs.label[j] = next
					hs.stack = append(hs.stack, int32(j))
				}
			}
			if x > 0 {
				visit(p - 1)
			}
			if x < w-1 {
				visit(p + 1)
			}
			if y > 0 {
				visit(p - w)
			}
			if y < h-1 {
				visit(p + w)
			}
		}
		if size > bestSize {
			best, bestSize = next, size
		}
	}
	if float64(bestSize) < holeMinShare*float64(n) {
		return nil, false
	}
	hs.mask = grow(hs.mask, n)
	for i, l := range hs.label {
		hs.mask[i] = l == best
	}
	return hs.mask, true
}

// holeGrid proposes a grid (reduced frame, w x h) inset from the table's
// hole's outline by 0.3 to 1.8 pitches (the frame, and the pedestal's rim
// and side), the inset the frame's colours and the dividers fit best.
func (r *Reader) holeGrid(w, h int) (quadCand, bool) {
	if !r.segReady {
		return quadCand{}, false
	}
	mask, ok := r.seg.tableHole(&r.hole)
	if !ok {
		return quadCand{}, false
	}
	q, ok := r.seg.outline(mask)
	if !ok {
		return quadCand{}, false
	}
	hq, ok := quadHomography(q)
	if !ok {
		return quadCand{}, false
	}
	best := r.bestInset(hq, 1.8, 0.6, w, h)
	return best, best.s > 0
}
