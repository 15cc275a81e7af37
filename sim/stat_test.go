package sim

import (
	"companion/observation"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestCPU(t *testing.T) {
	var scenes []Scene
	for seed := int64(1); seed <= 8; seed++ {
		s := RandomScene(seed)
		s.Width, s.Height = 1280, 720
		scenes = append(scenes, s)
	}
	Render(scenes[0])
	t0 := cpuTime()
	w0 := time.Now()
	for _, s := range scenes {
		Render(s)
	}
	t.Logf("cpu per render %v wall %v", (cpuTime()-t0)/time.Duration(len(scenes)), time.Since(w0)/time.Duration(len(scenes)))
}

func TestFlags(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		s := RandomScene(seed)
		s.Width, s.Height = 1280, 720
		img, _ := Render(s)
		_ = img
		f := lastFlags
		var n1, n2 int
		for _, v := range f {
			if v&1 != 0 {
				n1++
			}
			if v&2 != 0 {
				n2++
			}
		}
		t.Logf("seed %d edge %.3f penumbra %.3f lamps %d", seed, float64(n1)/float64(len(f)), float64(n2)/float64(len(f)), len(s.Lamps))
	}
}

func TestCPUParts(t *testing.T) {
	var scenes []Scene
	for seed := int64(1); seed <= 8; seed++ {
		s := RandomScene(seed)
		s.Width, s.Height = 1280, 720
		scenes = append(scenes, s)
	}
	run := func(name string, f func(s *Scene)) {
		t0 := cpuTime()
		for _, s := range scenes {
			f(&s)
			Render(s)
		}
		t.Logf("%s: cpu per render %v", name, (cpuTime()-t0)/time.Duration(len(scenes)))
	}
	run("full", func(s *Scene) {})
	run("no lamps", func(s *Scene) { s.Lamps = nil })
	run("empty board", func(s *Scene) { s.Board = [25]observation.Square{}; s.Spares = nil })
	run("nothing", func(s *Scene) { s.Board = [25]observation.Square{}; s.Spares = nil; s.Lamps = nil })
	run("nothing no blur", func(s *Scene) {
		s.Board = [25]observation.Square{}
		s.Spares = nil
		s.Lamps = nil
		s.Blur = 0
	})
}
