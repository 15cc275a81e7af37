package campaign

import "companion/engine"

// Bonus names, as RULES.md "Scoring" gives them.
const (
	BonusFirst     = "First!"
	BonusAlive     = "Stayin' alive"
	BonusBuildings = "Buildings, buildings everywhere"
)

// BonusPoints is what each bonus is worth.
const BonusPoints = 2

// buildingsBonusGain is how much the level sum must grow over the setup's
// for "Buildings, buildings everywhere".
const buildingsBonusGain = 3

// ScenarioScore is the score of one won scenario.
type ScenarioScore struct {
	Scenario int      `json:"scenario"` // campaign number, 0 for a user's own
	Name     string   `json:"name"`
	Level    int      `json:"level"`
	Attempts int      `json:"attempts"`
	Bonuses  []string `json:"bonuses"`
	Points   int      `json:"points"`
}

// Score scores a won scenario (RULES.md "Scoring"): its level, plus 2 for
// each bonus. attempt is 1 for a win on the first attempt.
func Score(info ScenarioInfo, attempt int, final engine.Position) ScenarioScore {
	s := ScenarioScore{
		Scenario: info.Number,
		Name:     info.Name,
		Level:    info.Level,
		Attempts: attempt,
		Bonuses:  []string{},
		Points:   info.Level,
	}
	if attempt == 1 {
		s.Bonuses = append(s.Bonuses, BonusFirst)
	}
	// Builders are only ever removed, so "every builder still on the board"
	// is "as many as at setup".
	if len(final.Builders) == len(info.Setup.Builders) {
		s.Bonuses = append(s.Bonuses, BonusAlive)
	}
	if final.LevelSum()-info.Setup.LevelSum() >= buildingsBonusGain {
		s.Bonuses = append(s.Bonuses, BonusBuildings)
	}
	s.Points += BonusPoints * len(s.Bonuses)
	return s
}

// DifficultyPoints is the end-of-campaign adjustment: +2 expert, -2 easy.
func DifficultyPoints(d Difficulty) int {
	switch d {
	case Expert:
		return 2
	case Easy:
		return -2
	}
	return 0
}

// Rank names the rank a campaign total earns.
func Rank(total int) string {
	switch {
	case total >= 50:
		return "Guild Master"
	case total >= 40:
		return "Master"
	case total >= 30:
		return "Journeyman"
	case total >= 20:
		return "Assistant"
	case total >= 10:
		return "Apprentice"
	}
	return "Novice"
}
