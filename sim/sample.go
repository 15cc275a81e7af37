package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"

	"companion/observation"
)

// EncodeJPEG is the camera's compression step: img as a baseline JPEG at
// quality (1-100).
func EncodeJPEG(img image.Image, quality int) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: quality}); err != nil {
		return nil, fmt.Errorf("sim: encoding jpeg: %w", err)
	}
	return b.Bytes(), nil
}

// RenderJPEG renders scene s as the camera delivers it: JPEG bytes at the
// scene's quality, with the truth.
func RenderJPEG(s Scene) ([]byte, Truth, error) {
	img, t := Render(s)
	data, err := EncodeJPEG(img, s.JPEGQuality)
	return data, t, err
}

// sampleJSON is a sample's truth file.
type sampleJSON struct {
	Seed         int64         `json:"seed"`
	Board        []string      `json:"board"`
	Corners      [4][2]float64 `json:"corners"`
	Elevation    float64       `json:"elevation"`
	Azimuth      float64       `json:"azimuth"`
	Roll         float64       `json:"roll"`
	FOV          float64       `json:"fov"`
	Lighting     string        `json:"lighting"`
	Width        int           `json:"width"`
	Height       int           `json:"height"`
	GridFraction float64       `json:"grid_fraction"`
	Hand         bool          `json:"hand,omitempty"`
}

// WriteSample renders seed's scene into dir as seed-<N>.jpg (at the
// scene's JPEG quality) and its truth as seed-<N>.json.
func WriteSample(dir string, seed int64) (imagePath, truthPath string, err error) {
	return writeSample(dir, fmt.Sprintf("seed-%d", seed), RandomScene(seed))
}

// WriteHandSample is WriteSample with a hand over the board (AddHand), as
// seed-<N>-hand.jpg and seed-<N>-hand.json: the same scene otherwise.
func WriteHandSample(dir string, seed int64) (imagePath, truthPath string, err error) {
	s := RandomScene(seed)
	AddHand(&s, seed)
	return writeSample(dir, fmt.Sprintf("seed-%d-hand", seed), s)
}

func writeSample(dir, name string, s Scene) (imagePath, truthPath string, err error) {
	data, t, err := RenderJPEG(s)
	if err != nil {
		return "", "", err
	}
	js, err := json.Marshal(sampleJSON{
		Seed: t.Seed, Board: t.Board.Tokens(), Corners: t.Corners,
		Elevation: t.Elevation, Azimuth: t.Azimuth, Roll: t.Roll, FOV: t.FOV,
		Lighting: t.Lighting, Width: t.Width, Height: t.Height, GridFraction: t.GridFraction,
		Hand: t.Hand,
	})
	if err != nil {
		return "", "", fmt.Errorf("sim: truth of %s: %w", name, err)
	}
	imagePath = filepath.Join(dir, name+".jpg")
	truthPath = filepath.Join(dir, name+".json")
	if err := os.WriteFile(imagePath, data, 0o644); err != nil {
		return "", "", fmt.Errorf("sim: writing sample: %w", err)
	}
	if err := os.WriteFile(truthPath, append(js, '\n'), 0o644); err != nil {
		return "", "", fmt.Errorf("sim: writing sample: %w", err)
	}
	return imagePath, truthPath, nil
}

// LoadTruth reads a truth file written by WriteSample.
func LoadTruth(path string) (Truth, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Truth{}, fmt.Errorf("sim: reading truth: %w", err)
	}
	var j sampleJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return Truth{}, fmt.Errorf("sim: truth %s: %w", path, err)
	}
	b, err := observation.Parse(j.Board)
	if err != nil {
		return Truth{}, fmt.Errorf("sim: truth %s: %w", path, err)
	}
	return Truth{
		Board: b, Corners: j.Corners, Elevation: j.Elevation, Azimuth: j.Azimuth,
		Roll: j.Roll, FOV: j.FOV, Lighting: j.Lighting, Seed: j.Seed,
		Width: j.Width, Height: j.Height, GridFraction: j.GridFraction, Hand: j.Hand,
	}, nil
}

// CacheEnv names the environment variable of a folder where Frame keeps
// rendered samples, so that repeated accuracy runs during development skip
// the ray tracer (about half a second a frame). Unset, nothing is cached.
const CacheEnv = "COMPANION_SIM_CACHE"

// Frame gives seed's frame as JPEG bytes at the scene's quality, and its
// truth; it uses and fills the $COMPANION_SIM_CACHE folder when set.
func Frame(seed int64) ([]byte, Truth, error) {
	return cachedFrame(seed, "seed-%d", WriteSample, RandomScene)
}

// HandFrame is Frame for seed's scene with a hand over the board
// (AddHand), cached as seed-<N>-hand.jpg.
func HandFrame(seed int64) ([]byte, Truth, error) {
	return cachedFrame(seed, "seed-%d-hand", WriteHandSample, func(seed int64) Scene {
		s := RandomScene(seed)
		AddHand(&s, seed)
		return s
	})
}

func cachedFrame(seed int64, name string, write func(string, int64) (string, string, error), scene func(int64) Scene) ([]byte, Truth, error) {
	dir := os.Getenv(CacheEnv)
	if dir != "" {
		img := filepath.Join(dir, fmt.Sprintf(name+".jpg", seed))
		if data, err := os.ReadFile(img); err == nil {
			if t, err := LoadTruth(filepath.Join(dir, fmt.Sprintf(name+".json", seed))); err == nil {
				return data, t, nil
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, Truth{}, fmt.Errorf("sim: cache folder: %w", err)
		}
		ip, tp, err := write(dir, seed)
		if err != nil {
			return nil, Truth{}, err
		}
		data, err := os.ReadFile(ip)
		if err != nil {
			return nil, Truth{}, fmt.Errorf("sim: reading cached frame: %w", err)
		}
		t, err := LoadTruth(tp)
		return data, t, err
	}
	return RenderJPEG(scene(seed))
}
