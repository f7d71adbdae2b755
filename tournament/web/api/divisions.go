package api

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Divisions in one event (issue 30): a division is a tournament of its
// own, which every route of a tournament takes by its ID (the event's
// "divisions" list them); the event's routes take a division by name
// where a reader asks for one division of the event (?division=).

// DivisionJSON is one division of an event: its name ("" for the main
// one while unnamed) and its tournament's ID.
type DivisionJSON struct {
	Name       string `json:"name"`
	Tournament int64  `json:"tournament"`
}

func toDivisionsJSON(ds []tournament.Division) []DivisionJSON {
	if len(ds) == 0 {
		return nil
	}
	out := make([]DivisionJSON, len(ds))
	for i, d := range ds {
		out[i] = DivisionJSON{Name: d.Name, Tournament: d.TournamentID}
	}
	return out
}

// divisionRequest names a division.
type divisionRequest struct {
	Name string `json:"name"`
}

// AddDivision adds a division to the event of the main tournament {id}:
// 201 the division's tournament as GET .../{id} answers it; 422
// division-name-missing, division-name-too-long, division-name-taken,
// division-of-division; 409 tournament-finished.
func (s *Handlers) AddDivision(c *gin.Context) (int, any, error) {
	return s.divisionCall(c, http.StatusCreated, s.svc.AddDivision)
}

// NameDivision names the division tournament {id} is (the main one's
// too): 200 the tournament; 422 as AddDivision.
func (s *Handlers) NameDivision(c *gin.Context) (int, any, error) {
	return s.divisionCall(c, http.StatusOK, s.svc.NameDivision)
}

func (s *Handlers) divisionCall(c *gin.Context, status int, call func(ctx context.Context, judge string, id int64, name string) (tournament.Tournament, error)) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req divisionRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := call(c.Request.Context(), auth.Judge(c), id, req.Name)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), status, t)
}

// divisionNamed is the tournament of the division ?division= names in the
// event of tournament tid: tid itself when none is named (read nothing
// more); 404 unknown-division for a name the event has no division of.
func (s *Handlers) divisionNamed(c *gin.Context, tid int64) (int64, error) {
	name, ok := c.GetQuery("division")
	if !ok || name == "" {
		return tid, nil
	}
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return 0, err
	}
	return t.DivisionNamed(name)
}

// divisionOf is the name of the division tournament tid is, "" for an
// event of one.
func (s *Handlers) divisionOf(c *gin.Context, tid int64) (string, error) {
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return "", err
	}
	return t.Division, nil
}

// playerIn answers a player added with the division they play in.
func (s *Handlers) playerIn(c *gin.Context, p tournament.Player) (int, any, error) {
	out := toPlayerJSON(p)
	division, err := s.divisionOf(c, p.TournamentID)
	if err != nil {
		return 0, nil, err
	}
	out.Division = division
	return http.StatusCreated, out, nil
}
