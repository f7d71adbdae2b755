package console

import (
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Divisions in one event (issue 30): each division is a tournament of its
// own, so its rounds, clock, standings and final are its own pages; every
// page of a division shows the event's divisions (render.Nav.Divisions),
// and the overview's card adds one and names this one.

// divisionsCard is the overview's card of the event's divisions.
type divisionsCard struct {
	TID  int64
	Name string // this tournament's division's name
	// Main says this is the event's main tournament (or an event of one):
	// divisions are added here.
	Main bool
	// Added and NameValue are the forms' values as refused, with the
	// refusal next to them.
	Added, AddError string
	NameValue       string
	NameError       string
}

// divisionForms are the divisions card's forms as refused.
type divisionForms struct {
	added, addError string
	name, nameError string
}

func divisionsCardOf(t tournament.Tournament, f divisionForms) *divisionsCard {
	card := &divisionsCard{TID: t.ID, Name: t.Division, Main: !t.IsDivision(), Added: f.added, AddError: f.addError,
		NameValue: t.Division, NameError: f.nameError}
	if f.nameError != "" {
		card.NameValue = f.name
	}
	return card
}

// navDivisions are the event's divisions as every page of tournament t
// shows them, each linked to the same page of that division (its overview
// from a round's page, whose number is its own), nil for an event of one.
func navDivisions(t tournament.Tournament, active string) []render.NavDivision {
	if len(t.Divisions) < 2 {
		return nil
	}
	page := map[string]string{"players": route.Players, "penalties": route.Penalties, "standings": route.Standings, "audit": route.Audit}[active]
	if page == "" {
		page = route.Tournament
	}
	out := make([]render.NavDivision, len(t.Divisions))
	for i, d := range t.Divisions {
		out[i] = render.NavDivision{Name: d.Name, Href: route.Path(page, d.TournamentID), Current: d.TournamentID == t.ID}
	}
	return out
}

// AddDivision adds the form's division to the event and shows its
// overview; a refusal is shown in the card, and nothing is added.
func (s *Pages) AddDivision(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	name := c.PostForm("name")
	d, err := s.svc.AddDivision(c.Request.Context(), auth.Judge(c), tid, name)
	if err == nil {
		return render.SeeOther(route.Path(route.Tournament, d.ID), "flash.division_added"), nil
	}
	status, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	return s.overview(c, status, overviewForms{division: divisionForms{added: name, addError: msg}})
}

// NameDivision names the division this tournament is.
func (s *Pages) NameDivision(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	name := c.PostForm("name")
	if _, err := s.svc.NameDivision(c.Request.Context(), auth.Judge(c), tid, name); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.overview(c, status, overviewForms{division: divisionForms{name: name, nameError: msg}})
	}
	return render.SeeOther(route.Path(route.Tournament, tid)+"#divisions", "flash.division_named"), nil
}

// divisionChoices are the divisions a player registers in on the players
// page of tournament t, this one first; nil for an event of one.
func divisionChoices(t tournament.Tournament) []string {
	if len(t.Divisions) < 2 {
		return nil
	}
	out := []string{t.Division}
	for _, d := range t.Divisions {
		if d.TournamentID != t.ID {
			out = append(out, d.Name)
		}
	}
	return out
}
