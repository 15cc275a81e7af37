package main

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"companion/campaign"
	"companion/engine"
	"companion/scenario"
)

// errUndone says the player took a turn back: the game's step changed, so
// the session dispatches again from the top.
var errUndone = errors.New("undone")

// sessionConfig is how a session talks and where its game is saved.
type sessionConfig struct {
	style    boardStyle
	savePath string
	resume   string // the command that resumes this game

	watchInterrupt bool // Ctrl-C says how to resume (off in tests: it exits)
}

// session is one sitting at the table: it drives a campaign.Game through
// the player's streams. All the game's state is in the Game (and its save
// file); the session only remembers what it has already said.
type session struct {
	io    *streams
	lines *bufio.Scanner
	g     *campaign.Game
	cfg   sessionConfig

	intro  string       // the scenario attempt last introduced
	shown  int          // events of the enemy turn in progress already told
	phase  engine.Phase // phase of the last event told
	keyed  bool         // the board's key has been shown
	resume bool         // this sitting resumes a saved game
}

func newSession(io *streams, g *campaign.Game, cfg sessionConfig) *session {
	return &session{io: io, lines: bufio.NewScanner(io.In), g: g, cfg: cfg}
}

// run plays until the game is finished or the player quits.
func (s *session) run(resuming bool) error {
	s.resume = resuming
	if s.cfg.watchInterrupt {
		defer onInterrupt(s.io, s.cfg.savePath, s.cfg.resume)()
	}
	if resuming {
		s.say("Resuming the game saved in %s.", s.cfg.savePath)
	}
	for {
		var err error
		switch s.g.Step {
		case campaign.StepEnemyTurn:
			s.introduce()
			err = s.enemyTurn()
		case campaign.StepPlayerTurn:
			s.introduce()
			err = s.playerTurn()
		case campaign.StepWon, campaign.StepLost:
			err = s.scenarioOver()
		case campaign.StepFinished:
			s.finished()
			return nil
		default:
			return fmt.Errorf("the saved game is at an unknown step %q", s.g.Step)
		}
		switch {
		case errors.Is(err, errQuit):
			s.say("\nGame saved in %s. To go on, run: %s", s.cfg.savePath, s.cfg.resume)
			return nil
		case errors.Is(err, errUndone):
			continue
		case err != nil:
			return err
		}
	}
}

// introduce announces a scenario attempt once, with its board at setup.
func (s *session) introduce() {
	g := s.g
	key := fmt.Sprintf("%d %q %d", g.Scenario.Number, g.Scenario.Name, g.Attempt)
	if key == s.intro {
		return
	}
	s.intro = key
	game := string(g.Difficulty) + " game"
	if g.Kind == campaign.KindCampaign {
		s.say("\n== Campaign (%s), scenario %d of %d: %q, level %d. Attempt %d. ==",
			game, g.Scenario.Number, scenario.Count, g.Scenario.Name, g.Scenario.Level, g.Attempt)
	} else {
		s.say("\n== %s (%s), level %d. Attempt %d. ==", capitalize(g.Scenario.Title()), game, g.Scenario.Level, g.Attempt)
	}
	if g.Scenario.About != "" {
		s.say("%s", g.Scenario.About)
	}
	if g.Step != campaign.StepEnemyTurn {
		// A resumed player turn: repeat the enemy turn the player may not
		// have finished applying; playerTurn draws the board.
		if s.resume && g.LastEnemyTurn != nil {
			if events, err := g.LastEnemyTurnEvents(); err == nil {
				s.say("The last enemy turn was:")
				s.phase = ""
				s.tell(events)
				s.phase = ""
			}
		}
		return
	}
	if g.Round == 1 && len(g.Dice) == 0 {
		s.say("Set up the board like this. The enemies play first.")
	}
	s.drawBoard()
}

// enemyTurn tells the enemy turn, asking a die for each enemy in order,
// then applies it.
func (s *session) enemyTurn() error {
	g := s.g
	v, err := g.EnemyTurn()
	if err != nil {
		return err
	}
	if s.shown == 0 {
		s.say("\nRound %d: the enemies' turn.", g.Round)
	}
	s.tellNew(v.Events)
	for v.Next >= 0 {
		pawn, _ := v.NextPawn(g.Position)
		if s.phase != engine.PhaseMove {
			s.say("Movement:")
			s.phase = engine.PhaseMove
		}
		if g.Die.On {
			d, err := g.RollVirtualDie()
			if err != nil {
				return err
			}
			s.say("  The die for the %s: %d.", pawn.Title(), d)
		} else {
			d, err := s.askDie(pawn)
			if err != nil {
				return err
			}
			if err := g.EnterDie(d); err != nil {
				return err
			}
		}
		if v, err = g.EnemyTurn(); err != nil {
			return err
		}
		s.tellNew(v.Events)
	}
	if _, err := g.ResolveEnemyTurn(); err != nil {
		return err
	}
	s.shown, s.phase = 0, ""
	return nil
}

// askDie asks the number the physical die shows for pawn.
func (s *session) askDie(pawn engine.Pawn) (int, error) {
	for {
		line, err := s.ask(fmt.Sprintf("Roll the die for the %s (1-6): ", pawn.Title()))
		if err != nil {
			return 0, err
		}
		if done, err := s.command(line); done {
			if err != nil {
				return 0, err
			}
			continue
		}
		if d, err := strconv.Atoi(line); err == nil && d >= 1 && d <= 6 {
			return d, nil
		}
		s.say("  %q is not a die: type the number it shows, 1 to 6 (or help).", line)
	}
}

// playerTurn asks for the player's turn until a legal one is typed.
func (s *session) playerTurn() error {
	s.say("\nRound %d: your turn.", s.g.Round)
	s.drawBoard()
	for {
		line, err := s.ask("Your turn, FROM-TO BUILD (like B2-C3 C4): ")
		if err != nil {
			return err
		}
		if done, err := s.command(line); done {
			if err != nil {
				return err
			}
			continue
		}
		if line == "" {
			continue
		}
		t, err := engine.ParseTurn(line)
		if err != nil {
			s.say("  Not a turn: %v (or type help).", err)
			continue
		}
		err = s.g.PlayerTurn(t)
		var re *engine.RuleError
		if errors.As(err, &re) {
			s.say("  Not allowed: %s Try another turn.", re.Msg)
			continue
		}
		return err
	}
}

// scenarioOver tells the end of a scenario and moves on when the player is
// ready (the board at the table has to be set up again).
func (s *session) scenarioOver() error {
	g := s.g
	var prompt string
	if g.Step == campaign.StepWon {
		sc := g.Scores[len(g.Scores)-1]
		s.say("\n%s is won: %s.", capitalize(g.Scenario.Title()), g.Reason)
		s.say("  Level %d: %d points", sc.Level, sc.Level)
		for _, b := range sc.Bonuses {
			s.say("  %s: +%d", b, campaign.BonusPoints)
		}
		s.say("  Score: %d points (won on attempt %d).", sc.Points, sc.Attempts)
		prompt = "Press Enter for the final score: "
		if g.Kind == campaign.KindCampaign {
			s.say("  Campaign so far: %d points.", g.Points())
			if g.Scenario.Number < scenario.Count {
				prompt = fmt.Sprintf("Press Enter to set up scenario %d: ", g.Scenario.Number+1)
			}
		}
	} else {
		s.say("\n%s is lost: %s.", capitalize(g.Scenario.Title()), g.Reason)
		prompt = fmt.Sprintf("Press Enter to set the scenario up again for attempt %d: ", g.Attempt+1)
	}
	for {
		line, err := s.ask(prompt)
		if err != nil {
			return err
		}
		done, err := s.command(line)
		if err != nil {
			return err
		}
		if !done {
			break
		}
	}
	return g.Continue()
}

// finished tells the final score.
func (s *session) finished() {
	g := s.g
	if g.Kind != campaign.KindCampaign {
		s.say("\nThe game is over: %d points.", g.Total())
		return
	}
	s.say("\nThe campaign is complete!")
	for _, sc := range g.Scores {
		bonuses := "no bonus"
		if len(sc.Bonuses) > 0 {
			bonuses = strings.Join(sc.Bonuses, ", ")
		}
		s.say("  Scenario %d %q: %d points (attempt %d; %s)", sc.Scenario, sc.Name, sc.Points, sc.Attempts, bonuses)
	}
	switch d := g.DifficultyPoints(); {
	case d > 0:
		s.say("  Expert game: +%d", d)
	case d < 0:
		s.say("  Easy game: %d", d)
	}
	s.say("  Total: %d points. Rank: %s.", g.Total(), campaign.Rank(g.Total()))
}

// command runs the words that work at any prompt; done is false when line
// is not one of them.
func (s *session) command(line string) (done bool, err error) {
	switch strings.ToLower(line) {
	case "quit", "exit", "q":
		return true, errQuit
	case "board", "b":
		s.keyed = false
		s.drawBoard()
		if s.g.Step == campaign.StepEnemyTurn {
			s.say("   (as at the start of this enemy turn)")
		}
		return true, nil
	case "help", "h", "?":
		s.help()
		return true, nil
	case "undo", "u":
		enemyTurnToo := s.g.Step != campaign.StepEnemyTurn
		turn, err := s.g.Undo()
		if errors.Is(err, campaign.ErrNothingToUndo) {
			s.say("  Nothing to undo: only your last turn can be taken back, once, until the scenario ends.")
			return true, nil
		}
		if err != nil {
			return true, err
		}
		if enemyTurnToo {
			s.say("\nTook back your turn %s and the enemy turn after it. Put the pieces back as shown.", turn)
		} else {
			s.say("\nTook back your turn %s. Put the pieces back as shown.", turn)
		}
		s.shown, s.phase = 0, ""
		return true, errUndone
	}
	return false, nil
}

func (s *session) help() {
	s.say(`
At any prompt you can type:
  undo   take back your last turn (and the enemy turn after it)
  board  draw the board again
  help   this help
  quit   stop; the game is saved, and %s goes on
Your turn is FROM-TO BUILD: B2-C3 C4 moves your builder from B2 to C3, then
builds on C4. For a die, type the number it shows, 1 to 6.`, s.cfg.resume)
}

// tellNew tells the events not told yet.
func (s *session) tellNew(events []engine.Event) {
	if s.shown < len(events) {
		s.tell(events[s.shown:])
		s.shown = len(events)
	}
}

// tell tells events in plain words, under a heading for each phase.
func (s *session) tell(events []engine.Event) {
	for _, e := range events {
		if e.Phase != s.phase {
			s.say("%s:", phaseHeading(e.Phase))
			s.phase = e.Phase
		}
		s.say("  %s", e.Text)
	}
}

func phaseHeading(p engine.Phase) string {
	switch p {
	case engine.PhaseOrientation:
		return "Orientation"
	case engine.PhaseAttack:
		return "Attack"
	case engine.PhaseMove:
		return "Movement"
	}
	return capitalize(string(p))
}

func (s *session) drawBoard() {
	drawBoard(s.io.Out, s.g.Position, s.cfg.style)
	if !s.keyed {
		fmt.Fprint(s.io.Out, legend(s.cfg.style))
		s.keyed = true
	}
}

// ask prints prompt and reads one line, trimmed. The end of the input is a
// quit: the game is saved after every step, so nothing is lost.
func (s *session) ask(prompt string) (string, error) {
	fmt.Fprint(s.io.Out, prompt)
	if !s.lines.Scan() {
		fmt.Fprintln(s.io.Out)
		if err := s.lines.Err(); err != nil {
			return "", fmt.Errorf("reading your answer: %w", err)
		}
		return "", errQuit
	}
	line := strings.TrimSpace(s.lines.Text())
	if !s.io.InTTY {
		// Nobody's typing was echoed: show the answer so the transcript reads.
		fmt.Fprintln(s.io.Out, line)
	}
	return line, nil
}

func (s *session) say(format string, args ...any) {
	fmt.Fprintf(s.io.Out, format+"\n", args...)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
