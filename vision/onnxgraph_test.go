package vision

import (
	"strings"
	"testing"
)

func TestParseONNXReadsTheEmbeddedNetworks(t *testing.T) {
	for _, c := range []struct {
		what   string
		file   []byte
		inputs string
		convs  int
	}{
		{"patch", patchNetONNX, "patch extra", 8},
		{"refine", refineNetONNX, "patch", 8},
		{"corner", cornerNetONNX, "frame", 12},
		{"hand", handNetONNX, "frame", 6},
	} {
		g, err := parseONNX(c.file)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if got := strings.Join(g.inputs, " "); got != c.inputs {
			t.Errorf("%s: inputs %q, want %q", c.what, got, c.inputs)
		}
		convs := 0
		for _, n := range g.nodes {
			if n.op == "Conv" {
				convs++
				w := g.consts[n.inputs[1]]
				if w == nil || len(w.dims) != 4 || len(w.floats) == 0 {
					t.Errorf("%s: a convolution without its weights", c.what)
				}
			}
		}
		if convs != c.convs {
			t.Errorf("%s: %d convolutions, want %d", c.what, convs, c.convs)
		}
	}
}

func TestParseONNXRefusesBrokenFiles(t *testing.T) {
	for _, c := range []struct {
		what string
		file []byte
	}{
		{"empty", nil},
		{"text", []byte("not a model at all")},
		{"truncated", patchNetONNX[:len(patchNetONNX)/2]},
		{"a length past the end", []byte{0x3a, 0xff, 0x01, 0x00}},
	} {
		if _, err := parseONNX(c.file); err == nil {
			t.Errorf("%s: no error", c.what)
		}
	}
}

// FuzzParseONNX: any bytes give a graph or an error, never a panic, and
// convNet refuses what it cannot run rather than failing later.
func FuzzParseONNX(f *testing.F) {
	f.Add(handNetONNX[:2048])
	f.Add(refineNetONNX[:4096])
	f.Add([]byte{0x3a, 0x04, 0x0a, 0x02, 0x22, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := parseONNX(b)
		if err != nil {
			return
		}
		for name, c := range g.consts {
			n := int64(1)
			for _, d := range c.dims {
				n *= d
			}
			if n != int64(len(c.floats)+len(c.ints)) {
				t.Fatalf("constant %q: %d values for dims %v", name, len(c.floats)+len(c.ints), c.dims)
			}
		}
		newConvNet(b, map[string][]int{"frame": {3, 16, 16}, "patch": {4, 8, 8}, "extra": {3}})
	})
}
