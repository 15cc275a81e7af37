package engine

import "fmt"

// Turn is a player turn: move a builder From-To, then build on Build.
// Its text form is "B2-C3 C4" (see ParseTurn).
type Turn struct{ From, To, Build Cell }

// RuleError names the rule a player turn breaks (RULES.md "Player turn").
// Rule is one of the Rule* ids; Cell is the cell at fault; Msg says it in
// plain words, naming the rule.
type RuleError struct {
	Rule string // short stable kebab-case id, one of the Rule* constants
	Cell Cell
	Msg  string // plain words
}

func (e *RuleError) Error() string { return e.Msg }

// Rule ids of RuleError, checked in this order (RULES.md "Player turn"):
const (
	// RuleNoBuilder: no builder stands on From.
	RuleNoBuilder = "no-builder"
	// RuleMoveNotAdjacent: To is not one of the 8 cells next to From.
	RuleMoveNotAdjacent = "move-not-adjacent"
	// RuleMoveOntoPawn: To holds a pawn, builder or enemy.
	RuleMoveOntoPawn = "move-onto-pawn"
	// RuleMoveOntoWater: To is water.
	RuleMoveOntoWater = "move-onto-water"
	// RuleMoveOntoDome: To has a dome.
	RuleMoveOntoDome = "move-onto-dome"
	// RuleMoveUpTooHigh: To is more than one level higher than From.
	RuleMoveUpTooHigh = "move-up-too-high"
	// RuleBuildNotAdjacent: Build is not one of the 8 cells next to To.
	RuleBuildNotAdjacent = "build-not-adjacent"
	// RuleBuildOnWater: Build is water.
	RuleBuildOnWater = "build-on-water"
	// RuleBuildOnTargetZone: Build is a target zone.
	RuleBuildOnTargetZone = "build-on-target-zone"
	// RuleBuildOnDome: Build has a dome.
	RuleBuildOnDome = "build-on-dome"
	// RuleBuildOnBuilder: the other builder stands on Build.
	RuleBuildOnBuilder = "build-on-builder"
	// RuleBuildOnEnemyNotLower: an enemy stands on Build, and Build's level
	// is not lower than the level of To, where the builder stands.
	RuleBuildOnEnemyNotLower = "build-on-enemy-not-lower"
)

// rule is a player-turn rule, or ruleOK; the index into ruleIDs.
type rule uint8

const (
	ruleOK rule = iota
	ruleNoBuilder
	ruleMoveNotAdjacent
	ruleMoveOntoPawn
	ruleMoveOntoWater
	ruleMoveOntoDome
	ruleMoveUpTooHigh
	ruleBuildNotAdjacent
	ruleBuildOnWater
	ruleBuildOnTargetZone
	ruleBuildOnDome
	ruleBuildOnBuilder
	ruleBuildOnEnemyNotLower
)

var ruleIDs = [...]string{
	ruleOK:                   "",
	ruleNoBuilder:            RuleNoBuilder,
	ruleMoveNotAdjacent:      RuleMoveNotAdjacent,
	ruleMoveOntoPawn:         RuleMoveOntoPawn,
	ruleMoveOntoWater:        RuleMoveOntoWater,
	ruleMoveOntoDome:         RuleMoveOntoDome,
	ruleMoveUpTooHigh:        RuleMoveUpTooHigh,
	ruleBuildNotAdjacent:     RuleBuildNotAdjacent,
	ruleBuildOnWater:         RuleBuildOnWater,
	ruleBuildOnTargetZone:    RuleBuildOnTargetZone,
	ruleBuildOnDome:          RuleBuildOnDome,
	ruleBuildOnBuilder:       RuleBuildOnBuilder,
	ruleBuildOnEnemyNotLower: RuleBuildOnEnemyNotLower,
}

// occupant says who stands on a cell.
type occupant uint8

const (
	nobody occupant = iota
	aBuilder
	anEnemy
)

// occupancy is who stands on each cell of a position.
type occupancy [NumCells]occupant

func occupancyOf(p *Position) occupancy {
	var o occupancy
	for _, b := range p.Builders {
		o[b] = aBuilder
	}
	for _, e := range p.Enemies {
		o[e.Cell] = anEnemy
	}
	return o
}

// moveRule gives the first rule the move from-to breaks, or ruleOK.
// RULES.md "Player turn", Move: to one of the 8 neighbouring cells; not onto
// a pawn (builder or enemy), water or a dome; up at most one level, down
// any number.
func moveRule(p *Position, o *occupancy, from, to Cell) rule {
	switch {
	case !from.Valid() || o[from] != aBuilder:
		return ruleNoBuilder
	case !Adjacent(from, to):
		return ruleMoveNotAdjacent
	case o[to] != nobody:
		return ruleMoveOntoPawn
	case p.Terrain[to] == Water:
		return ruleMoveOntoWater
	case p.Levels[to] == Dome:
		return ruleMoveOntoDome
	case p.Levels[to] > p.Levels[from]+1:
		return ruleMoveUpTooHigh
	}
	return ruleOK
}

// buildRule gives the first rule that building on b breaks, for the builder
// that moved from-to, or ruleOK. The move must be legal.
// RULES.md "Player turn", Build: on one of the 8 cells next to the moved
// builder, not on water, a target zone, a dome, or a cell with a builder (the
// cell the builder left is free); on an enemy's cell only when that cell's
// level is lower than the level of the cell the builder stands on.
func buildRule(p *Position, o *occupancy, from, to, b Cell) rule {
	switch {
	case !Adjacent(to, b):
		return ruleBuildNotAdjacent
	case p.Terrain[b] == Water:
		return ruleBuildOnWater
	case p.Terrain[b] == Target:
		return ruleBuildOnTargetZone
	case p.Levels[b] == Dome:
		return ruleBuildOnDome
	case o[b] == aBuilder && b != from:
		return ruleBuildOnBuilder
	case o[b] == anEnemy && p.Levels[b] >= p.Levels[to]:
		return ruleBuildOnEnemyNotLower
	}
	return ruleOK
}

// ruleError gives the RuleError for breaking r with turn t on p.
func ruleError(p *Position, r rule, t Turn) *RuleError {
	e := &RuleError{Rule: ruleIDs[r], Cell: t.To}
	from, to, b := t.From, t.To, t.Build
	switch r {
	case ruleNoBuilder:
		e.Cell = from
		e.Msg = fmt.Sprintf("there is no builder on %v: a turn moves one of the player's builders.", from)
	case ruleMoveNotAdjacent:
		if from == to {
			e.Msg = fmt.Sprintf("the builder on %v must move: it moves to one of the 8 cells next to it.", from)
		} else {
			e.Msg = fmt.Sprintf("%v is not next to %v: a builder moves to one of the 8 cells next to it.", to, from)
		}
	case ruleMoveOntoPawn:
		e.Msg = fmt.Sprintf("%v holds %s: a builder cannot move onto a pawn.", to, pawnOn(p, to))
	case ruleMoveOntoWater:
		e.Msg = fmt.Sprintf("%v is water: a builder cannot move onto water.", to)
	case ruleMoveOntoDome:
		e.Msg = fmt.Sprintf("%v has a dome: a builder cannot move onto a dome.", to)
	case ruleMoveUpTooHigh:
		e.Msg = fmt.Sprintf("%v is %s higher than %v: a builder moves up at most one level.",
			to, levelsWord(int(p.Levels[to])-int(p.Levels[from])), from)
	case ruleBuildNotAdjacent:
		e.Cell = b
		if b == to {
			e.Msg = fmt.Sprintf("the builder stands on %v: it builds on one of the 8 cells next to it, not under itself.", to)
		} else {
			e.Msg = fmt.Sprintf("%v is not next to %v: a builder builds on one of the 8 cells next to it.", b, to)
		}
	case ruleBuildOnWater:
		e.Cell = b
		e.Msg = fmt.Sprintf("%v is water: nothing is built on water.", b)
	case ruleBuildOnTargetZone:
		e.Cell = b
		e.Msg = fmt.Sprintf("%v is a target zone: nothing is built on a target zone.", b)
	case ruleBuildOnDome:
		e.Cell = b
		e.Msg = fmt.Sprintf("%v has a dome: nothing is built on a dome.", b)
	case ruleBuildOnBuilder:
		e.Cell = b
		e.Msg = fmt.Sprintf("%v holds a builder: nothing is built on a builder's cell.", b)
	case ruleBuildOnEnemyNotLower:
		e.Cell = b
		e.Msg = fmt.Sprintf("%v (level %d, %s) is not lower than %v (level %d), where the builder stands: "+
			"a builder builds on an enemy's cell only when that cell is lower than its own.",
			b, p.Levels[b], pawnOn(p, b), to, p.Levels[to])
	}
	return e
}

// pawnOn names the pawn on c, e.g. "a builder" or "the dark male".
func pawnOn(p *Position, c Cell) string {
	if i := p.EnemyAt(c); i >= 0 {
		return "the " + p.Enemies[i].Pawn.words()
	}
	return "a builder"
}

// PlayerTurn checks and applies one player turn (RULES.md "Player turn"):
// move the builder on t.From to t.To, then build on t.Build. Building on an
// enemy's cell defeats the enemy (it leaves the board) and adds the block;
// on level 3 the block is the dome.
//
// An illegal turn returns a *RuleError naming the first rule it breaks, in
// the order of the Rule* ids, with p unchanged. Other errors (p is not a
// valid position, the scenario is already won or lost) are plain errors.
//
// The result is Won when the turn defeats the last enemy. The
// start-of-player-turn check is not run here: EnemyTurn runs it at its end
// (RULES.md "Rulings"); from a position whose builders cannot act every turn
// is illegal anyway. p itself is never modified.
func PlayerTurn(p Position, t Turn) (Position, Result, error) {
	if err := playable(&p); err != nil {
		return p, Result{}, fmt.Errorf("player turn: %w", err)
	}
	o := occupancyOf(&p)
	r := moveRule(&p, &o, t.From, t.To)
	if r == ruleOK {
		r = buildRule(&p, &o, t.From, t.To, t.Build)
	}
	if r != ruleOK {
		return p, Result{Outcome: Playing}, ruleError(&p, r, t)
	}
	q := p.Clone()
	q.applyTurn(t)
	return q, Status(q), nil
}

// applyTurn plays a legal turn on p.
func (p *Position) applyTurn(t Turn) {
	p.Builders[p.BuilderAt(t.From)] = t.To
	if i := p.EnemyAt(t.Build); i >= 0 {
		p.Enemies = append(p.Enemies[:i], p.Enemies[i+1:]...)
	}
	p.Levels[t.Build]++
}
