package vision

import "time"

// The stages of a read that TraceTimes reports, in the order they run.
// Only those a read takes are reported: a frame whose corner network's
// grid stands has no "search" and no "pick", a read with the corners
// given has none of the grid's stages.
const (
	StagePrepare  = "prepare"  // the frame checked, shrunk and made grey
	StageHand     = "hand"     // the hand network (is the frame settled?)
	StageCorner   = "corner"   // the corner network's guess
	StageShortcut = "shortcut" // that guess refined, and whether it stands
	StageSearch   = "search"   // the second corner network and the full search
	StageNear     = "near"     // a hint refined (ReadNear), or the search about it
	StageFirst    = "first"    // the first reading of the cells
	StagePick     = "pick"     // other grids' cells read, and the one picked read
	StageChecks   = "checks"   // the board test and the reading on the refit
	StageRefine   = "refine"   // the refinement network's grid on weak grids
	StageLooks    = "looks"    // the third, tier, pawn and dome looks
	StageFinish   = "finish"   // the confidences and the solo look
)

// Stages are the Stage constants in the order a read runs them.
var Stages = []string{
	StagePrepare, StageHand, StageCorner, StageShortcut, StageSearch, StageNear,
	StageFirst, StagePick, StageChecks, StageRefine, StageLooks, StageFinish,
}

// StageTotal is a stage's time over many reads, and how many times it ran.
type StageTotal struct {
	Time time.Duration
	Runs int
}

// StageTotals adds up each stage's time over many reads: its Add is a
// TraceTimes hook.
type StageTotals map[string]StageTotal

// Add counts one run of stage, d long.
func (t StageTotals) Add(stage string, d time.Duration) {
	s := t[stage]
	t[stage] = StageTotal{s.Time + d, s.Runs + 1}
}

// TraceTimes has f receive how long each stage of the reads that follow
// took (the Stage constants), nil to stop. Where Read falls back to
// reading near the corner network's grid, the second pass's stages follow
// the first's, so the stages of one Read add up to its time. A
// development aid: the speed target is a redesign's, and this shows where
// a frame's time goes (BenchmarkReadStages) without a profiler.
func (r *Reader) TraceTimes(f func(stage string, d time.Duration)) { r.traceTimes = f }

// lap gives the TraceTimes hook, if any, the time since *t as stage's,
// and starts the next stage's time.
func (r *Reader) lap(stage string, t *time.Time) {
	if r.traceTimes == nil {
		return
	}
	now := time.Now()
	r.traceTimes(stage, now.Sub(*t))
	*t = now
}
