package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/sim"
)

func TestParseCorners(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"eight numbers", "1,2,3,4,5,6,7,8.5", true},
		{"spaces", " 1, 2,3,4,5,6,7,8", true},
		{"three numbers", "1,2,3", false},
		{"a word", "1,2,3,4,5,6,7,x", false},
		{"NaN", "1,2,3,4,5,6,7,NaN", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseCorners("corners", tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("parseCorners(%q) error %v, want ok=%v", tt.in, err, tt.ok)
			}
			if tt.ok && (c[0] != [2]float64{1, 2} || c[3][0] != 7) {
				t.Errorf("parseCorners(%q) = %v", tt.in, c)
			}
		})
	}
}

// TestRenderThenRead drives the camera commands as a user would: render a
// simulated frame, then read it with --json and check CONTRACT.md's shape.
func TestRenderThenRead(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a frame")
	}
	dir := t.TempDir()
	io, _, out, errOut := testStreams()
	if code := run([]string{"render", "--seed", "3", "--out", dir}, io); code != 0 {
		t.Fatalf("render exit %d: %s", code, errOut)
	}
	img := filepath.Join(dir, "seed-3.jpg")
	if !strings.Contains(out.String(), img) {
		t.Errorf("render did not name %s: %q", img, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "seed-3.json")); err != nil {
		t.Fatalf("no truth file: %v", err)
	}

	// The grid's true corners make this a test of the command, not of how
	// well the reader finds grids (the accuracy package measures that).
	truth, err := sim.LoadTruth(filepath.Join(dir, "seed-3.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corners []string
	for _, c := range truth.Corners {
		corners = append(corners, fmt.Sprint(c[0]), fmt.Sprint(c[1]))
	}
	io, _, out, errOut = testStreams()
	if code := run([]string{"read", img, "--json", "--corners", strings.Join(corners, ",")}, io); code != 0 {
		t.Fatalf("read exit %d with stderr %q", code, errOut)
	}
	var got struct {
		Board      []string    `json:"board"`
		Corners    [][]float64 `json:"corners"`
		Confidence [][]float64 `json:"confidence"`
		Millis     *float64    `json:"millis"`
		Grid       *float64    `json:"grid_confidence"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("read --json printed %q: %v", out, err)
	}
	for i, c := range got.Corners {
		if len(c) != 2 || math.Abs(c[0]-truth.Corners[i][0]) > 0.01 || math.Abs(c[1]-truth.Corners[i][1]) > 0.01 {
			t.Errorf("corner %d = %v, want the given %v", i, c, truth.Corners[i])
		}
	}
	if len(got.Board) != 5 || len(got.Corners) != 4 || len(got.Confidence) != 5 || got.Millis == nil {
		t.Errorf("read --json shape wrong: %s", out)
	}
	if got.Grid == nil || *got.Grid != 1 {
		t.Errorf("grid_confidence with the corners given = %v, want 1", got.Grid)
	}
	// The text form doesn't doubt an outline it was given.
	io, _, out, errOut = testStreams()
	if code := run([]string{"read", img, "--corners", strings.Join(corners, ",")}, io); code != 0 {
		t.Fatalf("read exit %d with stderr %q", code, errOut)
	}
	if strings.Contains(out.String(), "outline itself is uncertain") {
		t.Errorf("read doubted given corners: %s", out)
	}
	for _, row := range got.Confidence {
		for _, c := range row {
			if c < 0 || c > 1 {
				t.Errorf("confidence %v outside 0..1", c)
			}
		}
	}

	// --near: from the true corners knocked by up to a tenth of a pitch,
	// the grid is found (every corner within a quarter pitch, the
	// harness's measure of a right grid).
	nudged := sim.Nudge(truth.Corners, 0.1, rand.New(rand.NewSource(7)))
	var near []string
	for _, c := range nudged {
		near = append(near, fmt.Sprint(c[0]), fmt.Sprint(c[1]))
	}
	io, _, out, errOut = testStreams()
	if code := run([]string{"read", img, "--json", "--near", strings.Join(near, ",")}, io); code != 0 {
		t.Fatalf("read --near exit %d with stderr %q", code, errOut)
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("read --near --json printed %q: %v", out, err)
	}
	pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
	for i, c := range got.Corners {
		if e := math.Hypot(c[0]-truth.Corners[i][0], c[1]-truth.Corners[i][1]); e > 0.25*pitch {
			t.Errorf("--near corner %d = %v, %.1f px from the truth %v (pitch %.0f px)", i, c, e, truth.Corners[i], pitch)
		}
	}
}

func TestReadBadInput(t *testing.T) {
	dir := t.TempDir()
	notImage := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notImage, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A photo of an empty table: no board to find.
	table := image.NewRGBA(image.Rect(0, 0, 640, 360))
	for i := range table.Pix {
		table.Pix[i] = uint8(90 + 60*((i/4)%640)/640) // a gentle gradient, not blank
		if i%4 == 3 {
			table.Pix[i] = 255
		}
	}
	tablePNG := filepath.Join(dir, "table.png")
	writePNG(t, tablePNG, table)
	// A tiled floor: lines like a board's dividers that run on past it.
	tiles := image.NewRGBA(image.Rect(0, 0, 640, 360))
	for y := 0; y < 360; y++ {
		for x := 0; x < 640; x++ {
			c := color.RGBA{120, 160, 190, 255}
			if (x+7)%52 < 4 || (y+11)%52 < 4 {
				c = color.RGBA{220, 220, 215, 255}
			}
			tiles.Set(x, y, c)
		}
	}
	tilesPNG := filepath.Join(dir, "tiles.png")
	writePNG(t, tilesPNG, tiles)
	blankPNG := filepath.Join(dir, "blank.png")
	writePNG(t, blankPNG, image.NewGray(image.Rect(0, 0, 640, 360)))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"read", filepath.Join(dir, "none.jpg")}, "no such file"},
		{"not an image", []string{"read", notImage, "--json"}, "not a PNG or JPEG"},
		{"no argument", []string{"read"}, "one image file"},
		{"bad corners", []string{"read", notImage, "--corners", "1,2"}, "want 8 numbers"},
		{"bad near", []string{"read", notImage, "--near", "1,2,3,4,5,6,7,y"}, "--near"},
		{"field of view too wide", []string{"read", notImage, "--fov", "170"}, "--fov 170"},
		{"field of view not a number", []string{"read", notImage, "--fov", "wide"}, "--fov"},
		{"corners and near", []string{"read", notImage, "--near", "1,2,3,4,5,6,7,8", "--corners", "1,2,3,4,5,6,7,8"}, "use one"},
		{"no board", []string{"read", tablePNG}, "give its corners with --corners"},
		{"tiled floor", []string{"read", tilesPNG}, "tiles or squared paper"},
		{"corners off the photo", []string{"read", tilesPNG, "--corners", "-50000,-50000,50000,-50000,50000,50000,-50000,50000"}, "outside the 640x360 photo"},
		{"corners mirrored", []string{"read", tilesPNG, "--json", "--corners", "100,100,100,300,300,300,300,100"}, "anticlockwise"},
		{"blank photo", []string{"read", blankPNG, "--json"}, "blank"},
		{"render without out", []string{"render", "--seed", "1"}, "out"},
		{"render from above the zenith", []string{"render", "--seed", "1", "--out", t.TempDir(), "--min-elevation", "95"}, "--min-elevation 95"},
		{"render with the range upside down", []string{"render", "--seed", "1", "--out", t.TempDir(), "--min-elevation", "70", "--max-elevation", "60"}, "--max-elevation 60"},
		{"render under an unknown light", []string{"render", "--seed", "1", "--out", t.TempDir(), "--lighting", "candle"}, `--lighting "candle"`},
		{"accuracy n zero", []string{"accuracy", "--n", "0"}, "--n 0"},
		{"accuracy near negative", []string{"accuracy", "--near", "-0.5"}, "--near -0.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, out, errOut := testStreams()
			if code := run(tt.args, io); code != 1 {
				t.Fatalf("exit %d, want 1", code)
			}
			first := strings.SplitN(errOut.String(), "\n", 2)[0]
			if !strings.HasPrefix(first, "companion: ") || !strings.Contains(first, tt.want) {
				t.Errorf("stderr first line %q, want it to mention %q", first, tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("stdout not empty: %q", out)
			}
		})
	}
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// --min-elevation and --max-elevation render only the seeds whose camera
// stands within them (and --lighting only those lit so), and name none of
// the others.
func TestRenderElevationRange(t *testing.T) {
	if testing.Short() {
		t.Skip("renders frames")
	}
	const first, count = 18000, 6
	tests := []struct {
		name     string
		min, max float64
		lighting string
	}{
		{"from above", 80, 90, ""},
		{"from low down", 0, 60, ""},
		{"between", 55, 80, ""},
		{"one lamp", 0, 90, "one-lamp"},
		{"daylight from above 60", 60, 90, "daylight"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []string
			for s := int64(first); s < first+count; s++ {
				sc := sim.RandomScene(s)
				if e := sc.Camera.Elevation; e >= tt.min && e <= tt.max && (tt.lighting == "" || sc.Lighting == tt.lighting) {
					want = append(want, fmt.Sprintf("seed-%d.jpg", s))
				}
			}
			if len(want) == 0 || len(want) == count {
				t.Fatalf("seeds %d-%d: %d of %d stand %g to %g degrees; pick seeds with some of each", first, first+count-1, len(want), count, tt.min, tt.max)
			}
			dir := t.TempDir()
			io, _, out, errOut := testStreams()
			args := []string{"render", "--seed", fmt.Sprint(first), "--count", fmt.Sprint(count),
				"--min-elevation", fmt.Sprint(tt.min), "--max-elevation", fmt.Sprint(tt.max), "--out", dir}
			if tt.lighting != "" {
				args = append(args, "--lighting", tt.lighting)
			}
			if code := run(args, io); code != 0 {
				t.Fatalf("render exit %d: %s", code, errOut)
			}
			got, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i] = filepath.Base(got[i])
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("rendered %v, want %v (stdout %q)", got, want, out)
			}
		})
	}
}
