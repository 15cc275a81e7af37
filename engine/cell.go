package engine

import "fmt"

// Cell is a square of the board, A1 = 0 .. E5 = 24, or NoCell.
type Cell int8

// NoCell is "no square": off the board, or absent.
const NoCell Cell = -1

// NumCells is the number of squares on the board.
const NumCells = 25

// CellAt gives the cell at row r (0 = A) and column c (0 = column 1), or
// NoCell when that is off the board.
func CellAt(r, c int) Cell {
	if r < 0 || r > 4 || c < 0 || c > 4 {
		return NoCell
	}
	return Cell(r*5 + c)
}

// Row is 0 for row A .. 4 for row E.
func (c Cell) Row() int { return int(c) / 5 }

// Col is 0 for column 1 .. 4 for column 5.
func (c Cell) Col() int { return int(c) % 5 }

// Valid reports whether c is a square of the board.
func (c Cell) Valid() bool { return c >= 0 && c < NumCells }

// allCellNames holds every cell's name in order, two characters each, so
// that String does not allocate.
const allCellNames = "A1A2A3A4A5B1B2B3B4B5C1C2C3C4C5D1D2D3D4D5E1E2E3E4E5"

// String gives the cell's name, e.g. "C3".
func (c Cell) String() string {
	if !c.Valid() {
		return "--"
	}
	return allCellNames[2*int(c) : 2*int(c)+2]
}

// ParseCell reads a cell name such as "C3" (case-insensitive).
func ParseCell(s string) (Cell, error) {
	if len(s) != 2 {
		return NoCell, fmt.Errorf("cell %q: want a row A-E and a column 1-5, like C3", s)
	}
	r := s[0]
	if r >= 'a' && r <= 'e' {
		r -= 'a' - 'A'
	}
	if r < 'A' || r > 'E' || s[1] < '1' || s[1] > '5' {
		return NoCell, fmt.Errorf("cell %q: want a row A-E and a column 1-5, like C3", s)
	}
	return CellAt(int(r-'A'), int(s[1]-'1')), nil
}

// Step gives the orthogonal neighbour in direction d, or NoCell off the board.
func (c Cell) Step(d Dir) Cell {
	dr, dc := d.delta()
	return CellAt(c.Row()+dr, c.Col()+dc)
}

// Adjacent reports whether a and b are different cells that touch,
// orthogonally or diagonally (the player's move and build range).
func Adjacent(a, b Cell) bool {
	if !a.Valid() || !b.Valid() || a == b {
		return false
	}
	dr, dc := a.Row()-b.Row(), a.Col()-b.Col()
	return dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1
}

// Manhattan is the orthogonal step distance between two cells.
func Manhattan(a, b Cell) int {
	return abs(a.Row()-b.Row()) + abs(a.Col()-b.Col())
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Dir is a compass facing: N is towards row A, E towards column 5.
type Dir uint8

const (
	N Dir = iota
	E
	S
	W
)

func (d Dir) delta() (dr, dc int) {
	switch d {
	case N:
		return -1, 0
	case E:
		return 0, 1
	case S:
		return 1, 0
	}
	return 0, -1
}

// CW is the facing after a quarter turn clockwise.
func (d Dir) CW() Dir { return (d + 1) % 4 }

// CCW is the facing after a quarter turn counter-clockwise.
func (d Dir) CCW() Dir { return (d + 3) % 4 }

// Back is the opposite facing.
func (d Dir) Back() Dir { return (d + 2) % 4 }

// String gives "N", "E", "S" or "W".
func (d Dir) String() string {
	if d > W {
		return "?"
	}
	return string("NESW"[d])
}

// Name gives the facing in words, e.g. "north".
func (d Dir) Name() string {
	switch d {
	case N:
		return "north"
	case E:
		return "east"
	case S:
		return "south"
	case W:
		return "west"
	}
	return "?"
}

// ParseDir reads "N", "E", "S" or "W".
func ParseDir(s string) (Dir, error) {
	switch s {
	case "N":
		return N, nil
	case "E":
		return E, nil
	case "S":
		return S, nil
	case "W":
		return W, nil
	}
	return N, fmt.Errorf("facing %q: want N, E, S or W", s)
}
