package vision

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"testing"
)

// withExifOrientation puts an APP1 Exif segment holding only the
// orientation tag (0x0112) right after a JPEG's start-of-image marker, as a
// phone writes when it stores a photo sideways and leaves the turn to the
// viewer.
func withExifOrientation(t *testing.T, jpg []byte, orientation uint16) []byte {
	t.Helper()
	if len(jpg) < 2 || jpg[0] != 0xff || jpg[1] != 0xd8 {
		t.Fatal("not a JPEG")
	}
	var tiff bytes.Buffer
	le := binary.LittleEndian
	tiff.WriteString("II")
	for _, v := range []any{uint16(42), uint32(8), uint16(1), // header, IFD0 with one entry
		uint16(0x0112), uint16(3), uint32(1), orientation, uint16(0), // SHORT, count 1, value
		uint32(0)} { // no next IFD
		if err := binary.Write(&tiff, le, v); err != nil {
			t.Fatal(err)
		}
	}
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	var out bytes.Buffer
	out.Write(jpg[:2])
	out.Write([]byte{0xff, 0xe1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)})
	out.Write(payload)
	out.Write(jpg[2:])
	return out.Bytes()
}

// TestDecodeHonoursExifOrientation: a phone photo stored sideways with an
// orientation tag is read upright, as every viewer shows it. Read sideways,
// rows A-E would run across the frame and the corners (and --corners, which
// the player takes from a viewer) would be in another frame.
func TestDecodeHonoursExifOrientation(t *testing.T) {
	const w, h = 96, 48
	upright := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{0, 0, 220, 255} // right half blue
			if x < w/2 {
				c = color.RGBA{220, 0, 0, 255} // left half red
			}
			upright.Set(x, y, c)
		}
	}
	// Stored turned a quarter counter-clockwise; orientation 6 asks the
	// viewer to turn it a quarter clockwise, back upright.
	stored := image.NewRGBA(image.Rect(0, 0, h, w))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			stored.Set(y, w-1-x, upright.At(x, y))
		}
	}
	for _, tc := range []struct {
		name        string
		orientation uint16
		wantW       int
	}{
		{"tagged", 6, w},
		{"upright tag", 1, h},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeBytes(withExifOrientation(t, encodeJPEG(t, stored), tc.orientation))
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Cols() != tc.wantW {
				t.Fatalf("decoded %dx%d, want %d wide", m.Cols(), m.Rows(), tc.wantW)
			}
			if tc.orientation != 6 {
				return
			}
			// BGR: the left quarter red, the right quarter blue.
			left, right := m.GetVecbAt(h/2, w/8), m.GetVecbAt(h/2, w-w/8)
			if left[2] < 150 || left[0] > 80 || right[0] < 150 || right[2] > 80 {
				t.Errorf("not upright: left BGR %v, right BGR %v", left, right)
			}
		})
	}
}
