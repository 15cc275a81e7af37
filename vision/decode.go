package vision

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // register the JPEG header reader for image.DecodeConfig
	_ "image/png"  // register the PNG header reader for image.DecodeConfig
	"io"
	"os"

	"gocv.io/x/gocv"
)

// Limits on the images DecodeFile accepts. A phone photo (12 Mpx, 4032x3024)
// passes; a 10000x10000 image is refused from its header alone, before any
// pixel memory is allocated.
const (
	MaxSide      = 8192
	MaxPixels    = 40 << 20
	maxFileBytes = 64 << 20
)

var (
	// ErrNotImage means the file is not a PNG or JPEG image.
	ErrNotImage = errors.New("not a PNG or JPEG image")
	// ErrTruncated means the image file ends before its image data does.
	ErrTruncated = errors.New("image file is truncated (incomplete download or copy?)")
	// ErrBlank means the image is a single flat colour: a covered lens or a
	// camera that is not delivering frames.
	ErrBlank = errors.New("image is blank (one flat colour): is the camera covered or not started?")
	// ErrTooLarge means the image has more pixels than MaxSide or MaxPixels allow.
	ErrTooLarge = errors.New("image is too large")
)

// DecodeFile reads a PNG or JPEG file into a BGR Mat; the caller must Close it
// (on error it is empty, and closing it is harmless). It checks the header
// (format and dimensions) before decoding, so a non-image, a huge image or a
// truncated file gives one clear error and never a large allocation; a blank
// (one-colour) image gives ErrBlank.
func DecodeFile(path string) (gocv.Mat, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return gocv.NewMat(), fmt.Errorf("reading image %s: no such file", path)
		}
		return gocv.NewMat(), fmt.Errorf("reading image %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return gocv.NewMat(), fmt.Errorf("reading image %s: %w", path, err)
	}
	if st.IsDir() {
		return gocv.NewMat(), fmt.Errorf("reading image %s: is a directory", path)
	}
	if st.Size() > maxFileBytes {
		return gocv.NewMat(), fmt.Errorf("reading image %s: %w (%d MB file; at most %d MB)", path, ErrTooLarge, st.Size()>>20, maxFileBytes>>20)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return gocv.NewMat(), fmt.Errorf("reading image %s: %w", path, err)
	}
	m, err := DecodeBytes(data)
	if err != nil {
		return m, fmt.Errorf("reading image %s: %w", path, err)
	}
	return m, nil
}

// DecodeBytes decodes an in-memory PNG or JPEG into a BGR Mat, with the same
// checks as DecodeFile; the caller must Close the Mat.
func DecodeBytes(data []byte) (gocv.Mat, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if len(data) < 64 && (bytes.HasPrefix(data, []byte{0xff, 0xd8}) || bytes.HasPrefix(data, []byte("\x89PNG"))) {
			return gocv.NewMat(), ErrTruncated
		}
		return gocv.NewMat(), ErrNotImage
	}
	if format != "jpeg" && format != "png" {
		return gocv.NewMat(), ErrNotImage
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return gocv.NewMat(), fmt.Errorf("%w: %dx%d pixels", ErrNotImage, cfg.Width, cfg.Height)
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || cfg.Width*cfg.Height > MaxPixels {
		return gocv.NewMat(), fmt.Errorf("%w: %dx%d pixels, at most %d on a side and %d Mpx (use a 1280x720 or 1920x1080 frame)",
			ErrTooLarge, cfg.Width, cfg.Height, MaxSide, MaxPixels>>20)
	}
	if !complete(data, format) {
		return gocv.NewMat(), ErrTruncated
	}
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil || m.Empty() {
		m.Close()
		return gocv.NewMat(), fmt.Errorf("%s data is corrupt: %w", format, ErrNotImage)
	}
	if isBlank(m) {
		m.Close()
		return gocv.NewMat(), ErrBlank
	}
	return m, nil
}

// complete reports whether the file carries its end marker: JPEG EOI (FF D9)
// near the end (some writers pad after it), PNG's IEND chunk.
func complete(data []byte, format string) bool {
	tail := data
	if len(tail) > 4096 {
		tail = tail[len(tail)-4096:]
	}
	switch format {
	case "jpeg":
		return bytes.Contains(tail, []byte{0xff, 0xd9})
	case "png":
		return bytes.Contains(tail, []byte("IEND"))
	}
	return true
}

// isBlank reports whether a BGR Mat is (nearly) one flat colour.
func isBlank(m gocv.Mat) bool {
	mean := gocv.NewMat()
	sd := gocv.NewMat()
	gocv.MeanStdDev(m, &mean, &sd)
	blank := true
	for i := 0; i < sd.Rows()*sd.Cols(); i++ {
		if sd.GetDoubleAt(i, 0) > 2.0 {
			blank = false
		}
	}
	mean.Close()
	sd.Close()
	return blank
}
