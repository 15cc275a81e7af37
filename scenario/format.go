package scenario

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"companion/engine"
)

// ParseError is a problem in a scenario file, with the line it is on (0 when
// it concerns the whole file, such as a missing key) and, from Load, the file.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	where := "scenario"
	if e.File != "" {
		where += " " + e.File
	}
	if e.Line > 0 {
		where += fmt.Sprintf(": line %d", e.Line)
	}
	return where + ": " + e.Msg
}

func errAt(line int, format string, args ...any) error {
	return &ParseError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// keys lists the keys a scenario file may use, in the order Format writes them.
var keys = []string{"name", "level", "about", "map", "builders", "enemy"}

const keyList = "name, level, about, map, builders, enemy"

const cellHelp = "use . or 0-4 for land at that level, W for water, T or T1-T4 for a target zone"

// maxLevel is the highest scenario level accepted (the campaign's is 4): the
// level is the score for winning, so a large one is surely a typo.
const maxLevel = 9

// parser holds what has been read so far; lines remember where each key and
// pawn was given so later checks can name the line.
type parser struct {
	s       Scenario
	keyLine map[string]int
	mapRow  int // next map row to read (0 = A); 5 once the map is complete
	mapLine int
	placed  []placement
}

// placement is a pawn as the file gives it.
type placement struct {
	cell engine.Cell
	line int
	who  string
}

// Parse reads a scenario file's contents (FORMAT.md) and validates it: the
// setup must be a position (engine.Position.Validate) that is neither won nor
// lost. Errors are *ParseError values naming the line. Number is 0.
func Parse(data []byte) (Scenario, error) {
	p := &parser{keyLine: map[string]int{}, mapRow: -1}
	lines := strings.Split(string(data), "\n")
	for i, raw := range lines {
		if err := p.line(i+1, strings.TrimRight(raw, "\r")); err != nil {
			return Scenario{}, err
		}
	}
	return p.finish()
}

func (p *parser) line(n int, text string) error {
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, "#") {
		return nil
	}
	key, value, isKey := strings.Cut(t, ":")
	if p.mapRow >= 0 && p.mapRow < 5 {
		if isKey {
			return errAt(n, "map row %c missing: the map needs 5 rows A-E below \"map:\", found %q", 'A'+p.mapRow, t)
		}
		return p.row(n, t)
	}
	if !isKey {
		return errAt(n, "%q is not \"key: value\" (keys: %s; a map row must follow \"map:\")", t, keyList)
	}
	key = strings.ToLower(strings.TrimSpace(key))
	value = strings.TrimSpace(value)
	known := false
	for _, k := range keys {
		known = known || k == key
	}
	if !known {
		return errAt(n, "unknown key %q (keys: %s)", key, keyList)
	}
	if first, ok := p.keyLine[key]; ok && key != "enemy" {
		return errAt(n, "%q given twice (first on line %d)", key, first)
	}
	p.keyLine[key] = n
	switch key {
	case "name":
		if value == "" {
			return errAt(n, "name is empty")
		}
		if err := plainText(value); err != nil {
			return errAt(n, "name: %v", err)
		}
		p.s.Name = value
	case "about":
		if err := plainText(value); err != nil {
			return errAt(n, "about: %v", err)
		}
		p.s.About = value
	case "level":
		l, err := strconv.Atoi(value)
		if err != nil || l < 0 || l > maxLevel {
			return errAt(n, "level %q: want a whole number 0-%d (the points for winning)", value, maxLevel)
		}
		p.s.Level = l
	case "map":
		if value != "" {
			return errAt(n, "\"map:\" stands alone; its 5 rows A-E go on the lines below it")
		}
		p.mapRow, p.mapLine = 0, n
	case "builders":
		return p.builders(n, value)
	case "enemy":
		return p.enemy(n, value)
	}
	return nil
}

// plainText rejects what would garble a terminal or a round trip.
func plainText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not valid UTF-8 text")
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("control character %q not allowed", r)
		}
	}
	return nil
}

// row reads one map row: an optional row letter, then five cell tokens.
func (p *parser) row(n int, t string) error {
	letter := byte('A' + p.mapRow)
	f := strings.Fields(t)
	if len(f[0]) == 1 && strings.ContainsAny(strings.ToUpper(f[0]), "ABCDE") {
		if got := strings.ToUpper(f[0])[0]; got != letter {
			return errAt(n, "map row labelled %c where row %c belongs (rows go A to E, top to bottom)", got, letter)
		}
		f = f[1:]
	}
	if len(f) == 1 && len(f[0]) == 5 {
		return errAt(n, "map row %c: %q: separate the 5 cells with spaces", letter, f[0])
	}
	if len(f) != 5 {
		return errAt(n, "map row %c has %d cells, want 5 (columns 1-5)", letter, len(f))
	}
	for c, tok := range f {
		terrain, level, ok := parseCellToken(tok)
		if !ok {
			return errAt(n, "map row %c column %d: %q is not a cell (%s)", letter, c+1, tok, cellHelp)
		}
		i := engine.CellAt(p.mapRow, c)
		p.s.Setup.Terrain[i], p.s.Setup.Levels[i] = terrain, level
	}
	p.mapRow++
	return nil
}

// parseCellToken reads ".", "0"-"4", "W", "T" or "T0"-"T4" (letters in any case).
func parseCellToken(tok string) (engine.Terrain, engine.Level, bool) {
	tok = strings.ToUpper(tok)
	digit := func(s string) (engine.Level, bool) {
		if len(s) == 1 && s[0] >= '0' && s[0] <= '4' {
			return engine.Level(s[0] - '0'), true
		}
		return 0, false
	}
	switch {
	case tok == ".":
		return engine.Land, 0, true
	case tok == "W":
		return engine.Water, 0, true
	case tok == "T":
		return engine.Target, 0, true
	case strings.HasPrefix(tok, "T"):
		l, ok := digit(tok[1:])
		return engine.Target, l, ok
	}
	l, ok := digit(tok)
	return engine.Land, l, ok
}

// cellToken is parseCellToken's inverse, in the form Format writes.
func cellToken(t engine.Terrain, l engine.Level) string {
	switch {
	case t == engine.Water:
		return "W"
	case t == engine.Target && l == 0:
		return "T"
	case t == engine.Target:
		return "T" + strconv.Itoa(int(l))
	case l == 0:
		return "."
	}
	return strconv.Itoa(int(l))
}

func (p *parser) builders(n int, value string) error {
	f := strings.Fields(value)
	if len(f) == 0 {
		return errAt(n, "builders: list the cells of 1 or 2 builders, like \"builders: D2 D4\"")
	}
	if len(f) > 2 {
		return errAt(n, "builders: %d listed, the player has at most 2", len(f))
	}
	for _, s := range f {
		c, err := engine.ParseCell(s)
		if err != nil {
			return errAt(n, "builders: %v", err)
		}
		if err := p.place(n, c, "a builder"); err != nil {
			return err
		}
		p.s.Setup.Builders = append(p.s.Setup.Builders, c)
	}
	return nil
}

func (p *parser) enemy(n int, value string) error {
	const want = "want \"enemy: PAWN CELL facing DIR\", like \"enemy: light-female A3 facing S\""
	f := strings.Fields(value)
	if len(f) == 4 && strings.EqualFold(f[2], "facing") {
		f = append(f[:2], f[3])
	}
	if len(f) != 3 {
		return errAt(n, "enemy: %q: %s", value, want)
	}
	pawn, err := engine.ParsePawn(strings.ToLower(f[0]))
	if err != nil {
		return errAt(n, "enemy: %v", err)
	}
	c, err := engine.ParseCell(f[1])
	if err != nil {
		return errAt(n, "enemy %s: %v", pawn, err)
	}
	d, err := engine.ParseDir(strings.ToUpper(f[2]))
	if err != nil {
		return errAt(n, "enemy %s: %v", pawn, err)
	}
	for _, e := range p.s.Setup.Enemies {
		if e.Pawn == pawn {
			return errAt(n, "enemy %s listed twice (also on %v)", pawn, e.Cell)
		}
	}
	if err := p.place(n, c, "the "+pawn.String()); err != nil {
		return err
	}
	p.s.Setup.Enemies = append(p.s.Setup.Enemies, engine.Enemy{Pawn: pawn, Cell: c, Facing: d})
	return nil
}

// place records a pawn on c, refusing a second pawn there.
func (p *parser) place(n int, c engine.Cell, who string) error {
	for _, q := range p.placed {
		if q.cell == c {
			return errAt(n, "%s on %v, where line %d already put %s: one pawn per cell", who, c, q.line, q.who)
		}
	}
	p.placed = append(p.placed, placement{c, n, who})
	return nil
}

// finish checks what needs the whole file: required keys, then the pawns
// against the map, then the position as the engine sees it.
func (p *parser) finish() (Scenario, error) {
	switch {
	case p.keyLine["name"] == 0:
		return Scenario{}, errAt(0, "no name: add a line like \"name: The Bridge\"")
	case p.keyLine["map"] == 0:
		return Scenario{}, errAt(0, "no map: add \"map:\" followed by 5 rows A-E of 5 cells (%s)", cellHelp)
	case p.mapRow < 5:
		return Scenario{}, errAt(p.mapLine, "the map has %d rows, want 5 (A-E)", p.mapRow)
	case p.keyLine["builders"] == 0:
		return Scenario{}, errAt(0, "no builders: add a line like \"builders: D2 D4\"")
	case p.keyLine["enemy"] == 0:
		return Scenario{}, errAt(0, "no enemy: add a line per enemy, like \"enemy: light-female A3 facing S\"")
	}
	pos := &p.s.Setup
	for _, q := range p.placed {
		c, n, who := q.cell, q.line, q.who
		switch {
		case pos.Terrain[c] == engine.Water:
			return Scenario{}, errAt(n, "%s on %v stands on water", who, c)
		case pos.Levels[c] == engine.Dome:
			return Scenario{}, errAt(n, "%s on %v stands on a dome", who, c)
		case pos.Terrain[c] == engine.Target && who != "a builder":
			return Scenario{}, errAt(n, "%s starts on target zone %v: the scenario would be lost before it begins", who, c)
		}
	}
	sortEnemies(pos.Enemies)
	if err := pos.Validate(); err != nil {
		return Scenario{}, errAt(0, "not a position: %v", err)
	}
	if r := engine.Status(*pos); r.Outcome != engine.Playing {
		return Scenario{}, errAt(0, "the setup is already %v: %s", r.Outcome, r.Reason)
	}
	return p.s, nil
}

// sortEnemies puts enemies in the engine's resolution order, whatever order
// the file lists them in (insertion sort: at most 4).
func sortEnemies(es []engine.Enemy) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Pawn < es[j-1].Pawn; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// Format writes s in the file format Parse reads; Parse(Format(s)) gives s
// back, except Number (a file does not say its campaign number) and the god
// card (scenarios do not fix one).
func Format(s Scenario) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "name: %s\n", s.Name)
	fmt.Fprintf(&b, "level: %d\n", s.Level)
	if s.About != "" {
		fmt.Fprintf(&b, "about: %s\n", s.About)
	}
	b.WriteString("map:\n#    1  2  3  4  5\n")
	for r := 0; r < 5; r++ {
		fmt.Fprintf(&b, "  %c", 'A'+r)
		for c := 0; c < 5; c++ {
			i := engine.CellAt(r, c)
			fmt.Fprintf(&b, " %2s", cellToken(s.Setup.Terrain[i], s.Setup.Levels[i]))
		}
		b.WriteByte('\n')
	}
	b.WriteString("builders:")
	for _, c := range s.Setup.Builders {
		b.WriteString(" " + c.String())
	}
	b.WriteByte('\n')
	for _, e := range s.Setup.Enemies {
		fmt.Fprintf(&b, "enemy: %s %v facing %v\n", e.Pawn, e.Cell, e.Facing)
	}
	return b.Bytes()
}
