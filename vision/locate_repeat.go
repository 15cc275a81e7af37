package vision

// A Santorini board's grid ends at its frame; tiles, squared paper and a
// tiled table run on past any 5x5 window of their lines. Read as boards,
// such photos gave empty or half-built boards at full grid confidence (of
// 24 views each of a tiled floor, light grout on blue, dark grout on
// beige, and squared paper, 23, 24 and 20 were read). So a grid whose
// dividers run on past it on two sides or more is no board.
//
// On the true grids of seeds 17000-18999, the interior lines continued
// past a side showed ridges at up to 0.62 of their places (the frame's and
// the table's texture, the pedestal's edge), the second surest side at
// most 0.375 (median 0.08); on the tiles nearly every side showed them at
// 0.96-1. Cold on 17000-17999 no board read changes.

// repeatReach is where, past each side of the grid (in pitches), the
// interior lines are continued and sampled; repeatPlaces how many places
// per line.
var repeatReach = [2]float64{0.15, 0.95}

const repeatPlaces = 12

// minRepeatShown is how many of a side's places must be in the frame for
// the side to be judged; repeatShare the share of them on a ridge from
// which the lines run on there; repeatSides how many sides running on
// make the grid no board.
const (
	minRepeatShown = 20
	repeatShare    = 0.5
	repeatSides    = 2
)

// runsOn tells whether grid h (full resolution, scale to the reduced
// frame) has its lines running on past repeatSides sides or more: no
// board.
func (r *Reader) runsOn(h homography, scale float64) bool {
	n, _ := r.sidesRunOn(scaleHomography(h, scale))
	return n >= repeatSides
}

// sidesRunOn gives, for grid hs (reduced frame), how many sides' continued
// interior lines show dividers (ridges) at repeatShare of their places or
// more, and the share per side (left, right, far, near as the grid's own
// axes run).
func (r *Reader) sidesRunOn(hs homography) (int, [4]float64) {
	var share [4]float64
	g, err := r.gray.DataPtrUint8()
	if err != nil {
		return 0, share
	}
	img := grayImg{g, r.gray.Cols(), r.gray.Rows()}
	var hit, shown [4]int
	for fam := 0; fam < 2; fam++ {
		for k := 1; k <= 4; k++ {
			c := float64(k)
			for side := 0; side < 2; side++ {
				for i := 0; i < repeatPlaces; i++ {
					d := repeatReach[0] + (repeatReach[1]-repeatReach[0])*(float64(i)+0.5)/repeatPlaces
					t := -d
					if side == 1 {
						t = 5 + d
					}
					// Board (X, Y) = (t, c) along rows, (c, t) along columns.
					p, q := hs.apply(pt{t, c}), hs.apply(pt{t, c + 0.1})
					if fam == 1 {
						p, q = hs.apply(pt{c, t}), hs.apply(pt{c + 0.1, t})
					}
					// Three pixels' margin: isRidge looks a few pixels across.
					if p.X < 3 || p.Y < 3 || p.X > float64(img.w-4) || p.Y > float64(img.h-4) {
						continue
					}
					sd := 2*fam + side
					shown[sd]++
					if ridgeAcross(img, p, q) {
						hit[sd]++
					}
				}
			}
		}
	}
	n := 0
	for sd := range share {
		if shown[sd] < minRepeatShown {
			continue
		}
		share[sd] = float64(hit[sd]) / float64(shown[sd])
		if share[sd] >= repeatShare {
			n++
		}
	}
	return n, share
}
