package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"companion/calib"
	"companion/vision"
)

type readOptions struct {
	IO      *streams
	Image   string
	JSON    bool
	Corners *[4][2]float64 // nil: find the grid
	Near    *[4][2]float64 // where the grid should be (the camera stayed put), or nil
	Calib   string         // a calibration file from companion calibrate, or ""
	FOV     float64        // the camera's vertical field of view in degrees, or 0: estimated
}

// unsureGrid and unsureGridCells: read says the outline itself is in
// doubt when the grid's confidence is under unsureGrid and fewer than
// unsureGridCells cells are sure. A crowded board's dividers hardly show,
// yet its grid is mostly right and its cells sure; on check seeds
// 20000-20299 and 21000-21199 this flagged 13 of the 19 grids a quarter
// cell or more off, and 47 of the 480 right ones (the grid's confidence
// alone flagged all the wrong ones and 324 right ones).
const (
	unsureGrid      = 0.5
	unsureGridCells = 10
)

// readOutput is CONTRACT.md's answer to read --json.
type readOutput struct {
	Board      []string      `json:"board"`
	Corners    [4][2]float64 `json:"corners"`
	Confidence [5][5]float64 `json:"confidence"`
	Millis     float64       `json:"millis"`
	// GridConfidence is how sure the reader is of the grid's place (an
	// extension of CONTRACT.md's output).
	GridConfidence float64 `json:"grid_confidence"`
}

func newReadCmd(io *streams, runF func(*readOptions) error) *cobra.Command {
	opts := &readOptions{IO: io}
	var corners, near func() (*[4][2]float64, error)
	cmd := &cobra.Command{
		Use:   "read <image> [--json] [--corners x1,y1,x2,y2,x3,y3,x4,y4] [--calib <file>]",
		Short: "Read one photo of the board: grid corners, levels, pawns",
		Long: `Read one photo of the board (PNG or JPEG) with no other input: find the
5x5 grid, then every cell's level (0-3 blocks, 4 a dome) and the colour of
the pawn on it (B blue builder, L light enemy, D dark enemy).

--corners gives the grid's outer corners in pixels, in the order A1 (top
left), A5 (top right), E5 (bottom right), E1 (bottom left), and skips the
search for the grid.

--near gives where the grid should be, in the same form, when the camera
has not moved since it was found (the corners of an earlier read): the grid
is refined from there, which is faster and holds on crowded boards. If it
is not there, the grid is searched for as usual.

--calib reads with the colours 'companion calibrate' learned for your set,
and, for a photo of the calibration photo's size, expects the grid where
the calibration found it (as --near; --corners or --near override it).`,
		Example: `  companion read table.jpg
  companion read table.jpg --json
  companion read table.jpg --json --corners 400,100,880,100,1000,650,280,650
  companion read table.jpg --near 400,100,880,100,1000,650,280,650
  companion read table.jpg --calib my-set.calib.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return flagErrorf("read takes one image file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Image = args[0]
			var err error
			if opts.Corners, err = corners(); err != nil {
				return err
			}
			if opts.Near, err = near(); err != nil {
				return err
			}
			if err := vision.CheckFieldOfView(opts.FOV); err != nil {
				return flagErrorf("--fov %g: %v", opts.FOV, err)
			}
			if opts.Corners != nil && opts.Near != nil {
				return flagErrorf("--corners and --near both give the grid: use one")
			}
			if runF != nil {
				return runF(opts)
			}
			return readRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print CONTRACT.md's JSON instead of a drawing")
	corners = addCornersFlag(cmd)
	near = addGridFlag(cmd, "near", "where the grid should be, A1,A5,E5,E1 as x1,y1,...,x4,y4 (refined from there; searched for if not there)")
	cmd.Flags().Float64Var(&opts.FOV, "fov", 0, "the camera's vertical field of view in degrees, if known (its data sheet): reads towers seen from near straight above better")
	cmd.Flags().StringVar(&opts.Calib, "calib", "", "read with the colours of this calibration file (from companion calibrate)")
	return cmd
}

// addCornersFlag adds --corners to cmd; the func it returns parses the
// flag, giving nil when it was not set.
func addCornersFlag(cmd *cobra.Command) func() (*[4][2]float64, error) {
	return addGridFlag(cmd, "corners", "the grid's outer corners in the photo's pixels, A1 (top left), A5, E5, E1 clockwise, as x1,y1,...,x4,y4 (skips finding the grid)")
}

// addGridFlag adds a flag of eight pixel coordinates named name.
func addGridFlag(cmd *cobra.Command, name, usage string) func() (*[4][2]float64, error) {
	s := cmd.Flags().String(name, "", usage)
	return func() (*[4][2]float64, error) {
		if !cmd.Flags().Changed(name) {
			return nil, nil
		}
		c, err := parseCorners(name, *s)
		if err != nil {
			return nil, err
		}
		return &c, nil
	}
}

// parseCorners reads flag name's eight comma-separated pixel coordinates.
func parseCorners(name, s string) ([4][2]float64, error) {
	var c [4][2]float64
	parts := strings.Split(s, ",")
	if len(parts) != 8 {
		return c, flagErrorf("--%s %q: want 8 numbers x1,y1,x2,y2,x3,y3,x4,y4 (A1, A5, E5, E1), got %d", name, s, len(parts))
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return c, flagErrorf("--%s %q: %q is not a number", name, s, strings.TrimSpace(p))
		}
		c[i/2][i%2] = v
	}
	return c, nil
}

func readRun(opts *readOptions) error {
	var profile *calib.Profile
	if opts.Calib != "" {
		p, err := calib.Load(opts.Calib)
		if err != nil {
			return err
		}
		profile = &p
	}
	img, err := vision.DecodeFile(opts.Image)
	if err != nil {
		return err
	}
	defer img.Close()
	r := vision.NewReader()
	defer r.Close()
	if err := r.SetFieldOfView(opts.FOV); err != nil {
		return flagErrorf("--fov %g: %v", opts.FOV, err)
	}
	near := opts.Near
	if profile != nil {
		r.SetColours(profile.Colours)
		if hint, ok := profile.GridHint(img.Cols(), img.Rows()); ok && near == nil {
			near = hint
		}
	}
	var res vision.Result
	switch {
	case opts.Corners != nil:
		res, err = r.ReadWithCorners(img, *opts.Corners)
	case near != nil:
		res, err = r.ReadNear(img, *near)
	default:
		res, err = r.Read(img)
	}
	if errors.Is(err, vision.ErrNoGrid) {
		// A board crowded with towers can hide its lines: the player can
		// still say where it is.
		return fmt.Errorf("reading %s: %w If it is, give its corners with --corners x1,y1,x2,y2,x3,y3,x4,y4 (A1, A5, E5, E1 in pixels)", opts.Image, err)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", opts.Image, err)
	}
	out := readOutput{Board: res.Board.Tokens(), Corners: res.Corners, Millis: round(res.Millis, 2), GridConfidence: round(res.GridConfidence, 3)}
	for i, c := range res.Confidence {
		out.Confidence[i/5][i%5] = round(c, 3)
	}
	for i := range out.Corners {
		out.Corners[i][0], out.Corners[i][1] = round(out.Corners[i][0], 2), round(out.Corners[i][1], 2)
	}
	if opts.JSON {
		return writeJSON(opts.IO, out)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "     1    2    3    4    5\n")
	for r := 0; r < 5; r++ {
		fmt.Fprintf(w, "%c ", 'A'+r)
		for c := 0; c < 5; c++ {
			sq := res.Board[r*5+c]
			mark := " "
			if res.Confidence[r*5+c] < vision.SureConfidence {
				mark = "?"
			}
			fmt.Fprintf(w, " %-3s%s", sq.String(), mark)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "(? = not sure enough to take without asking; read in %.1f ms)\n", res.Millis)
	if outlineInDoubt(res) {
		advice := "check that the whole board is in view and lit, or give its corners with --corners"
		if near != nil {
			advice = "if the camera moved since the grid was found, calibrate again (or drop --near); else give its corners with --corners"
		}
		fmt.Fprintf(w, "The board's outline itself is uncertain (%.2f): %s.\n", res.GridConfidence, advice)
	}
	return nil
}

// outlineInDoubt tells whether read says the outline itself is in doubt
// (unsureGrid, unsureGridCells).
func outlineInDoubt(res vision.Result) bool {
	sure := 0
	for _, c := range res.Confidence {
		if c >= vision.SureConfidence {
			sure++
		}
	}
	return res.GridConfidence < unsureGrid && sure < unsureGridCells
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}
