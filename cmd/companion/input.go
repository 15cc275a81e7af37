package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"companion/engine"
)

// readLimited reads all of r, failing past limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d KiB: not a position", limit>>10)
	}
	return data, nil
}

// readPosition reads a CONTRACT.md position from a file or "-" for stdin.
func readPosition(io *streams, path string) (engine.Position, error) {
	where := path
	if path == "-" {
		where = "stdin"
	}
	data, err := readInput(io, path)
	if err != nil {
		return engine.Position{}, fmt.Errorf("reading --state %s: %w", where, err)
	}
	p, err := engine.ParsePosition(data)
	if err != nil {
		return engine.Position{}, fmt.Errorf("--state %s: %w", where, err)
	}
	return p, nil
}

// parseDice reads --dice: comma-separated dice 1-6, e.g. "3,5".
func parseDice(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return []int{}, nil
	}
	parts := strings.Split(s, ",")
	dice := make([]int, len(parts))
	for i, part := range parts {
		d, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || d < 1 || d > 6 {
			return nil, fmt.Errorf("--dice %q: die %d is %q: want a number 1-6", s, i+1, strings.TrimSpace(part))
		}
		dice[i] = d
	}
	return dice, nil
}

// parseMove reads --move FROM-TO and --build CELL into a turn. It accepts
// exactly what engine.ParseTurn accepts for "FROM-TO CELL", and names the
// flag at fault.
func parseMove(move, build string) (engine.Turn, error) {
	var t engine.Turn
	from, to, ok := strings.Cut(strings.TrimSpace(move), "-")
	if !ok {
		return t, fmt.Errorf("--move %q: want FROM-TO, two cells and a dash, like B2-C3", move)
	}
	var err error
	if t.From, err = engine.ParseCell(from); err != nil {
		return t, fmt.Errorf("--move %q: from: %w", move, err)
	}
	if t.To, err = engine.ParseCell(to); err != nil {
		return t, fmt.Errorf("--move %q: to: %w", move, err)
	}
	if t.Build, err = engine.ParseCell(strings.TrimSpace(build)); err != nil {
		return t, fmt.Errorf("--build %q: %w", build, err)
	}
	return t, nil
}
