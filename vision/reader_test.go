package vision

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestReadWithCornersBadCorners(t *testing.T) {
	r := NewReader()
	defer r.Close()
	m := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer m.Close()
	gocv.Rectangle(&m, image.Rect(100, 100, 400, 400), color.RGBA{255, 255, 255, 255}, 3)
	tests := []struct {
		name    string
		corners [4][2]float64
		want    string // in the error
	}{
		{"crossed", [4][2]float64{{100, 100}, {400, 400}, {400, 100}, {100, 400}}, "convex"},
		{"collapsed", [4][2]float64{{100, 100}, {100, 100}, {100, 100}, {100, 100}}, "convex"},
		// Read as they stood, these gave a board of 25 domes, none unsure.
		{"far off the photo", [4][2]float64{{-5e4, -5e4}, {5e4, -5e4}, {5e4, 5e4}, {-5e4, 5e4}}, "outside the 1280x720 photo"},
		{"another photo's pixels", [4][2]float64{{600, 300}, {1800, 300}, {1800, 1000}, {600, 1000}}, "A5 (1800, 300) is outside"},
		{"mirrored", [4][2]float64{{100, 100}, {100, 400}, {400, 400}, {400, 100}}, "anticlockwise"},
		{"tiny", [4][2]float64{{100, 100}, {130, 100}, {130, 130}, {100, 130}}, "too little"},
		// Read as they stood, these gave a reading with corners NaN.
		{"not numbers", [4][2]float64{{math.NaN(), 100}, {400, 100}, {400, 400}, {100, 400}}, "not all numbers"},
		{"infinite", [4][2]float64{{100, 100}, {math.Inf(1), 100}, {400, 400}, {100, 400}}, "not all numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.ReadWithCorners(m, tt.corners)
			if err == nil || !strings.Contains(err.Error(), "corners") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadWithCorners(%v) = %v, want an error about the corners saying %q", tt.corners, err, tt.want)
			}
		})
	}
	// At the limits: a grid a little over the frame's edge, or small, is read.
	for _, c := range [][4][2]float64{
		{{-60, -60}, {1300, -60}, {1300, 780}, {-60, 780}},
		{{100, 100}, {280, 100}, {280, 280}, {100, 280}},
	} {
		if _, err := r.ReadWithCorners(m, c); err != nil {
			t.Errorf("ReadWithCorners(%v): %v, want a reading", c, err)
		}
	}
}

func TestReadEmptyMat(t *testing.T) {
	r := NewReader()
	defer r.Close()
	m := gocv.NewMat()
	defer m.Close()
	if _, err := r.Read(m); err == nil {
		t.Fatal("Read(empty Mat) gave no error")
	}
}

func TestReadGreyAndBGRA(t *testing.T) {
	h, _ := homographyFromCorners([4][2]float64{{440, 160}, {840, 160}, {840, 560}, {440, 560}})
	img := drawnBoard(1280, 720, h, 3)
	bgr, err := gocv.ImageToMatRGB(img)
	if err != nil {
		t.Fatal(err)
	}
	defer bgr.Close()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(bgr, &grey, gocv.ColorBGRToGray)
	bgra := gocv.NewMat()
	defer bgra.Close()
	gocv.CvtColor(bgr, &bgra, gocv.ColorBGRToBGRA)
	r := NewReader()
	defer r.Close()
	for name, m := range map[string]gocv.Mat{"grey": grey, "bgra": bgra} {
		res, err := r.Read(m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if d := res.Corners[0][0] - 440; d > 1 || d < -1 {
			t.Errorf("%s: corner A1 at %.1f, want 440", name, res.Corners[0][0])
		}
	}
}

// FuzzReadWithCorners: any corners at all given with --corners (off the
// frame, folded, huge, tiny, not numbers) give a reading or one error,
// never a panic, and a reading's corners are numbers and its confidences
// probabilities.
func FuzzReadWithCorners(f *testing.F) {
	fuzzCorners(f, (*Reader).ReadWithCorners, func([4][2]float64) [][8]float64 {
		return [][8]float64{
			{-5e4, -5e4, 5e4, -5e4, 5e4, 5e4, -5e4, 5e4},
			{10, 10, 11, 10, 11, 11, 10, 11},
			{math.NaN(), 0, 1, 0, 1, 1, 0, 1},
		}
	})
}
