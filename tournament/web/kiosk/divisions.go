package kiosk

import (
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// kioskDivision is one division of the event on the kiosk (issue 30): the
// room's screens and phones go from one division's pairings and standings
// to another's.
type kioskDivision struct {
	Name    string // "" for the event's unnamed main division
	Href    string
	Current bool
}

// kioskDivisions are the divisions of t's event, each linked to its kiosk
// (the projector's to its projector); nil for an event of one.
func kioskDivisions(t tournament.Tournament, projector bool) []kioskDivision {
	if len(t.Divisions) < 2 {
		return nil
	}
	out := make([]kioskDivision, len(t.Divisions))
	for i, d := range t.Divisions {
		href := route.Path(route.Kiosk, d.TournamentID)
		if projector {
			href += "?view=projector"
		}
		out[i] = kioskDivision{Name: d.Name, Href: href, Current: d.TournamentID == t.ID}
	}
	return out
}
