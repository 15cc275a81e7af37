package vision

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"companion/observation"

	"gocv.io/x/gocv"
)

// Colours is a colour model: for each label the reader draws (the board and
// "anything else", block, dome, blue, light and dark pawn) a histogram of
// log-probabilities over the colour features' bins (see colour.go). The
// built-in one is learned from simulated frames; LearnColours adapts it to
// one set, camera and lamp from a photo of a known position.
type Colours struct {
	bg  [nBins]float64           // the board label: anything not a piece
	obj [nLab - 1][nBins]float32 // block, dome, blue, light, dark
}

// SetColours makes the Reader use c for the pieces' and the background's
// colours; nil goes back to the built-in model. c is only read, so one
// Colours may serve several Readers.
func (r *Reader) SetColours(c *Colours) { r.model.colours, r.model.bgMixFor = c, nil }

// BuiltinColours gives a copy of the built-in colour model.
func BuiltinColours() *Colours {
	c := builtin
	return &c
}

// coloursSize is the length of Colours' binary form.
const coloursSize = nLab * nBins * 4

// ErrBadColours means a colour model's encoding is damaged.
var ErrBadColours = errors.New("vision: damaged colour model")

// MarshalBinary encodes c as colours.bin does: for the board label then each
// object label, nBins little-endian float32 log-probabilities.
func (c *Colours) MarshalBinary() ([]byte, error) {
	out := make([]byte, 0, coloursSize)
	for _, v := range c.bg {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(v)))
	}
	for l := range c.obj {
		for _, v := range c.obj[l] {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
	}
	return out, nil
}

// UnmarshalBinary decodes MarshalBinary's form. It checks that every label
// is a probability distribution (finite log-probabilities summing to one),
// so a damaged model is refused rather than read with.
func (c *Colours) UnmarshalBinary(data []byte) error {
	if len(data) != coloursSize {
		return fmt.Errorf("%w: %d bytes, want %d", ErrBadColours, len(data), coloursSize)
	}
	var d Colours
	at := func(l, k int) float32 {
		return math.Float32frombits(binary.LittleEndian.Uint32(data[4*(l*nBins+k):]))
	}
	for l := 0; l < nLab; l++ {
		var sum float64
		for k := 0; k < nBins; k++ {
			v := at(l, k)
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || v > 1e-3 {
				return fmt.Errorf("%w: label %d bin %d holds %v", ErrBadColours, l, k, v)
			}
			sum += math.Exp(float64(v))
			if l == 0 {
				d.bg[k] = float64(v)
			} else {
				d.obj[l-1][k] = v
			}
		}
		if math.Abs(sum-1) > 0.01 {
			return fmt.Errorf("%w: label %d's probabilities sum to %.4f", ErrBadColours, l, sum)
		}
	}
	*c = d
	return nil
}

// MarshalText gives the binary form in standard base64, so that a Colours
// is one string in JSON.
func (c *Colours) MarshalText() ([]byte, error) {
	b, _ := c.MarshalBinary()
	out := make([]byte, base64.StdEncoding.EncodedLen(len(b)))
	base64.StdEncoding.Encode(out, b)
	return out, nil
}

// UnmarshalText decodes MarshalText's form.
func (c *Colours) UnmarshalText(text []byte) error {
	if len(text) != base64.StdEncoding.EncodedLen(coloursSize) {
		return fmt.Errorf("%w: %d base64 characters, want %d", ErrBadColours, len(text), base64.StdEncoding.EncodedLen(coloursSize))
	}
	b := make([]byte, coloursSize)
	n, err := base64.StdEncoding.Decode(b, text)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadColours, err)
	}
	return c.UnmarshalBinary(b[:n])
}

// priorPixels is how many of a photo's pixels of one label weigh as much as
// the built-in histogram: a label seen in fewer pixels leans on the prior.
const priorPixels = 10000

// LearnColours learns a set's colours from a photo of a known position:
// truth is what stands on the board and corners are the grid's outer
// corners in pixels (A1, A5, E5, E1), as Result.Corners gives them. Each
// label's histogram from the photo is blended with the built-in one, by how
// many pixels the photo shows of it, so that labels the photo shows little
// of, and colours it does not show, stay as the built-in model has them.
func LearnColours(img gocv.Mat, corners [4][2]float64, truth observation.Board) (*Colours, error) {
	if err := checkBoard(truth); err != nil {
		return nil, err
	}
	r := NewReader()
	defer r.Close()
	counts := new([nLab][nBins]float64)
	if err := r.countLabels(img, corners, truth, counts); err != nil {
		return nil, err
	}
	c := new(Colours)
	for l := 0; l < nLab; l++ {
		sm := smooth(counts[l][:])
		var tot float64
		for _, v := range sm {
			tot += v
		}
		var raw float64
		for _, v := range counts[l] {
			raw += v
		}
		w := raw / (raw + priorPixels)
		for k, v := range sm {
			var p float64
			if tot > 0 {
				p = v / tot
			}
			var prior float64
			if l == 0 {
				prior = builtin.bg[k]
			} else {
				prior = float64(builtin.obj[l-1][k])
			}
			lp := math.Log(w*p + (1-w)*math.Exp(prior))
			if l == 0 {
				c.bg[k] = lp
			} else {
				c.obj[l-1][k] = float32(lp)
			}
		}
	}
	return c, nil
}

// checkBoard refuses a board the hypotheses cannot draw.
func checkBoard(b observation.Board) error {
	for i, sq := range b {
		if sq.Level > 4 || sq.Occupant > observation.Dark || (sq.Level == 4 && sq.Occupant != observation.Empty) {
			return fmt.Errorf("vision: cell %c%d: impossible square %d/%d", 'A'+i/5, i%5+1, sq.Level, sq.Occupant)
		}
	}
	return nil
}

// countLabels draws truth with the model's shapes from the given corners
// and counts, per label, the colour bins of every pixel well inside a drawn
// label (its neighbours two pixels away agree). TestLearnColours learns the
// built-in model with it, LearnColours a set's.
func (r *Reader) countLabels(img gocv.Mat, corners [4][2]float64, truth observation.Board, counts *[nLab][nBins]float64) error {
	if img.Empty() || img.Cols() < 64 || img.Rows() < 64 {
		return fmt.Errorf("vision: frame is empty or tiny (%dx%d)", img.Cols(), img.Rows())
	}
	_, scale, err := r.prepare(img)
	if err != nil {
		return err
	}
	if err := checkGivenCorners(corners, img.Cols(), img.Rows()); err != nil {
		return err
	}
	h, _ := homographyFromCorners(corners)
	hs := scaleHomography(h, scale)
	c := &r.cc
	all := c.setup(hs, r.px.w, r.px.h)
	var bare [25]bool
	for i, sq := range truth {
		bare[i] = sq == (observation.Square{})
	}
	r.model.estimateBoard(&r.px, hs, bare)
	for i := range c.hyp {
		c.hyp[i] = hypIndex(truth[i])
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
			if l == labTop {
				l = labBlock
			}
			counts[l][binOf(f0-r.model.board[0], f1, f2)]++
		}
	}
	return nil
}

// hypIndex is the hypothesis index of a square.
func hypIndex(sq observation.Square) int {
	if sq.Level >= 4 {
		return 16
	}
	return int(sq.Level)*4 + int(sq.Occupant)
}
