package campaign

import (
	"encoding/json"
	"errors"
	"testing"

	"companion/engine"
	"companion/scenario"
)

// Test positions, each made for one situation.
const (
	// winJSON: the player wins at once with B1-A1 B2 (the enemy on B2,
	// level 0, is lower than A1, level 1).
	winJSON = `{"terrain": [".....", ".....", ".....", ".....", "....."],
	 "levels": ["10000", "10000", "00000", "00000", "00000"],
	 "builders": ["B1", "E5"],
	 "enemies": [{"pawn": "light-female", "cell": "B2", "facing": "E"}]}`
	// targetJSON: the light female faces the target zone B3 with the only
	// building behind it; a 1 walks her in, ending the turn before the dark
	// male moves.
	targetJSON = `{"terrain": [".....", "..T..", ".....", ".....", "....."],
	 "levels": ["00000", "00000", "00100", "00000", "00000"],
	 "builders": ["D1", "D5"],
	 "enemies": [{"pawn": "light-female", "cell": "A3", "facing": "S"},
	             {"pawn": "dark-male", "cell": "E3", "facing": "N"}]}`
	// lastBuildingJSON: the light female's attack knocks down the only
	// building: lost before any die.
	lastBuildingJSON = `{"terrain": [".....", ".....", ".....", ".....", "....."],
	 "levels": ["00000", "00100", "00000", "00000", "00000"],
	 "builders": ["D1", "D5"],
	 "enemies": [{"pawn": "light-female", "cell": "A3", "facing": "S"},
	             {"pawn": "dark-male", "cell": "E3", "facing": "N"}]}`
)

func single(t *testing.T, js string) *Game {
	t.Helper()
	s := scenario.Scenario{Name: "Test", Level: 2, Setup: pos(t, js)}
	g, err := New(Options{Scenario: &s})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

func campaignGame(t *testing.T, d Difficulty) *Game {
	t.Helper()
	g, err := New(Options{Difficulty: d})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(data)
}

func countPhase(events []engine.Event, ph engine.Phase) int {
	n := 0
	for _, e := range events {
		if e.Phase == ph {
			n++
		}
	}
	return n
}

func TestNewCampaignStartsAtScenario1(t *testing.T) {
	g := campaignGame(t, Expert)
	s1, _ := scenario.Get(1)
	if g.Kind != KindCampaign || g.Scenario.Number != 1 || g.Attempt != 1 || g.Round != 1 || g.Step != StepEnemyTurn {
		t.Fatalf("new campaign = %s scenario %d attempt %d round %d step %s", g.Kind, g.Scenario.Number, g.Attempt, g.Round, g.Step)
	}
	if g.Difficulty != Expert {
		t.Errorf("difficulty = %s, want expert", g.Difficulty)
	}
	if mustJSON(t, g.Position) != mustJSON(t, s1.Setup) {
		t.Errorf("position is not scenario 1's setup")
	}
}

func TestNewRejects(t *testing.T) {
	won := scenario.Scenario{Name: "No enemy", Setup: pos(t, `{"terrain": [".....", ".....", ".....", ".....", "....."],
	 "levels": ["10000", "00000", "00000", "00000", "00000"], "builders": ["B1"], "enemies": []}`)}
	tests := []struct {
		name string
		o    Options
	}{
		{"a scenario already won at setup", Options{Scenario: &won}},
		{"an unknown difficulty", Options{Difficulty: "hard"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.o); err == nil {
				t.Errorf("New accepted %s", tt.name)
			}
		})
	}
}

// The enemy turn takes its dice one at a time, showing each move as its die
// comes in, and ends exactly as engine.EnemyTurn with all the dice.
func TestEnemyTurnDiceOneAtATime(t *testing.T) {
	g := campaignGame(t, Normal)
	if err := g.Continue(); err == nil {
		t.Errorf("Continue during an enemy turn succeeded")
	}
	// Scenario 2 has two enemies.
	s2, _ := scenario.Get(2)
	g.Scenario = ScenarioInfo{Number: 2, Name: s2.Name, Level: s2.Level, Setup: s2.Setup}
	g.Position = s2.Setup.Clone()
	n := len(g.Position.Enemies)
	if n != 2 {
		t.Fatalf("scenario 2 has %d enemies; this test wants 2", n)
	}
	dice := []int{3, 5}
	for i, d := range dice {
		v, err := g.EnemyTurn()
		if err != nil {
			t.Fatalf("EnemyTurn: %v", err)
		}
		if v.Next != i {
			t.Fatalf("before die %d: Next = %d, want %d", i+1, v.Next, i)
		}
		if got := countPhase(v.Events, engine.PhaseMove); got != i {
			t.Errorf("before die %d: %d move events told, want %d", i+1, got, i)
		}
		if got := countPhase(v.Events, engine.PhaseAttack); got != n {
			t.Errorf("before die %d: %d attack events, want %d (attacks need no die)", i+1, got, n)
		}
		if _, err := g.ResolveEnemyTurn(); err == nil {
			t.Errorf("ResolveEnemyTurn with %d of %d dice succeeded", i, n)
		}
		if err := g.EnterDie(d); err != nil {
			t.Fatalf("EnterDie(%d): %v", d, err)
		}
	}
	if err := g.EnterDie(4); err == nil {
		t.Errorf("a third die for two enemies was accepted")
	}
	want, wantEvents, wantRes, err := engine.EnemyTurn(s2.Setup, dice)
	if err != nil {
		t.Fatal(err)
	}
	v, err := g.ResolveEnemyTurn()
	if err != nil {
		t.Fatalf("ResolveEnemyTurn: %v", err)
	}
	if mustJSON(t, v.Events) != mustJSON(t, wantEvents) {
		t.Errorf("events differ from engine.EnemyTurn's:\n got %s\nwant %s", mustJSON(t, v.Events), mustJSON(t, wantEvents))
	}
	if mustJSON(t, g.Position) != mustJSON(t, want) {
		t.Errorf("position differs from engine.EnemyTurn's")
	}
	wantStep := StepPlayerTurn
	if wantRes.Outcome == engine.Lost {
		wantStep = StepLost
	}
	if g.Step != wantStep || len(g.Dice) != 0 {
		t.Errorf("after the turn: step %s dice %v, want %s and no dice", g.Step, g.Dice, wantStep)
	}
	again, err := g.LastEnemyTurnEvents()
	if err != nil || mustJSON(t, again) != mustJSON(t, wantEvents) {
		t.Errorf("LastEnemyTurnEvents = %s, %v; want the turn's events", mustJSON(t, again), err)
	}
}

func TestEnterDieRejects(t *testing.T) {
	for _, d := range []int{0, 7, -1} {
		g := single(t, targetJSON)
		if err := g.EnterDie(d); err == nil {
			t.Errorf("EnterDie(%d) accepted", d)
		}
		if len(g.Dice) != 0 {
			t.Errorf("EnterDie(%d) recorded %v", d, g.Dice)
		}
	}
}

// A loss ends the enemy turn at once: no die is asked for the enemies after.
func TestLossEndsTheDiceEarly(t *testing.T) {
	tests := []struct {
		name      string
		setup     string
		dice      []int // entered before the turn is complete
		moveTexts int
	}{
		{"loss in the first enemy's move: one die for two enemies", targetJSON, []int{1}, 1},
		{"loss in the attack: no die at all", lastBuildingJSON, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := single(t, tt.setup)
			for _, d := range tt.dice {
				if err := g.EnterDie(d); err != nil {
					t.Fatalf("EnterDie(%d): %v", d, err)
				}
			}
			v, err := g.EnemyTurn()
			if err != nil {
				t.Fatal(err)
			}
			if v.Next != -1 || v.Result.Outcome != engine.Lost {
				t.Fatalf("after dice %v: Next %d, outcome %v; want a complete, lost turn", tt.dice, v.Next, v.Result.Outcome)
			}
			if got := countPhase(v.Events, engine.PhaseMove); got != tt.moveTexts {
				t.Errorf("%d move events, want %d", got, tt.moveTexts)
			}
			if _, err := g.ResolveEnemyTurn(); err != nil {
				t.Fatal(err)
			}
			if g.Step != StepLost || g.Reason == "" {
				t.Fatalf("step %s reason %q, want scenario-lost with a reason", g.Step, g.Reason)
			}
			if g.CanUndo() {
				t.Errorf("undo offered with no player turn played")
			}
			if err := g.Continue(); err != nil {
				t.Fatal(err)
			}
			if g.Step != StepEnemyTurn || g.Attempt != 2 || g.Round != 1 || g.Outcome != engine.Playing || g.LastEnemyTurn != nil {
				t.Errorf("after Continue: step %s attempt %d round %d outcome %v; want a fresh attempt 2", g.Step, g.Attempt, g.Round, g.Outcome)
			}
			if mustJSON(t, g.Position) != mustJSON(t, g.Scenario.Setup) {
				t.Errorf("the board was not reset to the setup")
			}
		})
	}
	// The same board with a die that keeps her off the target asks for the
	// dark male's die too.
	g := single(t, targetJSON)
	if err := g.EnterDie(3); err != nil {
		t.Fatal(err)
	}
	if v, _ := g.EnemyTurn(); v.Next != 1 {
		t.Errorf("after a safe die, Next = %d, want 1 (the dark male)", v.Next)
	}
}

// playerStep puts g at the player's turn on the board js.
func playerStep(t *testing.T, g *Game, js string) {
	t.Helper()
	g.Position = pos(t, js)
	g.Step = StepPlayerTurn
}

func TestPlayerTurn(t *testing.T) {
	g := single(t, winJSON)
	if err := g.PlayerTurn(engine.Turn{From: 5, To: 0, Build: 6}); err == nil {
		t.Fatalf("a player turn during the enemy turn was accepted")
	}
	playerStep(t, g, winJSON)
	before := mustJSON(t, g)
	// B1-D1: not adjacent.
	err := g.PlayerTurn(engine.Turn{From: engine.CellAt(1, 0), To: engine.CellAt(3, 0), Build: engine.CellAt(3, 1)})
	var re *engine.RuleError
	if !errors.As(err, &re) || re.Rule != engine.RuleMoveNotAdjacent {
		t.Fatalf("illegal turn: %v, want a RuleError %s", err, engine.RuleMoveNotAdjacent)
	}
	if mustJSON(t, g) != before {
		t.Errorf("an illegal turn changed the game")
	}
	// E5-E4 D4: legal, the game goes on with the next round's enemy turn.
	if err := g.PlayerTurn(engine.Turn{From: engine.CellAt(4, 4), To: engine.CellAt(4, 3), Build: engine.CellAt(3, 3)}); err != nil {
		t.Fatal(err)
	}
	if g.Step != StepEnemyTurn || g.Round != 2 || !g.CanUndo() {
		t.Errorf("after a turn: step %s round %d undo %v; want enemy-turn, round 2, undo", g.Step, g.Round, g.CanUndo())
	}
}

func TestUndo(t *testing.T) {
	g := campaignGame(t, Normal)
	if _, err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("Undo on a fresh game: %v, want ErrNothingToUndo", err)
	}
	if _, err := g.ResolveEnemyTurn(); err == nil {
		t.Fatal("ResolveEnemyTurn with no die in succeeded")
	}
	for g.Step == StepEnemyTurn {
		if err := g.EnterDie(2); err != nil {
			t.Fatal(err)
		}
		if v, _ := g.EnemyTurn(); v.Next < 0 {
			if _, err := g.ResolveEnemyTurn(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if g.Step != StepPlayerTurn {
		t.Fatalf("scenario 1's first enemy turn ended at %s", g.Step)
	}
	turns := engine.LegalTurns(g.Position)
	if len(turns) == 0 {
		t.Fatal("no legal turn")
	}
	atPlayer := mustJSON(t, g)
	if err := g.PlayerTurn(turns[0]); err != nil {
		t.Fatal(err)
	}
	if g.Step != StepEnemyTurn {
		t.Skipf("the turn ended the scenario (%s)", g.Step)
	}
	// Undo with a die already in: the die goes too.
	if err := g.EnterDie(1); err != nil {
		t.Fatal(err)
	}
	turn, err := g.Undo()
	if err != nil {
		t.Fatal(err)
	}
	if turn != turns[0].String() {
		t.Errorf("Undo gave back %q, want %q", turn, turns[0])
	}
	if mustJSON(t, g) != atPlayer {
		t.Errorf("undo did not restore the game before the turn:\n got %s\nwant %s", mustJSON(t, g), atPlayer)
	}
	if _, err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("a second Undo: %v, want ErrNothingToUndo", err)
	}
	// Undo after the enemy turn that followed takes both back.
	if err := g.PlayerTurn(turns[0]); err != nil {
		t.Fatal(err)
	}
	for g.Step == StepEnemyTurn {
		if v, _ := g.EnemyTurn(); v.Next < 0 {
			if _, err := g.ResolveEnemyTurn(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := g.EnterDie(1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if mustJSON(t, g) != atPlayer {
		t.Errorf("undo after the enemy turn did not restore the game before the player's turn")
	}
}

func TestWinScoresAndUndoUnscores(t *testing.T) {
	g := single(t, winJSON)
	playerStep(t, g, winJSON)
	win := engine.Turn{From: engine.CellAt(1, 0), To: engine.CellAt(0, 0), Build: engine.CellAt(1, 1)}
	if err := g.PlayerTurn(win); err != nil {
		t.Fatal(err)
	}
	if g.Step != StepWon || g.Outcome != engine.Won || len(g.Scores) != 1 {
		t.Fatalf("after the winning turn: step %s outcome %v scores %d", g.Step, g.Outcome, len(g.Scores))
	}
	// Level 2, first attempt, both builders: 2 + 2 + 2.
	if got := g.Scores[0].Points; got != 6 || g.Total() != 6 {
		t.Errorf("score %d total %d, want 6", got, g.Total())
	}
	if _, err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Step != StepPlayerTurn || len(g.Scores) != 0 {
		t.Errorf("undo of the win: step %s scores %d, want player-turn and no score", g.Step, len(g.Scores))
	}
	if err := g.PlayerTurn(win); err != nil {
		t.Fatal(err)
	}
	if err := g.Continue(); err != nil {
		t.Fatal(err)
	}
	if g.Step != StepFinished || g.CanUndo() {
		t.Errorf("a won single scenario goes to %s (undo %v), want finished", g.Step, g.CanUndo())
	}
	if g.DifficultyPoints() != 0 {
		t.Errorf("a single scenario got difficulty points")
	}
}

// A won campaign scenario leads to the next; the sixth ends the campaign
// with the difficulty's points.
func TestCampaignAdvancesAndEnds(t *testing.T) {
	tests := []struct {
		d     Difficulty
		total int
		rank  string
	}{
		{Normal, 24, "Assistant"},
		{Expert, 26, "Assistant"},
		{Easy, 22, "Assistant"},
	}
	for _, tt := range tests {
		t.Run(string(tt.d), func(t *testing.T) {
			g := campaignGame(t, tt.d)
			for n := 1; n <= scenario.Count; n++ {
				if g.Scenario.Number != n || g.Attempt != 1 || g.Step != StepEnemyTurn {
					t.Fatalf("scenario %d: at scenario %d attempt %d step %s", n, g.Scenario.Number, g.Attempt, g.Step)
				}
				s, _ := scenario.Get(n)
				if mustJSON(t, g.Position) != mustJSON(t, s.Setup) {
					t.Fatalf("scenario %d: board is not its setup", n)
				}
				// Pretend the scenario was won with one bonus: the level
				// + 2, so 12 + 6*2 = 24 over the campaign's levels 0, 1, 2, 2, 3, 4.
				g.Step, g.Outcome = StepWon, engine.Won
				g.Scores = append(g.Scores, ScenarioScore{Scenario: n, Level: s.Level, Points: s.Level + 2})
				if err := g.Continue(); err != nil {
					t.Fatal(err)
				}
			}
			if g.Step != StepFinished {
				t.Fatalf("after scenario 6: step %s, want finished", g.Step)
			}
			if g.Total() != tt.total || Rank(g.Total()) != tt.rank {
				t.Errorf("total %d rank %s, want %d %s", g.Total(), Rank(g.Total()), tt.total, tt.rank)
			}
			if err := g.Continue(); err == nil {
				t.Errorf("Continue after the end succeeded")
			}
		})
	}
}

func TestVirtualDieIsReproducible(t *testing.T) {
	var rolls [2][]int
	for i := range rolls {
		g := single(t, targetJSON)
		g.Die = VirtualDie{On: true, Seed: 42}
		for g.Step == StepEnemyTurn {
			v, err := g.EnemyTurn()
			if err != nil {
				t.Fatal(err)
			}
			if v.Next < 0 {
				break
			}
			d, err := g.RollVirtualDie()
			if err != nil {
				t.Fatal(err)
			}
			if d < 1 || d > 6 {
				t.Fatalf("virtual die rolled %d", d)
			}
			rolls[i] = append(rolls[i], d)
		}
	}
	if mustJSON(t, rolls[0]) != mustJSON(t, rolls[1]) {
		t.Errorf("same seed, different rolls: %v", rolls)
	}
	seen := map[int]bool{}
	for n := 0; n < 200; n++ {
		seen[virtualRoll(7, n)] = true
	}
	if len(seen) != 6 {
		t.Errorf("200 rolls showed faces %v, want all six", seen)
	}
}
