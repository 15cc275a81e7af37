package main

import (
	"errors"
	"fmt"
)

// flagError is a mistake in how a command was called (a flag or an
// argument): only these make main show the usage after the error line.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

func flagErrorf(format string, args ...any) error {
	return &flagError{fmt.Errorf(format, args...)}
}

// errQuit ends the interactive game at the player's request (quit, or the
// end of the input); the game is saved and the command succeeds.
var errQuit = errors.New("quit")
