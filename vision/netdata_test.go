package vision

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"companion/sim"
)

// exportSeeds are the sim seeds of ranges ("a-b,c-d") a network's data
// export writes: training seeds (check false) must not be the hold-out's
// or the regression suite's, no seed the hold-out's; with onlyCached,
// those not rendered into COMPANION_SIM_CACHE are skipped rather than
// rendered.
func exportSeeds(t *testing.T, ranges string, check, onlyCached bool) []int64 {
	cache := os.Getenv("COMPANION_SIM_CACHE")
	var seeds []int64
	for _, rg := range strings.Split(ranges, ",") {
		a, b := seedRange(t, rg, !check)
		if sim.TouchesHoldOut(a, b) {
			t.Fatalf("seeds %d-%d are the hold-outs: never look at them while training", sim.HoldOutFirst, sim.HoldOutLast)
		}
		for s := a; s <= b; s++ {
			if onlyCached && cache != "" {
				if _, err := os.Stat(fmt.Sprintf("%s/seed-%d.jpg", cache, s)); err != nil {
					continue
				}
			}
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// exportFiles are a data export's buffered files, PREFIX_SUFFIX each.
type exportFiles struct {
	files []*os.File
	w     []*bufio.Writer
}

func createExport(t *testing.T, prefix string, suffixes ...string) *exportFiles {
	e := &exportFiles{}
	for _, s := range suffixes {
		f, err := os.Create(prefix + s)
		if err != nil {
			t.Fatal(err)
		}
		e.files = append(e.files, f)
		e.w = append(e.w, bufio.NewWriter(f))
	}
	return e
}

// close flushes and closes every file.
func (e *exportFiles) close(t *testing.T) {
	for i, f := range e.files {
		if err := e.w[i].Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// readFileList reads the files named in list (comma-separated; none when
// empty), given by the flag called name.
func readFileList(tb testing.TB, name, list string) [][]byte {
	var out [][]byte
	if list == "" {
		return nil
	}
	for _, f := range strings.Split(list, ",") {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out = append(out, b)
	}
	return out
}
