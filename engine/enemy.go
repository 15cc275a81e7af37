package engine

import (
	"fmt"
	"strings"
)

// EnemyTurn resolves one whole enemy turn (RULES.md "Enemy turn") and
// returns the position after it, what a person applies by hand, in order,
// and the outcome.
//
// dice holds one die (1-6) per enemy on the board, in resolution order
// (light-female, dark-male, light-male, dark-female, skipping those not on
// the board). Each phase (orientation, attack, movement) is done for every
// enemy before the next phase starts. Every enemy gets one event per phase,
// even when nothing happens, until a loss: a loss ends the turn at once, and
// the event that caused it is the last one (RULES.md "Rulings").
//
// When the turn ends without a loss, the start-of-player-turn check runs
// (RULES.md "Rulings"): if no builder can move and then build, the result
// is Lost with ReasonStuck.
//
// EnemyTurn returns an error, with p unchanged and no events, when p is not
// a valid position, when the scenario is already won or lost, or when the
// dice are wrong. p itself is never modified. God powers are not applied:
// p.God is carried through unchanged.
func EnemyTurn(p Position, dice []int) (Position, []Event, Result, error) {
	if err := playable(&p); err != nil {
		return p, nil, Result{}, fmt.Errorf("enemy turn: %w", err)
	}
	q := p.Clone()
	q.sortEnemies()
	if len(dice) != len(q.Enemies) {
		return p, nil, Result{}, fmt.Errorf("enemy turn: %d dice for %d enemies: want one die per enemy on the board, in the order %s",
			len(dice), len(q.Enemies), enemyOrder(q.Enemies))
	}
	for i, d := range dice {
		if d < 1 || d > 6 {
			return p, nil, Result{}, fmt.Errorf("enemy turn: die %d (the %s's) is %d: want 1-6", i+1, q.Enemies[i].Pawn, d)
		}
	}
	n := len(q.Enemies)
	t := enemyTurn{
		pos:    q,
		events: make([]Event, 0, 3*n),
		paths:  make([]Cell, 0, 2*n),
	}
	t.play(dice)
	t.setTexts()
	return t.pos, t.events, t.result, nil
}

// enemyOrder lists the pawns, e.g. "light-female, dark-male".
func enemyOrder(es []Enemy) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Pawn.String()
	}
	if len(names) == 0 {
		return "(no enemy)"
	}
	return strings.Join(names, ", ")
}

// enemyTurn is the state of one enemy turn being played on pos. It lives
// on the stack: the texts are written into buf, a plain byte array, and cut
// from one string at the end, so that a turn's texts cost one allocation.
type enemyTurn struct {
	pos      Position
	events   []Event
	paths    []Cell // backing store of the move events' paths
	defeated []Cell // backing store of the events' defeated builders
	defStart int    // where the current event's defeated builders start

	// buf[:n] holds the texts of all events one after the other; spans[i]
	// is where event i's text ends. The longest turn's texts take under
	// 2 KB; should they outgrow buf, they go on in big.
	buf    [4096]byte
	n      int
	big    []byte
	spans  [3 * NumPawns]int
	result Result
}

// play runs the three phases, each for every enemy in resolution order
// (RULES.md "Enemy turn"), then the start-of-player-turn check.
func (t *enemyTurn) play(dice []int) {
	for i := range t.pos.Enemies {
		t.orient(i)
	}
	for i := range t.pos.Enemies {
		if t.attack(i) {
			return
		}
	}
	for i := range t.pos.Enemies {
		if t.move(i, dice[i]) {
			return
		}
	}
	// RULES.md "Rulings": the start-of-player-turn check runs at the end
	// of every enemy turn.
	if !canPlayerAct(&t.pos) {
		t.result = Result{Lost, ReasonStuck}
	}
}

// lose ends the scenario; the caller stops playing at once.
func (t *enemyTurn) lose(reason string) {
	t.result = Result{Lost, reason}
}

// begin starts the text of enemy e's next event.
func (t *enemyTurn) begin(e Enemy) {
	t.say(e.Pawn.Title())
	t.defStart = len(t.defeated)
}

// emit appends ev with the defeated builders gathered since begin, and
// marks the end of its text.
func (t *enemyTurn) emit(ev Event) {
	if n := len(t.defeated); n > t.defStart {
		ev.Defeated = t.defeated[t.defStart:n:n]
	}
	t.spans[len(t.events)] = t.n
	t.events = append(t.events, ev)
}

// setTexts gives every event its text.
func (t *enemyTurn) setTexts() {
	var all string
	if t.big != nil {
		all = string(t.big)
	} else {
		all = string(t.buf[:t.n])
	}
	start := 0
	for i := range t.events {
		t.events[i].Text = all[start:t.spans[i]]
		start = t.spans[i]
	}
}

// say appends words to the event's text.
func (t *enemyTurn) say(words ...string) {
	for _, w := range words {
		if t.big == nil && t.n+len(w) <= len(t.buf) {
			t.n += copy(t.buf[t.n:], w)
			continue
		}
		if t.big == nil {
			t.big = append(make([]byte, 0, 2*len(t.buf)), t.buf[:t.n]...)
		}
		t.big = append(t.big, w...)
		t.n = len(t.big)
	}
}

// orient turns enemy i to face its nearest building.
// RULES.md "Enemy turn", 1. Orientation.
func (t *enemyTurn) orient(i int) {
	e := &t.pos.Enemies[i]
	facing, found := nearestBuildingFacing(&t.pos, *e)
	ev := Event{Phase: PhaseOrientation, Pawn: e.Pawn, Facing: facing, Turned: facing != e.Facing, Target: NoCell}
	t.begin(*e)
	switch {
	case !found:
		t.say(": no building to face, keep facing ", facing.Name(), ".")
	case ev.Turned:
		t.say(": turn to face ", facing.Name(), ".")
	default:
		t.say(": keep facing ", facing.Name(), ".")
	}
	e.Facing = facing
	t.emit(ev)
}

// nearestBuildingFacing gives the facing that RULES.md "Enemy turn",
// 1. Orientation, asks of e, and whether there is a building to face.
//
// Distance is Manhattan, ignoring whatever lies between; e's own cell does
// not count. Every shortest orthogonal path from e to a building starts
// with a step along one of the axes on which the building lies apart from
// e (one axis when it is in line, two otherwise). Of these first steps,
// over all nearest buildings, the highest in the order Front > Right >
// Left > Back relative to e's facing wins. No other building: the facing
// stays.
func nearestBuildingFacing(p *Position, e Enemy) (Dir, bool) {
	const none = 4 // worse than Back
	best, bestRank, facing := NumCells, none, e.Facing
	consider := func(step Dir) {
		if r := turnPreference(e.Facing, step); r < bestRank {
			bestRank, facing = r, step
		}
	}
	for c := Cell(0); c < NumCells; c++ {
		if c == e.Cell || p.Levels[c] == 0 {
			continue
		}
		d := Manhattan(e.Cell, c)
		if d > best {
			continue
		}
		if d < best {
			best, bestRank, facing = d, none, e.Facing
		}
		dr, dc := c.Row()-e.Cell.Row(), c.Col()-e.Cell.Col()
		if dr < 0 {
			consider(N)
		} else if dr > 0 {
			consider(S)
		}
		if dc > 0 {
			consider(E)
		} else if dc < 0 {
			consider(W)
		}
	}
	return facing, bestRank != none
}

// turnPreference ranks the direction d relative to the facing f for the
// orientation tie-break: Front 0, Right 1, Left 2, Back 3 (lower wins).
func turnPreference(f, d Dir) int {
	switch d {
	case f:
		return 0
	case f.CW():
		return 1
	case f.CCW():
		return 2
	}
	return 3
}

// attack resolves enemy i's attack on the cell it faces and reports whether
// the scenario is lost. RULES.md "Enemy turn", 2. Attack.
func (t *enemyTurn) attack(i int) (lost bool) {
	p := &t.pos
	e := p.Enemies[i]
	target := e.Cell.Step(e.Facing)
	ev := Event{Phase: PhaseAttack, Pawn: e.Pawn, Facing: e.Facing, Target: target}
	t.begin(e)
	lowered := false
	switch {
	case !target.Valid():
		// "Off the board or water: nothing happens."
		ev.Effect = EffectOffBoard
		t.say(" faces the edge of the board: nothing to attack.")
	case p.Terrain[target] == Water:
		ev.Effect = EffectWater
		t.say(" attacks ", target.String(), ", water: nothing happens.")
	case p.BuilderAt(target) >= 0:
		// "A builder there is defeated ...; the building under it is untouched."
		t.removeBuilder(target)
		ev.Effect = EffectBuilderDefeated
		t.say(" attacks ", target.String(), ": the builder there is defeated, take it off the board.")
	case p.EnemyAt(target) >= 0:
		// "An enemy there: if it stands on a building, that building loses
		// its top floor and the enemy stays (one level lower); on level 0,
		// nothing happens." An enemy never stands on a dome.
		other := p.Enemies[p.EnemyAt(target)].Pawn
		if p.Levels[target] > 0 {
			p.Levels[target]--
			lowered = true
			ev.Effect = EffectEnemyLowered
			t.say(" attacks the ", other.words(), " on ", target.String(),
				": lift it, remove the top floor, put it back on level ", levelDigit(p.Levels[target]), ".")
		} else {
			ev.Effect = EffectNothing
			t.say(" attacks the ", other.words(), " on ", target.String(), ", on level 0: nothing happens.")
		}
	case p.Levels[target] == Dome:
		// "A dome is a floor: 4 -> 3."
		p.Levels[target]--
		lowered = true
		ev.Effect = EffectDomeRemoved
		t.say(" attacks ", target.String(), ": remove its dome.")
	case p.Levels[target] > 0:
		p.Levels[target]--
		lowered = true
		ev.Effect = EffectTopFloorRemoved
		t.say(" attacks ", target.String(), ": remove its top floor, leaving level ", levelDigit(p.Levels[target]), ".")
	default:
		ev.Effect = EffectNothing
		t.say(" attacks ", target.String(), ", level 0: nothing happens.")
	}
	// RULES.md "End of a scenario": losses are checked whenever the board changes.
	switch {
	case ev.Effect == EffectBuilderDefeated && len(p.Builders) == 0:
		t.say(" No builder is left: the scenario is lost.")
		t.lose(ReasonNoBuilder)
		lost = true
	case lowered && p.BuildingCount() == 0:
		t.say(" No building is left: the scenario is lost.")
		t.lose(ReasonNoBuilding)
		lost = true
	}
	t.emit(ev)
	return lost
}

// removeBuilder defeats the builder on c: it leaves the board for the rest
// of the scenario.
func (t *enemyTurn) removeBuilder(c Cell) {
	p := &t.pos
	j := p.BuilderAt(c)
	p.Builders = append(p.Builders[:j], p.Builders[j+1:]...)
	if t.defeated == nil {
		t.defeated = make([]Cell, 0, 2) // a turn defeats at most both builders
	}
	t.defeated = append(t.defeated, c)
}

// moveStep is one part of a movement roll.
type moveStep uint8

const (
	stepAdvance moveStep = iota
	stepCW
	stepCCW
)

// rollSteps is the movement table of RULES.md "Enemy turn", 3. Movement.
var rollSteps = [7][]moveStep{
	1: {stepAdvance},
	2: {stepAdvance, stepAdvance},
	3: {stepCW, stepAdvance},
	4: {stepCCW, stepAdvance},
	5: {stepAdvance, stepCW, stepAdvance},
	6: {stepAdvance, stepCCW, stepAdvance},
}

// move plays enemy i's movement roll and reports whether the scenario is
// lost. RULES.md "Enemy turn", 3. Movement.
func (t *enemyTurn) move(i, roll int) (lost bool) {
	p := &t.pos
	e := &p.Enemies[i]
	ev := Event{Phase: PhaseMove, Pawn: e.Pawn, Roll: roll, Target: NoCell}
	start := len(t.paths)
	t.begin(*e)
	t.say(" (roll ", digits[roll:roll+1], "): ")
steps:
	for k, step := range rollSteps[roll] {
		if k > 0 {
			t.say(", ")
		}
		switch step {
		case stepCW, stepCCW:
			turned, way := e.Facing.CW(), "clockwise"
			if step == stepCCW {
				turned, way = e.Facing.CCW(), "counter-clockwise"
			}
			// "A rotation that would leave the enemy facing the board's edge
			// is undone; the rest of the roll still applies. (Facing water
			// is allowed.)" Facing the edge: the cell ahead is off the board.
			if !e.Cell.Step(turned).Valid() {
				ev.Undone++
				t.say("do not turn ", way, " (it would face the edge)")
				continue
			}
			e.Facing = turned
			t.say("turn ", way, " to face ", turned.Name())
		case stepAdvance:
			ahead := e.Cell.Step(e.Facing)
			if t.advanceBlocked(e.Cell, ahead) {
				ev.Blocked++
				continue
			}
			e.Cell = ahead
			t.paths = append(t.paths, ahead)
			t.say("move to ", ahead.String())
			// "Advancing into a builder's cell defeats the builder, and the
			// enemy enters the cell."
			defeated := p.BuilderAt(ahead) >= 0
			if defeated {
				t.removeBuilder(ahead)
				t.say(" and defeat the builder there (take it off the board)")
			}
			// "Entering a target zone, in passing or to stop, loses the
			// scenario at once." The enemy stays there (RULES.md "Rulings").
			if p.Terrain[ahead] == Target {
				t.say(": a target zone, the scenario is lost")
				t.lose(reasonTarget(*e, true))
				lost = true
				break steps
			}
			if defeated && len(p.Builders) == 0 {
				t.say(": no builder is left, the scenario is lost")
				t.lose(ReasonNoBuilder)
				lost = true
				break steps
			}
		}
	}
	t.say(".")
	if len(t.paths) > start {
		ev.Path = t.paths[start:len(t.paths):len(t.paths)]
	}
	ev.Facing = e.Facing
	t.emit(ev)
	return lost
}

// advanceBlocked reports whether an advance from `from` into `ahead` is
// blocked, and says why in the event's text. RULES.md "Enemy turn",
// 3. Movement: blocked when the cell ahead is off the board, water, a dome,
// more than one level higher than the enemy's cell, or holds another enemy.
// Moving down any number of levels is allowed; a builder does not block.
func (t *enemyTurn) advanceBlocked(from, ahead Cell) bool {
	p := &t.pos
	switch {
	case !ahead.Valid():
		t.say("do not advance (the edge of the board is ahead)")
	case p.Terrain[ahead] == Water:
		t.say("do not advance (", ahead.String(), " is water)")
	case p.Levels[ahead] == Dome:
		t.say("do not advance (", ahead.String(), " has a dome)")
	case p.Levels[ahead] > p.Levels[from]+1:
		t.say("do not advance (", ahead.String(), " is ", levelsWord(int(p.Levels[ahead]-p.Levels[from])), " higher)")
	case p.EnemyAt(ahead) >= 0:
		t.say("do not advance (the ", p.Enemies[p.EnemyAt(ahead)].Pawn.words(), " is on ", ahead.String(), ")")
	default:
		return false
	}
	return true
}

const digits = "0123456789"

// levelDigit gives "0".."4".
func levelDigit(l Level) string {
	return digits[l : l+1]
}

// levelsWord gives "one level", "two levels"...
func levelsWord(n int) string {
	switch n {
	case 1:
		return "one level"
	case 2:
		return "two levels"
	case 3:
		return "three levels"
	case 4:
		return "four levels"
	}
	return fmt.Sprintf("%d levels", n)
}
