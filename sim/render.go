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
			c, id := tr.shade(cam.pos, d, tr.closest(cam.pos, d), 0, 0)
			i := y*W + x
			buf[3*i], buf[3*i+1], buf[3*i+2] = float32(c.r), float32(c.g), float32(c.b)
			ids[i] = id
		}
	})

	// Find edges: flag bit 0 where the thing seen changes (silhouettes,
	// windows), bit 1+k near where the edge of lamp k's shadow passes
	// (within the penumbra's likely width).
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
				} else {
					f |= uint8(ids[j]^id) & 7 << 1
				}
			}
			flags[i] = f
		}
	})
	dilate(flags, W, H, max(2, H/240))

	// Pass 2: supersample the edges, soften the shadows' edges, then expose
	// and encode.
	gain := s.WhiteBalance.lin().scale(s.Exposure)
	cx, cy := float64(W)/2, float64(H)/2
	r2 := 1 / (cx*cx + cy*cy)
	rgss := [4][2]float64{{0.375, 0.125}, {0.875, 0.375}, {0.625, 0.875}, {0.125, 0.625}}
	parallelRows(H, w, func(tr *tracer, y int) {
		for x := 0; x < W; x++ {
			i := y*W + x
			c := col{float64(buf[3*i]), float64(buf[3*i+1]), float64(buf[3*i+2])}
			f := flags[i]
			soft := f >> 1
			if soft != 0 {
				tr.rnd = hash3(uint32(x), uint32(y), w.seed)
				d := cam.ray(float64(x)+0.5, float64(y)+0.5)
				c, _ = tr.shade(cam.pos, d, tr.closest(cam.pos, d), soft, 12)
			}
			if f&1 != 0 {
				for k, o := range rgss {
					tr.rnd = hash3(uint32(x), uint32(y), w.seed+uint32(k)+1)
					d := cam.ray(float64(x)+o[0], float64(y)+o[1])
					sc, _ := tr.shade(cam.pos, d, tr.closest(cam.pos, d), soft, 6)
					c = c.add(sc)
				}
				c = c.scale(0.2)
			}
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			v := 1 - s.Vignette*(dx*dx+dy*dy)*r2
			c = c.mul(gain).scale(v)
			buf[3*i] = encodeSRGB(c.r)
			buf[3*i+1] = encodeSRGB(c.g)
			buf[3*i+2] = encodeSRGB(c.b)
		}
	})

	if s.Blur >= 0.2 {
		blur(buf, buf, W, H, s.Blur)
	}
	if s.Sharpen > 0 {
		// The camera's own sharpening: unsharp masking, with its halos.
		soft := getFloats(len(buf))
		defer floatPool.Put(soft)
		blur(soft, buf, W, H, 1.2)
		k := float32(s.Sharpen)
		for i, v := range buf {
			buf[i] = v + k*(v-soft[i])
		}
	}

	img := image.NewRGBA(image.Rect(0, 0, W, H))
	seed := hash32(w.seed + 0x51ed)
	ca := s.Aberration
	parallelRows(H, nil, func(_ *tracer, y int) {
		row := img.Pix[y*img.Stride:]
		// Each row has its own generator, so rows can run in any order.
		rng := uint64(hash3(uint32(y), seed, 1))<<32 | uint64(hash3(uint32(y), seed, 2)) | 1
		for x := 0; x < W; x++ {
			i := y*W + x
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			shared := gauss(uint32(rng))
			for ch := 0; ch < 3; ch++ {
				rng ^= rng << 13
				rng ^= rng >> 7
				rng ^= rng << 17
				v := float64(buf[3*i+ch])
				if ca != 0 && ch != 1 {
					// Lateral chromatic aberration: red and blue images
					// scaled a little about the centre, opposite ways.
					k := 1 + ca
					if ch == 2 {
						k = 1 - ca
					}
					v = sample(buf, W, H, cx+(float64(x)+0.5-cx)*k-0.5, cy+(float64(y)+0.5-cy)*k-0.5, ch)
				}
				sigma := s.Noise * (1.15 - 0.3*v)
				n := sigma * (0.6*shared + 0.8*gauss(uint32(rng>>32)))
				row[4*x+ch] = uint8(min(255, max(0, v*255+n+0.5)))
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
		Hand:      s.Hand != nil,
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

// sample reads channel ch of an RGB buffer at (x, y), bilinearly.
func sample(buf []float32, w, h int, x, y float64, ch int) float64 {
	x = min(max(x, 0), float64(w-1))
	y = min(max(y, 0), float64(h-1))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 { return float64(buf[3*(y*w+x)+ch]) }
	a := at(x0, y0) + (at(x1, y0)-at(x0, y0))*fx
	b := at(x0, y1) + (at(x1, y1)-at(x0, y1))*fx
	return a + (b-a)*fy
}

// blur writes to dst a separable Gaussian blur of the given sigma of the
// RGB buffer src; dst may be src.
func blur(dst, src []float32, w, h int, sigma float64) {
	buf := src
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
	blurPass(tmp, buf, w, h, k, 1, 0)
	blurPass(dst, tmp, w, h, k, 0, 1)
}

// blurPass convolves src with the kernel k along x (dx=1) or y (dy=1),
// clamping at the image's edges, into dst.
func blurPass(dst, src []float32, w, h int, k []float32, dx, dy int) {
	r := len(k) / 2
	parallelRows(h, nil, func(_ *tracer, y int) {
		for x := 0; x < w; x++ {
			var a, b, c float32
			for i := -r; i <= r; i++ {
				xx := min(max(x+i*dx, 0), w-1)
				yy := min(max(y+i*dy, 0), h-1)
				j := 3 * (yy*w + xx)
				kv := k[i+r]
				a += kv * src[j]
				b += kv * src[j+1]
				c += kv * src[j+2]
			}
			j := 3 * (y*w + x)
			dst[j], dst[j+1], dst[j+2] = a, b, c
		}
	})
}

// dilate spreads flag bits 1-3 of each pixel over the square of radius r
// around it.
func dilate(flags []uint8, w, h, r int) {
	const bits = 0x0e
	tmp := getBytes(len(flags))
	defer bytePool.Put(tmp)
	parallelRows(h, nil, func(_ *tracer, y int) {
		row, out := flags[y*w:(y+1)*w], tmp[y*w:(y+1)*w]
		for x := range out {
			var f uint8
			for i := max(x-r, 0); i <= min(x+r, w-1); i++ {
				f |= row[i]
			}
			out[x] = f & bits
		}
	})
	parallelRows(h, nil, func(_ *tracer, y int) {
		row := flags[y*w : (y+1)*w]
		for j := max(y-r, 0); j <= min(y+r, h-1); j++ {
			src := tmp[j*w : (j+1)*w]
			for x := range row {
				row[x] |= src[x]
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
