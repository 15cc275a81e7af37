package engine

import (
	"fmt"
	"strings"

	"companion/observation"
)

// InferTurn finds the legal turns of before that turn its board into seen,
// the board after the player's turn as a camera sees it (levels, and the
// colour standing on each cell). A build on an enemy's cell defeats the
// enemy, so the matching board shows that cell without its enemy.
//
// With an exact board, at most one turn matches: the builder that moved is
// the one whose cell was left empty, it went to the one newly occupied cell,
// and it built on the one cell one level higher; two turns always leave
// different boards. The answer is a slice so that a caller need not rely on
// that.
//
// No matching turn gives a *NoMatchError that names the closest legal turn
// and what differs from the board it would leave. A before that is not a
// valid position, or whose scenario is already won or lost, gives a plain
// error.
func InferTurn(before Position, seen observation.Board) ([]Turn, error) {
	if err := playable(&before); err != nil {
		return nil, fmt.Errorf("infer turn: %w", err)
	}
	var buf [MaxTurns]Turn
	turns := AppendLegalTurns(buf[:0], &before)
	base := before.Board()
	if base == seen {
		return nil, &NoMatchError{Unchanged: true}
	}
	var found []Turn
	for _, t := range turns {
		if boardAfter(&base, t) == seen {
			found = append(found, t)
		}
	}
	if len(found) > 0 {
		return found, nil
	}
	if len(turns) == 0 {
		return nil, &NoMatchError{Diffs: Diff(base, seen)}
	}
	best, bestMiss := 0, -1
	for i, t := range turns {
		after := boardAfter(&base, t)
		if miss := mismatches(&after, &seen); bestMiss < 0 || miss < bestMiss {
			best, bestMiss = i, miss
		}
	}
	closest := turns[best]
	return nil, &NoMatchError{Closest: &closest, Diffs: Diff(boardAfter(&base, closest), seen)}
}

// boardAfter is the board base shows after the legal turn t: the builder
// leaves From for To, and Build gains a level and is empty (a legal build
// is never on a builder, and one on an enemy defeats it). It is what
// PlayerTurn's position shows, computed without copying the position.
func boardAfter(base *observation.Board, t Turn) observation.Board {
	b := *base
	b[t.From].Occupant = observation.Empty
	b[t.To].Occupant = observation.Blue
	b[t.Build].Level++
	b[t.Build].Occupant = observation.Empty
	return b
}

// mismatches counts the levels and occupants that differ, as Diff's lines.
func mismatches(a, b *observation.Board) int {
	n := 0
	for c := range a {
		if a[c].Level != b[c].Level {
			n++
		}
		if a[c].Occupant != b[c].Occupant {
			n++
		}
	}
	return n
}

// NoMatchError is InferTurn's answer when no legal turn explains the board
// seen.
type NoMatchError struct {
	// Unchanged: the board seen is the board before the turn; no turn has
	// been played yet.
	Unchanged bool
	// Closest is the legal turn whose board differs least from the board
	// seen (the first such in LegalTurns order), or nil when the position
	// has no legal turn.
	Closest *Turn
	// Diffs is Diff(board Closest leaves, seen); with no legal turn,
	// Diff(board before, seen).
	Diffs []string
}

func (e *NoMatchError) Error() string {
	switch {
	case e.Unchanged:
		return "no turn was played: the board is as it was before the turn"
	case e.Closest == nil:
		return "no builder can move and then build here, so no turn explains the board: " + strings.Join(e.Diffs, "; ")
	}
	return fmt.Sprintf("no legal turn explains the board; the closest is %v, after which %s", *e.Closest, strings.Join(e.Diffs, "; "))
}
