package engine

import (
	"reflect"
	"strings"
	"testing"
)

// eventLine gives an event in short words for comparing in tests:
//
//	light-female faces E (turned)
//	light-female attacks C4: top-floor-removed
//	light-female rolls 5: path C4, faces E
func eventLine(e Event) string {
	switch e.Phase {
	case PhaseOrientation:
		s := e.Pawn.String() + " faces " + e.Facing.String()
		if e.Turned {
			s += " (turned)"
		}
		return s
	case PhaseAttack:
		return e.Pawn.String() + " attacks " + e.Target.String() + ": " + e.Effect
	case PhaseMove:
		path := "-"
		if len(e.Path) > 0 {
			var names []string
			for _, c := range e.Path {
				names = append(names, c.String())
			}
			path = strings.Join(names, " ")
		}
		return e.Pawn.String() + " rolls " + digits[e.Roll:e.Roll+1] + ": path " + path + ", faces " + e.Facing.String()
	}
	return "unknown phase " + string(e.Phase)
}

func eventLines(es []Event) []string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = eventLine(e)
	}
	return lines
}

// enemyTurnCase is one enemy turn and everything it must give.
type enemyTurnCase struct {
	name string
	p    Position
	dice []int

	events   []string // eventLine of each event, in order
	levels   string   // after, as levelsString
	builders string   // after, as buildersString
	enemies  string   // after, as enemiesString
	outcome  Outcome
	reason   string // checked when not empty
}

func (tt enemyTurnCase) run(t *testing.T) {
	t.Helper()
	before := tt.p.Clone()
	got, events, res, err := EnemyTurn(tt.p, tt.dice)
	if err != nil {
		t.Fatalf("EnemyTurn: %v", err)
	}
	if !reflect.DeepEqual(tt.p, before) {
		t.Errorf("EnemyTurn changed its input position")
	}
	if lines := eventLines(events); !reflect.DeepEqual(lines, tt.events) {
		t.Errorf("events:\n  got  %q\n  want %q", lines, tt.events)
	}
	if s := levelsString(got); s != tt.levels {
		t.Errorf("levels after: got %s, want %s", s, tt.levels)
	}
	if s := buildersString(got); s != tt.builders {
		t.Errorf("builders after: got %q, want %q", s, tt.builders)
	}
	if s := enemiesString(got); s != tt.enemies {
		t.Errorf("enemies after: got %q, want %q", s, tt.enemies)
	}
	if res.Outcome != tt.outcome {
		t.Errorf("outcome: got %v (%s), want %v", res.Outcome, res.Reason, tt.outcome)
	}
	if tt.reason != "" && res.Reason != tt.reason {
		t.Errorf("reason: got %q, want %q", res.Reason, tt.reason)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("position after is not valid: %v", err)
	}
	for _, e := range events {
		if e.Text == "" {
			t.Errorf("event %q has no text", eventLine(e))
		}
	}
}

// TestRulesWorkedExamples plays the cases RULES.md "Enemy turn" spells out.
func TestRulesWorkedExamples(t *testing.T) {
	tests := []enemyTurnCase{
		{
			// 1. Orientation: "Building one back-left and one back-right:
			// the first steps are Back, Left, Right: turn Right."
			name:     "tie back-left and back-right turns right",
			p:        pos(t, flat, "00000 00000 00000 01010 00000", "A1 A5", "light-female C3 N"),
			dice:     []int{1},
			events:   []string{"light-female faces E (turned)", "light-female attacks C4: nothing", "light-female rolls 1: path C4, faces E"},
			levels:   "00000 00000 00000 01010 00000",
			builders: "A1 A5",
			enemies:  "light-female C4 E",
			outcome:  Playing,
		},
		{
			// 3. Movement: "roll 5, the first advance is blocked by a
			// building, the enemy still turns and advances". B3 is level 3,
			// level 2 after the attack: still two levels higher.
			name:     "roll 5 blocked first advance still turns and advances",
			p:        pos(t, flat, "00000 00300 00000 00000 00000", "E1 E5", "dark-male C3 N"),
			dice:     []int{5},
			events:   []string{"dark-male faces N", "dark-male attacks B3: top-floor-removed", "dark-male rolls 5: path C4, faces E"},
			levels:   "00000 00200 00000 00000 00000",
			builders: "E1 E5",
			enemies:  "dark-male C4 E",
			outcome:  Playing,
		},
		{
			// 3. Movement: "Entering a target zone, in passing or to stop,
			// loses the scenario at once." Rulings: the enemy stays there and
			// nothing more is played (no turn, no second advance, no move of
			// the dark female).
			name:     "target zone in passing loses at once",
			p:        pos(t, "..... ..... ..... ..T.. .....", "00000 00000 00000 00000 00100", "A1 A5", "light-female C3 S, dark-female A3 N"),
			dice:     []int{5, 1},
			events:   []string{"light-female faces S", "dark-female faces S (turned)", "light-female attacks D3: nothing", "dark-female attacks B3: nothing", "light-female rolls 5: path D3, faces S"},
			levels:   "00000 00000 00000 00000 00100",
			builders: "A1 A5",
			enemies:  "light-female D3 S, dark-female A3 S",
			outcome:  Lost,
			reason:   "the light-female entered the target zone D3",
		},
		{
			// 2. Attack: "a building there loses its top floor (a dome is a
			// floor: 4 -> 3)".
			name:     "dome is a floor",
			p:        pos(t, flat, "00000 00000 00040 00000 00000", "A1 E5", "light-female C3 E"),
			dice:     []int{4},
			events:   []string{"light-female faces E", "light-female attacks C4: dome-removed", "light-female rolls 4: path B3, faces N"},
			levels:   "00000 00000 00030 00000 00000",
			builders: "A1 E5",
			enemies:  "light-female B3 N",
			outcome:  Playing,
		},
		{
			// 2. Attack: "An enemy there: if it stands on a building, that
			// building loses its top floor and the enemy stays (one level
			// lower)." The dark male has no building but its own cell, so it
			// keeps its facing; the light female's advance is blocked by it.
			name:     "enemy on a building attacked",
			p:        pos(t, flat, "00000 00000 00020 00000 00000", "A1 E1", "light-female C3 E, dark-male C4 E"),
			dice:     []int{1, 1},
			events:   []string{"light-female faces E", "dark-male faces E", "light-female attacks C4: enemy-lowered", "dark-male attacks C5: nothing", "light-female rolls 1: path -, faces E", "dark-male rolls 1: path C5, faces E"},
			levels:   "00000 00000 00010 00000 00000",
			builders: "A1 E1",
			enemies:  "light-female C3 E, dark-male C5 E",
			outcome:  Playing,
		},
		{
			// 3. Movement: "Advancing into a builder's cell defeats the
			// builder, and the enemy enters the cell (the height rule above
			// still applies first)." C4 is one level up: allowed.
			name:     "builder defeated by advance",
			p:        pos(t, flat, "00000 00100 00010 00000 20000", "C4 A1", "light-female C3 N"),
			dice:     []int{3},
			events:   []string{"light-female faces N", "light-female attacks B3: top-floor-removed", "light-female rolls 3: path C4, faces E"},
			levels:   "00000 00000 00010 00000 20000",
			builders: "A1",
			enemies:  "light-female C4 E",
			outcome:  Playing,
		},
		{
			// 3. Movement: "A rotation that would leave the enemy facing the
			// board's edge is undone; the rest of the roll still applies."
			name:     "rotation facing the edge undone",
			p:        pos(t, flat, "00001 00000 00000 00000 00000", "E1 E3", "light-female C5 N"),
			dice:     []int{3},
			events:   []string{"light-female faces N", "light-female attacks B5: nothing", "light-female rolls 3: path B5, faces N"},
			levels:   "00001 00000 00000 00000 00000",
			builders: "E1 E3",
			enemies:  "light-female B5 N",
			outcome:  Playing,
		},
		{
			// 3. Movement: "(Facing water is allowed.)" The turn stands; the
			// advance into water is blocked.
			name:     "facing water allowed",
			p:        pos(t, "..... ..... ...W. ..... .....", "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{3},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 3: path -, faces E"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female C3 E",
			outcome:  Playing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestWorkedExampleDetails checks the event fields beyond eventLine in the
// worked examples: blocked advances, undone rotations, defeated builders.
func TestWorkedExampleDetails(t *testing.T) {
	tests := []struct {
		name     string
		p        Position
		dice     []int
		blocked  int
		undone   int
		defeated string
	}{
		{"roll 5 blocked first advance", pos(t, flat, "00000 00300 00000 00000 00000", "E1 E5", "dark-male C3 N"), []int{5}, 1, 0, ""},
		{"rotation facing the edge undone", pos(t, flat, "00001 00000 00000 00000 00000", "E1 E3", "light-female C5 N"), []int{3}, 0, 1, ""},
		{"facing water allowed", pos(t, "..... ..... ...W. ..... .....", "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"), []int{3}, 1, 0, ""},
		{"builder defeated by advance", pos(t, flat, "00000 00100 00010 00000 20000", "C4 A1", "light-female C3 N"), []int{3}, 0, 0, "C4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, events, _, err := EnemyTurn(tt.p, tt.dice)
			if err != nil {
				t.Fatal(err)
			}
			m := events[len(events)-1]
			if m.Phase != PhaseMove {
				t.Fatalf("last event is %q, want the move", eventLine(m))
			}
			if m.Blocked != tt.blocked || m.Undone != tt.undone {
				t.Errorf("blocked %d, undone %d; want %d, %d", m.Blocked, m.Undone, tt.blocked, tt.undone)
			}
			if !reflect.DeepEqual(m.Defeated, cells(t, tt.defeated)) {
				t.Errorf("defeated %v, want %q", m.Defeated, tt.defeated)
			}
		})
	}
}

// TestOrientation covers RULES.md "Enemy turn", 1. Orientation, one rule a row.
func TestOrientation(t *testing.T) {
	tests := []struct {
		name   string
		levels string
		enemy  string // "cell facing"
		want   Dir
		found  bool
	}{
		{"nearest building straight ahead", "00100 00000 00000 00000 00000", "C3 N", N, true},
		{"nearest building behind: turn back", "00000 00000 00000 00000 00100", "C3 N", S, true},
		{"nearer beats the tie-break", "00100 00000 00010 00000 00000", "C3 N", E, true},
		{"distance ignores heights: a dome counts", "00000 00000 00000 00000 00400", "C3 N", S, true},
		{"front beats right at equal distance", "00000 01000 00001 00000 00000", "C3 N", N, true},
		{"right beats left", "00000 00000 10001 00000 00000", "C3 N", E, true},
		{"left beats back", "00000 00000 10000 00000 00100", "C3 N", W, true},
		{"diagonal: two first steps, left beats back", "00000 01000 00000 00000 00000", "C3 E", N, true},
		{"diagonal: front is one of its first steps", "00000 00000 00000 00000 00001", "C3 S", S, true},
		{"own cell does not count", "00100 00000 00200 00000 00000", "C3 S", N, true},
		{"own cell the only building: facing stays", "00000 00000 00300 00000 00000", "C3 W", W, false},
		{"far corner", "10000 00000 00000 00000 00000", "E5 E", N, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := strings.Fields(tt.enemy)
			p := pos(t, flat, tt.levels, "", "light-female "+f[0]+" "+f[1])
			got, found := nearestBuildingFacing(&p, p.Enemies[0])
			if got != tt.want || found != tt.found {
				t.Errorf("facing %v found %v, want %v %v", got, found, tt.want, tt.found)
			}
		})
	}
}

// TestAttack covers RULES.md "Enemy turn", 2. Attack, one case a row, and
// the losses an attack can cause, which end the turn at once.
func TestAttack(t *testing.T) {
	tests := []enemyTurnCase{
		{
			name:     "off the board: nothing",
			p:        pos(t, flat, "00000 00000 00001 00000 00000", "A1 E1", "light-female C5 E"),
			dice:     []int{1},
			events:   []string{"light-female faces E", "light-female attacks --: off-board", "light-female rolls 1: path -, faces E"},
			levels:   "00000 00000 00001 00000 00000",
			builders: "A1 E1",
			enemies:  "light-female C5 E",
			outcome:  Playing,
		},
		{
			name:     "water: nothing",
			p:        pos(t, "..... ..... ...W. ..... .....", "00000 00000 00001 00000 00000", "A1 E1", "light-female C3 E"),
			dice:     []int{1},
			events:   []string{"light-female faces E", "light-female attacks C4: water", "light-female rolls 1: path -, faces E"},
			levels:   "00000 00000 00001 00000 00000",
			builders: "A1 E1",
			enemies:  "light-female C3 E",
			outcome:  Playing,
		},
		{
			name:     "builder defeated, building under it untouched",
			p:        pos(t, flat, "00000 00000 00020 00000 00000", "A1 C4", "light-female C3 E"),
			dice:     []int{1},
			events:   []string{"light-female faces E", "light-female attacks C4: builder-defeated", "light-female rolls 1: path -, faces E"},
			levels:   "00000 00000 00020 00000 00000",
			builders: "A1",
			enemies:  "light-female C3 E",
			outcome:  Playing,
		},
		{
			name:     "last builder defeated: lost, nothing more is played",
			p:        pos(t, flat, "00000 00000 00020 00000 00000", "C4", "light-female C3 E, dark-male A1 S"),
			dice:     []int{1, 1},
			events:   []string{"light-female faces E", "dark-male faces S", "light-female attacks C4: builder-defeated"},
			levels:   "00000 00000 00020 00000 00000",
			builders: "",
			enemies:  "light-female C3 E, dark-male A1 S",
			outcome:  Lost,
			reason:   ReasonNoBuilder,
		},
		{
			name:     "enemy on level 0: nothing",
			p:        pos(t, flat, "00000 00000 00002 00000 00000", "A1 E1", "light-female C3 E, dark-male C4 E"),
			dice:     []int{1, 1},
			events:   []string{"light-female faces E", "dark-male faces E", "light-female attacks C4: nothing", "dark-male attacks C5: top-floor-removed", "light-female rolls 1: path -, faces E", "dark-male rolls 1: path C5, faces E"},
			levels:   "00000 00000 00001 00000 00000",
			builders: "A1 E1",
			enemies:  "light-female C3 E, dark-male C5 E",
			outcome:  Playing,
		},
		{
			name:     "enemy on the last building lowered: lost",
			p:        pos(t, flat, "00000 00000 00010 00000 00000", "A1 E1", "light-female C3 E, dark-male C4 N"),
			dice:     []int{1, 1},
			events:   []string{"light-female faces E", "dark-male faces N", "light-female attacks C4: enemy-lowered"},
			levels:   "00000 00000 00000 00000 00000",
			builders: "A1 E1",
			enemies:  "light-female C3 E, dark-male C4 N",
			outcome:  Lost,
			reason:   ReasonNoBuilding,
		},
		{
			name:     "top floor removed",
			p:        pos(t, flat, "00000 00000 00010 00000 00002", "A1 E1", "light-female C3 E"),
			dice:     []int{3},
			events:   []string{"light-female faces E", "light-female attacks C4: top-floor-removed", "light-female rolls 3: path D3, faces S"},
			levels:   "00000 00000 00000 00000 00002",
			builders: "A1 E1",
			enemies:  "light-female D3 S",
			outcome:  Playing,
		},
		{
			name:     "last building's top floor removed: lost",
			p:        pos(t, flat, "00000 00000 00010 00000 00000", "A1 E1", "light-female C3 E"),
			dice:     []int{3},
			events:   []string{"light-female faces E", "light-female attacks C4: top-floor-removed"},
			levels:   "00000 00000 00000 00000 00000",
			builders: "A1 E1",
			enemies:  "light-female C3 E",
			outcome:  Lost,
			reason:   ReasonNoBuilding,
		},
		{
			name:     "empty level 0: nothing",
			p:        pos(t, flat, "00000 00000 00000 00000 00001", "A1 E1", "light-female C3 E"),
			dice:     []int{4},
			events:   []string{"light-female faces E", "light-female attacks C4: nothing", "light-female rolls 4: path B3, faces N"},
			levels:   "00000 00000 00000 00000 00001",
			builders: "A1 E1",
			enemies:  "light-female B3 N",
			outcome:  Playing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestMovement covers RULES.md "Enemy turn", 3. Movement, one rule a row.
func TestMovement(t *testing.T) {
	tests := []enemyTurnCase{
		{
			name:     "roll 2: two advances, the second one level up",
			p:        pos(t, flat, "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{2},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 2: path B3 A3, faces N"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female A3 N",
			outcome:  Playing,
		},
		{
			name:     "roll 6: advance, counter-clockwise, advance",
			p:        pos(t, flat, "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{6},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 6: path B3 B2, faces W"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female B2 W",
			outcome:  Playing,
		},
		{
			name:     "moving down three levels is allowed",
			p:        pos(t, flat, "00100 00000 00300 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{1},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 1: path B3, faces N"},
			levels:   "00100 00000 00300 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female B3 N",
			outcome:  Playing,
		},
		{
			name:     "a dome blocks",
			p:        pos(t, flat, "00000 00100 00040 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{3},
			events:   []string{"light-female faces N", "light-female attacks B3: top-floor-removed", "light-female rolls 3: path -, faces E"},
			levels:   "00000 00000 00040 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female C3 E",
			outcome:  Playing,
		},
		{
			name:     "a builder two levels up is not reached: height rule first",
			p:        pos(t, flat, "00000 00100 00020 00000 00000", "C4 E5", "light-female C3 N"),
			dice:     []int{3},
			events:   []string{"light-female faces N", "light-female attacks B3: top-floor-removed", "light-female rolls 3: path -, faces E"},
			levels:   "00000 00000 00020 00000 00000",
			builders: "C4 E5",
			enemies:  "light-female C3 E",
			outcome:  Playing,
		},
		{
			name:     "roll 2: second advance defeats a builder one level up",
			p:        pos(t, flat, "00100 00000 00000 00000 00000", "A3 E5", "light-female C3 N"),
			dice:     []int{2},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 2: path B3 A3, faces N"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "E5",
			enemies:  "light-female A3 N",
			outcome:  Playing,
		},
		{
			name:     "advance defeats the last builder: lost, nothing more is played",
			p:        pos(t, flat, "00100 00000 00000 00000 00000", "A3", "light-female C3 N, dark-male E5 N"),
			dice:     []int{2, 1},
			events:   []string{"light-female faces N", "dark-male faces N", "light-female attacks B3: nothing", "dark-male attacks D5: nothing", "light-female rolls 2: path B3 A3, faces N"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "",
			enemies:  "light-female A3 N, dark-male E5 N",
			outcome:  Lost,
			reason:   ReasonNoBuilder,
		},
		{
			name:     "entering a target zone to stop loses",
			p:        pos(t, "..... ..T.. ..... ..... .....", "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{1},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 1: path B3, faces N"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female B3 N",
			outcome:  Lost,
			reason:   "the light-female entered the target zone B3",
		},
		{
			name:     "roll 2 through a target zone stops there",
			p:        pos(t, "..... ..T.. ..... ..... .....", "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"),
			dice:     []int{2},
			events:   []string{"light-female faces N", "light-female attacks B3: nothing", "light-female rolls 2: path B3, faces N"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "E1 E5",
			enemies:  "light-female B3 N",
			outcome:  Lost,
		},
		{
			name:     "a builder on a target zone defeated by advance: lost by the target zone",
			p:        pos(t, "..... ..T.. ..... ..... .....", "00100 00000 00000 00000 00000", "B3", "light-female D3 N"),
			dice:     []int{2},
			events:   []string{"light-female faces N", "light-female attacks C3: nothing", "light-female rolls 2: path C3 B3, faces N"},
			levels:   "00100 00000 00000 00000 00000",
			builders: "",
			enemies:  "light-female B3 N",
			outcome:  Lost,
			reason:   "the light-female entered the target zone B3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestPhaseOrder checks that each phase is done for every enemy, in
// resolution order, before the next phase (RULES.md "Enemy turn").
func TestPhaseOrder(t *testing.T) {
	tests := []enemyTurnCase{
		{
			// The dark male faced C3 before the light female's attack
			// levelled it; it attacks level 0 rather than turning to E5.
			name:     "every enemy orients before any attack",
			p:        pos(t, flat, "00000 00000 00100 00000 00001", "A1 A5", "light-female C2 E, dark-male C4 W"),
			dice:     []int{1, 1},
			events:   []string{"light-female faces E", "dark-male faces W", "light-female attacks C3: top-floor-removed", "dark-male attacks C3: nothing", "light-female rolls 1: path C3, faces E", "dark-male rolls 1: path -, faces W"},
			levels:   "00000 00000 00000 00000 00001",
			builders: "A1 A5",
			enemies:  "light-female C3 E, dark-male C4 W",
			outcome:  Playing,
		},
		{
			// The light female moves first and frees C4 for the dark male.
			name:     "enemies move in resolution order",
			p:        pos(t, flat, "00000 00000 00002 00000 00000", "A1 A5", "dark-male C3 E, light-female C4 E"),
			dice:     []int{1, 1},
			events:   []string{"light-female faces E", "dark-male faces E", "light-female attacks C5: top-floor-removed", "dark-male attacks C4: nothing", "light-female rolls 1: path C5, faces E", "dark-male rolls 1: path C4, faces E"},
			levels:   "00000 00000 00001 00000 00000",
			builders: "A1 A5",
			enemies:  "light-female C5 E, dark-male C4 E",
			outcome:  Playing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestStartOfPlayerTurnCheck: the enemy turn ends lost when no builder can
// move and then build (RULES.md "End of a scenario" and "Rulings").
func TestStartOfPlayerTurnCheck(t *testing.T) {
	tests := []enemyTurnCase{
		{
			name:     "builder hemmed in by domes",
			p:        pos(t, flat, "04000 44000 00000 00000 00000", "A1", "light-female E3 N"),
			dice:     []int{1},
			events:   []string{"light-female faces N", "light-female attacks D3: nothing", "light-female rolls 1: path D3, faces N"},
			levels:   "04000 44000 00000 00000 00000",
			builders: "A1",
			enemies:  "light-female D3 N",
			outcome:  Lost,
			reason:   ReasonStuck,
		},
		{
			// B1 is free, but from there A1 is a target zone, A2 and B2 domes,
			// C1 and C2 water: the builder can move but not build.
			name:     "builder can move but not build",
			p:        pos(t, "T.... ..... WW... ..... .....", "04000 04000 00000 00000 00000", "A1", "light-female E5 N"),
			dice:     []int{1},
			events:   []string{"light-female faces N", "light-female attacks D5: nothing", "light-female rolls 1: path D5, faces N"},
			levels:   "04000 04000 00000 00000 00000",
			builders: "A1",
			enemies:  "light-female D5 N",
			outcome:  Lost,
			reason:   ReasonStuck,
		},
		{
			// As above, but A1 is land: the builder moves to B1 and builds
			// on the cell it left.
			name:     "builder can build on the cell it left",
			p:        pos(t, "..... ..... WW... ..... .....", "04000 04000 00000 00000 00000", "A1", "light-female E5 N"),
			dice:     []int{1},
			events:   []string{"light-female faces N", "light-female attacks D5: nothing", "light-female rolls 1: path D5, faces N"},
			levels:   "04000 04000 00000 00000 00000",
			builders: "A1",
			enemies:  "light-female D5 N",
			outcome:  Playing,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func TestEnemyTurnErrors(t *testing.T) {
	playing := pos(t, flat, "00100 00000 00000 00000 00000", "E1", "light-female C3 N, dark-male C1 N")
	twoOnOne := playing.Clone()
	twoOnOne.Enemies[1].Cell = twoOnOne.Enemies[0].Cell
	tests := []struct {
		name string
		p    Position
		dice []int
		want string // in the error
	}{
		{"too few dice", playing, []int{1}, "1 dice for 2 enemies"},
		{"too many dice", playing, []int{1, 2, 3}, "3 dice for 2 enemies"},
		{"no dice", playing, nil, "0 dice for 2 enemies"},
		{"die 0", playing, []int{0, 1}, "is 0: want 1-6"},
		{"die 7", playing, []int{1, 7}, "is 7: want 1-6"},
		{"won: no enemy", pos(t, flat, "00100 00000 00000 00000 00000", "E1", ""), nil, "already won"},
		{"lost: no builder", pos(t, flat, "00100 00000 00000 00000 00000", "", "light-female C3 N"), []int{1}, "already lost"},
		{"lost: no building", pos(t, flat, "00000 00000 00000 00000 00000", "E1", "light-female C3 N"), []int{1}, "already lost"},
		{"lost: enemy on a target zone", pos(t, "..... ..... ..T.. ..... .....", "00100 00000 00000 00000 00000", "E1", "light-female C3 N"), []int{1}, "already lost"},
		{"not a position", twoOnOne, []int{1, 1}, "two pawns on one cell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, events, _, err := EnemyTurn(tt.p, tt.dice)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if events != nil {
				t.Errorf("events %q on error, want none", eventLines(events))
			}
			if !reflect.DeepEqual(got, tt.p) {
				t.Errorf("position changed on error")
			}
		})
	}
}

// TestEnemyTurnSortsEnemies: dice follow resolution order even when the
// position's enemies were listed in another order.
func TestEnemyTurnSortsEnemies(t *testing.T) {
	p := pos(t, flat, "00100 00000 00000 00000 00001", "E1", "light-female C1 N, dark-male C5 N")
	p.Enemies[0], p.Enemies[1] = p.Enemies[1], p.Enemies[0]
	got, _, _, err := EnemyTurn(p, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	// The light female (die 1) faces A3 and advances C1 -> B1; the dark
	// male (die 2) turns to E5 (distance 2, A3 is 4) and goes D5, E5. Had
	// the dice followed the listed order, the light female would move twice.
	if s := enemiesString(got); s != "light-female B1 N, dark-male E5 S" {
		t.Errorf("enemies after %q", s)
	}
}

// TestEventText pins the words a person reads for each kind of event.
func TestEventText(t *testing.T) {
	tests := []struct {
		name string
		p    Position
		dice []int
		want []string
	}{
		{
			name: "turn, attack a floor, blocked advance then turn and move",
			p:    pos(t, flat, "00000 00300 00000 00000 00000", "E1 E5", "dark-male C3 E"),
			dice: []int{5},
			want: []string{
				"Dark male: turn to face north.",
				"Dark male attacks B3: remove its top floor, leaving level 2.",
				"Dark male (roll 5): do not advance (B3 is two levels higher), turn clockwise to face east, move to C4.",
			},
		},
		{
			name: "no building, edge, undone rotation",
			p:    pos(t, flat, "00000 00000 00000 00000 00001", "A1", "light-female E5 E"),
			dice: []int{3},
			want: []string{
				"Light female: no building to face, keep facing east.",
				"Light female faces the edge of the board: nothing to attack.",
				"Light female (roll 3): do not turn clockwise (it would face the edge), do not advance (the edge of the board is ahead).",
			},
		},
		{
			name: "enemy lowered, blocked by an enemy",
			p:    pos(t, flat, "00000 00000 00020 00000 00000", "A1 E1", "light-female C3 E, dark-male C4 E"),
			dice: []int{1, 4},
			want: []string{
				"Light female: keep facing east.",
				"Dark male: no building to face, keep facing east.",
				"Light female attacks the dark male on C4: lift it, remove the top floor, put it back on level 1.",
				"Dark male attacks C5, level 0: nothing happens.",
				"Light female (roll 1): do not advance (the dark male is on C4).",
				"Dark male (roll 4): turn counter-clockwise to face north, move to B4.",
			},
		},
		{
			name: "builder defeated by attack, turn towards a dome",
			p:    pos(t, "..... ..... ..... ....W .....", "00000 00040 00000 00000 00000", "C3 A4", "light-female C2 E, dark-male C5 S"),
			dice: []int{1, 6},
			want: []string{
				"Light female: keep facing east.",
				"Dark male: turn to face west.",
				"Light female attacks C3: the builder there is defeated, take it off the board.",
				"Dark male attacks C4, level 0: nothing happens.",
				"Light female (roll 1): move to C3.",
				"Dark male (roll 6): move to C4, turn counter-clockwise to face south, move to D4.",
			},
		},
		{
			name: "last building gone",
			p:    pos(t, flat, "00000 00000 00040 00000 00000", "A1", "light-female C3 E, dark-male C5 W"),
			dice: []int{1, 1},
			want: []string{
				"Light female: keep facing east.",
				"Dark male: keep facing west.",
				"Light female attacks C4: remove its dome.",
				"Dark male attacks C4: remove its top floor, leaving level 2.",
				"Light female (roll 1): do not advance (C4 is two levels higher).",
				"Dark male (roll 1): do not advance (C4 is two levels higher).",
			},
		},
		{
			name: "target zone",
			p:    pos(t, "..... ..T.. ..... ..... .....", "00100 00000 00000 00000 00000", "E1 E5", "light-female C3 N"),
			dice: []int{1},
			want: []string{
				"Light female: keep facing north.",
				"Light female attacks B3, level 0: nothing happens.",
				"Light female (roll 1): move to B3: a target zone, the scenario is lost.",
			},
		},
		{
			name: "last builder defeated by advance",
			p:    pos(t, flat, "00100 00000 00000 00000 00000", "A3", "light-female C3 N"),
			dice: []int{2},
			want: []string{
				"Light female: keep facing north.",
				"Light female attacks B3, level 0: nothing happens.",
				"Light female (roll 2): move to B3, move to A3 and defeat the builder there (take it off the board): no builder is left, the scenario is lost.",
			},
		},
		{
			name: "last building removed",
			p:    pos(t, "...W. ..... ..... ..... .....", "00000 00000 00010 00000 00000", "A1", "light-female C3 E"),
			dice: []int{1},
			want: []string{
				"Light female: keep facing east.",
				"Light female attacks C4: remove its top floor, leaving level 0. No building is left: the scenario is lost.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, events, _, err := EnemyTurn(tt.p, tt.dice)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range events {
				got = append(got, e.Text)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("texts:\n  got  %q\n  want %q", got, tt.want)
			}
		})
	}
}

// TestEventTextOverflow: texts longer than the turn's buffer go on in a
// bigger one, whole.
func TestEventTextOverflow(t *testing.T) {
	var turn enemyTurn
	long := strings.Repeat("x", 3000)
	for i := 0; i < 3; i++ {
		turn.say(long[:1000], long)
		turn.emit(Event{Phase: PhaseMove})
	}
	turn.setTexts()
	for i, e := range turn.events {
		if e.Text != long[:1000]+long {
			t.Errorf("event %d: text of %d bytes, want 4000", i, len(e.Text))
		}
	}
}
