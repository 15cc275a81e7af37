package main

import (
	"testing"

	"companion/vision"
)

func TestOutlineInDoubt(t *testing.T) {
	withSure := func(grid float64, sure int) vision.Result {
		var res vision.Result
		res.GridConfidence = grid
		for i := range res.Confidence {
			res.Confidence[i] = 0.5
			if i < sure {
				res.Confidence[i] = vision.SureConfidence
			}
		}
		return res
	}
	for _, c := range []struct {
		name string
		res  vision.Result
		want bool
	}{
		{"dividers plain, cells unsure", withSure(0.9, 0), false},
		{"dividers hidden, cells sure (a crowded board)", withSure(0.05, 20), false},
		{"dividers hidden, cells unsure", withSure(0.05, unsureGridCells-1), true},
		{"dividers hidden, just enough cells sure", withSure(0.05, unsureGridCells), false},
		{"corners given", withSure(1, 0), false},
	} {
		if got := outlineInDoubt(c.res); got != c.want {
			t.Errorf("%s: outlineInDoubt = %v, want %v", c.name, got, c.want)
		}
	}
}
