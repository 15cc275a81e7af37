package sim

import (
	"image"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Render draws the scene as the camera sees it, with optical blur and
// sensor noise but before JPEG compression, and tells what it shows. The
// same scene always gives the same pixels.
func Render(s Scene) (*image.RGBA, Truth) {
	w := build(&s)
	W, H := s.Width, s.Height
	buf := getFloats(3 * W * H)
	defer floatPool.Put(buf)
	ids := getIDs(W * H)
	defer idPool.Put(ids)
	cam := &w.cam

	// Pass 1: one ray through each pixel centre, hard shadows.
	parallelRows(H, w, func(tr *tracer, y int) {
		for x := 0; x < W; x++ {
			d := cam.ray(float64(x)+0.5, float64(y)+0.5)
			c, id := tr.shade(cam.pos, d, tr.closest(cam.pos, d), 0)
			i := y*W + x
			buf[3*i], buf[3*i+1], buf[3*i+2] = float32(c[0]), float32(c[1]), float32(c[2])
			ids[i] = id
		}
	})

	// Find edges: flag 1 where the thing seen changes (silhouettes,
	// windows), flag 2 near where a shadow's edge passes (within the
	// penumbra's likely width).
	flags := getBytes(W * H)
	defer bytePool.Put(flags)
	parallelRows(H, nil, func(_ *tracer, y int) {
		for x := 0; x < W; x++ {
			i := y*W + x
			id := ids[i]
			var f uint8
			for _, j := range [4]int{i - 1, i + 1, i - W, i + W} {
				if j < 0 || j >= W*H || (j == i-1 && x == 0) || (j == i+1 && x == W-1) {
					continue
				}
				if ids[j]>>3 != id>>3 {
					f |= 1
				} else if ids[j] != id {
					f |= 2
				}
			}
			flags[i] = f
		}
	})
	dilate(flags, W, H, max(2, H/240))
	lastFlags = append(lastFlags[:0], flags...)

	// Pass 2: supersample the edges, soften the shadows' edges, then expose
	// and encode.
	gain := s.WhiteBalance.scale(s.Exposure)
	cx, cy := float64(W)/2, float64(H)/2
	r2 := 1 / (cx*cx + cy*cy)
	rgss := [4][2]float64{{0.375, 0.125}, {0.875, 0.375}, {0.625, 0.875}, {0.125, 0.625}}
	parallelRows(H, w, func(tr *tracer, y int) {
		for x := 0; x < W; x++ {
			i := y*W + x
			c := RGB{float64(buf[3*i]), float64(buf[3*i+1]), float64(buf[3*i+2])}
			f := flags[i]
			ns := 0
			if f&2 != 0 {
				ns = 12
				tr.rnd = hash3(uint32(x), uint32(y), w.seed)
				d := cam.ray(float64(x)+0.5, float64(y)+0.5)
				c, _ = tr.shade(cam.pos, d, tr.closest(cam.pos, d), ns)
			}
			if f&1 != 0 {
				for k, o := range rgss {
					tr.rnd = hash3(uint32(x), uint32(y), w.seed+uint32(k)+1)
					d := cam.ray(float64(x)+o[0], float64(y)+o[1])
					sc, _ := tr.shade(cam.pos, d, tr.closest(cam.pos, d), ns/2)
					c = c.add(sc)
				}
				c = c.scale(0.2)
			}
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			v := 1 - s.Vignette*(dx*dx+dy*dy)*r2
			c = c.mul(gain).scale(v)
			buf[3*i] = encodeSRGB(c[0])
			buf[3*i+1] = encodeSRGB(c[1])
			buf[3*i+2] = encodeSRGB(c[2])
		}
	})

	if s.Blur >= 0.2 {
		blur(buf, W, H, s.Blur)
	}

	img := image.NewRGBA(image.Rect(0, 0, W, H))
	seed := hash32(w.seed + 0x51ed)
	parallelRows(H, nil, func(_ *tracer, y int) {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < W; x++ {
			i := y*W + x
			hp := hash3(uint32(x), uint32(y), seed)
			shared := gauss(hp)
			for ch := 0; ch < 3; ch++ {
				v := float64(buf[3*i+ch])
				sigma := s.Noise * (1.15 - 0.3*v)
				n := sigma * (0.6*shared + 0.8*gauss(hash32(hp+uint32(ch)+1)))
				row[4*x+ch] = uint8(max(0, min(255, math.Round(v*255+n))))
			}
			row[4*x+3] = 255
		}
	})
	return img, TruthOf(s)
}

// TruthOf is what Render(s) shows, without rendering: the board and the
// grid's corners projected by the render's camera.
func TruthOf(s Scene) Truth {
	cam := newCamera(s.Camera, s.Width, s.Height)
	t := Truth{
		Board:     s.Board,
		Elevation: s.Camera.Elevation,
		Azimuth:   s.Camera.Azimuth,
		Roll:      s.Camera.Roll,
		FOV:       s.Camera.FOV,
		Lighting:  s.Lighting,
		Seed:      s.Seed,
		Width:     s.Width,
		Height:    s.Height,
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, p := range gridCorners(s.Style.Height) {
		x, y, _ := cam.project(p)
		t.Corners[i] = [2]float64{x, y}
		lo, hi = min(lo, y), max(hi, y)
	}
	t.GridFraction = (hi - lo) / float64(s.Height)
	return t
}

// parallelRows calls fn for every row y in [0, h) on all cores, each
// goroutine with its own tracer when w is not nil.
func parallelRows(h int, w *world, fn func(tr *tracer, y int)) {
	n := runtime.GOMAXPROCS(0)
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tr *tracer
			if w != nil {
				tr = newTracer(w)
			}
			for {
				y := int(next.Add(1)) - 1
				if y >= h {
					return
				}
				fn(tr, y)
			}
		}()
	}
	wg.Wait()
}

var srgbTable = func() []float32 {
	t := make([]float32, 4097)
	for i := range t {
		t[i] = float32(linearToSRGB(float64(i) / 4096))
	}
	return t
}()

// encodeSRGB is linearToSRGB by table.
func encodeSRGB(v float64) float32 {
	if v <= 0 {
		return 0
	}
	if v >= 1 {
		return 1
	}
	f := v * 4096
	i := int(f)
	a := srgbTable[i]
	return a + (srgbTable[i+1]-a)*float32(f-float64(i))
}

// blur applies a separable Gaussian of the given sigma to an RGB buffer.
func blur(buf []float32, w, h int, sigma float64) {
	r := int(math.Ceil(3 * sigma))
	k := make([]float32, 2*r+1)
	var sum float32
	for i := -r; i <= r; i++ {
		v := float32(math.Exp(-float64(i*i) / (2 * sigma * sigma)))
		k[i+r] = v
		sum += v
	}
	for i := range k {
		k[i] /= sum
	}
	tmp := getFloats(len(buf))
	defer floatPool.Put(tmp)
	parallelRows(h, nil, func(_ *tracer, y int) {
		for x := 0; x < w; x++ {
			var a, b, c float32
			for i := -r; i <= r; i++ {
				xx := min(max(x+i, 0), w-1)
				j := 3 * (y*w + xx)
				kv := k[i+r]
				a += kv * buf[j]
				b += kv * buf[j+1]
				c += kv * buf[j+2]
			}
			j := 3 * (y*w + x)
			tmp[j], tmp[j+1], tmp[j+2] = a, b, c
		}
	})
	parallelRows(h, nil, func(_ *tracer, y int) {
		for x := 0; x < w; x++ {
			var a, b, c float32
			for i := -r; i <= r; i++ {
				yy := min(max(y+i, 0), h-1)
				j := 3 * (yy*w + x)
				kv := k[i+r]
				a += kv * tmp[j]
				b += kv * tmp[j+1]
				c += kv * tmp[j+2]
			}
			j := 3 * (y*w + x)
			buf[j], buf[j+1], buf[j+2] = a, b, c
		}
	})
}

// dilate spreads flag bit 2 of each pixel over the square of radius r
// around it.
func dilate(flags []uint8, w, h, r int) {
	tmp := getBytes(len(flags))
	defer bytePool.Put(tmp)
	parallelRows(h, nil, func(_ *tracer, y int) {
		row, out := flags[y*w:(y+1)*w], tmp[y*w:(y+1)*w]
		last := -1 << 30 // last x with the bit set
		for x := 0; x < w+r; x++ {
			if x < w && row[x]&2 != 0 {
				last = x
			}
			if x-r >= 0 {
				out[x-r] = 0
				if x-last <= 2*r {
					out[x-r] = 2
				}
			}
		}
	})
	parallelRows(w, nil, func(_ *tracer, x int) {
		last := -1 << 30
		for y := 0; y < h+r; y++ {
			if y < h && tmp[y*w+x] != 0 {
				last = y
			}
			if y-r >= 0 && y-last <= 2*r {
				flags[(y-r)*w+x] |= 2
			}
		}
	})
}

// Pools of the large scratch buffers, so that rendering many scenes does
// not keep the garbage collector busy.
var floatPool, idPool, bytePool sync.Pool

func getBytes(n int) []uint8 {
	if b, ok := bytePool.Get().([]uint8); ok && cap(b) >= n {
		return b[:n]
	}
	return make([]uint8, n)
}

func getFloats(n int) []float32 {
	if b, ok := floatPool.Get().([]float32); ok && cap(b) >= n {
		return b[:n]
	}
	return make([]float32, n)
}

func getIDs(n int) []uint32 {
	if b, ok := idPool.Get().([]uint32); ok && cap(b) >= n {
		return b[:n]
	}
	return make([]uint32, n)
}

var lastFlags []uint8
