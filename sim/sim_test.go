package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"companion/observation"
)

func TestRenderDeterministic(t *testing.T) {
	for _, seed := range []int64{1, 7} {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			if !reflect.DeepEqual(RandomScene(seed), RandomScene(seed)) {
				t.Fatalf("RandomScene(%d) differs between calls", seed)
			}
			a, ta := Render(RandomScene(seed))
			b, tb := Render(RandomScene(seed))
			if !bytes.Equal(a.Pix, b.Pix) {
				t.Errorf("seed %d: two renders differ", seed)
			}
			if ta != tb {
				t.Errorf("seed %d: truths differ: %+v vs %+v", seed, ta, tb)
			}
		})
	}
}

func TestSeedsDiffer(t *testing.T) {
	a, b := RandomScene(1), RandomScene(2)
	if reflect.DeepEqual(a.Camera, b.Camera) || a.Board == b.Board && a.Style == b.Style {
		t.Error("seeds 1 and 2 drew the same scene")
	}
}

// TestEnvelope checks that every scene lies in TABLE.md's envelope and
// that the grid and the frame are wholly in view.
func TestEnvelope(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		s := RandomScene(seed)
		tr := TruthOf(s)
		c := s.Camera
		switch {
		case c.Elevation < 45 || c.Elevation > 90:
			t.Errorf("seed %d: elevation %.1f", seed, c.Elevation)
		case math.Abs(c.Azimuth) > 20:
			t.Errorf("seed %d: azimuth %.1f", seed, c.Azimuth)
		case math.Abs(c.Roll) > 4:
			t.Errorf("seed %d: roll %.1f", seed, c.Roll)
		case c.FOV < 40 || c.FOV > 65:
			t.Errorf("seed %d: fov %.1f", seed, c.FOV)
		case !(s.Width == 1280 && s.Height == 720 || s.Width == 1920 && s.Height == 1080):
			t.Errorf("seed %d: size %dx%d", seed, s.Width, s.Height)
		case s.JPEGQuality < 60 || s.JPEGQuality > 95:
			t.Errorf("seed %d: jpeg quality %d", seed, s.JPEGQuality)
		}
		if tr.GridFraction < 0.49 || tr.GridFraction > 0.91 {
			t.Errorf("seed %d: grid fills %.3f of the image height, want 0.5-0.9", seed, tr.GridFraction)
		}
		for i, p := range tr.Corners {
			if p[0] < 0 || p[1] < 0 || p[0] >= float64(s.Width) || p[1] >= float64(s.Height) {
				t.Errorf("seed %d: corner %d at %v is outside the image", seed, i, p)
			}
		}
		// Corner order: A1 top left, A5 top right, E5 bottom right, E1
		// bottom left, so the quadrilateral runs clockwise on screen.
		area := 0.0
		for i := range tr.Corners {
			p, q := tr.Corners[i], tr.Corners[(i+1)%4]
			area += p[0]*q[1] - q[0]*p[1]
		}
		if area <= 0 {
			t.Errorf("seed %d: corners %v are not clockwise on screen", seed, tr.Corners)
		}
		cam := newCamera(s.Camera, s.Width, s.Height)
		g := 2.5 + s.Style.FrameWidth
		for _, p := range []vec3{{-g, -g, s.Style.Height}, {g, -g, s.Style.Height}, {g, g, s.Style.Height}, {-g, g, s.Style.Height}} {
			x, y, ok := cam.project(p)
			if !ok || x < 0 || y < 0 || x >= float64(s.Width) || y >= float64(s.Height) {
				t.Errorf("seed %d: frame corner %v is out of view at (%.0f, %.0f)", seed, p, x, y)
			}
		}
		for _, sp := range s.Spares {
			if math.Max(math.Abs(sp.X), math.Abs(sp.Y)) < g+s.Style.Overhang+0.3 {
				t.Errorf("seed %d: spare %+v lies on the board", seed, sp)
			}
		}
		for _, pr := range s.Props {
			if math.Max(math.Abs(pr.X), math.Abs(pr.Y)) < g+s.Style.Overhang+0.3 {
				t.Errorf("seed %d: prop %+v lies on the board", seed, pr)
			}
		}
	}
}

func TestProjectInvertsRay(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		s := RandomScene(seed)
		cam := newCamera(s.Camera, s.Width, s.Height)
		for _, px := range [][2]float64{{0, 0}, {640, 360}, {1279, 719}, {100, 600}, {1200, 50}} {
			p := cam.pos.addScaled(cam.ray(px[0], px[1]), 17)
			x, y, ok := cam.project(p)
			if !ok || math.Abs(x-px[0]) > 1e-6 || math.Abs(y-px[1]) > 1e-6 {
				t.Errorf("seed %d: ray through %v projects back to (%g, %g)", seed, px, x, y)
			}
		}
	}
}

// TestProjection renders noiseless scenes of an empty board whose cells are
// red, frame blue and table green, and checks the pixels where the truth
// says cells, and the frame just outside the grid's corners, are.
func TestProjection(t *testing.T) {
	for _, seed := range []int64{2, 3, 11, 24, 69} {
		s := RandomScene(seed)
		s.Board = observation.Board{}
		s.Spares, s.Props = nil, nil
		s.Noise, s.Blur, s.Vignette, s.Sharpen, s.Aberration = 0, 0, 0, 0, 0
		s.Style.Cells, s.Style.CellVariation = Sand, 0
		s.Style.CellColour = RGB{0.5, 0.03, 0.03}
		s.Style.FrameColour = RGB{0.03, 0.03, 0.5}
		s.Table.Colour, s.Table.Colour2 = RGB{0.03, 0.4, 0.03}, RGB{0.03, 0.4, 0.03}
		img, tr := Render(s)
		cam := newCamera(s.Camera, s.Width, s.Height)
		top := s.Style.Height
		dominant := func(p vec3) int {
			x, y, _ := cam.project(p)
			c := img.RGBAAt(int(x), int(y))
			v := []int{int(c.R), int(c.G), int(c.B)}
			best := 0
			for i := range v {
				if v[i] > v[best] {
					best = i
				}
			}
			if v[best] < 2*max(v[(best+1)%3], v[(best+2)%3]) {
				return -1
			}
			return best
		}
		for r := 0; r < 5; r++ {
			for c := 0; c < 5; c++ {
				if got := dominant(vec3{float64(c - 2), float64(2 - r), top}); got != 0 {
					t.Errorf("seed %d: cell %c%d centre is not the cell colour (channel %d)", seed, 'A'+r, c+1, got)
				}
			}
		}
		f := s.Style.FrameWidth / 2
		for i, p := range gridCorners(top) {
			sx, sy := math.Copysign(1, p.x), math.Copysign(1, p.y)
			if got := dominant(vec3{p.x - 0.12*sx, p.y - 0.12*sy, top}); got != 0 {
				t.Errorf("seed %d: just inside corner %d is not the cell colour (channel %d)", seed, i, got)
			}
			if got := dominant(vec3{p.x + f*sx, p.y + f*sy, top}); got != 2 {
				t.Errorf("seed %d: the frame beyond corner %d is not the frame colour (channel %d)", seed, i, got)
			}
		}
		if got, want := tr.Board, s.Board; got != want {
			t.Errorf("seed %d: truth board %v, want %v", seed, got.Tokens(), want.Tokens())
		}
	}
}

func TestRandomBoard(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	empty, dense := 0, 0
	for n := 0; n < 5000; n++ {
		b := RandomBoard(rng)
		var counts [4]int
		blocks := 0
		for i, sq := range b {
			if sq.Level > 4 {
				t.Fatalf("board %d cell %d: level %d", n, i, sq.Level)
			}
			if sq.Level == 4 && sq.Occupant != observation.Empty {
				t.Fatalf("board %d cell %d: a pawn on a dome", n, i)
			}
			counts[sq.Occupant]++
			if sq.Level > 0 {
				blocks++
			}
		}
		for o := observation.Blue; o <= observation.Dark; o++ {
			if counts[o] > 2 {
				t.Fatalf("board %d: %d %v pawns", n, counts[o], o)
			}
		}
		if _, err := observation.Parse(b.Tokens()); err != nil {
			t.Fatalf("board %d: %v", n, err)
		}
		if blocks == 0 {
			empty++
		}
		if blocks >= 15 {
			dense++
		}
	}
	if empty < 100 || dense < 100 {
		t.Errorf("of 5000 boards %d have no blocks and %d at least 15; want both common", empty, dense)
	}
}

func TestWriteSample(t *testing.T) {
	dir := t.TempDir()
	const seed = 5
	imgPath, truthPath, err := WriteSample(dir, seed)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(imgPath) != "seed-5.jpg" || filepath.Base(truthPath) != "seed-5.json" {
		t.Errorf("paths %s, %s", imgPath, truthPath)
	}
	s := RandomScene(seed)
	data, err := os.ReadFile(truthPath)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Seed          int64
		Board         []string
		Corners       [4][2]float64
		Lighting      string
		Width, Height int
	}
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	b, err := observation.Parse(j.Board)
	if err != nil {
		t.Fatal(err)
	}
	if b != s.Board || j.Seed != seed || j.Lighting != s.Lighting || j.Width != s.Width || j.Height != s.Height {
		t.Errorf("truth file %s does not match the scene", data)
	}
	if want := TruthOf(s).Corners; j.Corners != want {
		t.Errorf("corners %v, want %v", j.Corners, want)
	}
	tr, err := LoadTruth(truthPath)
	if err != nil || tr != TruthOf(s) {
		t.Errorf("LoadTruth = %+v, %v; want %+v", tr, err, TruthOf(s))
	}
	f, err := os.ReadFile(imgPath)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != s.Width || r.Dy() != s.Height {
		t.Errorf("jpeg is %v, want %dx%d", r, s.Width, s.Height)
	}
}

func BenchmarkRender(b *testing.B) {
	var scenes []Scene
	for seed := int64(1); seed <= 4; seed++ {
		s := RandomScene(seed)
		s.Width, s.Height = 1280, 720
		scenes = append(scenes, s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Render(scenes[i%len(scenes)])
	}
}
