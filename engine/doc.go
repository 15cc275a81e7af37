// Package engine plays Santowerini by ../shared/RULES.md: positions, the
// enemy turn, the player's turn, the end conditions, legal-turn generation
// and the inference of a player's turn from what the camera saw. It is pure
// Go: no I/O, no OpenCV.
//
// The board, as the player sees it from their chair (row A far, E near):
//
//	      1    2    3    4    5
//	A   A1   A2   A3   A4   A5     N (towards row A)
//	B   B1   .    .    .    B5   W   E
//	C   C1   .    C3   .    C5     S
//	D   D1   .    .    .    D5
//	E   E1   E2   E3   E4   E5
//
// Cells are numbered row*5+col from A1 = 0 to E5 = 24.
//
// # Playing
//
// A scenario alternates EnemyTurn (it starts every scenario) and PlayerTurn.
// Both take a Position by value and return a new one; the input is never
// changed. EnemyTurn also returns the events a person applies by hand, in
// order (Event, with CONTRACT.md's JSON). A turn on a position that is not
// valid (Position.Validate) or whose scenario is already won or lost is an
// error; an illegal player turn is a *RuleError naming the rule (the Rule*
// ids). ParseTurn and Turn.String read and write turns as "B2-C3 C4".
//
// # Which end check runs where
//
// RULES.md "End of a scenario" has two kinds of checks:
//   - Conditions a position shows by itself: no building, an enemy on a
//     target zone, no builder (lost), no enemy (won). Status checks them;
//     EnemyTurn and PlayerTurn check them as the board changes, and a loss
//     ends the enemy turn at once (RULES.md "Rulings").
//   - The start-of-player-turn check, "can any builder move and then
//     build?" (CanPlayerAct). It belongs to one moment, the end of the enemy
//     turn (RULES.md "Rulings"), so EnemyTurn runs it and reports Lost with
//     ReasonStuck. Status does not: after the player's turn the enemies play
//     first and may free a hemmed-in builder.
//
// # Reading the camera
//
// LegalTurns (or the allocation-free AppendLegalTurns) lists every legal
// turn. InferTurn finds the legal turn that turns the position before into
// the board a camera saw after; with an exact board at most one can match,
// since the builder's old cell, its new cell and the built cell all show on
// the board. When none matches, its *NoMatchError names the closest turn
// and, through Diff, what to fix on the table.
//
// # Readings of RULES.md
//
// Where RULES.md leaves room, the engine takes the most literal reading:
//   - Dice go with the enemies in resolution order, whatever order a
//     position lists them in.
//   - An attack on an enemy standing on level 0, like one on an empty
//     level-0 cell, has the effect "nothing".
//   - An enemy entering a target zone on which a builder stands defeats the
//     builder and loses the scenario; the reason given is the target zone.
//   - A building on a target zone (only a scenario's setup can put one
//     there) is a building like any other.
//   - When a position shows a loss and a win at once (only hand-made
//     positions can), Status reports the loss: nothing is played after a
//     loss, so the win cannot have come first.
//   - God powers are not applied: Position.God is carried through unchanged.
package engine
