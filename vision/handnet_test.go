package vision

import (
	"errors"
	"testing"

	"companion/sim"
)

// TestReadRefusesHands: frames with a player's hand over the board
// (sim.AddHand) are refused as not settled, and the same scenes without
// the hand are read. Seeds 5000-5011: the regression suite's scenes.
func TestReadRefusesHands(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	r := NewReader()
	defer r.Close()
	refused, read := 0, 0
	const n = 12
	for seed := int64(5000); seed < 5000+n; seed++ {
		data, _, err := sim.HandFrame(seed)
		if err != nil {
			t.Fatal(err)
		}
		m, err := DecodeBytes(data)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Read(m)
		m.Close()
		if errors.Is(err, ErrNotSettled) {
			refused++
		}
		c, _ := simFrame(t, seed)
		_, err = r.Read(c)
		c.Close()
		if !errors.Is(err, ErrNotSettled) {
			read++
		} else {
			t.Errorf("seed %d without a hand: refused as not settled (logit %.2f)", seed, r.handLogit)
		}
	}
	// Of 200 unseen seeds' hand frames 175 are refused (SIM_NOTES).
	if refused < n*3/4 {
		t.Errorf("%d of %d frames with a hand refused as not settled, want at least %d", refused, n, n*3/4)
	}
	t.Logf("hands refused %d of %d; the same scenes without read %d", refused, n, read)
}
