package vision

import "testing"

func TestSameSides(t *testing.T) {
	// Profiles across a line, one sample per entry; the edges found are at
	// i = 6 and j = 9 in each.
	ridge := []float64{80, 80, 80, 80, 80, 82, 110, 120, 118, 90, 81, 80, 80, 80, 80}
	groove := []float64{80, 80, 80, 80, 80, 78, 50, 45, 48, 70, 79, 80, 80, 80, 80}
	// A white block's foot, its shadow on the cell, then the lit cell:
	// two edges of opposite sign, but the shadow hardly stands out of
	// sides this different.
	foot := []float64{200, 200, 200, 200, 200, 190, 130, 120, 125, 100, 82, 80, 80, 80, 80}
	// Sides a little apart (a cell in light and one in shade): still a
	// divider.
	shaded := []float64{90, 90, 90, 90, 90, 92, 130, 140, 135, 80, 72, 70, 70, 70, 70}
	// A dark divider and its shadow on the cell before it: the groove
	// widened to one side, which a ridge's sides may differ by.
	shadow := []float64{60, 60, 60, 60, 60, 58, 40, 35, 38, 70, 79, 80, 80, 80, 80}
	// A groove between a cell in light and one a little shaded.
	grooveShaded := []float64{80, 80, 80, 80, 80, 78, 50, 45, 48, 70, 72, 72, 72, 72, 72}
	tests := []struct {
		name string
		prof []float64
		i, j int
		want bool
	}{
		{"ridge", ridge, 6, 9, true},
		{"groove", groove, 6, 9, true},
		{"block foot", foot, 6, 9, false},
		{"shaded cell", shaded, 6, 9, true},
		{"groove and its shadow", shadow, 6, 9, false},
		{"groove, a shaded cell", grooveShaded, 6, 9, true},
		{"sides out of the profile", foot, 2, 9, true},
	}
	for _, tt := range tests {
		if got := sameSides(tt.prof, tt.i, tt.j, sideGap); got != tt.want {
			t.Errorf("%s: sameSides = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBoardShown(t *testing.T) {
	tests := []struct {
		name         string
		g            scoredGrid
		ridge        float64
		want, unsure bool
	}{
		{"dividers and frame", scoredGrid{s: 0.6, base: 0.6}, 0.2, true, false},
		{"dividers and frame, few ridges", scoredGrid{s: 0.6, base: 0.6}, 0, true, false},
		{"plain table", scoredGrid{s: -0.36, base: -0.36}, 0, false, false},
		{"weak grid, no tops", scoredGrid{s: 0.05, base: 0.05}, 0.1, false, false},
		{"weak grid, some dividers", scoredGrid{s: 0.25, base: 0.25}, 0.1, true, false},
		{"weak grid, no ridges: a plank table's seams", scoredGrid{s: 0.25, base: 0.25}, 0.01, true, true},
		{"crowded board, tops on the cells", scoredGrid{s: 0.05, base: -0.25}, 0.1, true, false},
		{"crowded board, tops pushing it over", scoredGrid{s: 0.4, base: -0.1}, 0.1, true, false},
		{"tops and no ridges: spare pieces, or a board all built", scoredGrid{s: 0.4, base: -0.1}, 0.01, true, true},
		{"tops on a grid with nothing else", scoredGrid{s: -0.35, base: -0.6}, 0.1, false, false},
		{"no tops, no frame, faint ridges: the table's lines", scoredGrid{s: 0.22, base: 0.22, frame: -0.2}, 0.07, true, true},
		{"no tops, no frame, clear ridges", scoredGrid{s: 0.22, base: 0.22, frame: -0.2}, 0.17, true, false},
		{"no tops, the frame seen, faint ridges", scoredGrid{s: 0.22, base: 0.22, frame: 0.05}, 0.07, true, false},
		{"crowded board, no tops found, the outline all round", scoredGrid{s: 0.04, base: 0.04, frame: -0.12, outlined: true}, 0.12, true, false},
		{"crowded board, no tops found, no outline", scoredGrid{s: 0.04, base: 0.04, frame: -0.12}, 0.12, false, false},
		{"the outline and a low score: a board all built, or nothing on it", scoredGrid{s: -0.4, base: -0.4, frame: -0.3, outlined: true}, 0.12, true, true},
	}
	for _, tt := range tests {
		if got, unsure := boardShown(tt.g, tt.ridge); got != tt.want || unsure != tt.unsure {
			t.Errorf("%s: boardShown = %v, %v; want %v, %v", tt.name, got, unsure, tt.want, tt.unsure)
		}
	}
}
