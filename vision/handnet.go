package vision

import (
	_ "embed"
	"errors"

	"gocv.io/x/gocv"
)

// ErrNotSettled means something (a player's hand, an arm) is over the
// board: TABLE.md wants such a frame not read as a position at all, since
// the cells under it cannot be seen and a hand moving a pawn is a move not
// yet made.
var ErrNotSettled = errors.New("a hand (or something else) is over the board: read again when the board is clear")

// The hand network tells a frame with a hand over the board from a settled
// one (vision/handnet_train.py; scripts/train-handnet.sh). It sees the
// frame shrunk as the corner network does and gives one logit.
//
//go:embed handnet.onnx
var handNetONNX []byte

// useHandNet lets the reader refuse frames with a hand over the board.
var useHandNet = true

// handThreshold is the logit above which a frame is refused as not
// settled. A clear frame refused is a read lost, and a frame with no board
// must be told so (ErrNoGrid), not told to clear a board: it stands 0.6
// above the highest logit of the five check sets' 2100 clear frames (1.24,
// 22220) and the suite's 40 frames of spare pieces with no board (2.16,
// TestReadSparesNoBoard's seed 35). The network was trained on
// 60200-61399 with and without a hand (clear frames weighted 2, 20
// epochs). At 2.76, 177 of the 200 check scenes' hand frames
// (60000-60199) and 175 of 200 unseen ones (100000-100199) score above
// it, and none of the hold-out's 500 clear frames (highest 1.10); of 200
// no-board frames (spares seeds 1-200) 3 do, as 3 did with the last
// network (SIM_NOTES, eighty-fifth session).
const handThreshold = 2.76

// handNet is the hand network; its input Mat is the frame shrunk for the
// networks that see it whole (Reader.shrunkFrame).
type handNet struct {
	onnxNet
	onnx []byte // the network's file (nil: handNetONNX)
}

// logit gives the network's logit that BGR frame src has a hand over the
// board.
func (n *handNet) logit(src gocv.Mat) (float64, error) {
	if err := n.load(fileOr(n.onnx, handNetONNX), "the hand network", nil); err != nil {
		return 0, err
	}
	v, err := n.forwardFrame(n.shrink(src), "hand", 1, useOwnHandNet)
	if err != nil {
		return 0, err
	}
	return float64(v[0]), nil
}
