package main

import (
	"bytes"
	"io"
	"os"
)

// streams is where a command reads and writes: commands never touch
// os.Stdin or os.Stdout themselves, so tests drive them with buffers.
type streams struct {
	In     io.Reader
	Out    io.Writer // data: JSON answers, the game's board and dialogue
	ErrOut io.Writer // chatter: errors and notes

	InTTY  bool // In is a terminal (the player's typing is echoed by it)
	OutTTY bool // Out is a terminal (colour and Unicode are welcome)
}

// systemStreams is the process's stdin, stdout and stderr.
func systemStreams() *streams {
	return &streams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		InTTY:  isTerminal(os.Stdin),
		OutTTY: isTerminal(os.Stdout),
	}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// testStreams gives streams backed by buffers: in is read by the command,
// out and errOut collect what it writes. Neither end is a terminal.
func testStreams() (s *streams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &streams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}
