// Package calib adapts the vision reader to one set, camera and lamp. The
// player sets up a known position (Suggested, or any board they name), takes
// one photo, and Calibrate learns that set's colours from it; the Profile is
// saved as JSON and given to later readings:
//
//	p, err := calib.Calibrate(img, board, nil)
//	err = p.Save("mine.calib.json")
//	p, err = calib.Load("mine.calib.json")
//	reader.SetColours(p.Colours)
package calib

import (
	"fmt"
	"strings"
	"time"

	"companion/observation"
	"companion/vision"

	"gocv.io/x/gocv"
)

// Version is the profile format this package writes and reads.
const Version = 1

// Profile is one calibration: what it was learned from, and the colours.
type Profile struct {
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Source is the photo it was learned from, as the player named it.
	Source string `json:"source"`
	// Board is the known position, five rows of tokens A to E.
	Board []string `json:"board"`
	// Corners are the grid's outer corners in the photo (A1, A5, E5, E1).
	Corners [4][2]float64 `json:"corners"`
	// Width and Height are the photo's size in pixels (0 in files written
	// before they were kept): a frame of the same size from a camera that
	// has not moved has its grid near Corners.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Agreed is how many cells of the photo the built-in colours read as
	// Board says, and AgreedAfter how many the learned colours do.
	Agreed      int `json:"agreed"`
	AgreedAfter int `json:"agreed_after"`
	// Colours are the learned colour histograms (vision's binary form in
	// base64).
	Colours *vision.Colours `json:"colours"`
}

// Suggested is a calibration layout with every kind of piece at least once:
// levels 1, 2, 3 and a dome along the far row (where they hide nothing), a
// blue, a light and a dark pawn on the middle row.
var Suggested = []string{
	"1 2 3 4 0",
	"0 0 0 0 0",
	"0 0B 0L 0D 0",
	"0 0 0 0 0",
	"0 0 0 0 0",
}

// maxDisagree is how many cells may read differently from the stated board
// (in level, or in having a pawn) before Calibrate says the board given does
// not match the photo. The built-in reading gets nearly every cell right
// with known corners, so more than half wrong means a wrong board, a board
// turned round, or a wrong grid.
const maxDisagree = 12

// Calibrate learns a set's colours from img, a BGR photo of board. It finds
// the grid (or uses corners: A1, A5, E5, E1 outer corners in pixels), checks
// that the photo's reading is plausibly the stated board, and learns the
// colours from the photo drawn as board. Source is left for the caller.
func Calibrate(img gocv.Mat, board observation.Board, corners *[4][2]float64) (Profile, error) {
	r := vision.NewReader()
	defer r.Close()
	var res vision.Result
	var err error
	if corners != nil {
		res, err = r.ReadWithCorners(img, *corners)
	} else {
		res, err = r.Read(img)
	}
	if err != nil {
		return Profile{}, fmt.Errorf("calib: %w", err)
	}
	col, err := vision.LearnColours(img, res.Corners, board)
	if err != nil {
		return Profile{}, fmt.Errorf("calib: %w", err)
	}
	r.SetColours(col)
	after, err := r.ReadWithCorners(img, res.Corners)
	if err != nil {
		return Profile{}, fmt.Errorf("calib: %w", err)
	}
	// The built-in colours may misread a set they fit badly, and colours
	// learned from a wrong board do not make the photo read as that board:
	// the board given is refused only when neither reading is near it.
	if err := plausible(board, res.Board); err != nil {
		if plausible(board, after.Board) != nil {
			return Profile{}, err
		}
	}
	return Profile{
		Version:     Version,
		Created:     time.Now().UTC().Truncate(time.Second),
		Board:       board.Tokens(),
		Corners:     res.Corners,
		Width:       img.Cols(),
		Height:      img.Rows(),
		Agreed:      agreeing(board, res.Board),
		AgreedAfter: agreeing(board, after.Board),
		Colours:     col,
	}, nil
}

// GridHint gives the calibration's corners as where a frame's grid should
// be, when the frame is the size of the calibration's photo (or that size
// is unknown): the camera is expected not to have moved since.
func (p Profile) GridHint(width, height int) (*[4][2]float64, bool) {
	if p.Width != 0 && (p.Width != width || p.Height != height) {
		return nil, false
	}
	c := p.Corners
	return &c, true
}

// agreeing counts the cells read exactly as stated.
func agreeing(stated, read observation.Board) int {
	n := 0
	for i := range stated {
		if stated[i] == read[i] {
			n++
		}
	}
	return n
}

// differs reports whether a cell reads differently in shape: its level, or
// whether a pawn stands there (pawn colours are what calibration fixes).
func differs(a, b observation.Square) bool {
	return a.Level != b.Level || (a.Occupant == observation.Empty) != (b.Occupant == observation.Empty)
}

// plausible checks the reading against the stated board, naming a few
// cells that differ when most do.
func plausible(stated, read observation.Board) error {
	var bad []string
	turned := 0
	for i := range stated {
		if differs(stated[i], read[i]) {
			if len(bad) < 3 {
				bad = append(bad, fmt.Sprintf("%c%d given %s, read %s", 'A'+i/5, i%5+1, stated[i], read[i]))
			}
		}
		if differs(stated[24-i], read[i]) {
			turned++
		}
	}
	n := 0
	for i := range stated {
		if differs(stated[i], read[i]) {
			n++
		}
	}
	if n <= maxDisagree {
		return nil
	}
	hint := "row A is the far side of the board, E the near side, columns 1-5 left to right as the camera sees them"
	if turned <= maxDisagree {
		hint = "the board given looks turned round: " + hint
	}
	return fmt.Errorf("calib: the board given does not match the photo: %d of 25 cells differ (%s); %s", n, strings.Join(bad, "; "), hint)
}
