package scenario_test

import (
	"fmt"

	"companion/scenario"
)

func ExampleParse() {
	s, err := scenario.Parse([]byte(`
name: Two Towers
level: 1
map:
  A  .  .  .  .  .
  B  .  2  .  1  .
  C  W  W  .  W  W
  D  .  .  T  .  .
  E  .  .  .  .  .
builders: B1 B5
enemy: dark-male A3 facing S
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s (level %d): %d builders, %d enemy\n", s.Name, s.Level, len(s.Setup.Builders), len(s.Setup.Enemies))

	_, err = scenario.Parse([]byte("name: Broken\nmap:\n  A  .  .  9  .  .\n"))
	fmt.Println(err)
	// Output:
	// Two Towers (level 1): 2 builders, 1 enemy
	// scenario: line 3: map row A column 3: "9" is not a cell (use . or 0-4 for land at that level, W for water, T or T1-T4 for a target zone)
}
