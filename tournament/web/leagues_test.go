package web

import (
	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
)

// seedSeason creates a qualification season of tournament tid, so that a
// walk of the route table reaches the seasons' pages (season 1).
func (e *consoleEnv) seedSeason(tid int64) tournament.Season {
	e.t.Helper()
	se, err := e.svc.CreateSeason(e.ctx, "setup", tournament.SeasonInput{Name: "秋の地区予選", From: "2025-10-01", To: "2025-12-31", Events: []int64{tid},
		Formula: season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3}, Best: 2}, Qualification: &tournament.Qualification{}})
	if err != nil {
		e.t.Fatal(err)
	}
	return se
}
