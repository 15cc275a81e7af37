// Package accuracy measures the vision reader against the simulated table:
// each seed's scene is rendered by sim, JPEG-compressed at the scene's quality
// and decoded again like a real frame, read, and compared with the truth.
package accuracy

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"sort"
	"strings"
	"sync"

	"companion/observation"
	"companion/sim"
	"companion/vision"

	"gocv.io/x/gocv"
)

// Reader is what the harness measures; *vision.Reader satisfies it.
type Reader interface {
	Read(img gocv.Mat) (vision.Result, error)
}

// CornerReader also reads with given corners; *vision.Reader satisfies it.
type CornerReader interface {
	Reader
	ReadWithCorners(img gocv.Mat, corners [4][2]float64) (vision.Result, error)
}

// withTruth reads each frame with the true corners, to measure the cell
// reading apart from the localisation.
type withTruth struct {
	r       CornerReader
	sd      float64 // pitches the true corners are moved by (s.d.), 0 for none
	corners [4][2]float64
}

func (w *withTruth) Read(img gocv.Mat) (vision.Result, error) {
	return w.r.ReadWithCorners(img, w.corners)
}

// RunWithTrueCorners is Run with the localisation skipped: each frame is
// read with its true corners (CONTRACT's --corners).
func RunWithTrueCorners(ctx context.Context, seeds []int64, reader CornerReader, opts ...Option) Report {
	return run(ctx, seeds, &withTruth{r: reader}, opts)
}

// RunWithMovedCorners is RunWithTrueCorners with each true corner moved at
// random by sd pitches (s.d. on each axis, seeded by the frame's seed): it
// tells how much of what the true corners mend is their precision and how
// much the path that skips the localisation.
func RunWithMovedCorners(ctx context.Context, seeds []int64, reader CornerReader, sd float64, opts ...Option) Report {
	return run(ctx, seeds, &withTruth{r: reader, sd: sd}, opts)
}

// NearReader also reads near hinted corners; *vision.Reader satisfies it.
type NearReader interface {
	Reader
	ReadNear(img gocv.Mat, corners [4][2]float64) (vision.Result, error)
}

// withHint reads each frame near its true corners nudged by up to jitter
// pitches (sim.Nudge, seeded by the frame's seed): a camera that stayed put
// since its grid was found, give or take a knock.
type withHint struct {
	r       NearReader
	jitter  float64
	corners [4][2]float64
}

func (w *withHint) Read(img gocv.Mat) (vision.Result, error) {
	return w.r.ReadNear(img, w.corners)
}

// RunNear is Run with each frame read near a hinted grid: its true corners
// nudged by up to jitter pitches, as when the calibration's or the last
// frame's grid is known.
func RunNear(ctx context.Context, seeds []int64, reader NearReader, jitter float64, opts ...Option) Report {
	return run(ctx, seeds, &withHint{r: reader, jitter: jitter}, opts)
}

// LensReader is a reader that can be told its camera's field of view;
// *vision.Reader satisfies it.
type LensReader interface {
	SetFieldOfView(deg float64) error
}

// withFOV gives lens each frame's true field of view, then reads the frame
// as inner does (measure unwraps it).
type withFOV struct {
	inner Reader
	lens  LensReader
}

func (w *withFOV) Read(img gocv.Mat) (vision.Result, error) { return w.inner.Read(img) }

// Option changes how a run reads its frames.
type Option func(Reader) Reader

// TrueFOV gives lens, the Reader the run reads with, each frame's true
// field of view first: the reading as it would be with the camera's lens
// known (vision.Reader.SetFieldOfView).
func TrueFOV(lens LensReader) Option {
	return func(r Reader) Reader { return &withFOV{inner: r, lens: lens} }
}

// Sample is one seed's outcome.
type Sample struct {
	Seed      int64
	Elevation float64
	Azimuth   float64
	Lighting  string
	Truth     observation.Board
	Read      observation.Board
	Err       error      // the reader's error, if any
	Wrong     int        // cells whose token differs
	CornerPx  [4]float64 // corner errors in pixels
	Pitch     float64    // mean cell pitch in pixels
	Millis    float64
	Conf      [25]float64
	GridConf  float64 // the reader's grid confidence
	// Hidden marks the cells whose top or pawn the camera mostly cannot
	// see, nearer pieces standing in the way (sim.Sight).
	Hidden [25]bool
	// Unseen marks the cells whose pawn the camera cannot see at all
	// (sim.CellSight.Figure 0): no reader can know it is there.
	Unseen [25]bool
	// Sight is how much of each cell's top and pawn the camera sees.
	Sight [25]sim.CellSight
	// Twins are the tokens a cell out of sight could hold as well (twins),
	// its own first; nil for the others.
	Twins [25][]observation.Square
	// TwinsGuessedWrong counts the cells with twins that guessing the
	// commonest twin gets wrong (guessTwins sets it).
	TwinsGuessedWrong int
}

// WorstCorner is the sample's worst corner error, in pitches.
func (s Sample) WorstCorner() float64 {
	worst := 0.0
	for _, c := range s.CornerPx {
		worst = math.Max(worst, c/s.Pitch)
	}
	return worst
}

// Group is the figures for a subset of samples.
type Group struct {
	Name                      string
	Boards, Perfect, Failed   int
	Cells, Level, Occ, Tokens int
	CornerShares              []float64 // corner error / pitch, all corners
	// Seen and SeenTokens count the cells not hidden (Sample.Hidden) and
	// those read exactly right; SeenPerfect the boards with every such
	// cell right.
	Seen, SeenTokens, SeenPerfect int
	// CeilingPerfect counts the boards a reader right on every cell in
	// sight, guessing the rest as guessTwins does, would read perfectly.
	CeilingPerfect int
}

// Report is the harness outcome.
type Report struct {
	Samples   []Sample
	All       Group
	Bands     []Group // by camera elevation
	Lightings []Group
	Densities []Group // by how many cells are built (Density)
	// Confusion counts true class (row) against read class (column); the
	// classes are the 17 tokens 0,0B,0L,0D,...,3D,4 and, for reads only,
	// "fail" when the frame was not read at all.
	Confusion [17][18]int
	// Confidence calibration: correct and wrong cells by reported confidence.
	ConfHist [10][2]int
	// Hidden cells of the boards read: how many, read right, and read at
	// a confidence of sureConf or more (TABLE.md: a cell that cannot be
	// seen is never guessed with high confidence), and of those wrong.
	Hidden, HiddenRight, HiddenSure, HiddenSureWrong int
	// Unseen counts the pawns no point of which is in sight
	// (Sample.Unseen) on all boards, UnseenBoards the boards with one.
	Unseen, UnseenBoards int
	// Twinned counts the cells that have twins (Sample.Twins) on all
	// boards, TwinnedBoards the boards with one; TwinsMissed and
	// TwinsMissedBoards those a reader guessing each as its commonest twin
	// gets wrong (guessTwins); TwinsRead of them the reader read wrong
	// (a board not read counts every one).
	Twinned, TwinnedBoards, TwinsMissed, TwinsMissedBoards, TwinsRead int
	// Sure counts the cells read at sureConf or more, SureWrong those of
	// them wrong.
	Sure, SureWrong int
	// Of the boards read: AllSure have every cell sure (taken whole
	// without a question), AllSureWrong of them a cell wrong; SilentWrong
	// have a cell wrong yet sure; Asked counts the cells not sure.
	AllSure, AllSureWrong, SilentWrong, Asked int
}

// sureConf is the confidence from which a cell counts as read surely:
// the companion takes it without asking.
const sureConf = vision.SureConfidence

// Classes are the token classes of the confusion table.
var Classes = func() []string {
	var c []string
	for l := 0; l <= 3; l++ {
		for _, o := range []string{"", "B", "L", "D"} {
			c = append(c, fmt.Sprintf("%d%s", l, o))
		}
	}
	return append(c, "4")
}()

func classOf(s observation.Square) int {
	if s.Level >= 4 {
		return 16
	}
	return int(s.Level)*4 + int(s.Occupant)
}

// Render gives seed's frame as a decoded JPEG at the scene's quality (the
// caller must Close the Mat) and the truth.
func Render(seed int64) (gocv.Mat, sim.Truth, error) {
	data, truth, err := sim.Frame(seed)
	if err != nil {
		return gocv.NewMat(), truth, fmt.Errorf("seed %d: rendering: %w", seed, err)
	}
	m, err := vision.DecodeBytes(data)
	if err != nil {
		return m, truth, fmt.Errorf("seed %d: decoding: %w", seed, err)
	}
	return m, truth, nil
}

type rendered struct {
	seed  int64
	mat   gocv.Mat
	truth sim.Truth
	err   error
}

// Run renders and reads every seed. Rendering runs on all cores, a few
// frames ahead; reading runs on the calling goroutine (the reader is not
// shared). It stops early when ctx is done and reports what it has.
func Run(ctx context.Context, seeds []int64, reader Reader, opts ...Option) Report {
	return run(ctx, seeds, reader, opts)
}

func run(ctx context.Context, seeds []int64, reader Reader, opts []Option) Report {
	for _, o := range opts {
		reader = o(reader)
	}
	// sim.Render already uses every core; one renderer keeps a frame ahead.
	workers := 1
	out := make([]chan rendered, len(seeds))
	for i := range out {
		out[i] = make(chan rendered, 1)
	}
	tokens := make(chan struct{}, 2) // frames rendered but not yet read
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				m, t, err := Render(seeds[i])
				out[i] <- rendered{seeds[i], m, t, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range seeds {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var rep Report
	for i := range seeds {
		var rd rendered
		select {
		case rd = <-out[i]:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			if rd.mat.Ptr() != nil {
				rd.mat.Close()
			}
			break
		}
		rep.Samples = append(rep.Samples, measure(rd, reader))
		rd.mat.Close()
		<-tokens
	}
	// Let the producer stop, then close any frame rendered but not read.
	for {
		select {
		case <-tokens:
			continue
		default:
		}
		break
	}
	wg.Wait()
	for i := range out {
		select {
		case rd := <-out[i]:
			rd.mat.Close()
		default:
		}
	}
	rep.summarise()
	return rep
}

func measure(rd rendered, reader Reader) Sample {
	t := rd.truth
	s := Sample{Seed: rd.seed, Elevation: t.Elevation, Azimuth: t.Azimuth, Lighting: t.Lighting, Truth: t.Board}
	scene := sim.RandomScene(rd.seed)
	for i, c := range sim.Sight(scene) {
		s.Hidden[i] = c.Hidden()
		s.Unseen[i] = c.Figure == 0
		s.Sight[i] = c
		s.Twins[i] = twins(scene, i, c)
	}
	for i := 0; i < 4; i++ {
		a, b := t.Corners[i], t.Corners[(i+1)%4]
		s.Pitch += math.Hypot(a[0]-b[0], a[1]-b[1]) / 20
	}
	if rd.err != nil {
		s.Err = rd.err
		s.Wrong = 25
		return s
	}
	if wf, ok := reader.(*withFOV); ok {
		if err := wf.lens.SetFieldOfView(t.FOV); err != nil {
			s.Err = err
			s.Wrong = 25
			return s
		}
		reader = wf.inner
	}
	switch wr := reader.(type) {
	case *withTruth:
		wr.corners = t.Corners
		if wr.sd > 0 {
			rng := rand.New(rand.NewSource(rd.seed))
			for k := range wr.corners {
				wr.corners[k][0] += rng.NormFloat64() * wr.sd * s.Pitch
				wr.corners[k][1] += rng.NormFloat64() * wr.sd * s.Pitch
			}
		}
	case *withHint:
		wr.corners = sim.Nudge(t.Corners, wr.jitter, rand.New(rand.NewSource(rd.seed)))
	}
	res, err := reader.Read(rd.mat)
	if err != nil {
		s.Err = err
		s.Wrong = 25
		return s
	}
	s.Read = res.Board
	s.Millis = res.Millis
	s.Conf = res.Confidence
	s.GridConf = res.GridConfidence
	for i := 0; i < 4; i++ {
		s.CornerPx[i] = math.Hypot(res.Corners[i][0]-t.Corners[i][0], res.Corners[i][1]-t.Corners[i][1])
	}
	for i := range s.Truth {
		if s.Truth[i] != s.Read[i] {
			s.Wrong++
		}
	}
	return s
}

func (g *Group) add(s Sample) {
	g.Boards++
	if s.TwinsGuessedWrong == 0 {
		g.CeilingPerfect++
	}
	for _, h := range s.Hidden {
		if !h {
			g.Seen++
		}
	}
	if s.Err != nil {
		g.Failed++
		g.Cells += 25
		return
	}
	if s.Wrong == 0 {
		g.Perfect++
	}
	seenWrong := 0
	for i := range s.Truth {
		if !s.Hidden[i] {
			if s.Truth[i] == s.Read[i] {
				g.SeenTokens++
			} else {
				seenWrong++
			}
		}
		g.Cells++
		if s.Truth[i].Level == s.Read[i].Level {
			g.Level++
		}
		if s.Truth[i].Occupant == s.Read[i].Occupant {
			g.Occ++
		}
		if s.Truth[i] == s.Read[i] {
			g.Tokens++
		}
	}
	if seenWrong == 0 {
		g.SeenPerfect++
	}
	for _, c := range s.CornerPx {
		g.CornerShares = append(g.CornerShares, c/s.Pitch)
	}
}

// Band names the elevation band of a camera elevation in degrees.
func Band(el float64) string {
	switch {
	case el < 60:
		return "45-60"
	case el < 75:
		return "60-75"
	}
	return "75-90"
}

// Density names the band of a board's built cells (a level of 1 or more):
// crowded boards hide the dividers, so readers fare differently on them.
func Density(b observation.Board) string {
	n := b.Built()
	switch {
	case n < 10:
		return "00-09"
	case n < 15:
		return "10-14"
	case n < 20:
		return "15-19"
	}
	return "20-25"
}

func (rep *Report) summarise() {
	rep.All = Group{Name: "all"}
	rep.Twinned, rep.TwinnedBoards, rep.TwinsMissed, rep.TwinsMissedBoards = guessTwins(rep.Samples)
	for _, s := range rep.Samples {
		for i, tw := range s.Twins {
			if len(tw) > 0 && (s.Err != nil || s.Read[i] != s.Truth[i]) {
				rep.TwinsRead++
			}
		}
	}
	bands := map[string]*Group{}
	lights := map[string]*Group{}
	dens := map[string]*Group{}
	for _, s := range rep.Samples {
		rep.All.add(s)
		d := Density(s.Truth)
		if dens[d] == nil {
			dens[d] = &Group{Name: "built cells " + d}
		}
		dens[d].add(s)
		b := Band(s.Elevation)
		if bands[b] == nil {
			bands[b] = &Group{Name: "elevation " + b}
		}
		bands[b].add(s)
		if lights[s.Lighting] == nil {
			lights[s.Lighting] = &Group{Name: "lighting " + s.Lighting}
		}
		lights[s.Lighting].add(s)
		unseen := 0
		for _, u := range s.Unseen {
			if u {
				unseen++
			}
		}
		rep.Unseen += unseen
		if unseen > 0 {
			rep.UnseenBoards++
		}
		if s.Err == nil {
			asked, silent := 0, false
			for i := range s.Truth {
				if s.Conf[i] < sureConf {
					asked++
				} else if s.Truth[i] != s.Read[i] {
					silent = true
				}
			}
			rep.Asked += asked
			if silent {
				rep.SilentWrong++
			}
			if asked == 0 {
				rep.AllSure++
				if s.Wrong > 0 {
					rep.AllSureWrong++
				}
			}
		}
		for i := range s.Truth {
			tc := classOf(s.Truth[i])
			if s.Err != nil {
				rep.Confusion[tc][17]++
				continue
			}
			rep.Confusion[tc][classOf(s.Read[i])]++
			if s.Hidden[i] {
				right := s.Truth[i] == s.Read[i]
				rep.Hidden++
				if right {
					rep.HiddenRight++
				}
				if s.Conf[i] >= sureConf {
					rep.HiddenSure++
					if !right {
						rep.HiddenSureWrong++
					}
				}
			}
			if s.Conf[i] >= sureConf {
				rep.Sure++
				if s.Truth[i] != s.Read[i] {
					rep.SureWrong++
				}
			}
			k := int(s.Conf[i] * 10)
			k = max(0, min(9, k))
			if s.Truth[i] == s.Read[i] {
				rep.ConfHist[k][0]++
			} else {
				rep.ConfHist[k][1]++
			}
		}
	}
	rep.Bands = sortedGroups(bands)
	rep.Lightings = sortedGroups(lights)
	rep.Densities = sortedGroups(dens)
}

func sortedGroups(m map[string]*Group) []Group {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Group
	for _, k := range keys {
		out = append(out, *m[k])
	}
	return out
}

// CellAccuracy is the share of cells read exactly (level and occupant).
func (g Group) CellAccuracy() float64 { return ratio(g.Tokens, g.Cells) }

// SeenAccuracy is the share of the cells not hidden read exactly right
// (a frame not read counts its seen cells wrong).
func (g Group) SeenAccuracy() float64 { return ratio(g.SeenTokens, g.Seen) }

// SeenPerfectShare is the share of boards whose seen cells all read right.
func (g Group) SeenPerfectShare() float64 { return ratio(g.SeenPerfect, g.Boards) }

// PerfectShare is the share of boards read with every cell right.
func (g Group) PerfectShare() float64 { return ratio(g.Perfect, g.Boards) }

// CornerQuantile gives the q-quantile of the corner error as a share of
// the cell pitch (NaN when no corners were measured).
func (g Group) CornerQuantile(q float64) float64 { return quantile(g.CornerShares, q) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(q * float64(len(s)-1))
	return s[i]
}

// CornerPxQuantile gives the q-quantile of the corner errors in pixels.
func (rep Report) CornerPxQuantile(q float64) float64 {
	var v []float64
	for _, s := range rep.Samples {
		if s.Err == nil {
			v = append(v, s.CornerPx[:]...)
		}
	}
	return quantile(v, q)
}

// rightGrids gives how many boards were read with the grid right (every
// corner within a quarter pitch), and those grids' corner errors as shares
// of the pitch.
func (rep Report) rightGrids() (int, []float64) {
	n := 0
	var shares []float64
	for _, s := range rep.Samples {
		if s.Err != nil {
			continue
		}
		worst := s.WorstCorner()
		if worst < 0.25 {
			n++
			for _, c := range s.CornerPx {
				shares = append(shares, c/s.Pitch)
			}
		}
	}
	return n, shares
}

// RightGridCornerQuantile is the q-quantile of the corner errors (shares
// of the pitch) of the grids read right: how precise a grid found is,
// apart from how often the right one is found.
func (rep Report) RightGridCornerQuantile(q float64) float64 {
	_, shares := rep.rightGrids()
	return quantile(shares, q)
}

// WriteText writes the report for people.
func (rep Report) WriteText(w io.Writer) {
	seeds := make([]int64, len(rep.Samples))
	for i, s := range rep.Samples {
		seeds[i] = s.Seed
	}
	// Figures are only a hold-out's on seeds no training saw.
	fmt.Fprintf(w, "seeds: %s\n", sim.HoldOutShare(seeds))
	fmt.Fprintf(w, "boards %d, read %d, failed %d\n", rep.All.Boards, rep.All.Boards-rep.All.Failed, rep.All.Failed)
	fmt.Fprintf(w, "cells exactly right %.2f%% (level %.2f%%, occupant %.2f%%); boards perfect %.1f%%\n",
		100*rep.All.CellAccuracy(), 100*ratio(rep.All.Level, rep.All.Cells), 100*ratio(rep.All.Occ, rep.All.Cells), 100*rep.All.PerfectShare())
	fmt.Fprintf(w, "corner error (boards read): median %.2f px (%.2f%% of pitch), p95 %.2f px (%.2f%% of pitch)\n",
		rep.CornerPxQuantile(0.5), 100*rep.All.CornerQuantile(0.5), rep.CornerPxQuantile(0.95), 100*rep.All.CornerQuantile(0.95))
	readCells, readRight := 0, 0
	for _, s := range rep.Samples {
		if s.Err == nil {
			readCells += 25
			readRight += 25 - s.Wrong
		}
	}
	goodGrids, goodShares := rep.rightGrids()
	if n := rep.All.Boards - rep.All.Failed; n > 0 {
		fmt.Fprintf(w, "on the %d boards read: cells exactly right %.2f%%, grid right (every corner within 1/4 pitch) %d (%.1f%%)\n",
			n, 100*ratio(readRight, readCells), goodGrids, 100*ratio(goodGrids, n))
		fmt.Fprintf(w, "corner error on the grids right: median %.2f%% of pitch, p95 %.2f%%\n",
			100*quantile(goodShares, 0.5), 100*quantile(goodShares, 0.95))
	}
	fmt.Fprintf(w, "cells the camera sees (sim.Sight): %d of %d, exactly right %.2f%%; boards with every seen cell right %.1f%%\n",
		rep.All.Seen, rep.All.Boards*25, 100*rep.All.SeenAccuracy(), 100*rep.All.SeenPerfectShare())
	fmt.Fprintf(w, "hidden cells on the boards read: %d, right %d, read at confidence %.2f or more %d (%d of them wrong)\n",
		rep.Hidden, rep.HiddenRight, sureConf, rep.HiddenSure, rep.HiddenSureWrong)
	// A pawn wholly out of sight cannot be read by anyone: the targets are
	// judged against what is left.
	fmt.Fprintf(w, "pawns wholly out of the camera's sight: %d, on %d boards; a reader right on every other cell reads at most %.2f%% of cells and %.1f%% of boards perfect\n",
		rep.Unseen, rep.UnseenBoards, 100*(1-ratio(rep.Unseen, 25*rep.All.Boards)), 100*(1-ratio(rep.UnseenBoards, rep.All.Boards)))
	// Nor can anyone tell a cell out of sight from its twins: the best is a
	// guess, the commonest token among them.
	fmt.Fprintf(w, "cells out of sight that could hold another token out of sight too: %d, on %d boards, %d of them read wrong; guessing each as the commonest, a reader right on every other cell reads at most %.2f%% of cells and %.1f%% of boards perfect\n",
		rep.Twinned, rep.TwinnedBoards, rep.TwinsRead, 100*(1-ratio(rep.TwinsMissed, 25*rep.All.Boards)), 100*(1-ratio(rep.TwinsMissedBoards, rep.All.Boards)))
	read := 0
	for _, h := range rep.ConfHist {
		read += h[0] + h[1]
	}
	fmt.Fprintf(w, "cells read at confidence %.2f or more (taken without asking): %d of %d read (%.1f%%), %d of them wrong (%.2f%%)\n",
		sureConf, rep.Sure, read, 100*float64(rep.Sure)/math.Max(1, float64(read)), rep.SureWrong, 100*float64(rep.SureWrong)/math.Max(1, float64(rep.Sure)))
	boardsRead := rep.All.Boards - rep.All.Failed
	fmt.Fprintf(w, "boards read: cells not sure (asked) %.1f a board; every cell sure %d (%d of them with a cell wrong); a cell wrong yet sure %d\n",
		float64(rep.Asked)/math.Max(1, float64(boardsRead)), rep.AllSure, rep.AllSureWrong, rep.SilentWrong)
	var ms []float64
	for _, s := range rep.Samples {
		if s.Err == nil {
			ms = append(ms, s.Millis)
		}
	}
	fmt.Fprintf(w, "recognition time: median %.1f ms, p95 %.1f ms (all cores, see BenchmarkRead for one core)\n\n", quantile(ms, 0.5), quantile(ms, 0.95))
	fmt.Fprintf(w, "%-22s %6s %8s %8s %9s %9s %7s %8s %9s\n", "group", "boards", "cells%", "perfect%", "corner50%", "corner95%", "seen%", "seenbd%", "ceiling%")
	groups := append(append([]Group{rep.All}, rep.Bands...), rep.Lightings...)
	for _, g := range append(groups, rep.Densities...) {
		fmt.Fprintf(w, "%-22s %6d %8.2f %8.1f %9.2f %9.2f %7.2f %8.1f %9.1f\n", g.Name, g.Boards, 100*g.CellAccuracy(), 100*g.PerfectShare(),
			100*g.CornerQuantile(0.5), 100*g.CornerQuantile(0.95), 100*g.SeenAccuracy(), 100*g.SeenPerfectShare(), 100*ratio(g.CeilingPerfect, g.Boards))
	}
	fmt.Fprintf(w, "\nconfusion (rows true, columns read; only non-empty rows):\n%5s", "")
	for _, c := range Classes {
		fmt.Fprintf(w, "%5s", c)
	}
	fmt.Fprintf(w, "%5s\n", "fail")
	for t, row := range rep.Confusion {
		n := 0
		for _, v := range row {
			n += v
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(w, "%5s", Classes[t])
		for _, v := range row {
			if v == 0 {
				fmt.Fprintf(w, "%5s", ".")
			} else {
				fmt.Fprintf(w, "%5d", v)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nconfidence calibration (confidence band: right/wrong cells):\n")
	for k, c := range rep.ConfHist {
		if c[0]+c[1] > 0 {
			fmt.Fprintf(w, "  %.1f-%.1f: %d/%d\n", float64(k)/10, float64(k+1)/10, c[0], c[1])
		}
	}
	var fails []string
	for _, s := range rep.Samples {
		if s.Err != nil {
			fails = append(fails, fmt.Sprintf("  seed %d (el %.0f, az %.0f, %s): %v", s.Seed, s.Elevation, s.Azimuth, s.Lighting, s.Err))
		} else if s.Wrong > 0 {
			var d []string
			for i := range s.Truth {
				if s.Truth[i] != s.Read[i] {
					hidden := ""
					if s.Hidden[i] {
						hidden = " hidden"
					}
					d = append(d, fmt.Sprintf("%c%d %s->%s(%.2f%s)", 'A'+i/5, i%5+1, s.Truth[i], s.Read[i], s.Conf[i], hidden))
				}
			}
			fails = append(fails, fmt.Sprintf("  seed %d (el %.0f, az %.0f, %s): %s", s.Seed, s.Elevation, s.Azimuth, s.Lighting, strings.Join(d, ", ")))
		}
	}
	fmt.Fprintf(w, "\nfailing seeds (%d; cells marked hidden are mostly out of the camera's sight):\n", len(fails))
	for _, f := range fails {
		fmt.Fprintln(w, f)
	}
}
