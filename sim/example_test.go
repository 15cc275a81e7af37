package sim_test

import (
	"fmt"
	"strings"

	"companion/sim"
)

// A scene is drawn from its seed; TruthOf tells what Render would show
// without rendering.
func ExampleTruthOf() {
	s := sim.RandomScene(42)
	t := sim.TruthOf(s)
	fmt.Println(strings.Join(t.Board.Tokens(), " / "))
	inside := true
	for _, c := range t.Corners {
		inside = inside && c[0] >= 0 && c[1] >= 0 && c[0] < float64(t.Width) && c[1] < float64(t.Height)
	}
	fmt.Println(t.Lighting, inside)
	// Output:
	// 0 0 0L 0 0 / 1 0 0L 0 0 / 0 0 0D 0 0 / 0 0 2 3 0 / 0 0B 0 0 0D
	// one-lamp true
}
