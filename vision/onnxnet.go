package vision

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// onnxNet is one of the reader's networks, run from an embedded ONNX
// file by convNet or by OpenCV's dnn module (the corner, hand, refinement
// and patch networks): each loaded on first use, so a Reader that never
// needs one never pays for it, with the Mat its input is made in and a
// buffer for its output.
type onnxNet struct {
	what      string // the network's name, for errors
	file      []byte // the ONNX file
	net       gocv.Net
	netLoaded bool
	in        gocv.Mat
	out       []float32
	ready     bool
	// own runs the file without OpenCV (convNet, useOwnConvNet), made on
	// first use; nil where it cannot (ownTried).
	own      *convNet
	ownTried bool
	shrunk   []uint16 // shrinkArea's scratch row
}

// ownNet gives n's convNet, made on first use for inputs of the shapes
// (without the batch) that shapes gives; nil where convNet cannot run the
// file.
func (n *onnxNet) ownNet(shapes func() map[string][]int) *convNet {
	if !n.ownTried {
		n.ownTried = true
		if s := shapes(); s != nil {
			n.own, _ = newConvNet(n.file, s)
		}
	}
	return n.own
}

// fileOr is file, or the embedded file when none is given (a network's
// onnx field: another file for a second network or a development flag).
func fileOr(file, embedded []byte) []byte {
	if file == nil {
		return embedded
	}
	return file
}

// load reads file as the network called what, once. inShape is the shape
// of its float32 input Mat, or nil for an empty Mat (a frame resized into
// it). OpenCV 4.6 aborts the process on a file it cannot parse (gocv
// v0.31.0 does not catch its exception), so only the embedded files,
// which the tests load, and development flags' files reach it: no user's
// file does.
func (n *onnxNet) load(file []byte, what string, inShape []int) error {
	if n.ready {
		return nil
	}
	n.what, n.file, n.ready = what, file, true
	if inShape == nil {
		n.in = gocv.NewMat()
	} else {
		n.in = gocv.NewMatWithSizes(inShape, gocv.MatTypeCV32F)
	}
	return nil
}

func (n *onnxNet) close() {
	if n.netLoaded {
		n.net.Close()
		n.netLoaded = false
	}
	if n.ready {
		n.in.Close()
		n.ready = false
	}
}

// cv gives the network as OpenCV's dnn runs it, read from the file on
// first use (where convNet does not run it: about 0.05 s a network saved
// at start).
func (n *onnxNet) cv() (gocv.Net, error) {
	if !n.netLoaded {
		net, err := gocv.ReadNetFromONNXBytes(n.file)
		if err != nil {
			return net, fmt.Errorf("vision: loading %s: %w", n.what, err)
		}
		n.net, n.netLoaded = net, true
	}
	return n.net, nil
}

// input is the network's input Mat as float32 values to fill.
func (n *onnxNet) input() ([]float32, error) {
	v, err := n.in.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("vision: %s's input: %w", n.what, err)
	}
	return v, nil
}

// forward runs the network on the inputs set and gives output name's
// want values, copied into the holder's buffer (valid until the next
// forward) so that OpenCV's output Mat is closed at once.
func (n *onnxNet) forward(name string, want int) ([]float32, error) {
	net, err := n.cv()
	if err != nil {
		return nil, err
	}
	out := net.Forward(name)
	defer out.Close()
	v, err := out.DataPtrFloat32()
	if err != nil || len(v) != want {
		return nil, fmt.Errorf("vision: %s gave %d values, want %d", n.what, len(v), want)
	}
	n.out = append(n.out[:0], v...)
	return n.out, nil
}

// forwardFrame runs a network that sees the whole frame (the corner and
// hand networks) on small, the frame already shrunk to cornerNetW x
// cornerNetH, and gives output name's want values; own asks for convNet
// (useOwnConvNet) rather than OpenCV's dnn.
func (n *onnxNet) forwardFrame(small gocv.Mat, name string, want int, own bool) ([]float32, error) {
	if own && useOwnConvNet {
		if cn := n.ownNet(frameShape); cn != nil {
			return n.forwardFrameOwn(cn, small, name, want)
		}
	}
	blob := gocv.BlobFromImage(small, 1.0/255, image.Pt(cornerNetW, cornerNetH), gocv.NewScalar(127.5, 127.5, 127.5, 0), false, false)
	defer blob.Close()
	net, err := n.cv()
	if err != nil {
		return nil, err
	}
	net.SetInput(blob, "frame")
	return n.forward(name, want)
}

// useOwnCornerNets runs the corner networks (the first and the second
// opinion) with convNet (useOwnConvNet) rather than OpenCV's dnn. Their
// outputs agree with OpenCV's to about 5e-6, yet the corner guesses move
// by as much and, through the shortcut's thresholds, a few grids with
// them. Paired on 20000-20299 (TestSwitchCost -switch owncornernets, one
// core): 3.7 ms a frame saved (s.e. 0.66), the second network on searched
// frames most of it. Five check sets cold 389 cells wrong and 1821 boards
// perfect against 384 and 1827 (10 frames moved, 2 better, 8 worse: sets
// the shortcut was tuned on); on 30048-30547, never tuned on, 94 and 430
// either way (one frame better, one worse).
var useOwnCornerNets = true

func frameShape() map[string][]int { return map[string][]int{"frame": {3, cornerNetH, cornerNetW}} }

// useOwnHandNet runs the hand network with convNet (useOwnConvNet): the
// check sets read the same to the last digit of every confidence.
var useOwnHandNet = true

// forwardFrameOwn is forwardFrame with convNet: the input as
// BlobFromImage makes it, (v - 127.5) / 255 by channel planes.
func (n *onnxNet) forwardFrameOwn(own *convNet, small gocv.Mat, name string, want int) ([]float32, error) {
	b, err := small.DataPtrUint8()
	const plane = cornerNetW * cornerNetH
	if err != nil || small.Cols() != cornerNetW || small.Rows() != cornerNetH || small.Channels() != 3 || len(b) != 3*plane {
		return nil, fmt.Errorf("vision: %s's input is not a %dx%d colour image", n.what, cornerNetW, cornerNetH)
	}
	in, err := own.input("frame", 1)
	if err != nil {
		return nil, err
	}
	for i := 0; i < plane; i++ {
		for c := 0; c < 3; c++ {
			in[c*plane+i] = (float32(b[3*i+c]) - 127.5) * (1.0 / 255)
		}
	}
	return n.runConv(own, 1, name, want)
}

// runConv runs own (n's convNet, its inputs set for rows) and gives
// output name's want values, an error naming the network.
func (n *onnxNet) runConv(own *convNet, rows int, name string, want int) ([]float32, error) {
	out, err := own.run(rows, name, want)
	if err != nil {
		return nil, fmt.Errorf("vision: %s: %w", n.what, err)
	}
	return out, nil
}

// shrink resizes BGR frame src into the network's input Mat for
// forwardFrame, and gives it.
func (n *onnxNet) shrink(src gocv.Mat) gocv.Mat {
	shrinkArea(src, &n.in, image.Pt(cornerNetW, cornerNetH), &n.shrunk)
	return n.in
}
