// Package sim is a simulated table: a small ray tracer, pure Go, that draws
// a Santorini position as a webcam sees it, anywhere in TABLE.md's
// envelope. It is the vision code's test data, benchmark input and demo
// camera, so it draws only what a real photo has: no markers, no exact
// colours, no exact proportions, no fixed framing.
//
// Usage:
//
//	s := sim.RandomScene(seed)           // every parameter drawn from seed
//	img, truth := sim.Render(s)          // *image.RGBA with blur and noise
//	jpg, _ := sim.EncodeJPEG(img, s.JPEGQuality)
//	sim.WriteSample(dir, seed)           // seed-N.jpg + seed-N.json
//
// Table space, in cell pitches, seen from the player's side:
//
//	    y (away from the player)
//	    ^
//	A1 A2 A3 A4 A5      row A is the far side, the top of the image
//	B1 .. .. .. B5
//	C1 .. ## .. C5  --> x   the board centre (##) is the origin
//	D1 .. .. .. D5
//	E1 E2 E3 E4 E5      row E is the near side
//
// z is up from the table top; the board top is Scene.Style.Height above it
// and the grid's outer corners are at x, y = ±2.5. Cell (r, c), r = 0 for
// row A and c = 0 for column 1, is centred at (c-2, 2-r).
//
// What a scene varies (RandomScene):
//   - camera: elevation 45-90°, azimuth ±20°, roll ±4°, vertical field of
//     view 40-65°, mild radial distortion, distance and aim so that the
//     grid fills 0.5-0.9 of the image height with the board and every piece
//     on it in view, at a random place in the frame; 1280x720 or 1920x1080;
//   - board: slab, frame 0.4-0.8 pitch wide, raised dividers, a rocky cliff
//     pedestal 0.5-1.5 pitch high; cells of grass, sand or stone with
//     per-cell tone and texture; table of wood, cloth or laminate;
//   - pieces: proportions drawn within TABLE.md's ranges; blocks with dark
//     windows and doors, round or octagonal crenellated towers, blue domes;
//     male and female pawns in blue, light (white or cream) and dark (grey
//     or purple); each piece a little off centre and turned; 0-4 spare
//     pieces lying or standing on the table beside the board, and sometimes
//     dice and a card;
//   - light: one lamp, two lamps or daylight, colour temperature, soft
//     shadows, ambient level, glossy pawns and domes, contact shading,
//     imperfect auto exposure and white balance;
//   - camera faults: vignetting, optical blur, sensor noise; JPEG quality
//     60-95 for EncodeJPEG and WriteSample.
//
// Rendering: one ray per pixel against analytic primitives (boxes, cones,
// balls, half balls, convex prisms) in a grid of table columns; edges and
// windows are supersampled, shadow edges get rays spread over the lamp.
// Rows render in parallel, and every random choice inside a render comes
// from a hash of the seed and the pixel, so a scene always renders to the
// same pixels.
package sim
