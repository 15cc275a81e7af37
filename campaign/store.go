package campaign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Version is the save format's version, the "version" field of every save.
const Version = 1

// DefaultFile is the save file's name in the default directory.
const DefaultFile = "game.json"

// DefaultPath is where a game is saved unless told otherwise:
// $XDG_STATE_HOME/companion/game.json, else ~/.local/state/companion/game.json
// (the XDG base directory spec ignores a relative XDG_STATE_HOME).
func DefaultPath(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "companion", DefaultFile), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "companion", DefaultFile), nil
	}
	return "", errors.New("no place for the save file: set XDG_STATE_HOME or HOME, or pass --save FILE")
}

// saveFile is the save format: the version first, then the game's fields.
type saveFile struct {
	Version int `json:"version"`
	Game
}

// Store keeps a game in a file. Each save replaces the file atomically and
// first copies the previous save to Path+".bak".
type Store struct {
	Path string
	fs   fileOps
}

// fileOps are the file-system calls a save makes that tests make fail.
type fileOps struct {
	createTemp func(dir, pattern string) (*os.File, error)
	rename     func(oldpath, newpath string) error
	syncDir    func(dir string) error
}

var osFileOps = fileOps{createTemp: os.CreateTemp, rename: os.Rename, syncDir: syncDir}

// NewStore returns a store for the save file at path.
func NewStore(path string) *Store {
	return &Store{Path: path, fs: osFileOps}
}

// BackupPath is where the save before the last one is kept.
func (s *Store) BackupPath() string { return s.Path + ".bak" }

// DamagedError says a save file cannot be read as a game. Nothing writes
// over a damaged save unless told to (Create with replace).
type DamagedError struct {
	Path string
	Err  error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("save file %s is damaged: %v; start a new game with `companion play --manual --new` or restore a backup (%s.bak)", e.Path, e.Err, e.Path)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// InProgressError says a new game would replace an unfinished one.
type InProgressError struct {
	Path string
	Game *Game
}

func (e *InProgressError) Error() string {
	return fmt.Sprintf("a game is in progress in %s (%s, attempt %d); continue it with `companion resume` or start over with --new",
		e.Path, e.Game.Scenario.Title(), e.Game.Attempt)
}

// Load reads the saved game, attached to s so every change saves. A missing
// file is an error wrapping fs.ErrNotExist; a file that is not a valid save
// is a *DamagedError, and is left as it is.
func (s *Store) Load() (*Game, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no saved game at %s: %w", s.Path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading save file: %w", err)
	}
	g, err := decode(data)
	if err != nil {
		return nil, &DamagedError{Path: s.Path, Err: err}
	}
	g.store = s
	return g, nil
}

// decode reads a save file's contents.
func decode(data []byte) (*Game, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the file is empty")
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a complete JSON object (%v)", err)
	}
	switch {
	case head.Version == nil:
		return nil, errors.New("no \"version\": not a companion save")
	case *head.Version > Version:
		return nil, fmt.Errorf("format version %d is newer than this companion reads (%d); update companion", *head.Version, Version)
	case *head.Version != Version:
		return nil, fmt.Errorf("format version %d is unknown", *head.Version)
	}
	var f saveFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if err := f.Game.validate(); err != nil {
		return nil, err
	}
	return &f.Game, nil
}

// Create makes g the saved game and attaches it to s. It refuses to replace
// an unfinished game (*InProgressError) or a damaged save (*DamagedError)
// unless replace is set; a damaged save replaced is kept aside, at the path
// returned.
func (s *Store) Create(g *Game, replace bool) (keptDamaged string, err error) {
	old, err := s.Load()
	var damaged *DamagedError
	switch {
	case err == nil:
		if old.Step != StepFinished && !replace {
			return "", &InProgressError{Path: s.Path, Game: old}
		}
	case errors.Is(err, fs.ErrNotExist):
	case errors.As(err, &damaged):
		if !replace {
			return "", err
		}
		// Moved aside rather than into .bak, which likely holds the last
		// good save.
		keptDamaged = s.Path + ".damaged"
		if err := os.Rename(s.Path, keptDamaged); err != nil {
			return "", fmt.Errorf("keeping the damaged save aside: %w", err)
		}
	default:
		return "", err
	}
	g.store = s
	if err := s.Save(g); err != nil {
		g.store = nil
		return keptDamaged, err
	}
	return keptDamaged, nil
}

// Save writes g: the previous save goes to the .bak file, then the new one
// replaces the save file atomically. On failure the save file is as before.
func (s *Store) Save(g *Game) error {
	data, err := json.MarshalIndent(saveFile{Version: Version, Game: *g}, "", "  ")
	if err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	data = append(data, '\n')
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("saving the game: %w", err)
	}
	prev, err := os.ReadFile(s.Path)
	switch {
	case err == nil:
		if err := s.writeAtomic(s.BackupPath(), prev); err != nil {
			return fmt.Errorf("saving the game: keeping a backup: %w", err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("saving the game: %w", err)
	}
	if err := s.writeAtomic(s.Path, data); err != nil {
		return fmt.Errorf("saving the game to %s: %w", s.Path, err)
	}
	return nil
}

// writeAtomic replaces path with data so that a crash at any moment leaves
// either the old file or the new one: a temp file in the same directory
// (rename is atomic only within a file system), fsync, rename, fsync the
// directory so the rename itself survives a power cut.
func (s *Store) writeAtomic(path string, data []byte) (err error) {
	fsops := s.fs
	if fsops.createTemp == nil {
		fsops = osFileOps
	}
	dir := filepath.Dir(path)
	f, err := fsops.createTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = fsops.rename(tmp, path); err != nil {
		return err
	}
	return fsops.syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
