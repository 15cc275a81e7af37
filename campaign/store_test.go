package campaign

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/engine"
)

// step does the next thing a player at the table would (playStep, with a
// turn that defeats an enemy if there is one); false when the game is over.
func step(t *testing.T, g *Game) bool {
	t.Helper()
	more, err := playStep(g, func(turns []engine.Turn) engine.Turn {
		for _, tn := range turns {
			if g.Position.EnemyAt(tn.Build) >= 0 {
				return tn
			}
		}
		return turns[len(turns)/2]
	})
	if err != nil {
		t.Fatalf("at %s: %v\n%s", g.Step, err, mustJSON(t, g.Position))
	}
	return more
}

// A crash after any step loses nothing: a game reloaded from its file
// before every step plays exactly as one kept in memory.
func TestResumeEqualsUninterrupted(t *testing.T) {
	maxSteps := 400 // the whole campaign, with the seed below
	if testing.Short() {
		maxSteps = 60
	}
	steps := map[Step]int{}
	undoSaved := false

	mem, err := New(Options{Difficulty: Expert, VirtualDie: true, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "game.json")
	disk, _ := New(Options{Difficulty: Expert, VirtualDie: true, Seed: 11})
	if _, err := NewStore(path).Create(disk, false); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < maxSteps; i++ {
		// The "new process": nothing survives but the file.
		resumed, err := NewStore(path).Load()
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got, want := mustJSON(t, resumed), mustJSON(t, mem); got != want {
			t.Fatalf("step %d (%s): resumed game differs:\n got %s\nwant %s", i, mem.Step, got, want)
		}
		if mem.Step == StepEnemyTurn {
			v1, err1 := mem.EnemyTurn()
			v2, err2 := resumed.EnemyTurn()
			if err1 != nil || err2 != nil || mustJSON(t, v1.Events) != mustJSON(t, v2.Events) || v1.Next != v2.Next {
				t.Fatalf("step %d: the enemy turn in progress reads differently after resuming", i)
			}
			if len(mem.Dice) > 0 {
				steps["enemy-turn with dice in"]++
			}
		}
		if mem.Before != nil {
			undoSaved = true
		}
		steps[mem.Step]++
		more := step(t, mem)
		step(t, resumed)
		if !more {
			break
		}
	}
	want := []Step{StepEnemyTurn, "enemy-turn with dice in", StepPlayerTurn, StepWon, StepFinished}
	if testing.Short() {
		want = want[:3]
	}
	for _, k := range want {
		if steps[k] == 0 {
			t.Errorf("never saved and resumed at %q (steps seen: %v)", k, steps)
		}
	}
	if !undoSaved {
		t.Errorf("never resumed with an undo point")
	}
	t.Logf("steps seen: %v; final total %d", steps, mem.Total())
}

// Every step kind survives a save and a load, including a lost scenario
// (which the run above may not reach).
func TestSaveLoadEveryStep(t *testing.T) {
	lost := single(t, targetJSON)
	_ = lost.EnterDie(1)
	if _, err := lost.ResolveEnemyTurn(); err != nil || lost.Step != StepLost {
		t.Fatalf("setting up a lost game: %v %s", err, lost.Step)
	}
	partial := single(t, targetJSON)
	_ = partial.EnterDie(3)
	won := single(t, winJSON)
	playerStep(t, won, winJSON)
	_ = won.PlayerTurn(engine.Turn{From: engine.CellAt(1, 0), To: engine.CellAt(0, 0), Build: engine.CellAt(1, 1)})
	finished := single(t, winJSON)
	playerStep(t, finished, winJSON)
	_ = finished.PlayerTurn(engine.Turn{From: engine.CellAt(1, 0), To: engine.CellAt(0, 0), Build: engine.CellAt(1, 1)})
	_ = finished.Continue()
	tests := []struct {
		name string
		g    *Game
		step Step
	}{
		{"enemy turn, no die", single(t, targetJSON), StepEnemyTurn},
		{"enemy turn, one die of two", partial, StepEnemyTurn},
		{"scenario lost", lost, StepLost},
		{"scenario won", won, StepWon},
		{"finished", finished, StepFinished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.g.Step != tt.step {
				t.Fatalf("set up at %s, want %s", tt.g.Step, tt.step)
			}
			path := filepath.Join(t.TempDir(), "g.json")
			if err := NewStore(path).Save(tt.g); err != nil {
				t.Fatal(err)
			}
			g2, err := NewStore(path).Load()
			if err != nil {
				t.Fatal(err)
			}
			if mustJSON(t, g2) != mustJSON(t, tt.g) {
				t.Errorf("reloaded game differs:\n got %s\nwant %s", mustJSON(t, g2), mustJSON(t, tt.g))
			}
		})
	}
}

// A failed save leaves the old save file as it was, no temp file behind,
// and the game in memory as it was before the step.
func TestSaveFailureKeepsOldFile(t *testing.T) {
	boom := errors.New("disk on fire")
	tests := []struct {
		name   string
		break_ func(*fileOps)
	}{
		{"cannot create the temp file", func(o *fileOps) {
			o.createTemp = func(string, string) (*os.File, error) { return nil, boom }
		}},
		{"cannot rename over the save", func(o *fileOps) {
			o.rename = func(string, string) error { return boom }
		}},
		{"cannot write the temp file (closed under us)", func(o *fileOps) {
			o.createTemp = func(dir, pattern string) (*os.File, error) {
				f, err := os.CreateTemp(dir, pattern)
				if err == nil {
					f.Close()
				}
				return f, err
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "game.json")
			store := NewStore(path)
			g := single(t, targetJSON)
			if _, err := store.Create(g, false); err != nil {
				t.Fatal(err)
			}
			old, _ := os.ReadFile(path)
			mem := mustJSON(t, g)
			tt.break_(&store.fs)
			if err := g.EnterDie(3); err == nil || !strings.Contains(err.Error(), "saving") {
				t.Fatalf("EnterDie with a broken disk: %v, want a saving error", err)
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, old) {
				t.Errorf("the save file changed after a failed save")
			}
			if mustJSON(t, g) != mem {
				t.Errorf("the game in memory moved on after a failed save")
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temp file %s left behind", e.Name())
				}
			}
			store.fs = osFileOps
			if err := g.EnterDie(3); err != nil {
				t.Errorf("EnterDie once the disk works: %v", err)
			}
		})
	}
}

func TestSaveUnwritableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere; TestSaveFailureKeepsOldFile covers the same failures")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "game.json")
	g := single(t, targetJSON)
	if _, err := NewStore(path).Create(g, false); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if err := g.EnterDie(3); err == nil {
		t.Fatal("saving into a read-only directory succeeded")
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, old) {
		t.Errorf("the save file changed")
	}
}

func TestBackupHoldsThePreviousSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	store := NewStore(path)
	g := single(t, targetJSON)
	if _, err := store.Create(g, false); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	if err := g.EnterDie(3); err != nil {
		t.Fatal(err)
	}
	bak, err := os.ReadFile(store.BackupPath())
	if err != nil || !bytes.Equal(bak, first) {
		t.Errorf(".bak = %q, %v; want the first save", bak, err)
	}
}

func TestLoadDamaged(t *testing.T) {
	g := single(t, targetJSON)
	_ = g.EnterDie(3)
	good := filepath.Join(t.TempDir(), "good.json")
	if err := NewStore(good).Save(g); err != nil {
		t.Fatal(err)
	}
	valid, _ := os.ReadFile(good)
	s := string(valid)
	cases := map[string]string{
		"empty":            "",
		"blank":            "  \n",
		"not JSON":         "PK\x03\x04 zip file",
		"no version":       `{"kind": "campaign"}`,
		"newer version":    strings.Replace(s, `"version": 1`, `"version": 2`, 1),
		"version 0":        strings.Replace(s, `"version": 1`, `"version": 0`, 1),
		"unknown step":     strings.Replace(s, `"step": "enemy-turn"`, `"step": "coffee"`, 1),
		"die of 7":         strings.Replace(s, "\"dice\": [\n    3\n  ]", "\"dice\": [7]", 1),
		"enemy off board":  strings.Replace(s, `"cell": "A3"`, `"cell": "C9"`, 1),
		"unknown kind":     strings.Replace(s, `"kind": "single"`, `"kind": "tournament"`, 1),
		"zero attempt":     strings.Replace(s, `"attempt": 1`, `"attempt": 0`, 1),
		"trailing garbage": s + "}",
	}
	// Truncation anywhere, as a crash without atomic saves would leave.
	for n := 1; n < len(s); n += len(s) / 9 {
		cases["truncated at "+string(rune('0'+n*9/len(s)))+"/9"] = s[:n]
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			if content == s {
				t.Fatalf("the damage did not apply")
			}
			path := filepath.Join(t.TempDir(), "game.json")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			store := NewStore(path)
			_, err := store.Load()
			var de *DamagedError
			if !errors.As(err, &de) {
				t.Fatalf("Load: %v, want a *DamagedError", err)
			}
			msg := err.Error()
			for _, want := range []string{"save file " + path + " is damaged: ", "companion play", ".bak"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			// A new game refuses to replace it...
			if _, err := store.Create(single(t, winJSON), false); !errors.As(err, &de) {
				t.Errorf("Create over a damaged save: %v, want a *DamagedError", err)
			}
			if now, _ := os.ReadFile(path); string(now) != content {
				t.Fatalf("the damaged save was changed")
			}
			// ...unless told to, and then keeps it aside.
			kept, err := store.Create(single(t, winJSON), true)
			if err != nil {
				t.Fatalf("Create with replace: %v", err)
			}
			if aside, _ := os.ReadFile(kept); string(aside) != content {
				t.Errorf("the damaged save kept at %q holds %q", kept, aside)
			}
			if _, err := store.Load(); err != nil {
				t.Errorf("the new save does not load: %v", err)
			}
		})
	}
}

func TestCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "game.json")
	store := NewStore(path)
	if _, err := store.Load(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load with no save: %v, want fs.ErrNotExist", err)
	}
	if _, err := store.Create(single(t, targetJSON), false); err != nil {
		t.Fatalf("Create in a missing directory: %v", err)
	}
	var ip *InProgressError
	if _, err := store.Create(single(t, winJSON), false); !errors.As(err, &ip) || !strings.Contains(err.Error(), "companion resume") {
		t.Errorf("Create over a game in progress: %v, want an *InProgressError naming resume", err)
	}
	if _, err := store.Create(single(t, winJSON), true); err != nil {
		t.Errorf("Create with replace over a game in progress: %v", err)
	}
	g, _ := store.Load()
	playerStep(t, g, winJSON)
	_ = g.PlayerTurn(engine.Turn{From: engine.CellAt(1, 0), To: engine.CellAt(0, 0), Build: engine.CellAt(1, 1)})
	if err := g.Continue(); err != nil || g.Step != StepFinished {
		t.Fatalf("finishing: %v %s", err, g.Step)
	}
	if _, err := store.Create(single(t, targetJSON), false); err != nil {
		t.Errorf("Create over a finished game: %v", err)
	}
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"XDG_STATE_HOME", map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/p"}, "/x/state/companion/game.json"},
		{"HOME fallback", map[string]string{"HOME": "/home/p"}, "/home/p/.local/state/companion/game.json"},
		{"relative XDG_STATE_HOME is ignored", map[string]string{"XDG_STATE_HOME": "state", "HOME": "/home/p"}, "/home/p/.local/state/companion/game.json"},
		{"nothing", map[string]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DefaultPath(func(k string) string { return tt.env[k] })
			if got != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("DefaultPath = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
