package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n got %s\nwant %s", path, got, want)
	}
}

// keys gives the sorted keys of a JSON object.
func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// decodeOne checks out is exactly one JSON object on one line.
func decodeOne(t *testing.T, out string) map[string]any {
	t.Helper()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("stdout is not one line: %q", out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, out)
	}
	return m
}

func TestEnemyTurnContract(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		stdin   string
		outcome string
		events  int
		golden  string
	}{
		{"file, two dice", []string{"--state", "testdata/two-enemies.json", "--dice", "3,5"}, "", "playing", 6, "enemy-turn-playing.json"},
		{"stdin", []string{"--state", "-", "--dice", "3, 5"}, readTestdata(t, "two-enemies.json"), "playing", 6, "enemy-turn-playing.json"},
		{"loss ends the turn: the dark male's die is not used", []string{"--state", "testdata/target-ahead.json", "--dice", "1,6"}, "", "lost", 5, "enemy-turn-lost.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, append([]string{"enemy-turn"}, tt.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			m := decodeOne(t, out)
			if got := keys(m); !slices.Equal(got, []string{"events", "outcome", "reason", "state"}) {
				t.Errorf("keys %v", got)
			}
			if m["outcome"] != tt.outcome {
				t.Errorf("outcome %v, want %s", m["outcome"], tt.outcome)
			}
			if (m["reason"] == "") != (tt.outcome == "playing") {
				t.Errorf("reason %q with outcome %v", m["reason"], m["outcome"])
			}
			events, _ := m["events"].([]any)
			if len(events) != tt.events {
				t.Errorf("%d events, want %d", len(events), tt.events)
			}
			need := map[string][]string{"orientation": {"facing"}, "attack": {"target", "effect"}, "move": {"roll", "path"}}
			for i, e := range events {
				ev, _ := e.(map[string]any)
				phase, _ := ev["phase"].(string)
				fields, ok := need[phase]
				if !ok || ev["pawn"] == nil {
					t.Errorf("event %d: phase %q pawn %v", i, phase, ev["pawn"])
					continue
				}
				for _, f := range fields {
					if _, ok := ev[f]; !ok {
						t.Errorf("event %d (%s) has no %q: %v", i, phase, f, ev)
					}
				}
			}
			state, _ := m["state"].(map[string]any)
			if got := keys(state); !slices.Equal(got, []string{"builders", "enemies", "god", "levels", "terrain"}) {
				t.Errorf("state keys %v", got)
			}
			golden(t, tt.golden, out)
		})
	}
}

func TestPlayerTurnContract(t *testing.T) {
	tests := []struct {
		name    string
		state   string
		move    string
		build   string
		legal   bool
		rule    string
		outcome string
	}{
		{"legal", "two-enemies.json", "D2-C3", "B3", true, "", "playing"},
		{"lower case", "two-enemies.json", "d2-d3", "c3", true, "", "playing"},
		{"not adjacent", "two-enemies.json", "D2-D4", "C3", false, "move-not-adjacent", "playing"},
		{"onto water", "two-enemies.json", "D4-C4", "B4", false, "move-onto-water", "playing"},
		{"no builder there", "two-enemies.json", "A3-B3", "C3", false, "no-builder", "playing"},
		{"build on a target zone", "two-enemies.json", "D2-D3", "E3", false, "build-on-target-zone", "playing"},
		{"winning turn", "win-now.json", "B1-A1", "B2", true, "", "won"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := readTestdata(t, tt.state)
			code, out, errOut := runCLI(t, input, "player-turn", "--state", "-", "--move", tt.move, "--build", tt.build)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q; an illegal turn is an answer, exit 0", code, errOut)
			}
			m := decodeOne(t, out)
			want := []string{"error", "legal", "outcome", "reason", "state"}
			if !tt.legal {
				want = []string{"error", "legal", "outcome", "reason", "rule", "state"}
			}
			if got := keys(m); !slices.Equal(got, want) {
				t.Errorf("keys %v, want %v", got, want)
			}
			if m["legal"] != tt.legal || m["outcome"] != tt.outcome {
				t.Errorf("legal %v outcome %v, want %v %s", m["legal"], m["outcome"], tt.legal, tt.outcome)
			}
			errText, _ := m["error"].(string)
			if tt.legal && errText != "" {
				t.Errorf("legal turn with error %q", errText)
			}
			if !tt.legal {
				if m["rule"] != tt.rule || !strings.HasPrefix(errText, tt.rule+": ") {
					t.Errorf("rule %v error %q, want rule %s named in the error", m["rule"], errText, tt.rule)
				}
				// The state is unchanged: the same position as the input.
				var in, got any
				_ = json.Unmarshal([]byte(input), &in)
				data, _ := json.Marshal(m["state"])
				_ = json.Unmarshal(data, &got)
				if a, b := mustMarshal(in), mustMarshal(got); a != b {
					t.Errorf("illegal turn changed the state:\n got %s\nwant %s", b, a)
				}
			}
			golden(t, "player-turn-"+strings.ReplaceAll(tt.name, " ", "-")+".json", out)
		})
	}
}

func mustMarshal(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// Bad input: exit 1, nothing on stdout, one clear line on stderr.
func TestContractBadInput(t *testing.T) {
	two := readTestdata(t, "two-enemies.json")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"malformed JSON", `{"terrain": [`, []string{"enemy-turn", "--state", "-", "--dice", "1,1"}, "position"},
		{"not JSON at all", "hello", []string{"player-turn", "--state", "-", "--move", "D2-C3", "--build", "B3"}, "position"},
		{"empty stdin", "", []string{"enemy-turn", "--state", "-", "--dice", "1,1"}, "position"},
		{"two objects", two + two, []string{"enemy-turn", "--state", "-", "--dice", "1,1"}, "after the JSON"},
		{"pawn on water", strings.Replace(two, `"cell": "A1"`, `"cell": "C1"`, 1), []string{"enemy-turn", "--state", "-", "--dice", "1,1"}, "water"},
		{"a die of 7", two, []string{"enemy-turn", "--state", "-", "--dice", "3,7"}, `die 2 is "7"`},
		{"a die of 0", two, []string{"enemy-turn", "--state", "-", "--dice", "0,1"}, "1-6"},
		{"a word for a die", two, []string{"enemy-turn", "--state", "-", "--dice", "3,six"}, "1-6"},
		{"too few dice", two, []string{"enemy-turn", "--state", "-", "--dice", "3"}, "1 dice for 2 enemies"},
		{"too many dice", two, []string{"enemy-turn", "--state", "-", "--dice", "3,4,5"}, "3 dice for 2 enemies"},
		{"no dice", two, []string{"enemy-turn", "--state", "-", "--dice", ""}, "0 dice for 2 enemies"},
		{"a finished position", readTestdata(t, "no-enemy.json"), []string{"enemy-turn", "--state", "-", "--dice", ""}, "already won"},
		{"off-board cell", two, []string{"player-turn", "--state", "-", "--move", "Z9-C3", "--build", "C4"}, `--move "Z9-C3"`},
		{"no dash", two, []string{"player-turn", "--state", "-", "--move", "D2C3", "--build", "C4"}, "FROM-TO"},
		{"bad build", two, []string{"player-turn", "--state", "-", "--move", "D2-C3", "--build", "F1"}, `--build "F1"`},
		{"empty build", two, []string{"player-turn", "--state", "-", "--move", "D2-C3", "--build", ""}, "--build"},
		{"missing state file", "", []string{"player-turn", "--state", "testdata/none.json", "--move", "D2-C3", "--build", "B3"}, "none.json"},
		{"a huge stdin", strings.Repeat(" ", 2<<20), []string{"enemy-turn", "--state", "-", "--dice", "1"}, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, tt.args...)
			if code != 1 || out != "" {
				t.Errorf("exit %d stdout %q, want 1 and nothing", code, out)
			}
			oneErrorLine(t, errOut)
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q does not say %q", errOut, tt.want)
			}
		})
	}
}
