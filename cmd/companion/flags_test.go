package main

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"companion/campaign"
	"companion/engine"
)

// execute runs cmd with args, as the root would, returning its error.
func execute(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{err} })
	return cmd.Execute()
}

func TestPlayFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    playOptions
		wantErr string
		flagErr bool
	}{
		{"campaign defaults", []string{"--manual"}, playOptions{Manual: true, Difficulty: campaign.Normal}, "", false},
		{"everything", []string{"--manual", "--scenario", "3", "--virtual-die", "--expert", "--save", "g.json", "--new", "--seed", "42", "--ascii"},
			playOptions{Manual: true, Scenario: "3", VirtualDie: true, Difficulty: campaign.Expert, Save: "g.json", New: true, Seed: 42, SeedSet: true, ASCII: true}, "", false},
		{"easy, a scenario file", []string{"--manual", "--easy", "--scenario", "maps/mine.txt"},
			playOptions{Manual: true, Scenario: "maps/mine.txt", Difficulty: campaign.Easy}, "", false},
		{"seed 0 is still a seed", []string{"--manual", "--seed", "0"}, playOptions{Manual: true, Difficulty: campaign.Normal, SeedSet: true}, "", false},
		{"no --manual", []string{}, playOptions{}, "--manual", true},
		{"both difficulties", []string{"--manual", "--easy", "--expert"}, playOptions{}, "choose one", true},
		{"a bad seed", []string{"--manual", "--seed", "-1"}, playOptions{}, "seed", true},
		{"an argument", []string{"--manual", "now"}, playOptions{}, "no arguments", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, _, _ := testStreams()
			var got *playOptions
			err := execute(newPlayCmd(io, func(o *playOptions) error { got = o; return nil }), tt.args...)
			if tt.wantErr != "" {
				var fe *flagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.As(err, &fe) != tt.flagErr {
					t.Fatalf("error %v, want a flag error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.IO != io || got.Getenv == nil || got.Now == nil {
				t.Errorf("streams or dependencies not set")
			}
			got.IO, got.Getenv, got.Now = nil, nil, nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestResumeFlags(t *testing.T) {
	tests := []struct {
		args []string
		want resumeOptions
	}{
		{nil, resumeOptions{}},
		{[]string{"--save", "x.json", "--ascii"}, resumeOptions{Save: "x.json", ASCII: true}},
		{[]string{"--virtual-die"}, resumeOptions{VirtualDie: true, VirtualDieSet: true}},
		{[]string{"--virtual-die=false"}, resumeOptions{VirtualDieSet: true}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			io, _, _, _ := testStreams()
			var got *resumeOptions
			if err := execute(newResumeCmd(io, func(o *resumeOptions) error { got = o; return nil }), tt.args...); err != nil {
				t.Fatal(err)
			}
			got.IO, got.Getenv = nil, nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestEnemyTurnFlags(t *testing.T) {
	tests := []struct {
		dice    string
		want    []int
		wantErr bool
	}{
		{"3,5", []int{3, 5}, false},
		{" 1 , 6 ,2,4", []int{1, 6, 2, 4}, false},
		{"", []int{}, false},
		{"7", nil, true},
		{"3,,5", nil, true},
		{"3;5", nil, true},
		{"1.5", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.dice, func(t *testing.T) {
			io, _, _, _ := testStreams()
			var got *enemyTurnOptions
			err := execute(newEnemyTurnCmd(io, func(o *enemyTurnOptions) error { got = o; return nil }), "--state", "p.json", "--dice", tt.dice)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if err == nil && (!slices.Equal(got.Dice, tt.want) || got.State != "p.json") {
				t.Errorf("options %+v, want dice %v", got, tt.want)
			}
		})
	}
}

func TestPlayerTurnFlags(t *testing.T) {
	c := func(s string) engine.Cell { x, _ := engine.ParseCell(s); return x }
	tests := []struct {
		move, build string
		want        engine.Turn
		wantErr     string
	}{
		{"B2-C3", "C4", engine.Turn{From: c("B2"), To: c("C3"), Build: c("C4")}, ""},
		{"b2-c3", " c4 ", engine.Turn{From: c("B2"), To: c("C3"), Build: c("C4")}, ""},
		{"Z9-C3", "C4", engine.Turn{}, "--move"},
		{"B2C3", "C4", engine.Turn{}, "--move"},
		{"B2-C3-D4", "C4", engine.Turn{}, "--move"},
		{"B2-C3", "C44", engine.Turn{}, "--build"},
		{"B2-C3", "", engine.Turn{}, "--build"},
	}
	for _, tt := range tests {
		t.Run(tt.move+" "+tt.build, func(t *testing.T) {
			io, _, _, _ := testStreams()
			var got *playerTurnOptions
			err := execute(newPlayerTurnCmd(io, func(o *playerTurnOptions) error { got = o; return nil }),
				"--state", "-", "--move", tt.move, "--build", tt.build)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Turn != tt.want || got.State != "-" {
				t.Errorf("turn %v state %q, want %v", got.Turn, got.State, tt.want)
			}
		})
	}
}
