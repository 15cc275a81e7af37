// Package vision reads a Santorini board from one camera frame: where the
// 5x5 grid is, each cell's level (0-3 blocks, 4 a dome) and the colour of the
// pawn standing there. It knows no game rules.
//
// Localisation needs no markers: grid lines from edges, a search for six
// equally spaced lines (seen in perspective) in each direction, and a
// refinement on the full-resolution frame that fits the twelve divider lines.
// The grid's homography gives the camera's pose, and each cell is read by
// drawing every candidate stack (and pawn) where the camera would see it and
// scoring how well the frame's colours fit the drawing.
//
// Board coordinates: X along the columns 1..5, Y along the rows A..E, one
// cell pitch = 1, Z up; the grid spans (0,0) at A1's outer corner to (5,5).
//
//	    1   2   3   4   5
//	A  A1  A2  A3  A4  A5    far side (top of the image)
//	B  ...
//	E  E1  E2  E3  E4  E5    near side, where the camera stands
package vision
