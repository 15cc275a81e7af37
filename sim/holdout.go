package sim

import "fmt"

// Seeds HoldOutFirst to HoldOutLast are kept for hold-outs: the trainers
// and data exports refuse them, so a reading of them measures the reader
// on scenes nothing was ever fitted to. Read so far: 100000-100499,
// 200000-200499 and 150000-150499. Seeds from HoldOutLast+1 on are
// free to train on (and some have been: 300000-308999 taught the pawn
// looks), so they are no hold-out.
const HoldOutFirst, HoldOutLast = 100000, 299999

// TouchesHoldOut reports whether seeds a-b reach into the hold-outs' span.
func TouchesHoldOut(a, b int64) bool { return b >= HoldOutFirst && a <= HoldOutLast }

// HoldOutShare says how many of seeds lie in the hold-outs' span, for a
// report to state whether its figures are a hold-out's.
func HoldOutShare(seeds []int64) string {
	in := 0
	for _, s := range seeds {
		if TouchesHoldOut(s, s) {
			in++
		}
	}
	switch {
	case len(seeds) > 0 && in == len(seeds):
		return fmt.Sprintf("all %d seeds in the hold-outs' span %d-%d (never trained on)", in, HoldOutFirst, HoldOutLast)
	case in == 0:
		return fmt.Sprintf("no seed in the hold-outs' span %d-%d: training may have seen these scenes, so this is no hold-out", HoldOutFirst, HoldOutLast)
	default:
		return fmt.Sprintf("%d of %d seeds in the hold-outs' span %d-%d; the others may have been trained on, so this is no hold-out", in, len(seeds), HoldOutFirst, HoldOutLast)
	}
}
