package campaign

import (
	"encoding/json"

	"companion/engine"
	"testing"
)

// FuzzDecode feeds damaged save files to the loader: it must either refuse
// them with an error or give a game that can be played on without a panic,
// and that saves back to a file it reads again.
func FuzzDecode(f *testing.F) {
	g, err := New(Options{Seed: 7})
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		seed, err := json.Marshal(saveFile{Version: Version, Game: *g})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
		f.Add(seed[:len(seed)/2])
		if !advance(g) {
			break
		}
	}
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"version":99}`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			t.Skip()
		}
		g, err := decode(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(saveFile{Version: Version, Game: *g})
		if err != nil {
			t.Fatalf("a loaded game does not save: %v", err)
		}
		if _, err := decode(again); err != nil {
			t.Fatalf("a loaded game saves to a file it cannot read: %v\n%s", err, again)
		}
		// Playing on must not panic, whatever the file said.
		for i := 0; i < 4 && advance(g); i++ {
		}
		_ = g.Points()
		_ = g.CanUndo()
	})
}

// advance does one step with the virtual die and the first legal turn; it
// reports false when the game is over or a step fails.
func advance(g *Game) bool {
	more, err := playStep(g, func(turns []engine.Turn) engine.Turn { return turns[0] })
	return more && err == nil
}
