package accuracy

import (
	"errors"
	"fmt"
	"io"

	"companion/sim"
	"companion/vision"
)

// HandReport is how the reader treats frames with a hand over the board
// (sim.AddHand): TABLE.md wants them not read as a position.
type HandReport struct {
	Frames   int
	Refused  int // ErrNotSettled
	NoGrid   int // refused otherwise (no grid found, the board test)
	Read     int // read as a position: each a failure
	Wrong    int // cells wrong on the frames read
	Sure     int // cells read at sureConf or more on the frames read
	SureBad  int // of them wrong
	ReadSeed []int64
}

// RunHands reads seeds' frames with a hand over the board.
func RunHands(seeds []int64, r *vision.Reader) (HandReport, error) {
	var rep HandReport
	for _, seed := range seeds {
		data, truth, err := sim.HandFrame(seed)
		if err != nil {
			return rep, fmt.Errorf("seed %d with a hand: %w", seed, err)
		}
		m, err := vision.DecodeBytes(data)
		if err != nil {
			return rep, fmt.Errorf("seed %d with a hand: decoding: %w", seed, err)
		}
		res, err := r.Read(m)
		m.Close()
		rep.Frames++
		switch {
		case errors.Is(err, vision.ErrNotSettled):
			rep.Refused++
			continue
		case err != nil:
			rep.NoGrid++
			continue
		}
		rep.Read++
		rep.ReadSeed = append(rep.ReadSeed, seed)
		for i, sq := range res.Board {
			wrong := sq != truth.Board[i]
			if wrong {
				rep.Wrong++
			}
			if res.Confidence[i] >= sureConf {
				rep.Sure++
				if wrong {
					rep.SureBad++
				}
			}
		}
	}
	return rep, nil
}

// WriteText prints the report.
func (h HandReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "frames with a hand over the board: %d\n", h.Frames)
	fmt.Fprintf(w, "refused as not settled %d, refused otherwise (no board found) %d, read as a position %d\n", h.Refused, h.NoGrid, h.Read)
	if h.Read > 0 {
		fmt.Fprintf(w, "on those read: %d cells wrong, %d read sure, %d of them wrong; seeds %v\n", h.Wrong, h.Sure, h.SureBad, h.ReadSeed)
	}
}
