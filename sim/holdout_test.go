package sim

import (
	"strings"
	"testing"
)

func TestTouchesHoldOut(t *testing.T) {
	for _, tc := range []struct {
		a, b int64
		want bool
	}{
		{81000, 89999, false},
		{99000, 100000, true},
		{100000, 100499, true},
		{200000, 200499, true},
		{250000, 310000, true},
		{299999, 299999, true},
		{300000, 308999, false},
	} {
		if got := TouchesHoldOut(tc.a, tc.b); got != tc.want {
			t.Errorf("TouchesHoldOut(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestHoldOutShare(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seeds []int64
		want  string
	}{
		{"a hold-out", []int64{150000, 150001}, "all 2 seeds in the hold-outs' span"},
		{"training seeds", []int64{300000, 300001}, "no seed in the hold-outs' span"},
		{"no seeds", nil, "no seed in the hold-outs' span"},
		{"mixed", []int64{299999, 300000, 18000}, "1 of 3 seeds in the hold-outs' span"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := HoldOutShare(tc.seeds); !strings.HasPrefix(got, tc.want) {
				t.Errorf("HoldOutShare(%v) = %q, want it to start %q", tc.seeds, got, tc.want)
			}
		})
	}
}
