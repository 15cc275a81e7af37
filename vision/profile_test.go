package vision

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// The built-in model is colours.bin as decoded: encoding it again gives the
// file back, and it passed UnmarshalBinary's checks (not the flat fallback).
func TestBuiltinColoursRoundTrip(t *testing.T) {
	b, err := BuiltinColours().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, coloursBin) {
		t.Fatal("built-in colours do not encode back to colours.bin (did colours.bin fail its checks?)")
	}
	txt, _ := BuiltinColours().MarshalText()
	var c Colours
	if err := c.UnmarshalText(txt); err != nil {
		t.Fatal(err)
	}
	if c != builtin {
		t.Fatal("text round trip changed the colours")
	}
}

func TestUnmarshalColoursErrors(t *testing.T) {
	good, _ := BuiltinColours().MarshalBinary()
	nan := bytes.Clone(good)
	copy(nan[400:], []byte{0, 0, 0xc0, 0x7f})
	scaled := bytes.Clone(good)
	copy(scaled[4*nBins:], bytes.Repeat([]byte{0, 0, 0, 0}, 8)) // log 1 in eight bins: sums past 1
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated", good[:len(good)-4]},
		{"too long", append(bytes.Clone(good), 0)},
		{"NaN", nan},
		{"not a distribution", scaled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var c Colours
			if err := c.UnmarshalBinary(tt.data); !errors.Is(err, ErrBadColours) {
				t.Fatalf("got %v, want ErrBadColours", err)
			}
		})
	}
}

// LearnColours on a sim frame with its truth moves the histograms towards
// the frame's colours: the frame's pixels under the truth drawing are more
// likely under the learned model than under the built-in one.
func TestLearnColoursFitsTheFrame(t *testing.T) {
	m, truth := simFrame(t, 10007)
	defer m.Close()
	c, err := LearnColours(m, truth.Corners, truth.Board)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LearnColours(m, [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, truth.Board); err == nil {
		t.Error("LearnColours accepted a tiny grid")
	}
	r := NewReader()
	defer r.Close()
	counts := new([nLab][nBins]float64)
	if err := r.countLabels(m, truth.Corners, truth.Board, counts); err != nil {
		t.Fatal(err)
	}
	ll := func(c *Colours) float64 {
		var s float64
		for l := range counts {
			for k, n := range counts[l] {
				v := c.bg[k]
				if l > 0 {
					v = float64(c.obj[l-1][k])
				}
				s += n * v
			}
		}
		return s
	}
	learned, built := ll(c), ll(&builtin)
	t.Logf("log-likelihood of the frame's labelled pixels: learned %.0f, built-in %.0f", learned, built)
	if !(learned > built) || math.IsNaN(learned) {
		t.Errorf("learned colours fit the frame no better than the built-in ones")
	}
	// A reader with the learned colours reads; nil goes back to the built-in.
	r.SetColours(c)
	if _, err := r.ReadWithCorners(m, truth.Corners); err != nil {
		t.Fatal(err)
	}
	r.SetColours(nil)
	if r.model.lut() != &builtin {
		t.Error("SetColours(nil) did not restore the built-in colours")
	}
}
