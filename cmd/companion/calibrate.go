package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"companion/calib"
	"companion/observation"
	"companion/vision"
)

type calibrateOptions struct {
	IO        *streams
	Image     string
	Board     string // rows separated by '/'
	BoardFile string // or a file of five lines ("-" for stdin)
	Corners   *[4][2]float64
	Out       string
	Now       func() time.Time
}

func newCalibrateCmd(io *streams, runF func(*calibrateOptions) error) *cobra.Command {
	opts := &calibrateOptions{IO: io, Now: time.Now}
	var corners func() (*[4][2]float64, error)
	cmd := &cobra.Command{
		Use:   "calibrate <image> {--board <rows> | --board-file <file>} [--corners x1,y1,...,x4,y4] --out <file>",
		Short: "Learn your set's colours from a photo of a known position",
		Long: `Learn the colours of your set, camera and lamp from one photo of a position
you set up, and save them for 'companion read --calib'. Reading works
without this; calibrating helps when your pieces, board or light are far
from what the companion expects.

Set up a position with every kind of piece at least once, for example
(rows A, the far side, to E, the near side; columns 1-5 left to right as the
camera sees them):

  A:  1  2  3  4  0     a level 1, 2, 3 and a dome (on a level 3 tower)
  B:  0  0  0  0  0
  C:  0  0B 0L 0D 0     a blue, a light and a dark pawn
  D:  0  0  0  0  0
  E:  0  0  0  0  0

that is --board "` + strings.Join(calib.Suggested, "/") + `".
Any other position works too (a scenario's set-up, the game in progress): give
it as five rows of five tokens, a level 0-4 and an optional pawn letter (B
blue, L light, D dark), rows separated by '/' in --board or on five lines in
--board-file. Put the camera and lamp where you play, keep spare pieces and
hands off the board, and take the photo.

--corners gives the grid's outer corners in pixels (A1, A5, E5, E1) when the
grid is not found by itself.`,
		Example: `  companion calibrate setup.jpg --board "` + strings.Join(calib.Suggested, "/") + `" --out my-set.calib.json
  companion calibrate setup.jpg --board-file position.txt --out my-set.calib.json
  companion read table.jpg --calib my-set.calib.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return flagErrorf("calibrate takes one image file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Image = args[0]
			if (opts.Board == "") == (opts.BoardFile == "") {
				return flagErrorf("give the position in the photo with --board or --board-file (one of them)")
			}
			if opts.Out == "" {
				return flagErrorf("--out: name the file to save the calibration to")
			}
			var err error
			if opts.Corners, err = corners(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return calibrateRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Board, "board", "", "the position in the photo: five rows of five tokens, rows separated by '/'")
	cmd.Flags().StringVar(&opts.BoardFile, "board-file", "", "the position in the photo: a file of five lines of five tokens (- for stdin)")
	corners = addCornersFlag(cmd)
	cmd.Flags().StringVar(&opts.Out, "out", "", "the calibration file to write")
	return cmd
}

// parseBoardRows reads five rows of tokens, e.g. from --board split at '/'
// or from a file's lines; blank lines and lines starting with '#' are skipped.
func parseBoardRows(lines []string) (observation.Board, error) {
	var rows []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			rows = append(rows, l)
		}
	}
	return observation.Parse(rows)
}

func calibrateRun(opts *calibrateOptions) error {
	var board observation.Board
	var err error
	if opts.BoardFile != "" {
		data, rerr := readInput(opts.IO, opts.BoardFile)
		if rerr != nil {
			return fmt.Errorf("reading the position: %w", rerr)
		}
		if board, err = parseBoardRows(strings.Split(string(data), "\n")); err != nil {
			return fmt.Errorf("position in %s: %w", opts.BoardFile, err)
		}
	} else if board, err = parseBoardRows(strings.Split(opts.Board, "/")); err != nil {
		return flagErrorf("--board %q: %w", opts.Board, err)
	}
	img, err := vision.DecodeFile(opts.Image)
	if err != nil {
		return err
	}
	defer img.Close()
	p, err := calib.Calibrate(img, board, opts.Corners)
	if err != nil {
		return fmt.Errorf("calibrating from %s: %w", opts.Image, err)
	}
	p.Source = opts.Image
	p.Created = opts.Now().UTC().Truncate(time.Second)
	if err := p.Save(opts.Out); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "saved %s: the photo read %d of 25 cells as given before calibrating, %d after\n", opts.Out, p.Agreed, p.AgreedAfter)
	fmt.Fprintf(opts.IO.Out, "use it with: companion read PHOTO --calib %s\n", opts.Out)
	return nil
}
