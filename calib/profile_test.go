package calib

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"companion/vision"
)

func testProfile() Profile {
	return Profile{
		Version:     Version,
		Created:     time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
		Source:      "setup.jpg",
		Board:       Suggested,
		Corners:     [4][2]float64{{100, 50}, {500, 52.5}, {560, 400}, {60, 398}},
		Width:       640,
		Height:      480,
		Agreed:      22,
		AgreedAfter: 25,
		Colours:     vision.BuiltinColours(),
	}
}

func TestProfileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "set.calib.json")
	p := testProfile()
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip changed the profile:\n got %+v\nwant %+v", got, p)
	}
	// Saving over an existing file replaces it and leaves no temporary file.
	p.Source = "again.jpg"
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(path); got.Source != "again.jpg" {
		t.Errorf("second save not read back: %q", got.Source)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Errorf("directory holds %d files after saving, want 1", len(ents))
	}
	if err := (Profile{Version: Version}).Save(path); err == nil {
		t.Error("saved a profile with no colours")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := testProfile().Save(good); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := bytes.Replace(data, []byte(`"version": 1`), []byte(`"version": 2, "new_field": true`), 1)
	noColours := bytes.Replace(data, []byte(`"colours": "`), []byte(`"colours": null, "x": "`), 1)
	badBoard := bytes.Replace(data, []byte(`"1 2 3 4 0"`), []byte(`"1 2 3 4 9"`), 1)
	badColours := bytes.Replace(data, []byte(`"colours": "`), []byte(`"colours": "AAAA`), 1)
	tests := []struct {
		name, path string
		want       string
		is         error
	}{
		{"missing", filepath.Join(dir, "none.json"), "no such file", fs.ErrNotExist},
		{"empty", write("empty.json", nil), "damaged", ErrDamaged},
		{"truncated", write("trunc.json", data[:len(data)/2]), "damaged", ErrDamaged},
		{"garbage", write("garbage.json", []byte("\x89PNG\r\n\x1a\n....")), "damaged", ErrDamaged},
		{"a JSON list", write("list.json", []byte("[1,2]")), "damaged", ErrDamaged},
		{"no version", write("nover.json", []byte(`{"board":[]}`)), "no version", ErrDamaged},
		{"newer version", write("newer.json", newer), "newer companion", nil},
		{"version 0", write("v0.json", bytes.Replace(data, []byte(`"version": 1`), []byte(`"version": 0`), 1)), "unknown version", ErrDamaged},
		{"no colours", write("nocol.json", noColours), "damaged", ErrDamaged},
		{"bad board", write("board.json", badBoard), "level must be 0-4", ErrDamaged},
		{"bad colours", write("colours.json", badColours), "damaged", ErrDamaged},
		{"trailing data", write("trail.json", append(bytes.Clone(data), "{}"...)), "after top-level value", ErrDamaged},
		{"negative width", write("negw.json", bytes.Replace(data, []byte(`"width": 640`), []byte(`"width": -640`), 1)), "photo size", ErrDamaged},
		{"width without height", write("noh.json", bytes.Replace(data, []byte(`"height": 480`), []byte(`"height": 0`), 1)), "photo size", ErrDamaged},
		{"too large", write("large.json", bytes.Repeat([]byte(" "), maxFileSize+10)), "larger than", ErrDamaged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.path)
			if err == nil {
				t.Fatal("loaded")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "reading calibration "+tt.path+": ") || !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line naming the file and %q", msg, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", msg, tt.is)
			}
		})
	}
}

// FuzzLoad: no input makes Load panic, and whatever it accepts saves and
// loads back the same.
//
//	go test ./calib -run '^$' -fuzz FuzzLoad -fuzztime 60s -fuzzminimizetime 0s
//
// (minimising a 130 kB profile takes minutes per interesting input, hence
// -fuzzminimizetime 0s).
func FuzzLoad(f *testing.F) {
	if testing.Short() {
		f.Skip("fuzz seeds render nothing but build a 130 kB profile")
	}
	dir := f.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := testProfile().Save(good); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	f.Add(data)
	f.Add(data[:len(data)/3])
	f.Add([]byte(`{"version":1,"board":["0 0 0 0 0","0 0 0 0 0","0 0 0 0 0","0 0 0 0 0","0 0 0 0 0"],"colours":"AAAA"}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"colours":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 2*maxFileSize {
			return
		}
		in := filepath.Join(t.TempDir(), "in.json")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Load(in)
		if err != nil {
			if p.Colours != nil || p.Version != 0 {
				t.Fatalf("Load failed but returned a profile: %v", err)
			}
			return
		}
		out := filepath.Join(t.TempDir(), "out.json")
		if err := p.Save(out); err != nil {
			t.Fatalf("a loaded profile does not save: %v", err)
		}
		q, err := Load(out)
		if err != nil {
			t.Fatalf("a saved profile does not load: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the profile:\n%+v\n%+v", p, q)
		}
	})
}

func TestGridHint(t *testing.T) {
	p := testProfile()
	tests := []struct {
		name          string
		width, height int
		profileW      int
		want          bool
	}{
		{"same size", 640, 480, 640, true},
		{"other size", 1280, 720, 640, false},
		{"size unknown (older file)", 1280, 720, 0, true},
	}
	for _, tt := range tests {
		p.Width = tt.profileW
		if tt.profileW == 0 {
			p.Height = 0
		}
		c, ok := p.GridHint(tt.width, tt.height)
		if ok != tt.want || (ok && *c != p.Corners) || (!ok && c != nil) {
			t.Errorf("%s: GridHint = %v, %v; want %v with the profile's corners", tt.name, c, ok, tt.want)
		}
	}
}
