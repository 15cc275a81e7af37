// Package observation holds what a camera (or a person) sees on the board:
// for each of the 25 cells its level and the colour of the pawn standing
// there, if any. It knows no rules; the engine decides what a board means.
//
// The text form is CONTRACT.md's token form: five rows A to E, each five
// space-separated tokens, a level 0-4 followed by an occupant letter
// (B blue builder, L light enemy, D dark enemy), e.g. "0 2L 0 0 4".
package observation

import (
	"fmt"
	"strings"
)

// Size is the number of rows and of columns on the board.
const Size = 5

// Occupant is the colour of the pawn on a cell, as seen.
type Occupant uint8

const (
	Empty Occupant = iota
	Blue           // a player's builder
	Light          // a light enemy (light-female or light-male)
	Dark           // a dark enemy (dark-male or dark-female)
)

// Letter is the occupant's token suffix ("" for Empty).
func (o Occupant) Letter() string {
	switch o {
	case Blue:
		return "B"
	case Light:
		return "L"
	case Dark:
		return "D"
	}
	return ""
}

func (o Occupant) String() string {
	switch o {
	case Blue:
		return "blue"
	case Light:
		return "light"
	case Dark:
		return "dark"
	}
	return "empty"
}

// Square is one cell as seen: its level (0-3 blocks, 4 a dome) and occupant.
type Square struct {
	Level    uint8
	Occupant Occupant
}

// String gives the token form, e.g. "2L".
func (s Square) String() string {
	return fmt.Sprintf("%d%s", s.Level, s.Occupant.Letter())
}

// Board is the 5x5 grid, index row*5+col with row 0 = A and col 0 = column 1.
type Board [Size * Size]Square

// At returns the square at row r (0 = A) and column c (0 = column 1).
func (b *Board) At(r, c int) Square { return b[r*Size+c] }

// Built counts the cells with at least one block.
func (b Board) Built() int {
	n := 0
	for _, sq := range b {
		if sq.Level > 0 {
			n++
		}
	}
	return n
}

// Tokens gives the board as five rows of tokens, rows A to E.
func (b Board) Tokens() []string {
	rows := make([]string, Size)
	for r := 0; r < Size; r++ {
		toks := make([]string, Size)
		for c := 0; c < Size; c++ {
			toks[c] = b[r*Size+c].String()
		}
		rows[r] = strings.Join(toks, " ")
	}
	return rows
}

// ParseSquare reads one token such as "0", "3B" or "4".
func ParseSquare(tok string) (Square, error) {
	if len(tok) < 1 || len(tok) > 2 {
		return Square{}, fmt.Errorf("token %q: want a level 0-4 and an optional B, L or D", tok)
	}
	if tok[0] < '0' || tok[0] > '4' {
		return Square{}, fmt.Errorf("token %q: level must be 0-4", tok)
	}
	s := Square{Level: tok[0] - '0'}
	if len(tok) == 2 {
		switch tok[1] {
		case 'B':
			s.Occupant = Blue
		case 'L':
			s.Occupant = Light
		case 'D':
			s.Occupant = Dark
		default:
			return Square{}, fmt.Errorf("token %q: occupant must be B, L or D", tok)
		}
	}
	if s.Level == 4 && s.Occupant != Empty {
		return Square{}, fmt.Errorf("token %q: no pawn can stand on a dome", tok)
	}
	return s, nil
}

// Parse reads the token form: five rows of five tokens.
func Parse(rows []string) (Board, error) {
	var b Board
	if len(rows) != Size {
		return b, fmt.Errorf("board: want %d rows A-E, got %d", Size, len(rows))
	}
	for r, row := range rows {
		toks := strings.Fields(row)
		if len(toks) != Size {
			return b, fmt.Errorf("board row %c: want %d tokens, got %d in %q", 'A'+r, Size, len(toks), row)
		}
		for c, tok := range toks {
			sq, err := ParseSquare(tok)
			if err != nil {
				return b, fmt.Errorf("board cell %c%d: %w", 'A'+r, c+1, err)
			}
			b[r*Size+c] = sq
		}
	}
	return b, nil
}
