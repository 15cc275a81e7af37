package sim

import (
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
	t0 := cpuTime()
	for _, s := range scenes {
		Render(s)
	}
	t.Logf("cpu per render %v", (cpuTime()-t0)/time.Duration(len(scenes)))
}
