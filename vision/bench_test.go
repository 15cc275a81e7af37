package vision

import (
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"testing"

	"companion/sim"

	"gocv.io/x/gocv"
)

// benchSeeds are the scenes the benchmark cycles through: easy and hard
// ones alike, since a frame where the grid is hard to find costs more.
var benchSeeds = []int64{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007}

// BenchmarkRead times recognition alone (decoding excluded) per frame, over
// several simulated frames rendered off the clock, at the two usual sizes.
// For one core run it under taskset -c 0 with -cpu 1: -cpu holds Go's
// threads only, and OpenCV's own spread over every core they may (on two
// cores 58-69 ms a 1280x720 frame without taskset, a steady 67 with it).
func BenchmarkRead(b *testing.B) { benchRead(b, readSearch) }

// BenchmarkReadWithCorners times the same frames read with their true
// corners given: the cell reading without the grid search.
func BenchmarkReadWithCorners(b *testing.B) { benchRead(b, readCorners) }

// BenchmarkReadNear times the same frames read near their true corners
// knocked by up to a tenth of a pitch: a camera that stayed put since its
// grid was found (the calibration's, or the last frame's).
func BenchmarkReadNear(b *testing.B) { benchRead(b, readNear) }

// BenchmarkReadNearSure is BenchmarkReadNear on the frames whose hint is
// confirmed without the search (most frames at the table): the cost of
// reading every frame while the camera stays put.
func BenchmarkReadNearSure(b *testing.B) { benchRead(b, readNearSure) }

type readMode int

const (
	readSearch readMode = iota
	readCorners
	readNear
	readNearSure
)

func benchRead(b *testing.B, mode readMode) {
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			r := NewReader()
			defer r.Close()
			if err := r.UseCellNetworks(readFileList(b, "-solo", *soloFiles)...); err != nil {
				b.Fatal(err)
			}
			frames, truths := renderFrames(b, benchSeeds, size[0], size[1])
			var corners [][4][2]float64
			for k, seed := range benchSeeds {
				c := truths[k].Corners
				if mode == readNear || mode == readNearSure {
					c = sim.Nudge(c, 0.1, rand.New(rand.NewSource(seed)))
				}
				corners = append(corners, c)
			}
			if mode == readNearSure {
				var keep []gocv.Mat
				var kc [][4][2]float64
				for k, m := range frames {
					_, scale, err := r.prepare(m)
					if err != nil {
						b.Fatal(err)
					}
					if _, _, _, path := r.locateNearPath(corners[k], scale, m.Cols(), m.Rows()); path == nearSure {
						keep, kc = append(keep, m), append(kc, corners[k])
					}
				}
				if len(keep) == 0 {
					b.Fatal("no frame's hint was sure")
				}
				frames, corners = keep, kc
			}
			read := func(k int) {
				var err error
				switch mode {
				case readCorners:
					_, err = r.ReadWithCorners(frames[k], corners[k])
				case readNear, readNearSure:
					_, err = r.ReadNear(frames[k], corners[k])
				default:
					_, err = r.Read(frames[k])
				}
				if err != nil && !errors.Is(err, ErrNoGrid) {
					b.Fatal(err)
				}
			}
			// Every frame once off the clock: the networks' loading and
			// the buffers' first growth are the program's start-up, paid
			// once at the table (BenchmarkFirstRead times it), not a
			// frame's cost (they added about 3 ms a frame at 80 reads).
			for k := range frames {
				read(k)
			}
			b.ReportAllocs()
			b.ResetTimer()
			if mode == readNearSure {
				b.ReportMetric(float64(len(frames)), "frames")
			}
			for i := 0; i < b.N; i++ {
				read(i % len(frames))
			}
		})
	}
}

// BenchmarkFirstRead times a new Reader's first reading of a 1280x720
// frame: the start-up (the networks loaded and their buffers made) that
// the other benchmarks leave off the clock.
func BenchmarkFirstRead(b *testing.B) {
	frames, _ := renderFrames(b, benchSeeds[:1], 1280, 720)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := NewReader()
		if _, err := r.Read(frames[0]); err != nil && !errors.Is(err, ErrNoGrid) {
			b.Fatal(err)
		}
		r.Close()
	}
}

// manySeeds are BenchmarkReadMany's scenes: seeds no part of the reader
// was trained or tuned on, as many as make the share of crowded frames
// (where the grid search runs) about the sets' own. Of the eight
// benchSeeds one is such a frame, of the check sets' frames about two in
// five, so BenchmarkRead's mean is well under a frame's at the table.
var manySeeds = func() []int64 {
	var s []int64
	for seed := int64(30000); seed < 30048; seed++ {
		s = append(s, seed)
	}
	return s
}()

// BenchmarkReadMany times recognition alone per 1280x720 frame over
// manySeeds, rendered off the clock (about half a minute): the mean over
// frames like the check sets', easy and crowded.
func BenchmarkReadMany(b *testing.B) {
	r := NewReader()
	defer r.Close()
	frames, _ := renderFrames(b, manySeeds, 1280, 720)
	for _, m := range frames { // start-up off the clock, as in benchRead
		if _, err := r.Read(m); err != nil && !errors.Is(err, ErrNoGrid) {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(frames[i%len(frames)]); err != nil && !errors.Is(err, ErrNoGrid) {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadManyByPath times manySeeds' frames as BenchmarkReadMany
// does, apart by the way each took to its grid (one read off the clock
// tells): the corner network's grid standing (shortcut), or the search
// (search). Their shares make BenchmarkReadMany's mean: the search's
// frames are few and several times slower. Each stage's mean time is a
// metric too, as in BenchmarkReadStages.
func BenchmarkReadManyByPath(b *testing.B) {
	r := NewReader()
	defer r.Close()
	frames, _ := renderFrames(b, manySeeds, 1280, 720)
	var byPath [2][]gocv.Mat // shortcut, search
	for _, m := range frames {
		if _, err := r.Read(m); err != nil && !errors.Is(err, ErrNoGrid) {
			b.Fatal(err)
		}
		k := 0
		if r.searched {
			k = 1
		}
		byPath[k] = append(byPath[k], m)
	}
	for k, name := range []string{"shortcut", "search"} {
		group := byPath[k]
		if len(group) == 0 {
			continue
		}
		b.Run(name, func(b *testing.B) {
			report := stageMetrics(b, r)
			b.ReportAllocs()
			b.ReportMetric(float64(len(group))/float64(len(frames)), "share")
			for i := 0; i < b.N; i++ {
				if _, err := r.Read(group[i%len(group)]); err != nil && !errors.Is(err, ErrNoGrid) {
					b.Fatal(err)
				}
			}
			report()
		})
	}
}

// BenchmarkReadStages is BenchmarkReadMany with each stage's mean time a
// read (TraceTimes) as a metric of its own, in ms: where a typical frame's
// time goes, the stages a frame skips counting as nothing.
func BenchmarkReadStages(b *testing.B) {
	r := NewReader()
	defer r.Close()
	frames, _ := renderFrames(b, manySeeds, 1280, 720)
	b.ResetTimer()
	report := stageMetrics(b, r)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(frames[i%len(frames)]); err != nil && !errors.Is(err, ErrNoGrid) {
			b.Fatal(err)
		}
	}
	report()
}

// stageMetrics traces r's stage times (TraceTimes) until report, which
// stops it and gives each stage's mean a read as a metric, in ms.
func stageMetrics(b *testing.B, r *Reader) (report func()) {
	spent := StageTotals{}
	r.TraceTimes(spent.Add)
	return func() {
		r.TraceTimes(nil)
		for stage, s := range spent {
			b.ReportMetric(float64(s.Time.Microseconds())/1000/float64(b.N), stage+"-ms")
		}
	}
}

// renderFrames renders the seeds' scenes at w x h off the clock, as Mats
// closed when b ends, with their truths.
func renderFrames(b testing.TB, seeds []int64, w, h int) ([]gocv.Mat, []sim.Truth) {
	b.Helper()
	var frames []gocv.Mat
	var truths []sim.Truth
	for _, seed := range seeds {
		sc := sim.RandomScene(seed)
		sc.Width, sc.Height = w, h
		img, truth := sim.Render(sc)
		m, err := gocv.ImageToMatRGB(img)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { m.Close() })
		frames, truths = append(frames, m), append(truths, truth)
	}
	return frames, truths
}

// BenchmarkScoreCells times the render-and-compare search's scoring, an
// op every hypothesis of a frame's 25 cells (scoreCell), on the pose,
// colour model and reading each benchmark frame's read left (read off the
// clock). Within a read a call costs about half as much again: there its
// outlines are rasterised and its edge samples made on first use.
func BenchmarkScoreCells(b *testing.B) {
	onEachReadFrame(b, func(c *cellCtx) {
		for i := 0; i < 25; i++ {
			c.scoreCell(i)
		}
	})
}

// BenchmarkPreparePose times what a new pose costs the search before its
// first scoring: every cell's hypotheses' outlines drawn (prepare), then
// rasterised and edge-sampled as the first sweep does on first use. An op
// is one pose, on each benchmark frame's pose as its read left it; the
// eight frames' reads set up one to eight (3.4 on average).
func BenchmarkPreparePose(b *testing.B) {
	onEachReadFrame(b, func(c *cellCtx) {
		c.prepare()
		for i := 0; i < 25; i++ {
			for k := 0; k < nHyp; k++ {
				c.shapeRasters(i, k)
				for _, d := range c.shapes[i][k] {
					c.edgeRange(i, d)
				}
			}
		}
	})
}

// onEachReadFrame reads each benchmark frame off the clock and then times
// op on the cell state that read left, the frames taking turns over b.N.
func onEachReadFrame(b *testing.B, op func(c *cellCtx)) {
	r := NewReader()
	defer r.Close()
	frames, _ := renderFrames(b, benchSeeds, 1280, 720)
	b.ResetTimer()
	for f, frame := range frames {
		b.StopTimer()
		if _, err := r.Read(frame); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for n := f; n < b.N; n += len(frames) {
			op(&r.cc)
		}
	}
}

// BenchmarkCellNets times the cell networks on one frame's inputs: 25
// cells on the grid and on its four shifts.
func BenchmarkCellNets(b *testing.B) {
	rows := 25 * (len(netShifts) + 1)
	x := make([]float32, rows*netInputs)
	for j := range x {
		x[j] = float32(j%17) / 17
	}
	xs, hid := make([]float32, len(x)), make([]float32, rows*netHidden)
	out, one := make([][nHyp]float64, rows), make([][nHyp]float64, rows)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		builtinNet.forwardRows(x, xs, hid, out, one)
	}
}

// BenchmarkCornerNet times the corner network alone (shrinking the frame,
// the network, reading its maps) on a 1280x720 frame. Run it on one core
// (taskset -c 0): OpenCV's resize spreads over all cores it may, as its
// dnn did before useOwnCornerNets. -corneronnx tries another file.
func BenchmarkCornerNet(b *testing.B) {
	m, _ := benchFrame(b)
	defer m.Close()
	c := cornerNet{onnx: onnxFlag(b, *cornerONNX)}
	defer c.close()
	if _, _, err := c.guess(m); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := c.guess(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandNet times the hand network alone (shrinking the frame, the
// network) on a 1280x720 frame: what every read pays to refuse a frame
// with a hand over the board. Run it on one core (taskset -c 0).
func BenchmarkHandNet(b *testing.B) {
	m, _ := benchFrame(b)
	defer m.Close()
	n := &handNet{onnx: onnxFlag(b, *handONNX)}
	defer n.close()
	if _, err := n.logit(m); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := n.logit(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThirdLook times the third look alone (sampling the unsure
// cells' patches, the patch network) on a 1280x720 frame read at its true
// corners, once per cell reading. Run it on one core (taskset -c 0).
func BenchmarkThirdLook(b *testing.B) {
	m, truth := benchFrame(b)
	defer m.Close()
	var err error
	r := NewReader()
	defer r.Close()
	// The second look's reading is set aside and put back before each
	// third look, which adds to it.
	withoutPatchNet(func() { _, err = r.ReadWithCorners(m, truth.Corners) })
	if err != nil {
		b.Fatal(err)
	}
	lp := r.cc.netLP
	n := 0
	for i := range lp {
		if unsure(&lp[i]) {
			n++
		}
	}
	toFull := float64(r.full.w) / float64(r.px.w)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.cc.netLP = lp
		r.thirdLook(toFull)
	}
	// After ResetTimer, which drops the metrics reported before it.
	b.ReportMetric(float64(n), "unsure-cells")
}

// benchFrame renders the first benchmark scene (1280x720) off the clock,
// with its truth.
func benchFrame(b testing.TB) (gocv.Mat, sim.Truth) {
	b.Helper()
	img, truth := sim.Render(sim.RandomScene(benchSeeds[0]))
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		b.Fatal(err)
	}
	return m, truth
}

var soloFiles = flag.String("solo", "", "BenchmarkRead and its kin read the cells with these patch-only networks (comma-separated ONNX files, UseCellNetworks; a development flag: OpenCV 4.6 aborts on a file it cannot parse)")

var patchNetFile = flag.String("patchnetfile", "", "BenchmarkPatchNetAllCells times this ONNX file (the patch network's inputs, output \"corr\" of nHyp values a row) instead of the kept patch network (a development flag: OpenCV 4.6 aborts on a file it cannot parse)")

// BenchmarkPatchNetAllCells times a network on the patch network's inputs
// for all 25 cells of the first benchmark frame (read at its true corners,
// the patches sampled off the clock): the kept patch network (what the
// third look would cost were every cell unsure), or -patchnetfile's, such
// as a cell network trained on the patches alone (solonet_train.py). Run it
// on one core (taskset -c 0).
func BenchmarkPatchNetAllCells(b *testing.B) {
	m, truth := benchFrame(b)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	var err error
	withoutPatchNet(func() { _, err = r.ReadWithCorners(m, truth.Corners) })
	if err != nil {
		b.Fatal(err)
	}
	r.cc.samplePatches(&r.full, float64(r.full.w)/float64(r.px.w), allCells[:])
	pix, extra := r.cc.patchPix, r.cc.patchExtra
	net := &r.patch
	if *patchNetFile != "" {
		file, err := os.ReadFile(*patchNetFile)
		if err != nil {
			b.Fatal(err)
		}
		net = &patchNet{file: file}
		defer net.close()
	}
	if err := net.load(); err != nil { // off the clock
		b.Fatal(err)
	}
	var lp [25][nHyp]float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := net.correct(pix, extra, lp[:]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSamplePatches times sampling the third look's patches (every
// plane's) for all 25 cells of the first benchmark frame, read at its true
// corners: what a reading by patch-only networks pays besides them.
func BenchmarkSamplePatches(b *testing.B) {
	m, truth := benchFrame(b)
	defer m.Close()
	r := NewReader()
	defer r.Close()
	if _, err := r.ReadWithCorners(m, truth.Corners); err != nil {
		b.Fatal(err)
	}
	toFull := float64(r.full.w) / float64(r.px.w)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.cc.samplePatches(&r.full, toFull, allCells[:])
	}
}
