package vision

import (
	"math"
	"testing"
)

// adam takes Adam's steps on a network's parameters, with weight decay;
// the trainers share it.
type adam struct {
	params, mom, vel [][]float32
	decay            float32
	steps            int
}

func newAdam(params [][]float32, decay float32) *adam {
	a := &adam{params: params, decay: decay}
	for _, p := range params {
		a.mom = append(a.mom, make([]float32, len(p)))
		a.vel = append(a.vel, make([]float32, len(p)))
	}
	return a
}

// step moves the parameters by the gradients (as params) times scale
// (1/count for a sum over count samples) and the decay.
func (a *adam) step(grads [][]float32, rate float64, scale float32) {
	const b1, b2 = 0.9, 0.999
	a.steps++
	c1 := 1 - math.Pow(b1, float64(a.steps))
	c2 := 1 - math.Pow(b2, float64(a.steps))
	for k, p := range a.params {
		g, m, v := grads[k], a.mom[k], a.vel[k]
		for j := range p {
			gj := g[j]*scale + a.decay*p[j]
			m[j] = b1*m[j] + (1-b1)*gj
			v[j] = b2*v[j] + (1-b2)*gj*gj
			p[j] -= float32(rate * float64(m[j]) / c1 / (math.Sqrt(float64(v[j])/c2) + 1e-8))
		}
	}
}

// TestAdamFindsAMinimum minimises (x-3)^2 + 10 (y+1)^2: Adam's steps must
// end near (3, -1), and weight decay must pull the answer towards zero.
func TestAdamFindsAMinimum(t *testing.T) {
	for _, c := range []struct {
		decay      float32
		wantX, tol float64
	}{
		{0, 3, 0.01},
		{0.5, 3 / 1.25, 0.02}, // the minimum of (x-3)^2 + 0.25 x^2
	} {
		p := [][]float32{{0}, {0}}
		g := [][]float32{{0}, {0}}
		opt := newAdam(p, c.decay)
		for i := 0; i < 3000; i++ {
			g[0][0] = 2 * (p[0][0] - 3)
			g[1][0] = 20 * (p[1][0] + 1)
			rate := 0.05
			if i > 2000 {
				rate = 0.005
			}
			opt.step(g, rate, 1)
		}
		if math.Abs(float64(p[0][0])-c.wantX) > c.tol {
			t.Errorf("decay %v: x = %.4f, want %.4f", c.decay, p[0][0], c.wantX)
		}
		if c.decay == 0 && math.Abs(float64(p[1][0])+1) > 0.01 {
			t.Errorf("y = %.4f, want -1", p[1][0])
		}
	}
}
