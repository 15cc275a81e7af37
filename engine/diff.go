package engine

import (
	"fmt"

	"companion/observation"
)

// Diff says, in words a person can act on, where seen differs from
// expected, cell by cell in order A1..E5. A cell whose level and occupant
// both differ gives two lines, level first, e.g.
//
//	C3 should be level 2, it is level 3
//	D4 should have a blue builder, it is empty
//	B2 should be empty, there is a dark enemy
//	E1 should have a light enemy, there is a dark enemy
//
// No difference gives nil.
func Diff(expected, seen observation.Board) []string {
	var lines []string
	for c := Cell(0); c < NumCells; c++ {
		want, got := expected[c], seen[c]
		if want.Level != got.Level {
			lines = append(lines, fmt.Sprintf("%v should be %s, it is %s", c, levelWords(want.Level), levelWords(got.Level)))
		}
		if want.Occupant != got.Occupant {
			var line string
			switch {
			case want.Occupant == observation.Empty:
				line = fmt.Sprintf("%v should be empty, there is %s", c, occupantWords(got.Occupant))
			case got.Occupant == observation.Empty:
				line = fmt.Sprintf("%v should have %s, it is empty", c, occupantWords(want.Occupant))
			default:
				line = fmt.Sprintf("%v should have %s, there is %s", c, occupantWords(want.Occupant), occupantWords(got.Occupant))
			}
			lines = append(lines, line)
		}
	}
	return lines
}

// levelWords gives "level 2", or "level 4 (a dome)".
func levelWords(l uint8) string {
	if l == uint8(Dome) {
		return "level 4 (a dome)"
	}
	return fmt.Sprintf("level %d", l)
}

// occupantWords gives "a blue builder", "a light enemy" or "a dark enemy".
func occupantWords(o observation.Occupant) string {
	switch o {
	case observation.Blue:
		return "a blue builder"
	case observation.Light:
		return "a light enemy"
	case observation.Dark:
		return "a dark enemy"
	}
	return fmt.Sprintf("an unknown pawn (%d)", uint8(o))
}
