package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// positionJSON is CONTRACT.md's position format.
type positionJSON struct {
	Terrain  []string    `json:"terrain"`
	Levels   []string    `json:"levels"`
	Builders []string    `json:"builders"`
	Enemies  []enemyJSON `json:"enemies"`
	God      *God        `json:"god"`
}

type enemyJSON struct {
	Pawn   string `json:"pawn"`
	Cell   string `json:"cell"`
	Facing string `json:"facing"`
}

// MarshalJSON writes CONTRACT.md's position format.
func (p Position) MarshalJSON() ([]byte, error) {
	j := positionJSON{
		Terrain:  make([]string, 5),
		Levels:   make([]string, 5),
		Builders: make([]string, 0, len(p.Builders)),
		Enemies:  make([]enemyJSON, 0, len(p.Enemies)),
		God:      p.God,
	}
	for r := 0; r < 5; r++ {
		t := make([]byte, 5)
		l := make([]byte, 5)
		for c := 0; c < 5; c++ {
			t[c] = ".WT"[p.Terrain[r*5+c]%3]
			l[c] = byte('0' + p.Levels[r*5+c])
		}
		j.Terrain[r], j.Levels[r] = string(t), string(l)
	}
	for _, b := range p.Builders {
		j.Builders = append(j.Builders, b.String())
	}
	for _, e := range p.Enemies {
		j.Enemies = append(j.Enemies, enemyJSON{e.Pawn.String(), e.Cell.String(), e.Facing.String()})
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads CONTRACT.md's position format and validates it.
func (p *Position) UnmarshalJSON(data []byte) error {
	q, err := ParsePosition(data)
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParsePosition reads and validates a position in CONTRACT.md's format.
func ParsePosition(data []byte) (Position, error) {
	var j positionJSON
	var p Position
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return p, fmt.Errorf("position: the JSON ends too early (empty or truncated file?)")
		}
		return p, fmt.Errorf("position: not CONTRACT.md's position JSON: %w", err)
	}
	if dec.More() {
		return p, fmt.Errorf("position: unexpected data after the JSON object")
	}
	if j.Terrain == nil || j.Levels == nil {
		return p, fmt.Errorf("position: needs \"terrain\" and \"levels\", five strings each")
	}
	if err := readGrid("terrain", j.Terrain, ".WT", func(i int, v byte) { p.Terrain[i] = Terrain(v) }); err != nil {
		return p, err
	}
	if err := readGrid("levels", j.Levels, "01234", func(i int, v byte) { p.Levels[i] = Level(v) }); err != nil {
		return p, err
	}
	for _, s := range j.Builders {
		c, err := ParseCell(s)
		if err != nil {
			return p, fmt.Errorf("position: builder: %w", err)
		}
		p.Builders = append(p.Builders, c)
	}
	for _, e := range j.Enemies {
		pawn, err := ParsePawn(e.Pawn)
		if err != nil {
			return p, fmt.Errorf("position: enemy: %w", err)
		}
		c, err := ParseCell(e.Cell)
		if err != nil {
			return p, fmt.Errorf("position: enemy %s: %w", e.Pawn, err)
		}
		f, err := ParseDir(e.Facing)
		if err != nil {
			return p, fmt.Errorf("position: enemy %s: %w", e.Pawn, err)
		}
		p.Enemies = append(p.Enemies, Enemy{pawn, c, f})
	}
	if j.God != nil {
		if j.God.Side != "player" && j.God.Side != "enemy" {
			return p, fmt.Errorf("position: god side %q: want \"player\" or \"enemy\"", j.God.Side)
		}
		if j.God.Card == "" {
			return p, fmt.Errorf("position: god needs a \"card\" name")
		}
		g := *j.God
		p.God = &g
	}
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("position: %w", err)
	}
	p.sortEnemies()
	return p, nil
}

func readGrid(name string, rows []string, alphabet string, set func(i int, v byte)) error {
	if len(rows) != 5 {
		return fmt.Errorf("position: %q needs 5 rows A-E, got %d", name, len(rows))
	}
	for r, row := range rows {
		if len(row) != 5 {
			return fmt.Errorf("position: %q row %c needs 5 characters, got %q", name, 'A'+r, row)
		}
		for c := 0; c < 5; c++ {
			v := bytes.IndexByte([]byte(alphabet), row[c])
			if v < 0 {
				return fmt.Errorf("position: %q row %c column %d: %q is not one of %q", name, 'A'+r, c+1, row[c], alphabet)
			}
			set(r*5+c, byte(v))
		}
	}
	return nil
}
