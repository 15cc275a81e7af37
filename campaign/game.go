package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"companion/engine"
	"companion/scenario"
)

// Step is what a game waits for next.
type Step string

const (
	StepEnemyTurn  Step = "enemy-turn"    // the dice of the enemy turn
	StepPlayerTurn Step = "player-turn"   // the player's turn
	StepWon        Step = "scenario-won"  // the player to read the score; Continue moves on
	StepLost       Step = "scenario-lost" // the player to read why; Continue replays
	StepFinished   Step = "finished"      // nothing: the game is over
)

// Kind says whether a game is the whole campaign or one scenario.
type Kind string

const (
	KindCampaign Kind = "campaign" // scenarios 1 to 6 in order
	KindSingle   Kind = "single"   // one scenario, built-in or a user's own
)

// Difficulty is the player's choice of game. A later version deals god
// cards by it (RULES.md "God cards"); for now it only changes the score.
type Difficulty string

const (
	Normal Difficulty = "normal"
	Easy   Difficulty = "easy"
	Expert Difficulty = "expert"
)

// ScenarioInfo is the scenario being played, kept whole in the save so a
// game resumes even if a user's scenario file has moved since.
type ScenarioInfo struct {
	Number int             `json:"number"` // 0 for a user's own
	Name   string          `json:"name"`
	Level  int             `json:"level"`
	About  string          `json:"about,omitempty"`
	File   string          `json:"file,omitempty"` // a user's own: where it was read from
	Setup  engine.Position `json:"setup"`
}

// Title names the scenario for a person, e.g. `scenario 2 "The city gate"`.
func (s ScenarioInfo) Title() string {
	if s.Number == 0 {
		return fmt.Sprintf("scenario %q", s.Name)
	}
	return fmt.Sprintf("scenario %d %q", s.Number, s.Name)
}

// VirtualDie is the die the companion rolls itself. Roll n of a game is a
// function of (Seed, n), so a resumed game rolls what the crashed one would.
type VirtualDie struct {
	On    bool   `json:"on"`
	Seed  uint64 `json:"seed"`
	Rolls int    `json:"rolls"` // rolls made so far
}

// UndoPoint is the game as it was just before the last player turn.
type UndoPoint struct {
	Turn          string          `json:"turn"` // the turn undone, e.g. "B2-C3 C4"
	Position      engine.Position `json:"position"`
	Round         int             `json:"round"`
	LastEnemyTurn *EnemyTurnLog   `json:"last_enemy_turn"`
}

// EnemyTurnLog is a resolved enemy turn: enough to announce it again.
type EnemyTurnLog struct {
	Start engine.Position `json:"start"`
	Dice  []int           `json:"dice"`
}

// Game is the whole state of a game at the table. Change it only through
// its methods: each one saves the game when it is attached to a Store.
type Game struct {
	Kind       Kind         `json:"kind"`
	Difficulty Difficulty   `json:"difficulty"`
	Die        VirtualDie   `json:"virtual_die"`
	Scenario   ScenarioInfo `json:"scenario"`
	Attempt    int          `json:"attempt"` // 1 on the first try of the scenario
	Round      int          `json:"round"`   // 1 for the first enemy turn and player turn
	Step       Step         `json:"step"`
	// Position is the board now; during an enemy turn, the board at its start.
	Position engine.Position `json:"position"`
	// Dice are the dice entered so far in the enemy turn in progress, one per
	// enemy in resolution order.
	Dice          []int           `json:"dice"`
	Outcome       engine.Outcome  `json:"outcome"`
	Reason        string          `json:"reason"`
	Before        *UndoPoint      `json:"undo"` // for Undo; nil when nothing to undo
	LastEnemyTurn *EnemyTurnLog   `json:"last_enemy_turn"`
	Scores        []ScenarioScore `json:"scores"`

	store *Store
}

// Options choose a new game.
type Options struct {
	// Scenario, when set, makes a single-scenario game; nil plays the campaign.
	Scenario   *scenario.Scenario
	File       string // where Scenario was read from, if a file
	Difficulty Difficulty
	VirtualDie bool
	Seed       uint64
}

// ErrNothingToUndo is Undo's answer when no player turn can be taken back.
var ErrNothingToUndo = errors.New("nothing to undo: only the last player turn of this attempt can be taken back, and only once")

// New starts a game at the first enemy turn of its first scenario.
func New(o Options) (*Game, error) {
	g := &Game{
		Kind:       KindCampaign,
		Difficulty: o.Difficulty,
		Die:        VirtualDie{On: o.VirtualDie, Seed: o.Seed},
		Scores:     []ScenarioScore{},
	}
	if g.Difficulty == "" {
		g.Difficulty = Normal
	}
	if err := g.Difficulty.check(); err != nil {
		return nil, err
	}
	s := o.Scenario
	if s == nil {
		first, err := scenario.Get(1)
		if err != nil {
			return nil, fmt.Errorf("campaign: %w", err)
		}
		s = &first
	} else {
		g.Kind = KindSingle
	}
	info := ScenarioInfo{Number: s.Number, Name: s.Name, Level: s.Level, About: s.About, File: o.File, Setup: s.Setup.Clone()}
	if err := g.start(info); err != nil {
		return nil, err
	}
	return g, nil
}

// start puts scenario info on the board for a first attempt.
func (g *Game) start(info ScenarioInfo) error {
	if err := info.Setup.Validate(); err != nil {
		return fmt.Errorf("%s: %w", info.Title(), err)
	}
	if r := engine.Status(info.Setup); r.Outcome != engine.Playing {
		return fmt.Errorf("%s cannot be played: it is already %v at setup (%s)", info.Title(), r.Outcome, r.Reason)
	}
	g.Scenario = info
	g.Attempt = 1
	g.reset()
	return nil
}

// reset puts the scenario's setup back on the board, every scenario starting
// with an enemy turn.
func (g *Game) reset() {
	g.Round = 1
	g.Step = StepEnemyTurn
	g.Position = g.Scenario.Setup.Clone()
	g.Dice = nil
	g.Outcome, g.Reason = engine.Playing, ""
	g.Before = nil
	g.LastEnemyTurn = nil
}

// EnemyTurnView is what is known of the enemy turn in progress.
type EnemyTurnView struct {
	// Events are the orientation and attack of every enemy, then the moves
	// of the enemies whose die is in.
	Events []engine.Event
	// Next is the index in Position.Enemies of the enemy to roll for next,
	// or -1 when the turn is complete (all dice in, or a loss ended it).
	Next int
	// Result and After are the turn's outcome and board, once complete.
	Result engine.Result
	After  engine.Position
}

// NextPawn is the enemy to roll for next; ok is false when none is.
func (v EnemyTurnView) NextPawn(p engine.Position) (pawn engine.Pawn, ok bool) {
	if v.Next < 0 || v.Next >= len(p.Enemies) {
		return 0, false
	}
	return p.Enemies[v.Next].Pawn, true
}

// viewEnemyTurn resolves the enemy turn from start as far as dice allow.
// Orientation and attack do not depend on the dice, and an enemy's move
// depends only on its own die and earlier ones, so padding the missing dice
// shows everything that is already certain.
func viewEnemyTurn(start engine.Position, dice []int) (EnemyTurnView, error) {
	n := len(start.Enemies)
	padded := make([]int, n)
	for i := range padded {
		padded[i] = 1
	}
	copy(padded, dice)
	after, events, res, err := engine.EnemyTurn(start, padded)
	if err != nil {
		return EnemyTurnView{}, err // the engine's errors say "enemy turn: ..."
	}
	moves := 0
	for _, e := range events {
		if e.Phase == engine.PhaseMove {
			moves++
		}
	}
	// The engine gives every enemy one event per phase until a loss ends the
	// turn, so fewer than n moves means the loss came in the move of enemy
	// moves-1 (or before any move): nothing after it needs a die.
	complete := len(dice) >= n || (res.Outcome == engine.Lost && moves < n && len(dice) >= moves)
	v := EnemyTurnView{Next: len(dice)}
	seen := 0
	for _, e := range events {
		if e.Phase == engine.PhaseMove {
			seen++
			if seen > len(dice) {
				continue
			}
		}
		v.Events = append(v.Events, e)
	}
	if complete {
		v.Next, v.Result, v.After = -1, res, after
	}
	return v, nil
}

// EnemyTurn shows the enemy turn in progress.
func (g *Game) EnemyTurn() (EnemyTurnView, error) {
	if g.Step != StepEnemyTurn {
		return EnemyTurnView{}, fmt.Errorf("no enemy turn in progress (the game waits for: %s)", g.Step)
	}
	return viewEnemyTurn(g.Position, g.Dice)
}

// LastEnemyTurnEvents gives the events of the last resolved enemy turn of
// this attempt, to announce them again (nil if none).
func (g *Game) LastEnemyTurnEvents() ([]engine.Event, error) {
	if g.LastEnemyTurn == nil {
		return nil, nil
	}
	v, err := viewEnemyTurn(g.LastEnemyTurn.Start, g.LastEnemyTurn.Dice)
	if err != nil {
		return nil, err
	}
	return v.Events, nil
}

// EnterDie records the die rolled for the next enemy of the enemy turn.
func (g *Game) EnterDie(d int) error {
	return g.change(func() error { return g.enterDie(d) })
}

func (g *Game) enterDie(d int) error {
	if d < 1 || d > 6 {
		return fmt.Errorf("die %d: want 1-6", d)
	}
	v, err := g.EnemyTurn()
	if err != nil {
		return err
	}
	if v.Next < 0 {
		return errors.New("the enemy turn needs no more dice")
	}
	g.Dice = append(g.Dice, d)
	return nil
}

// RollVirtualDie rolls the companion's own die for the next enemy and
// records it like EnterDie.
func (g *Game) RollVirtualDie() (int, error) {
	var d int
	err := g.change(func() error {
		d = virtualRoll(g.Die.Seed, g.Die.Rolls)
		g.Die.Rolls++
		return g.enterDie(d)
	})
	return d, err
}

// virtualRoll is roll n of the die seeded with seed.
func virtualRoll(seed uint64, n int) int {
	return rand.New(rand.NewPCG(seed, uint64(n))).IntN(6) + 1
}

// ResolveEnemyTurn applies the enemy turn once EnemyTurn says it is complete.
func (g *Game) ResolveEnemyTurn() (EnemyTurnView, error) {
	var v EnemyTurnView
	err := g.change(func() error {
		var err error
		if v, err = g.EnemyTurn(); err != nil {
			return err
		}
		if v.Next >= 0 {
			return fmt.Errorf("the enemy turn needs %d more dice", len(g.Position.Enemies)-len(g.Dice))
		}
		g.LastEnemyTurn = &EnemyTurnLog{Start: g.Position, Dice: g.Dice}
		g.Position = v.After
		g.Dice = nil
		g.end(v.Result, StepPlayerTurn)
		return nil
	})
	return v, err
}

// end moves the game on after a turn with result r: to next when still playing.
func (g *Game) end(r engine.Result, next Step) {
	g.Outcome, g.Reason = r.Outcome, r.Reason
	switch r.Outcome {
	case engine.Won:
		g.Step = StepWon
		g.Scores = append(g.Scores, Score(g.Scenario, g.Attempt, g.Position))
	case engine.Lost:
		g.Step = StepLost
	default:
		g.Step = next
	}
}

// PlayerTurn checks and applies the player's turn. An illegal turn returns
// the engine's *engine.RuleError and changes nothing.
func (g *Game) PlayerTurn(t engine.Turn) error {
	return g.change(func() error {
		if g.Step != StepPlayerTurn {
			return fmt.Errorf("not the player's turn (the game waits for: %s)", g.Step)
		}
		next, r, err := engine.PlayerTurn(g.Position, t)
		if err != nil {
			// A *engine.RuleError as it is; others already say "player turn: ...".
			return err
		}
		g.Before = &UndoPoint{Turn: t.String(), Position: g.Position, Round: g.Round, LastEnemyTurn: g.LastEnemyTurn}
		g.Position = next
		if r.Outcome == engine.Playing {
			g.Round++
		}
		g.end(r, StepEnemyTurn)
		return nil
	})
}

// CanUndo reports whether Undo has a player turn to take back.
func (g *Game) CanUndo() bool { return g.Before != nil && g.Step != StepFinished }

// Undo restores the game to just before the last player turn, taking
// back any enemy turn since (its dice are rolled again), and returns the
// turn taken back. Only one turn can be taken back.
func (g *Game) Undo() (string, error) {
	var turn string
	err := g.change(func() error {
		if !g.CanUndo() {
			return ErrNothingToUndo
		}
		u := g.Before
		if g.Step == StepWon {
			g.Scores = g.Scores[:len(g.Scores)-1]
		}
		turn = u.Turn
		g.Position, g.Round, g.LastEnemyTurn = u.Position, u.Round, u.LastEnemyTurn
		g.Step = StepPlayerTurn
		g.Dice = nil
		g.Outcome, g.Reason = engine.Playing, ""
		g.Before = nil
		return nil
	})
	return turn, err
}

// Continue moves on from the end of a scenario: a lost one is reset to its
// setup for another attempt; a won one leads to the next campaign scenario,
// or ends the game.
func (g *Game) Continue() error {
	return g.change(func() error {
		switch g.Step {
		case StepLost:
			g.Attempt++
			g.reset()
			return nil
		case StepWon:
			if g.Kind == KindCampaign && g.Scenario.Number < scenario.Count {
				s, err := scenario.Get(g.Scenario.Number + 1)
				if err != nil {
					return fmt.Errorf("campaign: %w", err)
				}
				return g.start(ScenarioInfo{Number: s.Number, Name: s.Name, Level: s.Level, About: s.About, Setup: s.Setup})
			}
			g.Step = StepFinished
			g.Before = nil
			return nil
		}
		return fmt.Errorf("the scenario is not over (the game waits for: %s)", g.Step)
	})
}

// Points is the sum of the won scenarios' scores.
func (g *Game) Points() int {
	sum := 0
	for _, s := range g.Scores {
		sum += s.Points
	}
	return sum
}

// DifficultyPoints is the end-of-campaign adjustment, once the campaign is
// finished (0 before, and for a single scenario).
func (g *Game) DifficultyPoints() int {
	if g.Kind != KindCampaign || g.Step != StepFinished {
		return 0
	}
	return DifficultyPoints(g.Difficulty)
}

// Total is the game's score: the points, plus the difficulty adjustment at
// the end of a campaign.
func (g *Game) Total() int { return g.Points() + g.DifficultyPoints() }

// change runs fn and saves the game; if either fails, the game is left
// exactly as it was, so memory never runs ahead of the save file.
func (g *Game) change(fn func() error) error {
	before, err := g.snapshot()
	if err != nil {
		return err
	}
	restore := func() {
		store := g.store
		*g = *before
		g.store = store
	}
	if err := fn(); err != nil {
		restore()
		return err
	}
	if g.store != nil {
		if err := g.store.Save(g); err != nil {
			restore()
			return err
		}
	}
	return nil
}

// snapshot deep-copies the game through its save format, which by design
// holds all of it.
func (g *Game) snapshot() (*Game, error) {
	data, err := json.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("copying the game: %w", err)
	}
	var c Game
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("copying the game: %w", err)
	}
	return &c, nil
}

func (d Difficulty) check() error {
	switch d {
	case Normal, Easy, Expert:
		return nil
	}
	return fmt.Errorf("difficulty %q: want normal, easy or expert", d)
}

// validate checks what JSON decoding alone does not: a save that passes is
// a game the methods can drive.
func (g *Game) validate() error {
	switch g.Kind {
	case KindCampaign, KindSingle:
	default:
		return fmt.Errorf("kind %q: want campaign or single", g.Kind)
	}
	if err := g.Difficulty.check(); err != nil {
		return err
	}
	switch g.Step {
	case StepEnemyTurn, StepPlayerTurn, StepWon, StepLost, StepFinished:
	default:
		return fmt.Errorf("step %q is not a step of the game", g.Step)
	}
	if g.Kind == KindCampaign && (g.Scenario.Number < 1 || g.Scenario.Number > scenario.Count) {
		return fmt.Errorf("campaign scenario %d: want 1-%d", g.Scenario.Number, scenario.Count)
	}
	if g.Attempt < 1 || g.Round < 1 || g.Die.Rolls < 0 {
		return fmt.Errorf("attempt %d, round %d, rolls %d: want positive counts", g.Attempt, g.Round, g.Die.Rolls)
	}
	if len(g.Dice) > 0 && g.Step != StepEnemyTurn {
		return fmt.Errorf("dice %v recorded outside an enemy turn", g.Dice)
	}
	if len(g.Dice) > len(g.Position.Enemies) {
		return fmt.Errorf("%d dice recorded for %d enemies", len(g.Dice), len(g.Position.Enemies))
	}
	for _, d := range g.Dice {
		if d < 1 || d > 6 {
			return fmt.Errorf("die %d recorded: want 1-6", d)
		}
	}
	if g.LastEnemyTurn != nil {
		if len(g.LastEnemyTurn.Dice) > len(g.LastEnemyTurn.Start.Enemies) {
			return fmt.Errorf("last enemy turn: %d dice for %d enemies", len(g.LastEnemyTurn.Dice), len(g.LastEnemyTurn.Start.Enemies))
		}
	}
	if g.Step == StepWon && len(g.Scores) == 0 {
		return errors.New("scenario won but no score recorded")
	}
	return nil
}

// SetVirtualDie switches between the companion's die and the player's.
func (g *Game) SetVirtualDie(on bool) error {
	return g.change(func() error {
		g.Die.On = on
		return nil
	})
}
