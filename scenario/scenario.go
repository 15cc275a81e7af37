// Package scenario holds Santowerini scenarios: the six built-in maps of the
// campaign and the readable file format players copy to write their own
// (FORMAT.md describes it).
package scenario

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"

	"companion/engine"
)

// Scenario is one map: its campaign number (0 for a user's own), name,
// level (for scoring) and the position it starts from.
type Scenario struct {
	Number int
	Name   string
	Level  int
	Setup  engine.Position
	// About is a one-line story shown before play ("" when the file has none).
	About string
}

// Count is the number of built-in campaign scenarios.
const Count = 6

// maxFileSize caps what Load reads: a scenario is a few hundred bytes, so a
// bigger file is a mistake (a photo passed by accident), not a scenario.
const maxFileSize = 64 << 10

//go:embed builtin/*.txt
var builtinFS embed.FS

// builtins and builtinText are parsed once at init: a broken built-in file is
// a bug in this package, caught by every test run, so init panics rather than
// returning it.
var builtins, builtinText = mustLoadBuiltins()

func mustLoadBuiltins() ([]Scenario, [][]byte) {
	entries, err := builtinFS.ReadDir("builtin")
	if err != nil {
		panic(fmt.Sprintf("scenario: built-in files: %v", err))
	}
	ss := make([]Scenario, Count)
	texts := make([][]byte, Count)
	for _, e := range entries {
		// Files are named "N-name.txt": N is the campaign number.
		var n int
		if _, err := fmt.Sscanf(e.Name(), "%d-", &n); err != nil || n < 1 || n > Count {
			panic(fmt.Sprintf("scenario: built-in file %s: name must start with a number 1-%d", e.Name(), Count))
		}
		if texts[n-1] != nil {
			panic(fmt.Sprintf("scenario: built-in file %s: two files numbered %d", e.Name(), n))
		}
		data, err := builtinFS.ReadFile(path.Join("builtin", e.Name()))
		if err != nil {
			panic(fmt.Sprintf("scenario: built-in file %s: %v", e.Name(), err))
		}
		s, err := Parse(data)
		if err != nil {
			panic(fmt.Sprintf("scenario: built-in file %s: %v", e.Name(), err))
		}
		s.Number = n
		ss[n-1], texts[n-1] = s, data
	}
	for i, t := range texts {
		if t == nil {
			panic(fmt.Sprintf("scenario: built-in scenario %d missing", i+1))
		}
	}
	return ss, texts
}

// Builtin returns the six campaign scenarios, in order.
func Builtin() []Scenario {
	out := make([]Scenario, len(builtins))
	for i, s := range builtins {
		out[i] = s.clone()
	}
	return out
}

// Get returns built-in scenario n (1-6).
func Get(n int) (Scenario, error) {
	if n < 1 || n > len(builtins) {
		return Scenario{}, fmt.Errorf("scenario %d: the campaign has scenarios 1-%d", n, len(builtins))
	}
	return builtins[n-1].clone(), nil
}

// BuiltinFile returns the file text of built-in scenario n (1-6): a starting
// point for a player writing their own.
func BuiltinFile(n int) ([]byte, error) {
	if n < 1 || n > len(builtinText) {
		return nil, fmt.Errorf("scenario %d: the campaign has scenarios 1-%d", n, len(builtinText))
	}
	return append([]byte(nil), builtinText[n-1]...), nil
}

// Load reads and validates a scenario file. Its Number is 0: a user's own.
// A *ParseError it returns names the file.
func Load(file string) (Scenario, error) {
	f, err := os.Open(file)
	if err != nil {
		return Scenario{}, fmt.Errorf("scenario: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return Scenario{}, fmt.Errorf("scenario %s: %w", file, err)
	}
	if len(data) > maxFileSize {
		return Scenario{}, fmt.Errorf("scenario %s: larger than %d KiB, not a scenario file", file, maxFileSize>>10)
	}
	s, err := Parse(data)
	var pe *ParseError
	if errors.As(err, &pe) {
		pe.File = file
		return Scenario{}, pe
	}
	if err != nil {
		return Scenario{}, fmt.Errorf("scenario %s: %w", file, err)
	}
	return s, nil
}

// clone deep-copies the setup so callers cannot change the built-ins.
func (s Scenario) clone() Scenario {
	s.Setup = s.Setup.Clone()
	return s
}
