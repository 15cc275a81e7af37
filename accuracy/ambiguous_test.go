package accuracy

import (
	"errors"
	"testing"

	"companion/observation"
	"companion/sim"
)

// TestTwins: a cell in sight has no twins; a cell that has them comes
// first among them and every twin is out of sight too; on twenty boards
// some cell has them.
func TestTwins(t *testing.T) {
	found := 0
	for seed := int64(5000); seed < 5020; seed++ {
		s := sim.RandomScene(seed)
		sight := sim.Sight(s)
		for i := range s.Board {
			tw := twins(s, i, sight[i])
			if tw == nil {
				continue
			}
			found++
			if !outOfSight(sight[i]) {
				t.Errorf("seed %d cell %d is in sight (%+v) yet has twins %v", seed, i, sight[i], tw)
			}
			if len(tw) < 2 || tw[0] != s.Board[i] {
				t.Fatalf("seed %d cell %d: twins %v: want its token %s first and another", seed, i, tw, s.Board[i])
			}
			for _, tok := range tw[1:] {
				alt := s
				alt.Board[i] = tok
				if c := sim.Sight(alt)[i]; !outOfSight(c) {
					t.Errorf("seed %d cell %d: twin %s is in sight (%+v)", seed, i, tok, c)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no cell of 5000-5019 has twins: the test shows nothing")
	}
}

// TestGuessTwins: each twinned cell is guessed as the commonest token of
// its twins over all the samples' cells, and counted on its board.
func TestGuessTwins(t *testing.T) {
	sq := func(tok string) observation.Square {
		s, err := observation.ParseSquare(tok)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	var bare, withPawn, blockOne observation.Board
	for i := range bare {
		bare[i], withPawn[i], blockOne[i] = sq("0"), sq("0"), sq("0")
	}
	withPawn[3] = sq("0B")
	blockOne[7] = sq("1")
	samples := []Sample{
		{Truth: bare},     // no twins
		{Truth: withPawn}, // its pawn hidden: guessed bare, wrong
		{Truth: blockOne}, // two twinned cells, the bare one right, the block wrong
		{Truth: bare},     // twinned and bare: right
	}
	samples[1].Twins[3] = []observation.Square{sq("0B"), sq("0"), sq("0L")}
	samples[2].Twins[7] = []observation.Square{sq("1"), sq("0")}
	samples[2].Twins[8] = []observation.Square{sq("0"), sq("1")}
	samples[3].Twins[0] = []observation.Square{sq("0"), sq("0D")}
	cells, boards, wrong, wrongBoards := guessTwins(samples)
	if cells != 4 || boards != 3 || wrong != 2 || wrongBoards != 2 {
		t.Errorf("twinned %d cells on %d boards, %d and %d guessed wrong: want 4 on 3, 2 and 2", cells, boards, wrong, wrongBoards)
	}
	// The reader: right on the first two boards, the block read bare on
	// the third, the fourth board not read.
	samples[0].Read, samples[1].Read, samples[2].Read = bare, withPawn, bare
	samples[3].Err = errors.New("no grid")
	rep := Report{Samples: samples}
	rep.summarise()
	if rep.TwinsRead != 2 {
		t.Errorf("the reader read %d twinned cells wrong: want 2", rep.TwinsRead)
	}
	for k, want := range []int{0, 1, 1, 0} {
		if got := rep.Samples[k].TwinsGuessedWrong; got != want {
			t.Errorf("board %d: %d twinned cells guessed wrong, want %d", k, got, want)
		}
	}
	if rep.All.CeilingPerfect != 2 {
		t.Errorf("%d boards perfect at the ceiling: want 2", rep.All.CeilingPerfect)
	}
}
