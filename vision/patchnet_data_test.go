package vision

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"
)

var (
	patchData  = flag.String("patchdata", "", "write the patch network's training cells for these sim seeds (ranges a-b,c-d) to -patchout")
	patchOut   = flag.String("patchout", "", "with -patchdata: the files' prefix (PREFIX_pix.bin, PREFIX_extra.bin, PREFIX_label.bin, PREFIX_seeds.txt)")
	patchCheck = flag.Bool("patchcheck", false, "with -patchdata: the seeds are check seeds (any seeds but the hold-out may be written)")
	patchJit   = flag.Float64("patchjitter", 0.04, "with -patchdata: the true corners are moved by this many pitches (s.d.) before each reading")
	patchReps  = flag.Int("patchreps", 1, "with -patchdata: readings per seed")
)

// patchRecord is one cell's third-look inputs and its truth.
type patchRecord struct {
	pix   []uint8
	extra []float32
	label uint8
	seed  int64
}

// TestPatchNetData writes the patch network's training or check cells
// (development step; scripts/train-patchnet.sh runs it): each seed in
// COMPANION_SIM_CACHE read at its true corners moved a few hundredths of
// a pitch, with the third look off, and every cell's patches (uint8,
// patchPixels each), extra inputs (little-endian float32, patchExtra
// each), true hypothesis (one byte) and seed (one a line).
func TestPatchNetData(t *testing.T) {
	if *patchData == "" || *patchOut == "" {
		t.Skip("run with -patchdata A-B[,C-D] -patchout PREFIX")
	}
	var seeds []int64
	cache := os.Getenv("COMPANION_SIM_CACHE")
	for _, rg := range strings.Split(*patchData, ",") {
		a, b := seedRange(t, rg, !*patchCheck)
		if b >= 100000 {
			t.Fatal("seeds from 100000 are the hold-out: never look at them while training")
		}
		for s := a; s <= b; s++ {
			if cache != "" {
				if _, err := os.Stat(fmt.Sprintf("%s/seed-%d.jpg", cache, s)); err != nil {
					continue
				}
			}
			seeds = append(seeds, s)
		}
	}
	defer func(u bool) { usePatchNet = u }(usePatchNet)
	usePatchNet = false
	const workers = 2
	parts := make([][]patchRecord, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewReader()
			defer r.Close()
			r.collectPatches = true
			for j := w; j < len(seeds); j += workers {
				s := seeds[j]
				m, truth, err := loadSimFrame(s)
				if err != nil {
					errs[w] = err
					return
				}
				pitch := math.Hypot(truth.Corners[1][0]-truth.Corners[0][0], truth.Corners[1][1]-truth.Corners[0][1]) / 5
				rng := rand.New(rand.NewSource(s + 13))
				for rep := 0; rep < *patchReps; rep++ {
					c := truth.Corners
					for k := range c {
						c[k][0] += rng.NormFloat64() * *patchJit * pitch
						c[k][1] += rng.NormFloat64() * *patchJit * pitch
					}
					if _, err := r.ReadWithCorners(m, c); err != nil || len(r.cc.patchPix) != 25*patchPixels {
						continue
					}
					for i := 0; i < 25; i++ {
						parts[w] = append(parts[w], patchRecord{
							pix:   append([]uint8(nil), r.cc.patchPix[i*patchPixels:(i+1)*patchPixels]...),
							extra: append([]float32(nil), r.cc.patchExtra[i*patchExtra:(i+1)*patchExtra]...),
							label: uint8(hypIndex(truth.Board[i])),
							seed:  s,
						})
					}
				}
				m.Close()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	create := func(suffix string) (*os.File, *bufio.Writer) {
		f, err := os.Create(*patchOut + suffix)
		if err != nil {
			t.Fatal(err)
		}
		return f, bufio.NewWriter(f)
	}
	fp, wp := create("_pix.bin")
	fe, we := create("_extra.bin")
	fl, wl := create("_label.bin")
	fs, ws := create("_seeds.txt")
	n := 0
	for _, p := range parts {
		for _, rec := range p {
			wp.Write(rec.pix)
			if err := binary.Write(we, binary.LittleEndian, rec.extra); err != nil {
				t.Fatal(err)
			}
			wl.WriteByte(rec.label)
			fmt.Fprintln(ws, rec.seed)
			n++
		}
	}
	for _, f := range []struct {
		f *os.File
		w *bufio.Writer
	}{{fp, wp}, {fe, we}, {fl, wl}, {fs, ws}} {
		if err := f.w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d cells of %d seeds to %s_*", n, len(seeds), *patchOut)
}
