// Package campaign is the state machine of a Santowerini game at the table:
// a campaign of the six built-in scenarios in order, or a single scenario.
// It knows whose turn it is, which dice of an enemy turn are in, the scores
// (../shared/RULES.md "Scoring") and how to save all of that so a crash loses
// nothing. It does no terminal I/O: the CLI drives it.
//
// A game goes through these steps:
//
//	enemy-turn --(all dice in)--> player-turn --(turn)--> enemy-turn ...
//	     |                            |
//	     +--> scenario-lost           +--> scenario-won --> next scenario | finished
//	          (Continue: replay)
//
// Every change is saved before the method returns (Store.Save: temp file,
// fsync, rename, fsync the directory), so a game resumes at the exact step,
// down to the dice already entered in an enemy turn.
package campaign
