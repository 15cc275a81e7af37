package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"companion/engine"
	"companion/observation"
)

// The position of the examples:
//
//	     1  2  3  4  5
//	A    0  0  0  0  0
//	B    0  0  3  0  0
//	C    0  0  0D 0  0     the dark male on C3, facing north
//	D    0  0  0  0  0
//	E    0B 0  0  0  0B    builders on E1 and E5
func examplePosition() engine.Position {
	p, err := engine.ParsePosition([]byte(`{
		"terrain":  [".....", ".....", ".....", ".....", "....."],
		"levels":   ["00000", "00300", "00000", "00000", "00000"],
		"builders": ["E1", "E5"],
		"enemies":  [{"pawn": "dark-male", "cell": "C3", "facing": "N"}],
		"god": null
	}`))
	if err != nil {
		panic(err)
	}
	return p
}

// The rulebook's roll-5 example: the first advance is blocked by a building,
// the enemy still turns and advances.
func ExampleEnemyTurn() {
	p := examplePosition()
	after, events, res, err := engine.EnemyTurn(p, []int{5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range events {
		fmt.Println(e.Text)
	}
	fmt.Println(after.Enemies[0].Cell, after.Enemies[0].Facing, res.Outcome)
	j, _ := json.Marshal(events[2])
	fmt.Println(string(j))
	// Output:
	// Dark male: keep facing north.
	// Dark male attacks B3: remove its top floor, leaving level 2.
	// Dark male (roll 5): do not advance (B3 is two levels higher), turn clockwise to face east, move to C4.
	// C4 E playing
	// {"phase":"move","pawn":"dark-male","roll":5,"path":["C4"],"facing":"E","blocked":1,"text":"Dark male (roll 5): do not advance (B3 is two levels higher), turn clockwise to face east, move to C4."}
}

func ExamplePlayerTurn() {
	p := examplePosition()
	for _, s := range []string{"E1-D2 C3", "E5-D4 D5"} {
		t, _ := engine.ParseTurn(s)
		after, res, err := engine.PlayerTurn(p, t)
		var re *engine.RuleError
		if errors.As(err, &re) {
			fmt.Printf("%s: illegal, %s: %s\n", t, re.Rule, re.Msg)
			continue
		}
		fmt.Printf("%s: legal, D5 is level %d, %v\n", t, after.Levels[19], res.Outcome)
	}
	// Output:
	// E1-D2 C3: illegal, build-on-enemy-not-lower: C3 (level 0, the dark male) is not lower than D2 (level 0), where the builder stands: a builder builds on an enemy's cell only when that cell is lower than its own.
	// E5-D4 D5: legal, D5 is level 1, playing
}

func ExampleParseTurn() {
	t, err := engine.ParseTurn("b2-c3 c4")
	fmt.Println(t, err)
	_, err = engine.ParseTurn("B2C3 C4")
	fmt.Println(err)
	// Output:
	// B2-C3 C4 <nil>
	// turn "B2C3 C4": the move "B2C3" needs a dash between two cells: want FROM-TO BUILD, like "B2-C3 C4"
}

func ExampleLegalTurns() {
	p := examplePosition()
	turns := engine.LegalTurns(p)
	fmt.Println(len(turns), turns[0])
	// Output:
	// 34 E1-D1 C1
}

func ExampleInferTurn() {
	p := examplePosition()
	seen, _ := observation.Parse([]string{
		"0 0 0 0 0",
		"0 0 3 0 0",
		"0 0 0D 0 0",
		"0B 0 0 0 0",
		"1 0 0 0 0B",
	})
	turns, err := engine.InferTurn(p, seen)
	fmt.Println(turns, err)

	seen[20].Level = 2 // the camera read E1 as level 2
	_, err = engine.InferTurn(p, seen)
	fmt.Println(err)
	// Output:
	// [E1-D1 E1] <nil>
	// no legal turn explains the board; the closest is E1-D1 E1, after which E1 should be level 1, it is level 2
}

func ExampleDiff() {
	p := examplePosition()
	want := p.Board()
	seen := want
	seen[12].Occupant = observation.Light
	seen[7].Level = 2
	for _, line := range engine.Diff(want, seen) {
		fmt.Println(line)
	}
	// Output:
	// B3 should be level 3, it is level 2
	// C3 should have a dark enemy, there is a light enemy
}
