package main

import (
	"fmt"
	"io"
	"strings"

	"companion/engine"
)

// boardStyle says how the board is drawn: ANSI colour, and Unicode arrows
// or plain ASCII ones.
type boardStyle struct {
	Color bool
	ASCII bool
}

// ANSI colours of the board's pieces.
const (
	ansiReset   = "\x1b[0m"
	ansiBuilder = "\x1b[1;34m" // bold blue: the player's builders are blue
	ansiLight   = "\x1b[1;33m" // bold yellow: light enemies
	ansiDark    = "\x1b[1;35m" // bold magenta: dark enemies
	ansiWater   = "\x1b[36m"
	ansiTarget  = "\x1b[1;31m"
	ansiLevel   = "\x1b[1m"
)

// pawnCode is an enemy's two-letter mark on the board.
var pawnCode = [engine.NumPawns]string{"LF", "DM", "LM", "DF"}

func (s boardStyle) paint(color, text string) string {
	if !s.Color || color == "" {
		return text
	}
	return color + text + ansiReset
}

func (s boardStyle) arrow(d engine.Dir) string {
	if s.ASCII {
		return string("^>v<"[d%4])
	}
	return []string{"▲", "▶", "▼", "◀"}[d%4]
}

// drawBoard draws p as a 5x5 grid, row A at the top as the camera sees it,
// with a line in words for the pawns so nothing depends on reading symbols.
//
//	     1      2      3      4      5
//	  +------+------+------+------+------+
//	A | 0    | 0    | 0 LF▼| ...
//
// A cell is: T for a target zone, the level (4 is a dome), the pawn.
func drawBoard(w io.Writer, p engine.Position, s boardStyle) {
	var b strings.Builder
	sep := "   +" + strings.Repeat("------+", 5) + "\n"
	header := "    "
	for c := 1; c <= 5; c++ {
		header += fmt.Sprintf("  %d    ", c)
	}
	b.WriteString(strings.TrimRight(header, " ") + "\n")
	b.WriteString(sep)
	for r := 0; r < 5; r++ {
		fmt.Fprintf(&b, " %c |", 'A'+r)
		for c := 0; c < 5; c++ {
			b.WriteString(cellText(p, engine.CellAt(r, c), s))
			b.WriteString("|")
		}
		b.WriteString("\n")
		b.WriteString(sep)
	}
	var parts []string
	if len(p.Builders) > 0 {
		names := make([]string, len(p.Builders))
		for i, c := range p.Builders {
			names[i] = c.String()
		}
		parts = append(parts, "builders "+strings.Join(names, ", "))
	} else {
		parts = append(parts, "no builder")
	}
	for _, e := range p.Enemies {
		parts = append(parts, fmt.Sprintf("%s %v facing %s", e.Pawn.Title(), e.Cell, e.Facing.Name()))
	}
	b.WriteString("   " + strings.Join(parts, "; ") + ".\n")
	io.WriteString(w, b.String())
}

// cellText is one cell, six columns wide whatever the colours.
func cellText(p engine.Position, c engine.Cell, s boardStyle) string {
	if p.Terrain[c] == engine.Water {
		return s.paint(ansiWater, "~~~~~~")
	}
	mark := " "
	if p.Terrain[c] == engine.Target {
		mark = s.paint(ansiTarget, "T")
	}
	level := string(rune('0' + p.Levels[c]))
	if p.Levels[c] > 0 {
		level = s.paint(ansiLevel, level)
	}
	pawn := "   "
	if p.BuilderAt(c) >= 0 {
		pawn = s.paint(ansiBuilder, "B") + "  "
	} else if i := p.EnemyAt(c); i >= 0 {
		e := p.Enemies[i]
		color := ansiDark
		if e.Pawn == engine.LightFemale || e.Pawn == engine.LightMale {
			color = ansiLight
		}
		pawn = s.paint(color, pawnCode[e.Pawn%engine.NumPawns]+s.arrow(e.Facing))
	}
	return mark + level + " " + pawn
}

// legend explains the board's marks.
func legend(s boardStyle) string {
	return fmt.Sprintf("   Key: 0-3 levels, 4 a dome; B builder; LF/DM/LM/DF the light female, dark male,\n"+
		"   light male, dark female, the arrow their facing (%s north, %s east, %s south, %s west);\n"+
		"   ~ water; T target zone.\n", s.arrow(engine.N), s.arrow(engine.E), s.arrow(engine.S), s.arrow(engine.W))
}
