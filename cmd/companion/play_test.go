package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/campaign"
	"companion/engine"
	"companion/scenario"
)

// pickTurn plays like a careful player: defeat an enemy if possible, else
// the legal turn least likely to lose in the next enemy turn (over every
// roll of the dice), standing as high as possible. Deterministic, so a
// resumed game picks what an uninterrupted one would.
func pickTurn(t *testing.T, p engine.Position) engine.Turn {
	t.Helper()
	turns := engine.LegalTurns(p)
	if len(turns) == 0 {
		t.Fatalf("no legal turn in %s", mustMarshal(p))
	}
	best, bestLoss, bestHeight := turns[0], 2.0, -1
	for _, tn := range turns {
		if p.EnemyAt(tn.Build) >= 0 {
			return tn
		}
		after, _, err := engine.PlayerTurn(p, tn)
		if err != nil {
			t.Fatalf("a legal turn %v is refused: %v", tn, err)
		}
		loss := lossChance(after)
		height := 0
		for _, b := range after.Builders {
			height += int(after.Levels[b])
		}
		if loss < bestLoss || loss == bestLoss && height > bestHeight {
			best, bestLoss, bestHeight = tn, loss, height
		}
	}
	return best
}

// lossChance is the chance the next enemy turn loses the scenario.
func lossChance(p engine.Position) float64 {
	n := len(p.Enemies)
	if n > 2 {
		n = 2 // only the first two enemies' dice vary: enough, and fast
	}
	dice := make([]int, len(p.Enemies))
	lost, total := 0, 0
	var try func(i int)
	try = func(i int) {
		if i == n {
			for j := n; j < len(dice); j++ {
				dice[j] = 1
			}
			if _, _, r, err := engine.EnemyTurn(p, dice); err == nil && r.Outcome == engine.Lost {
				lost++
			}
			total++
			return
		}
		for d := 1; d <= 6; d++ {
			dice[i] = d
			try(i + 1)
		}
	}
	try(0)
	return float64(lost) / float64(total)
}

// tablePlayer is the player at the keyboard: each time the companion reads,
// it looks at the saved game (so every prompt must come after a save) and
// types what the game waits for. Dice come from the state, so they are the
// same however often the game is interrupted.
type tablePlayer struct {
	t     *testing.T
	save  string
	extra []string // typed first, at the first player turn
	limit int      // lines before the end of the input (0: no limit)
	typed []string
	buf   []byte
}

func (p *tablePlayer) Read(b []byte) (int, error) {
	if len(p.buf) == 0 {
		if p.limit > 0 && len(p.typed) >= p.limit {
			return 0, io.EOF
		}
		line := p.next()
		p.typed = append(p.typed, line)
		p.buf = []byte(line + "\n")
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

func (p *tablePlayer) next() string {
	g, err := campaign.NewStore(p.save).Load()
	if err != nil {
		p.t.Fatalf("the companion asks for input but the save does not load: %v", err)
	}
	switch g.Step {
	case campaign.StepPlayerTurn:
		if len(p.extra) > 0 {
			line := p.extra[0]
			p.extra = p.extra[1:]
			return line
		}
		return pickTurn(p.t, g.Position).String()
	case campaign.StepEnemyTurn:
		return strconv.Itoa((g.Round*7+g.Attempt*3+len(g.Dice)*5+g.Scenario.Number)%6 + 1)
	}
	return "" // Enter, after a scenario
}

// playCLI runs the companion with the player at the keyboard.
func playCLI(t *testing.T, player *tablePlayer, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	io, _, out, errOut := testStreams()
	io.In = player
	code = run(args, io)
	return code, out.String(), errOut.String()
}

func loadSave(t *testing.T, path string) *campaign.Game {
	t.Helper()
	g, err := campaign.NewStore(path).Load()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A whole scenario played through stdin, with the companion's die, from the
// first enemy turn to the final score, with every prompt word tried.
func TestPlayScenarioThroughStdin(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.json")
	player := &tablePlayer{t: t, save: save, limit: 2000,
		extra: []string{"help", "board", "Z9-C3 A1", "A1-A2 A3", "", "undo"}}
	code, out, errOut := playCLI(t, player, "play", "--manual", "--scenario", "1", "--virtual-die", "--seed", "3", "--save", save)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	g := loadSave(t, save)
	if g.Step != campaign.StepFinished {
		t.Fatalf("the game stopped at %s after %d lines:\n%s", g.Step, len(player.typed), tail(out))
	}
	for _, want := range []string{
		"Scenario 1 \"The Bridge\"",
		"Set up the board like this. The enemies play first.",
		"Orientation:", "Attack:", "Movement:", "The die for the Light female: ",
		"At any prompt you can type",             // help
		"Not a turn: ",                           // Z9-C3 A1
		"Not allowed: there is no builder on A1", // A1-A2 A3
		"Nothing to undo",                        // undo before any turn
		"is won: the last enemy is defeated",     // the end
		"Score: ", "The game is over: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	sc := g.Scores[0]
	if g.Total() != sc.Points || !strings.Contains(out, "The game is over: "+strconv.Itoa(sc.Points)+" points.") {
		t.Errorf("final score %d, scores %+v", g.Total(), g.Scores)
	}
	for _, b := range sc.Bonuses {
		if !strings.Contains(out, b+": +2") {
			t.Errorf("bonus %q not announced", b)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour codes in output that is not a terminal")
	}
}

// The whole campaign, six scenarios, to the rank.
func TestPlayCampaignThroughStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole campaign: a few seconds of saves")
	}
	save := filepath.Join(t.TempDir(), "game.json")
	player := &tablePlayer{t: t, save: save, limit: 5000}
	code, out, errOut := playCLI(t, player, "play", "--manual", "--expert", "--save", save)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	g := loadSave(t, save)
	if g.Step != campaign.StepFinished || len(g.Scores) != scenario.Count {
		t.Fatalf("stopped at %s with %d scores:\n%s", g.Step, len(g.Scores), tail(out))
	}
	for n := 1; n <= scenario.Count; n++ {
		if !strings.Contains(out, "scenario "+strconv.Itoa(n)+" of 6") {
			t.Errorf("scenario %d never introduced", n)
		}
	}
	for _, sc := range g.Scores {
		if sc.Attempts > 1 && !strings.Contains(out, "Press Enter to set the scenario up again for attempt "+strconv.Itoa(sc.Attempts)) {
			t.Errorf("scenario %d took %d attempts, but no replay was announced", sc.Scenario, sc.Attempts)
		}
	}
	t.Logf("attempts: %v", attempts(g))
	want := "Total: " + strconv.Itoa(g.Points()+2) + " points. Rank: " + campaign.Rank(g.Points()+2) + "."
	if !strings.Contains(out, "The campaign is complete!") || !strings.Contains(out, "Expert game: +2") || !strings.Contains(out, want) {
		t.Errorf("the end of the campaign lacks %q:\n%s", want, tail(out))
	}
}

// Quit (or lose the input) at any prompt and resume, again and again: the
// game ends exactly as an uninterrupted one.
func TestInterruptedGameEqualsUninterrupted(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	code, out, errOut := playCLI(t, &tablePlayer{t: t, save: whole, limit: 2000}, "play", "--manual", "--scenario", "6", "--seed", "1", "--save", whole)
	if code != 0 || loadSave(t, whole).Step != campaign.StepFinished {
		t.Fatalf("uninterrupted game: exit %d %s\n%s", code, errOut, tail(out))
	}

	cut := filepath.Join(dir, "cut.json")
	args := []string{"play", "--manual", "--scenario", "6", "--seed", "1", "--save", cut}
	for i := 0; i < 2000; i++ {
		// 1, 2 or 3 lines per sitting, then the input ends.
		code, out, errOut := playCLI(t, &tablePlayer{t: t, save: cut, limit: i%3 + 1}, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("sitting %d: exit %d, stderr %q\n%s", i, code, errOut, tail(out))
		}
		if loadSave(t, cut).Step == campaign.StepFinished {
			break
		}
		if i > 0 && !strings.Contains(out, "Resuming the game saved in "+cut) {
			t.Fatalf("sitting %d does not say it resumes:\n%s", i, out)
		}
		if !strings.Contains(out, "Game saved in "+cut+". To go on, run: companion resume --save "+cut) {
			t.Fatalf("sitting %d does not say how to resume:\n%s", i, tail(out))
		}
		args = []string{"resume", "--save", cut}
	}
	a, b := mustMarshal(loadSave(t, whole)), mustMarshal(loadSave(t, cut))
	if a != b {
		t.Errorf("interrupted game ended differently:\n got %s\nwant %s", b, a)
	}
}

// Stopped after the first die of a two-enemy turn, the game resumes at the
// second die, telling the turn so far again.
func TestResumeMidEnemyTurn(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.json")
	code, out, errOut := runCLI(t, "4\n", "play", "--manual", "--scenario", "2", "--save", save)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "Roll the die for the Light female (1-6): 4\n") || !strings.HasSuffix(out, "To go on, run: companion resume --save "+save+"\n") {
		t.Fatalf("first sitting:\n%s", out)
	}
	g := loadSave(t, save)
	if g.Step != campaign.StepEnemyTurn || len(g.Dice) != 1 || g.Dice[0] != 4 {
		t.Fatalf("saved at %s with dice %v, want the enemy turn with [4]", g.Step, g.Dice)
	}
	light := moveText(t, out, "Light female (roll 4)")

	code, out, errOut = runCLI(t, "x\n9\n2\nquit\n", "resume", "--save", save)
	if code != 0 || errOut != "" {
		t.Fatalf("resume: exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(out, "Roll the die for the Light female") {
		t.Errorf("resume asked the light female's die again:\n%s", out)
	}
	for _, want := range []string{
		"Resuming the game saved in " + save,
		"Round 1: the enemies' turn.",
		light, // told again
		"Roll the die for the Dark male (1-6): x\n  \"x\" is not a die",
		"Roll the die for the Dark male (1-6): 9\n  \"9\" is not a die",
		"Roll the die for the Dark male (1-6): 2\n",
		"Round 1: your turn.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("resumed transcript lacks %q:\n%s", want, out)
		}
	}
	s2, _ := scenario.Get(2)
	want, _, _, err := engine.EnemyTurn(s2.Setup, []int{4, 2})
	if err != nil {
		t.Fatal(err)
	}
	if g := loadSave(t, save); g.Step != campaign.StepPlayerTurn || mustMarshal(g.Position) != mustMarshal(want) {
		t.Errorf("after resuming: step %s, board %s; want the player's turn on %s", g.Step, mustMarshal(g.Position), mustMarshal(want))
	}
	// Resumed at the player's turn, the companion repeats the enemy turn the
	// player may not have finished applying.
	code, out, _ = runCLI(t, "quit\n", "resume", "--save", save)
	if code != 0 || !strings.Contains(out, "The last enemy turn was:") || !strings.Contains(out, light) {
		t.Errorf("resume at the player's turn: exit %d\n%s", code, out)
	}
}

// Colour and Unicode only on a terminal, and colour not with NO_COLOR.
func TestPlayColour(t *testing.T) {
	tests := []struct {
		name    string
		tty     bool
		noColor string
		color   bool
		arrow   string
	}{
		{"terminal", true, "", true, "▼"},
		{"terminal with NO_COLOR", true, "1", false, "▼"},
		{"pipe", false, "", false, "v"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, in, out, _ := testStreams()
			io.OutTTY = tt.tty
			in.WriteString("quit\n")
			err := playRun(&playOptions{IO: io, Manual: true, Difficulty: campaign.Normal, Save: filepath.Join(t.TempDir(), "g.json"),
				Getenv: func(k string) string {
					if k == "NO_COLOR" {
						return tt.noColor
					}
					return ""
				}, Now: time.Now})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(out.String(), "\x1b["); got != tt.color {
				t.Errorf("colour %v, want %v", got, tt.color)
			}
			if !strings.Contains(out.String(), "LF"+tt.arrow) {
				t.Errorf("no %q arrow:\n%s", tt.arrow, out)
			}
		})
	}
}

// moveText finds the told line starting with prefix.
func moveText(t *testing.T, out, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return strings.TrimSpace(l)
		}
	}
	t.Fatalf("no line %q in:\n%s", prefix, out)
	return ""
}

func TestUndoAtThePrompts(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.json")
	s2, _ := scenario.Get(2)
	after, _, _, err := engine.EnemyTurn(s2.Setup, []int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	turn := engine.LegalTurns(after)[0].String()
	// Dice, a turn, undo at the next die; the turn again, dice, undo at
	// the player's prompt (enemy turn and all), then quit.
	script := "1\n1\n" + turn + "\n" + "undo\n" + turn + "\n1\n1\n" + "undo\n" + "quit\n"
	code, out, errOut := runCLI(t, script, "play", "--manual", "--scenario", "2", "--save", save)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	for _, want := range []string{
		"Took back your turn " + turn + ". Put the pieces back as shown.",
		"Took back your turn " + turn + " and the enemy turn after it.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
	g := loadSave(t, save)
	if g.Step != campaign.StepPlayerTurn || mustMarshal(g.Position) != mustMarshal(after) || g.Round != 1 {
		t.Errorf("after undo: step %s round %d board %s, want round 1's player turn on %s", g.Step, g.Round, mustMarshal(g.Position), mustMarshal(after))
	}
}

func TestPlayRefusesToReplace(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "game.json")
	if code, _, _ := runCLI(t, "quit\n", "play", "--manual", "--save", save); code != 0 {
		t.Fatal("could not start a game")
	}
	inProgress, _ := os.ReadFile(save)
	code, out, errOut := runCLI(t, "quit\n", "play", "--manual", "--scenario", "3", "--save", save)
	if code != 1 || out != "" || !strings.Contains(errOut, "a game is in progress") || !strings.Contains(errOut, "companion resume") {
		t.Errorf("play over a game in progress: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	oneErrorLine(t, errOut)
	if now, _ := os.ReadFile(save); string(now) != string(inProgress) {
		t.Errorf("the game in progress was overwritten")
	}

	damaged := inProgress[:len(inProgress)/2]
	if err := os.WriteFile(save, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"resume", "--save", save}, {"play", "--manual", "--save", save}} {
		code, _, errOut := runCLI(t, "quit\n", args...)
		if code != 1 || !strings.Contains(errOut, "save file "+save+" is damaged: ") || !strings.Contains(errOut, "companion play") {
			t.Errorf("%s over a damaged save: exit %d, stderr %q", args[0], code, errOut)
		}
		oneErrorLine(t, errOut)
		if now, _ := os.ReadFile(save); string(now) != string(damaged) {
			t.Fatalf("%s changed the damaged save", args[0])
		}
	}
	code, _, errOut = runCLI(t, "quit\n", "play", "--manual", "--new", "--save", save)
	if code != 0 || !strings.Contains(errOut, "the damaged save was kept as "+save+".damaged") {
		t.Errorf("play --new over a damaged save: exit %d, stderr %q", code, errOut)
	}
	if kept, _ := os.ReadFile(save + ".damaged"); string(kept) != string(damaged) {
		t.Errorf("the damaged save was not kept aside")
	}
}

func TestResumeErrors(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runCLI(t, "", "resume", "--save", filepath.Join(dir, "none.json"))
	if code != 1 || !strings.Contains(errOut, "no saved game at") || !strings.Contains(errOut, "companion play --manual") {
		t.Errorf("resume with no save: exit %d, stderr %q", code, errOut)
	}
	oneErrorLine(t, errOut)
	code, _, errOut = runCLI(t, "", "play", "--manual", "--scenario", "9", "--save", filepath.Join(dir, "g.json"))
	if code != 1 || !strings.Contains(errOut, "scenario 9") {
		t.Errorf("play --scenario 9: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "play", "--manual", "--scenario", filepath.Join(dir, "missing.txt"), "--save", filepath.Join(dir, "g.json"))
	if code != 1 || !strings.Contains(errOut, "missing.txt") {
		t.Errorf("play --scenario missing.txt: exit %d, stderr %q", code, errOut)
	}
}

// The default save file is under XDG_STATE_HOME.
func TestDefaultSaveFile(t *testing.T) {
	state := t.TempDir()
	io, in, out, _ := testStreams()
	in.WriteString("quit\n")
	opts := &playOptions{IO: io, Manual: true, Difficulty: campaign.Easy, SeedSet: true,
		Getenv: func(k string) string {
			if k == "XDG_STATE_HOME" {
				return state
			}
			return ""
		}}
	if err := playRun(opts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(state, "companion", "game.json")
	if g := loadSave(t, path); g.Difficulty != campaign.Easy {
		t.Errorf("saved difficulty %s, want easy", g.Difficulty)
	}
	if !strings.Contains(out.String(), "To go on, run: companion resume\n") {
		t.Errorf("the default save's resume hint is not plain `companion resume`:\n%s", tail(out.String()))
	}
}

// A scenario file of the player's own makes a single-scenario game.
func TestPlayScenarioFile(t *testing.T) {
	dir := t.TempDir()
	text, err := scenario.BuiltinFile(1)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(file, []byte(strings.Replace(string(text), "name: The Bridge", "name: My Bridge", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	save := filepath.Join(dir, "g.json")
	code, out, errOut := runCLI(t, "quit\n", "play", "--manual", "--scenario", file, "--save", save)
	if code != 0 || errOut != "" || !strings.Contains(out, `Scenario "My Bridge" (normal game)`) {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	g := loadSave(t, save)
	if g.Kind != campaign.KindSingle || g.Scenario.File != file {
		t.Errorf("saved kind %s file %q", g.Kind, g.Scenario.File)
	}
}

func attempts(g *campaign.Game) []int {
	var a []int
	for _, sc := range g.Scores {
		a = append(a, sc.Attempts)
	}
	return a
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}

// The README's main command runs play --resume: run twice, it goes on with
// the first game instead of refusing.
func TestPlayResumeGoesOn(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.json")
	if code, _, errOut := runCLI(t, "quit\n", "play", "--manual", "--virtual-die", "--scenario", "2", "--resume", "--save", save); code != 0 {
		t.Fatalf("first play: exit %d: %s", code, errOut)
	}
	first, _ := os.ReadFile(save)
	code, out, errOut := runCLI(t, "quit\n", "play", "--manual", "--virtual-die", "--resume", "--save", save)
	if code != 0 || !strings.Contains(errOut, "going on with the game in progress") {
		t.Fatalf("second play --resume: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "The City Gate") {
		t.Errorf("second play did not go on with scenario 2:\n%s", out)
	}
	if now, _ := os.ReadFile(save); string(now) != string(first) {
		t.Errorf("quitting at once changed the save")
	}
	if code, _, errOut := runCLI(t, "", "play", "--manual", "--new", "--resume", "--save", save); code != 1 || !strings.Contains(errOut, "choose one") {
		t.Errorf("--new --resume: exit %d, stderr %q", code, errOut)
	}
}
