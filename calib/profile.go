package calib

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"companion/observation"
	"companion/vision"
)

// maxFileSize caps what Load reads: a profile is about 130 kB.
const maxFileSize = 1 << 20

// ErrDamaged means a profile file is not a whole profile: truncated,
// edited, or not a profile at all.
var ErrDamaged = errors.New("damaged or incomplete calibration file (make it again with companion calibrate)")

// Save writes p as JSON to path atomically: a temporary file beside it,
// flushed to disk, then renamed over path.
func (p Profile) Save(path string) error {
	if p.Colours == nil {
		return fmt.Errorf("saving calibration %s: the profile has no colours", path)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("saving calibration %s: %w", path, err)
	}
	data = append(data, '\n')
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("saving calibration %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("saving calibration %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("saving calibration %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("saving calibration %s: %w", path, err)
	}
	// Make the rename itself durable; not every system can sync a directory.
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Load reads a profile Save wrote. A missing file, a damaged or truncated
// one, and one of another version each give one error naming the file.
func Load(path string) (Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Profile{}, fmt.Errorf("reading calibration %s: no such file (make one with companion calibrate): %w", path, fs.ErrNotExist)
		}
		return Profile{}, fmt.Errorf("reading calibration %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return Profile{}, fmt.Errorf("reading calibration %s: %w", path, err)
	}
	p, err := decode(data)
	if err != nil {
		return Profile{}, fmt.Errorf("reading calibration %s: %w", path, err)
	}
	return p, nil
}

// decode parses and checks a profile.
func decode(data []byte) (Profile, error) {
	if len(data) > maxFileSize {
		return Profile{}, fmt.Errorf("%w: larger than %d bytes", ErrDamaged, maxFileSize)
	}
	// The version first, leniently: a newer file may hold fields this
	// version does not know. Unmarshal also refuses data after the value.
	var v struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return Profile{}, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	switch {
	case v.Version == nil:
		return Profile{}, fmt.Errorf("%w: no version", ErrDamaged)
	case *v.Version > Version:
		return Profile{}, fmt.Errorf("version %d is from a newer companion (this one reads version %d)", *v.Version, Version)
	case *v.Version != Version:
		return Profile{}, fmt.Errorf("%w: unknown version %d", ErrDamaged, *v.Version)
	}
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Profile{}, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if p.Colours == nil {
		return Profile{}, fmt.Errorf("%w: no colours", ErrDamaged)
	}
	if p.Width < 0 || p.Height < 0 || p.Width > vision.MaxSide || p.Height > vision.MaxSide || (p.Width == 0) != (p.Height == 0) {
		return Profile{}, fmt.Errorf("%w: photo size %dx%d", ErrDamaged, p.Width, p.Height)
	}
	if _, err := observation.Parse(p.Board); err != nil {
		return Profile{}, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return p, nil
}
