package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"companion/calib"
	"companion/sim"
	"companion/vision"
)

func TestCalibrateFlags(t *testing.T) {
	suggested := strings.Join(calib.Suggested, "/")
	tests := []struct {
		name    string
		args    []string
		want    calibrateOptions
		wantErr string
	}{
		{"board", []string{"p.jpg", "--board", suggested, "--out", "c.json"},
			calibrateOptions{Image: "p.jpg", Board: suggested, Out: "c.json"}, ""},
		{"board file and corners", []string{"p.jpg", "--board-file", "b.txt", "--out", "c.json", "--corners", "1,2,3,4,5,6,7,8"},
			calibrateOptions{Image: "p.jpg", BoardFile: "b.txt", Out: "c.json", Corners: &[4][2]float64{{1, 2}, {3, 4}, {5, 6}, {7, 8}}}, ""},
		{"no board", []string{"p.jpg", "--out", "c.json"}, calibrateOptions{}, "--board or --board-file"},
		{"both boards", []string{"p.jpg", "--board", suggested, "--board-file", "b.txt", "--out", "c.json"}, calibrateOptions{}, "one of them"},
		{"no out", []string{"p.jpg", "--board", suggested}, calibrateOptions{}, "--out"},
		{"no image", []string{"--board", suggested, "--out", "c.json"}, calibrateOptions{}, "one image file"},
		{"bad corners", []string{"p.jpg", "--board", suggested, "--out", "c.json", "--corners", "1,2"}, calibrateOptions{}, "want 8 numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, _, _ := testStreams()
			var got *calibrateOptions
			err := execute(newCalibrateCmd(io, func(o *calibrateOptions) error { got = o; return nil }), tt.args...)
			if tt.wantErr != "" {
				var fe *flagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("error %v, want a flag error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.IO != io || got.Now == nil {
				t.Error("streams or clock not set")
			}
			got.IO, got.Now = nil, nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestParseBoardRows(t *testing.T) {
	b, err := parseBoardRows(strings.Split("# my set-up\n1 2 3 4 0\n0 0 0 0 0\n\n0 0B 0L 0D 0\n0 0 0 0 0\n0 0 0 0 0\n", "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Tokens(), []string{"1 2 3 4 0", "0 0 0 0 0", "0 0B 0L 0D 0", "0 0 0 0 0", "0 0 0 0 0"}) {
		t.Errorf("got %v", b.Tokens())
	}
	for _, bad := range []string{"1 2 3 4 0/0 0 0 0 0", "1 2 3 4 5/0 0 0 0 0/0 0 0 0 0/0 0 0 0 0/0 0 0 0 0", "4B 0 0 0 0/0 0 0 0 0/0 0 0 0 0/0 0 0 0 0/0 0 0 0 0"} {
		if _, err := parseBoardRows(strings.Split(bad, "/")); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestCalibrateThenRead drives calibrate and read --calib as a player
// would, on a sim frame of the suggested layout (true corners, so that this
// tests the commands, not the grid search).
func TestCalibrateThenRead(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a frame")
	}
	dir := t.TempDir()
	sc := sim.RandomScene(20001)
	var err error
	if sc.Board, err = parseBoardRows(calib.Suggested); err != nil {
		t.Fatal(err)
	}
	photo, truth := writeScene(t, sc, filepath.Join(dir, "setup.jpg"))
	var cs []string
	for _, c := range truth.Corners {
		cs = append(cs, fmt.Sprint(c[0]), fmt.Sprint(c[1]))
	}
	corners := strings.Join(cs, ",")
	out := filepath.Join(dir, "set.calib.json")
	code, stdout, stderr := runCLI(t, "", "calibrate", photo, "--board", strings.Join(calib.Suggested, "/"), "--corners", corners, "--out", out)
	if code != 0 {
		t.Fatalf("calibrate exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, out) {
		t.Errorf("calibrate did not name %s: %q", out, stdout)
	}
	p, err := calib.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Source != photo || p.Board[2] != "0 0B 0L 0D 0" {
		t.Errorf("profile source %q board %v", p.Source, p.Board)
	}
	// The same position from stdin as a board file.
	code, _, stderr = runCLI(t, strings.Join(calib.Suggested, "\n")+"\n", "calibrate", photo, "--board-file", "-", "--corners", corners, "--out", out)
	if code != 0 {
		t.Fatalf("calibrate --board-file - exit %d: %s", code, stderr)
	}
	code, stdout, stderr = runCLI(t, "", "read", photo, "--json", "--corners", corners, "--calib", out)
	if code != 0 {
		t.Fatalf("read --calib exit %d: %s", code, stderr)
	}
	// The reader is not perfect: every cell of the calibration photo must
	// be read right or flagged as unsure, and nearly all read right.
	var got struct {
		Board      []string    `json:"board"`
		Confidence [][]float64 `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got.Board) != 5 || len(got.Confidence) != 5 {
		t.Fatalf("read --calib output: %v: %s", err, stdout)
	}
	right := 0
	for r, row := range calib.Suggested {
		want, have := strings.Fields(row), strings.Fields(got.Board[r])
		if len(have) != 5 || len(got.Confidence[r]) != 5 {
			t.Fatalf("read --calib row %d malformed: %s", r, stdout)
		}
		for c := range want {
			switch {
			case have[c] == want[c]:
				right++
			case got.Confidence[r][c] >= vision.SureConfidence:
				t.Errorf("read --calib misread cell %c%d of the calibration photo as %q (want %q) at confidence %.2f", 'A'+r, c+1, have[c], want[c], got.Confidence[r][c])
			}
		}
	}
	if right < 23 {
		t.Errorf("read --calib read only %d of 25 cells of the calibration photo right: %s", right, stdout)
	}
	if p.Width != sc.Width || p.Height != sc.Height {
		t.Errorf("profile photo size %dx%d, want %dx%d", p.Width, p.Height, sc.Width, sc.Height)
	}
	// Later in the game, the camera unmoved: read --calib expects the grid
	// where the calibration found it, with no corners given.
	later := sc
	later.Board = sim.RandomScene(20002).Board
	photo2, _ := writeScene(t, later, filepath.Join(dir, "later.jpg"))
	code, stdout, stderr = runCLI(t, "", "read", photo2, "--json", "--calib", out)
	if code != 0 {
		t.Fatalf("read --calib of a later frame exit %d: %s", code, stderr)
	}
	var later2 struct {
		Corners [][]float64 `json:"corners"`
	}
	if err := json.Unmarshal([]byte(stdout), &later2); err != nil || len(later2.Corners) != 4 {
		t.Fatalf("read --calib output: %v: %s", err, stdout)
	}
	pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
	for i, c := range later2.Corners {
		if e := math.Hypot(c[0]-truth.Corners[i][0], c[1]-truth.Corners[i][1]); e > 0.25*pitch {
			t.Errorf("read --calib of a later frame: corner %d %.1f px off (pitch %.0f px)", i, e, pitch)
		}
	}
	// A board that is not the photo's is refused, naming cells.
	code, _, stderr = runCLI(t, "", "calibrate", photo, "--board", "4 4 4 4 4/4 4 4 4 4/4 4 4 4 4/3 3 3 3 3/2 2 2 2 2", "--corners", corners, "--out", filepath.Join(dir, "wrong.json"))
	if code != 1 || !strings.Contains(stderr, "does not match the photo") || !strings.Contains(stderr, "A1 given 4") {
		t.Errorf("wrong board: exit %d, stderr %q", code, stderr)
	}
	oneErrorLine(t, stderr)
	if _, err := os.Stat(filepath.Join(dir, "wrong.json")); err == nil {
		t.Error("a refused calibration was saved")
	}
}

func TestCalibrateBadInput(t *testing.T) {
	dir := t.TempDir()
	notImage := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notImage, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.json")
	if err := os.WriteFile(damaged, []byte(`{"version":1,"colours":"AAA`), 0o644); err != nil {
		t.Fatal(err)
	}
	badBoardFile := filepath.Join(dir, "board.txt")
	if err := os.WriteFile(badBoardFile, []byte("0 0 0 0 0\n0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := strings.Join(calib.Suggested, "/")
	tests := []struct {
		name  string
		args  []string
		want  string
		usage bool // a flag error: the usage follows the line
	}{
		{"bad board", []string{"calibrate", notImage, "--board", "0 0 0/1", "--out", "c.json"}, "--board", true},
		{"bad board token", []string{"calibrate", notImage, "--board", strings.Replace(good, "0D", "0X", 1), "--out", "c.json"}, "cell C4", true},
		{"bad board file", []string{"calibrate", notImage, "--board-file", badBoardFile, "--out", "c.json"}, "row B", false},
		{"missing board file", []string{"calibrate", notImage, "--board-file", filepath.Join(dir, "none.txt"), "--out", "c.json"}, "no such file", false},
		{"missing photo", []string{"calibrate", filepath.Join(dir, "none.jpg"), "--board", good, "--out", "c.json"}, "no such file", false},
		{"not an image", []string{"calibrate", notImage, "--board", good, "--out", "c.json"}, "not a PNG or JPEG", false},
		{"read, missing calibration", []string{"read", notImage, "--calib", filepath.Join(dir, "none.json")}, "no such file (make one with companion calibrate)", false},
		{"read, damaged calibration", []string{"read", notImage, "--calib", damaged}, "damaged", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tt.args...)
			if code != 1 {
				t.Fatalf("exit %d, want 1", code)
			}
			first := strings.SplitN(errOut, "\n", 2)[0]
			if !strings.HasPrefix(first, "companion: ") || !strings.Contains(first, tt.want) {
				t.Errorf("stderr first line %q, want it to mention %q", first, tt.want)
			}
			if !tt.usage {
				oneErrorLine(t, errOut)
			} else if !strings.Contains(errOut, "Usage:") {
				t.Errorf("flag error without usage: %q", errOut)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
		})
	}
}

// writeScene renders sc as a JPEG photo at path, giving the path and the
// render's truth.
func writeScene(t *testing.T, sc sim.Scene, path string) (string, sim.Truth) {
	t.Helper()
	img, truth := sim.Render(sc)
	data, err := sim.EncodeJPEG(img, sc.JPEGQuality)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, truth
}
