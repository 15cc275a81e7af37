package sim

import (
	"reflect"
	"testing"
)

// TestAddHandKeepsScene: a hand changes nothing else of the scene, and the
// same seed gives the same hand.
func TestAddHandKeepsScene(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		plain := RandomScene(seed)
		s := RandomScene(seed)
		AddHand(&s, seed)
		if s.Hand == nil {
			t.Fatalf("seed %d: no hand", seed)
		}
		again := RandomScene(seed)
		AddHand(&again, seed)
		if !reflect.DeepEqual(*s.Hand, *again.Hand) {
			t.Errorf("seed %d: two hands from one seed: %+v, %+v", seed, *s.Hand, *again.Hand)
		}
		s.Hand = nil
		if !reflect.DeepEqual(plain, s) {
			t.Errorf("seed %d: the hand changed the rest of the scene", seed)
		}
	}
}

// TestHandOverBoard: the palm hangs over the board, above the pieces
// beneath it, and the camera sees it: the render differs from the scene's
// own over a good share of the grid.
func TestHandOverBoard(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		s := RandomScene(seed)
		s.Width, s.Height, s.Noise, s.Blur = 320, 180, 0, 0
		AddHand(&s, seed)
		h := *s.Hand
		if h.Over[0] < -2.5 || h.Over[0] > 2.5 || h.Over[1] < -2.8 || h.Over[1] > 2.5 {
			t.Errorf("seed %d: palm over %.2v, not over the board", seed, h.Over)
		}
		if top := stackTopNear(&s, h.Over[0], h.Over[1], 0.7*h.Size); h.Over[2] <= top {
			t.Errorf("seed %d: palm at %.2f, the pieces beneath it reach %.2f", seed, h.Over[2], top)
		}
		with, truth := Render(s)
		if !truth.Hand {
			t.Errorf("seed %d: the truth does not say there is a hand", seed)
		}
		s.Hand = nil
		without, _ := Render(s)
		changed := 0
		for i := 0; i < len(with.Pix); i += 4 {
			d := 0
			for c := 0; c < 3; c++ {
				v := int(with.Pix[i+c]) - int(without.Pix[i+c])
				d += max(v, -v)
			}
			if d > 30 {
				changed++
			}
		}
		if share := float64(changed) / float64(len(with.Pix)/4); share < 0.02 {
			t.Errorf("seed %d: the hand changes only %.3f of the frame", seed, share)
		}
	}
}
