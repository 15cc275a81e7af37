package engine

import (
	"fmt"

	"companion/observation"
)

// Terrain is what a square is made of, fixed by the scenario.
type Terrain uint8

const (
	Land   Terrain = iota
	Water          // no pawn, no building
	Target         // an enemy entering it loses the scenario
)

// Level is a square's height: 0-3 blocks, or Dome (a dome on level 3).
type Level uint8

// Dome is level 4: a dome on a level-3 tower.
const Dome Level = 4

// Pawn names an enemy. The constants are in the fixed resolution order of
// RULES.md ("Board and pieces").
type Pawn uint8

const (
	LightFemale Pawn = iota
	DarkMale
	LightMale
	DarkFemale
)

// NumPawns is the number of distinct enemies.
const NumPawns = 4

var pawnNames = [NumPawns]string{"light-female", "dark-male", "light-male", "dark-female"}

// String gives the contract name, e.g. "light-female".
func (p Pawn) String() string {
	if int(p) >= NumPawns {
		return "?"
	}
	return pawnNames[p]
}

// Title gives the name in words for a person, e.g. "Light female".
func (p Pawn) Title() string {
	switch p {
	case LightFemale:
		return "Light female"
	case DarkMale:
		return "Dark male"
	case LightMale:
		return "Light male"
	case DarkFemale:
		return "Dark female"
	}
	return "?"
}

// words gives the name in words inside a sentence, e.g. "light female".
func (p Pawn) words() string {
	switch p {
	case LightFemale:
		return "light female"
	case DarkMale:
		return "dark male"
	case LightMale:
		return "light male"
	case DarkFemale:
		return "dark female"
	}
	return "?"
}

// Colour is the pawn's colour as a camera sees it.
func (p Pawn) Colour() observation.Occupant {
	if p == LightFemale || p == LightMale {
		return observation.Light
	}
	return observation.Dark
}

// ParsePawn reads a contract name such as "dark-male".
func ParsePawn(s string) (Pawn, error) {
	for i, n := range pawnNames {
		if n == s {
			return Pawn(i), nil
		}
	}
	return 0, fmt.Errorf("pawn %q: want light-female, dark-male, light-male or dark-female", s)
}

// Enemy is an enemy pawn on the board.
type Enemy struct {
	Pawn   Pawn
	Cell   Cell
	Facing Dir
}

// God is the god card in play, if any: Side is "player" or "enemy".
type God struct {
	Card string `json:"card"`
	Side string `json:"side"`
}

// Position is a Santowerini game position. Enemies are kept in resolution
// order. Copy it with Clone before changing a copy's slices.
type Position struct {
	Terrain  [NumCells]Terrain
	Levels   [NumCells]Level
	Builders []Cell
	Enemies  []Enemy
	God      *God
}

// Clone returns a deep copy.
func (p Position) Clone() Position {
	q := p
	q.Builders = append([]Cell(nil), p.Builders...)
	q.Enemies = append([]Enemy(nil), p.Enemies...)
	if p.God != nil {
		g := *p.God
		q.God = &g
	}
	return q
}

// Equal reports whether p and q are the same position: same terrain,
// levels, builders and enemies in the same order, and god card. A nil and
// an empty slice are alike.
func (p Position) Equal(q Position) bool {
	if p.Terrain != q.Terrain || p.Levels != q.Levels ||
		len(p.Builders) != len(q.Builders) || len(p.Enemies) != len(q.Enemies) {
		return false
	}
	for i := range p.Builders {
		if p.Builders[i] != q.Builders[i] {
			return false
		}
	}
	for i := range p.Enemies {
		if p.Enemies[i] != q.Enemies[i] {
			return false
		}
	}
	if (p.God == nil) != (q.God == nil) {
		return false
	}
	return p.God == nil || *p.God == *q.God
}

// BuilderAt gives the index of the builder on c, or -1.
func (p *Position) BuilderAt(c Cell) int {
	for i, b := range p.Builders {
		if b == c {
			return i
		}
	}
	return -1
}

// EnemyAt gives the index of the enemy on c, or -1.
func (p *Position) EnemyAt(c Cell) int {
	for i, e := range p.Enemies {
		if e.Cell == c {
			return i
		}
	}
	return -1
}

// Occupied reports whether a pawn of either side stands on c.
func (p *Position) Occupied(c Cell) bool {
	return p.BuilderAt(c) >= 0 || p.EnemyAt(c) >= 0
}

// BuildingCount is the number of squares of level 1 or more, domes included.
func (p *Position) BuildingCount() int {
	n := 0
	for _, l := range p.Levels {
		if l > 0 {
			n++
		}
	}
	return n
}

// LevelSum is the sum of all levels on the board (scoring's "Buildings,
// buildings everywhere").
func (p *Position) LevelSum() int {
	s := 0
	for _, l := range p.Levels {
		s += int(l)
	}
	return s
}

// Board gives what a camera sees of the position: levels and pawn colours.
func (p *Position) Board() observation.Board {
	var b observation.Board
	for c := Cell(0); c < NumCells; c++ {
		b[c].Level = uint8(p.Levels[c])
	}
	for _, c := range p.Builders {
		b[c].Occupant = observation.Blue
	}
	for _, e := range p.Enemies {
		b[e.Cell].Occupant = e.Pawn.Colour()
	}
	return b
}

// Validate reports why p is not a position (RULES.md, "Rulings": a pawn on
// water or on a dome, or two pawns on one cell, is rejected as bad input).
func (p *Position) Validate() error {
	for c := Cell(0); c < NumCells; c++ {
		if p.Terrain[c] > Target {
			return fmt.Errorf("%v: unknown terrain", c)
		}
		if p.Levels[c] > Dome {
			return fmt.Errorf("%v: level %d, want 0-4", c, p.Levels[c])
		}
		if p.Terrain[c] == Water && p.Levels[c] > 0 {
			return fmt.Errorf("%v: water cannot hold a building (level %d)", c, p.Levels[c])
		}
	}
	if len(p.Builders) > 2 {
		return fmt.Errorf("%d builders: the player has at most 2", len(p.Builders))
	}
	if len(p.Enemies) > NumPawns {
		return fmt.Errorf("%d enemies: there are at most 4", len(p.Enemies))
	}
	// who names the pawn on a cell for an error; built only when one is
	// reported, so that validating a good position does not allocate.
	var seen [NumCells]int8 // 0: free, 1: a builder, 2+i: enemy i
	who := func(k int8) string {
		if k == 1 {
			return "a builder"
		}
		return "the " + p.Enemies[k-2].Pawn.String()
	}
	check := func(c Cell, k int8) error {
		if !c.Valid() {
			return fmt.Errorf("%s: not on the board", who(k))
		}
		if seen[c] != 0 {
			return fmt.Errorf("%v: two pawns on one cell (%s and %s)", c, who(seen[c]), who(k))
		}
		seen[c] = k
		if p.Terrain[c] == Water {
			return fmt.Errorf("%v: %s stands on water", c, who(k))
		}
		if p.Levels[c] == Dome {
			return fmt.Errorf("%v: %s stands on a dome", c, who(k))
		}
		return nil
	}
	for _, b := range p.Builders {
		if err := check(b, 1); err != nil {
			return err
		}
	}
	var have [NumPawns]bool
	for i, e := range p.Enemies {
		if int(e.Pawn) >= NumPawns {
			return fmt.Errorf("enemy %d: unknown pawn", i+1)
		}
		if have[e.Pawn] {
			return fmt.Errorf("enemy %s appears twice", e.Pawn)
		}
		have[e.Pawn] = true
		if e.Facing > W {
			return fmt.Errorf("enemy %s: unknown facing", e.Pawn)
		}
		if err := check(e.Cell, int8(2+i)); err != nil {
			return err
		}
	}
	return nil
}

// sortEnemies puts enemies in resolution order (insertion sort: at most 4).
func (p *Position) sortEnemies() {
	es := p.Enemies
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Pawn < es[j-1].Pawn; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
