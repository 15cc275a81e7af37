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
package engine
