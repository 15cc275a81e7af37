package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// mustJSON gives p in CONTRACT.md's JSON, for failure messages.
func mustJSON(t testing.TB, p Position) string {
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// randomPosition gives a valid, playing position: some water and target
// zones, buildings of every height, 1-2 builders, 1-4 enemies.
func randomPosition(r *rand.Rand) Position {
	for {
		var p Position
		for c := Cell(0); c < NumCells; c++ {
			switch x := r.IntN(100); {
			case x < 8:
				p.Terrain[c] = Water
			case x < 14:
				p.Terrain[c] = Target
			default:
				switch y := r.IntN(100); {
				case y < 50:
				case y < 70:
					p.Levels[c] = 1
				case y < 85:
					p.Levels[c] = 2
				case y < 95:
					p.Levels[c] = 3
				default:
					p.Levels[c] = Dome
				}
			}
		}
		free := func(c Cell) bool {
			return p.Terrain[c] != Water && p.Levels[c] != Dome && !p.Occupied(c)
		}
		for n := 1 + r.IntN(2); len(p.Builders) < n; {
			if c := Cell(r.IntN(NumCells)); free(c) {
				p.Builders = append(p.Builders, c)
			}
		}
		for pawn := Pawn(0); pawn < NumPawns; pawn++ {
			if len(p.Enemies) > 0 && r.IntN(3) == 0 {
				continue
			}
			for tries := 0; tries < 100; tries++ {
				if c := Cell(r.IntN(NumCells)); free(c) && p.Terrain[c] != Target {
					p.Enemies = append(p.Enemies, Enemy{pawn, c, Dir(r.IntN(4))})
					break
				}
			}
		}
		if p.Validate() == nil && Status(p).Outcome == Playing {
			return p
		}
	}
}

// replay applies events to p as a person at the table would, reading only
// the events: their effects, paths and facings.
func replay(p Position, events []Event) Position {
	q := p.Clone()
	for _, e := range events {
		i := -1
		for k, en := range q.Enemies {
			if en.Pawn == e.Pawn {
				i = k
			}
		}
		switch e.Phase {
		case PhaseOrientation:
			q.Enemies[i].Facing = e.Facing
		case PhaseAttack:
			switch e.Effect {
			case EffectBuilderDefeated:
				j := q.BuilderAt(e.Target)
				q.Builders = append(q.Builders[:j], q.Builders[j+1:]...)
			case EffectEnemyLowered, EffectTopFloorRemoved, EffectDomeRemoved:
				q.Levels[e.Target]--
			}
		case PhaseMove:
			for _, c := range e.Path {
				if j := q.BuilderAt(c); j >= 0 {
					q.Builders = append(q.Builders[:j], q.Builders[j+1:]...)
				}
				q.Enemies[i].Cell = c
			}
			q.Enemies[i].Facing = e.Facing
		}
	}
	return q
}

// checkEnemyTurn checks what must hold of any enemy turn played on p.
func checkEnemyTurn(t *testing.T, p, q Position, events []Event, res Result) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\nbefore %s\nafter  %s\nevents %q", sprintf(format, args...), mustJSON(t, p), mustJSON(t, q), eventLines(events))
	}
	if err := q.Validate(); err != nil {
		fail("not a position after the enemy turn: %v", err)
	}
	if q.Terrain != p.Terrain || !reflect.DeepEqual(q.God, p.God) {
		fail("terrain or god changed")
	}
	if len(q.Enemies) != len(p.Enemies) {
		fail("enemies: %d before, %d after", len(p.Enemies), len(q.Enemies))
	}
	for i := range q.Enemies {
		if q.Enemies[i].Pawn != p.Enemies[i].Pawn {
			fail("enemy %d changed or out of order", i)
		}
	}
	lowered := 0
	for c := range q.Levels {
		if q.Levels[c] > p.Levels[c] {
			fail("%v rose from %d to %d", Cell(c), p.Levels[c], q.Levels[c])
		}
		lowered += int(p.Levels[c] - q.Levels[c])
	}
	if lowered > len(p.Enemies) {
		fail("%d floors removed by %d enemies", lowered, len(p.Enemies))
	}
	for _, b := range q.Builders {
		if p.BuilderAt(b) < 0 {
			fail("a builder appeared on %v", b)
		}
	}
	// Events: phase by phase, each enemy once a phase, in resolution order,
	// all of them unless the turn was lost.
	n := len(p.Enemies)
	if len(events) > 3*n || (res.Outcome == Playing && len(events) != 3*n) {
		fail("%d events for %d enemies, outcome %v", len(events), n, res.Outcome)
	}
	if n := textBytes(events); n > len(enemyTurn{}.buf)/2 {
		fail("the texts take %d bytes, more than half the buffer for them", n)
	}
	phases := []Phase{PhaseOrientation, PhaseAttack, PhaseMove}
	for k, e := range events {
		if e.Phase != phases[k/n] || e.Pawn != q.Enemies[k%n].Pawn {
			fail("event %d is %q", k, eventLine(e))
		}
		if e.Text == "" {
			fail("event %d has no text", k)
		}
		if _, err := json.Marshal(e); err != nil {
			fail("event %d: %v", k, err)
		}
	}
	if r := replay(p, events); !reflect.DeepEqual(r.Levels, q.Levels) || !reflect.DeepEqual(r.Enemies, q.Enemies) ||
		buildersString(r) != buildersString(q) {
		fail("replaying the events gives %s", mustJSON(t, r))
	}
	switch res.Outcome {
	case Playing:
		if Status(q).Outcome != Playing || !CanPlayerAct(q) {
			fail("playing, but Status %v, CanPlayerAct %v", Status(q), CanPlayerAct(q))
		}
	case Lost:
		if res.Reason == ReasonStuck {
			if len(events) != 3*n || CanPlayerAct(q) {
				fail("lost as stuck, but %d events, CanPlayerAct %v", len(events), CanPlayerAct(q))
			}
		} else if s := Status(q); s.Outcome != Lost {
			fail("lost (%s), but Status %v", res.Reason, s)
		}
	default:
		fail("an enemy turn ended %v", res.Outcome)
	}
}

// checkPlayerTurn checks what must hold of any legal player turn u on p.
func checkPlayerTurn(t *testing.T, p, q Position, u Turn, res Result) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%v: %s\nbefore %s\nafter  %s", u, sprintf(format, args...), mustJSON(t, p), mustJSON(t, q))
	}
	if err := q.Validate(); err != nil {
		fail("not a position after the turn: %v", err)
	}
	if q.LevelSum() != p.LevelSum()+1 || q.Levels[u.Build] != p.Levels[u.Build]+1 {
		fail("the build did not add exactly one level on %v", u.Build)
	}
	if len(q.Builders) != len(p.Builders) || q.BuilderAt(u.To) < 0 || q.BuilderAt(u.From) >= 0 {
		fail("the builder did not move from %v to %v", u.From, u.To)
	}
	defeated := p.EnemyAt(u.Build) >= 0
	if want := len(p.Enemies); defeated {
		want--
		if len(q.Enemies) != want || q.EnemyAt(u.Build) >= 0 {
			fail("the enemy on %v was not defeated", u.Build)
		}
	} else if !reflect.DeepEqual(q.Enemies, p.Enemies) {
		fail("enemies changed")
	}
	if res != Status(q) || res.Outcome == Lost || (res.Outcome == Won) != (len(q.Enemies) == 0) {
		fail("result %+v", res)
	}
}

// TestRandomGames plays many seeded games, random dice and random legal
// turns, checking the invariants after every turn: a valid position
// (levels 0-4, one pawn per cell, none on a dome or water), events that a
// person can replay, results that agree with Status and CanPlayerAct.
func TestRandomGames(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	outcomes := map[string]int{}
	for seed := 0; seed < games; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		p := randomPosition(r)
		for round := 0; round < 40; round++ {
			dice := make([]int, len(p.Enemies))
			for i := range dice {
				dice[i] = 1 + r.IntN(6)
			}
			q, events, res, err := EnemyTurn(p, dice)
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, mustJSON(t, p))
			}
			checkEnemyTurn(t, p, q, events, res)
			if res.Outcome != Playing {
				outcomes[res.Reason[:min(len(res.Reason), 20)]]++
				break
			}
			turns := LegalTurns(q)
			u := turns[r.IntN(len(turns))]
			p, res, err = PlayerTurn(q, u)
			if err != nil {
				t.Fatalf("seed %d: legal turn %v refused: %v\n%s", seed, u, err, mustJSON(t, q))
			}
			checkPlayerTurn(t, q, p, u, res)
			if res.Outcome != Playing {
				outcomes["won"]++
				break
			}
		}
	}
	t.Logf("endings: %v", outcomes)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func textBytes(events []Event) int {
	n := 0
	for _, e := range events {
		n += len(e.Text)
	}
	return n
}
