package vision

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"companion/sim"
)

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func texture(w, h int, seed int64) *image.RGBA {
	rng := rand.New(rand.NewSource(seed))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.Intn(256))
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	return img
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hugeJPEGHeader is a valid small JPEG whose frame header claims w x h.
func hugeJPEGHeader(t *testing.T, w, h int) []byte {
	data := encodeJPEG(t, texture(16, 16, 1))
	for i := 2; i+8 < len(data); i++ {
		if data[i] == 0xff && data[i+1] == 0xc0 { // SOF0
			data[i+5], data[i+6] = byte(h>>8), byte(h)
			data[i+7], data[i+8] = byte(w>>8), byte(w)
			return data
		}
	}
	t.Fatal("no SOF0 marker")
	return nil
}

func TestDecodeFileBadInput(t *testing.T) {
	good := encodeJPEG(t, texture(320, 240, 2))
	blank := image.NewRGBA(image.Rect(0, 0, 320, 240))
	for i := range blank.Pix {
		blank.Pix[i] = 128
	}
	tests := []struct {
		name string
		path string
		want error  // errors.Is target, or nil to check the text
		text string // substring of the message
	}{
		{"missing file", filepath.Join(t.TempDir(), "nope.jpg"), nil, "no such file"},
		{"directory", t.TempDir(), nil, "is a directory"},
		{"non-image", writeFile(t, "notes.jpg", []byte("these are not the pixels you are looking for\n")), ErrNotImage, "not a PNG or JPEG"},
		{"empty file", writeFile(t, "empty.png", nil), ErrNotImage, "not a PNG or JPEG"},
		{"truncated JPEG", writeFile(t, "cut.jpg", good[:len(good)/2]), ErrTruncated, "truncated"},
		{"truncated PNG", writeFile(t, "cut.png", func() []byte { p := encodePNG(t, texture(64, 64, 3)); return p[:len(p)-40] }()), ErrTruncated, "truncated"},
		{"blank image", writeFile(t, "blank.png", encodePNG(t, blank)), ErrBlank, "blank"},
		{"10000x10000", writeFile(t, "huge.jpg", hugeJPEGHeader(t, 10000, 10000)), ErrTooLarge, "10000x10000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			m, err := DecodeFile(tt.path)
			runtime.ReadMemStats(&after)
			defer m.Close()
			if err == nil {
				t.Fatalf("DecodeFile(%s) = %dx%d Mat, want an error", tt.name, m.Cols(), m.Rows())
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %q is not %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q does not say %q", err, tt.text)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
				t.Errorf("allocated %d MB to refuse it", grew>>20)
			}
		})
	}
	t.Run("good JPEG", func(t *testing.T) {
		m, err := DecodeFile(writeFile(t, "ok.jpg", good))
		defer m.Close()
		if err != nil || m.Cols() != 320 || m.Rows() != 240 || m.Channels() != 3 {
			t.Fatalf("DecodeFile = %dx%dx%d, %v; want 320x240x3", m.Cols(), m.Rows(), m.Channels(), err)
		}
	})
}

func TestReadNoBoard(t *testing.T) {
	plain := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	rng := rand.New(rand.NewSource(4))
	for y := 0; y < 720; y++ {
		for x := 0; x < 1280; x++ {
			v := uint8(150 + x/40 + rng.Intn(6)) // a wooden table: a gentle gradient and sensor noise
			plain.Set(x, y, color.RGBA{v, uint8(int(v) * 3 / 4), uint8(int(v) / 2), 255})
		}
	}
	blank := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	tests := []struct {
		name string
		img  image.Image
		want error
	}{
		{"random texture", texture(1280, 720, 5), ErrNoGrid},
		{"plain table", plain, ErrNoGrid},
		{"blank frame", blank, ErrBlank},
	}
	r := NewReader()
	defer r.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.ReadImage(tt.img)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ReadImage = %v, %v; want %v", res.Board.Tokens(), err, tt.want)
			}
		})
	}
}

// FuzzDecodeBytes: whatever bytes arrive as a photo (a corrupt download,
// a file of another kind, a header that lies about its size), decoding
// gives a Mat or one of its errors, and a Mat that decodes is read or
// refused without a panic. A crash inside OpenCV's decoders would end the
// fuzzing process: that is what this looks for. Run it with
// `go test -run XXX -fuzz FuzzDecodeBytes ./vision`.
func FuzzDecodeBytes(f *testing.F) {
	small := texture(96, 64, 3)
	var j, p bytes.Buffer
	if err := jpeg.Encode(&j, small, &jpeg.Options{Quality: 70}); err != nil {
		f.Fatal(err)
	}
	if err := png.Encode(&p, small); err != nil {
		f.Fatal(err)
	}
	// A board, small, so that mutations reach the grid search and the
	// cell reading too.
	sc := sim.RandomScene(5003)
	sc.Width, sc.Height = 320, 180
	board, _ := sim.Render(sc)
	var bj bytes.Buffer
	if err := jpeg.Encode(&bj, board, &jpeg.Options{Quality: 80}); err != nil {
		f.Fatal(err)
	}
	f.Add(bj.Bytes())
	f.Add(j.Bytes())
	f.Add(p.Bytes())
	f.Add(j.Bytes()[:len(j.Bytes())/2])
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte{0xff, 0xd8, 0xff, 0xd9})
	r := NewReader()
	f.Cleanup(func() { r.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeBytes(data)
		defer m.Close()
		if err != nil {
			if m.Empty() {
				return
			}
			t.Fatalf("DecodeBytes gave an error (%v) and a Mat of %dx%d", err, m.Cols(), m.Rows())
		}
		if m.Empty() || m.Type() != 16 { // CV_8UC3
			t.Fatalf("DecodeBytes gave no error and a Mat of type %v, %dx%d", m.Type(), m.Cols(), m.Rows())
		}
		if _, err := r.Read(m); err != nil && !errors.Is(err, ErrNoGrid) && !strings.Contains(err.Error(), "tiny") {
			t.Logf("read: %v", err)
		}
	})
}
