package vision

import (
	"testing"
)

// Bare boards lit unevenly: the cells' colours form two clusters (lamp and
// shade) and the whiter one was taken for block tops, so that an empty
// board read a third of its cells as level 1, some at confidence 1.
func TestReadBareBoardLitUnevenly(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	for _, seed := range []int64{1269, 1390, 20191, 20264} {
		m, truth := simFrame(t, seed)
		res, err := r.ReadWithCorners(m, truth.Corners)
		m.Close()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		wrong := 0 // levels only: pawns are not what this is about
		for i := range res.Board {
			if res.Board[i].Level != truth.Board[i].Level {
				wrong++
			}
		}
		if wrong > 0 {
			t.Errorf("seed %d (%d built): %d levels wrong (read %v, true %v)", seed, truth.Board.Built(), wrong, res.Board.Tokens(), truth.Board.Tokens())
		}
	}
}
