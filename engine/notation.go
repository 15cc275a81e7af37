package engine

import (
	"fmt"
	"strings"
)

// turnSyntax is the text form of a turn, for error messages.
const turnSyntax = `FROM-TO BUILD, like "B2-C3 C4"`

// ParseTurn reads a turn in its text form "B2-C3 C4": move the builder on
// B2 to C3, then build on C4. Cell names are a row A-E and a column 1-5, in
// either case; the move and the build are separated by spaces. Leading and
// trailing spaces are ignored; nothing else is accepted. ParseTurn checks
// the form only; PlayerTurn checks the rules.
func ParseTurn(s string) (Turn, error) {
	fields := strings.Fields(s)
	if len(fields) != 2 {
		return Turn{}, fmt.Errorf("turn %q: want %s", s, turnSyntax)
	}
	from, to, ok := strings.Cut(fields[0], "-")
	if !ok {
		return Turn{}, fmt.Errorf("turn %q: the move %q needs a dash between two cells: want %s", s, fields[0], turnSyntax)
	}
	var t Turn
	var err error
	if t.From, err = ParseCell(from); err != nil {
		return Turn{}, fmt.Errorf("turn %q: move from: %w", s, err)
	}
	if t.To, err = ParseCell(to); err != nil {
		return Turn{}, fmt.Errorf("turn %q: move to: %w", s, err)
	}
	if t.Build, err = ParseCell(fields[1]); err != nil {
		return Turn{}, fmt.Errorf("turn %q: build: %w", s, err)
	}
	return t, nil
}

// String gives the text form, e.g. "B2-C3 C4".
func (t Turn) String() string {
	return t.From.String() + "-" + t.To.String() + " " + t.Build.String()
}

// MarshalText writes the text form, so that JSON holds "B2-C3 C4".
func (t Turn) MarshalText() ([]byte, error) {
	if !t.From.Valid() || !t.To.Valid() || !t.Build.Valid() {
		return nil, fmt.Errorf("turn %v: a cell is not on the board", t)
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads the text form (see ParseTurn).
func (t *Turn) UnmarshalText(b []byte) error {
	u, err := ParseTurn(string(b))
	if err != nil {
		return err
	}
	*t = u
	return nil
}
