// Command companion runs the enemies of Santowerini, Sem Brys's solo mode
// for Santorini, for a player at a real table.
//
// What it does: plays a campaign in the terminal (companion play --manual),
// and answers single questions for other programs (enemy-turn, player-turn).
// How to run: go build ./cmd/companion && ./companion --help
package main

import "os"

// version is set at build time: go build -ldflags "-X main.version=1.2.0".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], systemStreams()))
}
