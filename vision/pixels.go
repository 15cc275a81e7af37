package vision

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// pixels is a Go-side copy of the reduced BGR frame.
type pixels struct {
	w, h int
	bgr  []uint8
}

func (p *pixels) load(m gocv.Mat) error {
	if m.Type() != gocv.MatTypeCV8UC3 || !m.IsContinuous() {
		return fmt.Errorf("vision: internal: reduced frame is not continuous BGR")
	}
	data, err := m.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("vision: internal: %w", err)
	}
	p.w, p.h = m.Cols(), m.Rows()
	if cap(p.bgr) < len(data) {
		p.bgr = make([]uint8, len(data))
	}
	p.bgr = p.bgr[:len(data)]
	copy(p.bgr, data)
	return nil
}

// flat reports whether the frame is (nearly) one colour.
func (p *pixels) flat() bool {
	var s, s2 float64
	n := 0
	for i := 0; i < len(p.bgr); i += 3 * 7 {
		v := float64(p.bgr[i]) + float64(p.bgr[i+1]) + float64(p.bgr[i+2])
		s += v
		s2 += v * v
		n++
	}
	if n == 0 {
		return true
	}
	m := s / float64(n)
	return math.Sqrt(math.Max(0, s2/float64(n)-m*m)) < 3*2
}

// at gives the colour (r, g, b) at integer pixel (x, y), clamped to the frame.
func (p *pixels) at(x, y int) (float64, float64, float64) {
	if x < 0 {
		x = 0
	} else if x >= p.w {
		x = p.w - 1
	}
	if y < 0 {
		y = 0
	} else if y >= p.h {
		y = p.h - 1
	}
	i := (y*p.w + x) * 3
	return float64(p.bgr[i+2]), float64(p.bgr[i+1]), float64(p.bgr[i])
}
