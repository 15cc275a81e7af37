package main

import (
	"strings"
	"testing"
)

// runCLI runs the companion with args and stdin as a process would, and
// returns the exit code and what it printed.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	io, in, out, errOut := testStreams()
	in.WriteString(stdin)
	code = run(args, io)
	return code, out.String(), errOut.String()
}

// oneErrorLine checks stderr is exactly one "companion: ..." line.
func oneErrorLine(t *testing.T, stderr string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "companion: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr = %q, want one line \"companion: ...\"", stderr)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "--version")
	if code != 0 || strings.TrimSpace(out) != "companion version dev" {
		t.Errorf("--version: %d %q", code, out)
	}
}

// Every command has help with examples.
func TestHelpHasExamples(t *testing.T) {
	for _, cmd := range [][]string{{}, {"enemy-turn"}, {"player-turn"}, {"play"}, {"resume"}, {"calibrate"}} {
		t.Run(strings.Join(cmd, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, "", append(cmd, "--help")...)
			if code != 0 || errOut != "" {
				t.Fatalf("--help: exit %d, stderr %q", code, errOut)
			}
			if !strings.Contains(out, "Examples:") || !strings.Contains(out, "companion ") {
				t.Errorf("help has no examples:\n%s", out)
			}
		})
	}
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, _ := runCLI(t, "", "completion", shell)
		if code != 0 || !strings.Contains(out, "companion") {
			t.Errorf("completion %s: exit %d, %d bytes", shell, code, len(out))
		}
	}
}

// Calling a command wrongly shows the usage after the error line; any other
// error is the one line alone.
func TestErrorsAndUsage(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"unknown command", []string{"fly"}, true, `unknown command "fly"`},
		{"unknown flag", []string{"enemy-turn", "--state", "x", "--dice", "1", "--fast"}, true, "unknown flag: --fast"},
		{"missing flag", []string{"player-turn", "--state", "x", "--move", "A1-A2"}, true, `"build" not set`},
		{"stray argument", []string{"resume", "now"}, true, "takes no arguments"},
		{"play without --manual", []string{"play"}, true, "--manual"},
		{"--expert and --easy", []string{"play", "--manual", "--expert", "--easy"}, true, "choose one"},
		{"not a flag mistake: missing file", []string{"enemy-turn", "--state", "/no/such/file.json", "--dice", "1"}, false, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tt.args...)
			if code != 1 || out != "" {
				t.Errorf("exit %d, stdout %q; want 1 and nothing", code, out)
			}
			first, rest, _ := strings.Cut(errOut, "\n")
			if !strings.HasPrefix(first, "companion: ") || !strings.Contains(first, tt.want) {
				t.Errorf("first stderr line %q, want \"companion: ...%s...\"", first, tt.want)
			}
			if hasUsage := strings.Contains(rest, "Usage:"); hasUsage != tt.usage {
				t.Errorf("usage shown: %v, want %v; stderr:\n%s", hasUsage, tt.usage, errOut)
			}
			if !tt.usage {
				oneErrorLine(t, errOut)
			}
		})
	}
}
