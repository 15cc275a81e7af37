package vision

import (
	"encoding/gob"
	"os"
	"path/filepath"
	"testing"
)

// loadGob decodes the file at path into v, and says whether it could.
func loadGob(path string, v any) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return gob.NewDecoder(f).Decode(v) == nil
}

// keepGob writes v to path for later runs. It is written aside and
// renamed, so that a process killed while writing (the encoder holds a
// second copy: 2480 seeds' cells took 13 GB) leaves no truncated file
// behind. A failure is logged, not fatal: the data is in hand.
func keepGob(t *testing.T, path string, v any) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Logf("keeping %s: %v", path, err)
		return
	}
	part := path + ".part"
	f, err := os.Create(part)
	if err != nil {
		t.Logf("keeping %s: %v", path, err)
		return
	}
	err = gob.NewEncoder(f).Encode(v)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(part, path)
	}
	if err != nil {
		os.Remove(part)
		t.Logf("keeping %s: %v", path, err)
	}
}

func TestKeepGobRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.gob")
	keepGob(t, path, []int{3, 1, 4})
	var got []int
	if !loadGob(path, &got) || len(got) != 3 || got[2] != 4 {
		t.Fatalf("read back %v", got)
	}
	if _, err := os.Stat(path + ".part"); !os.IsNotExist(err) {
		t.Errorf("the aside file is left behind: %v", err)
	}
	if err := os.WriteFile(path, []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	if loadGob(path, &got) {
		t.Error("a corrupt file was read as data")
	}
}
