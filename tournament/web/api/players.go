package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

type PlayerJSON struct {
	ID           int64   `json:"id"`
	Name         string  `json:"name"`
	Kana         string  `json:"kana,omitempty"`
	CheckedIn    bool    `json:"checked_in"`
	LateEntry    int     `json:"late_entry_round,omitempty"`
	DroppedRound int     `json:"dropped_round,omitempty"`
	FixedTable   int     `json:"fixed_table,omitempty"`
	KeepApart    []int64 `json:"keep_apart,omitempty"`
	// Person is the player's person of the registry of people across
	// events (GET /api/v1/people/{id}).
	Person int64 `json:"person,omitempty"`
	// Code is the player's code, in the answer of the call that issued it
	// alone (adding the player, or issuing a new code): it is stored hashed.
	Code string `json:"code,omitempty"`
	// Disqualification is the player's disqualification (events.go), if any.
	Disqualification *DisqualificationJSON `json:"disqualification,omitempty"`
	// Late entries, substitutes and no-shows (late.go).
	LateJoin    string `json:"late_join,omitempty"`
	Substitute  bool   `json:"substitute,omitempty"`
	NoShowRound int    `json:"no_show_round,omitempty"`
	// Team is the player's team in a team event (teams.go), if any.
	Team *PlayerTeamJSON `json:"team,omitempty"`
	// Division is the event's division the player plays in (divisions.go);
	// left out for an event of one division.
	Division string `json:"division,omitempty"`
}

func toPlayerJSON(p tournament.Player) PlayerJSON {
	return PlayerJSON{
		ID: p.ID, Name: p.Name, Kana: p.Kana, CheckedIn: p.CheckedIn, LateEntry: p.LateEntryRound,
		DroppedRound: p.DroppedRound, FixedTable: p.FixedTable, KeepApart: p.KeepApart, Code: p.Code, Person: p.PersonID,
		Disqualification: toDisqualificationJSON(p),
		LateJoin:         string(p.LateJoin), Substitute: p.Substitute, NoShowRound: p.NoShowRound,
		Team: toPlayerTeamJSON(p.Team),
	}
}

type addPlayerRequest struct {
	Name string `json:"name"`
	Kana string `json:"kana"`
	// CheckedIn defaults to true: a player registered through the API is
	// usually registered at the desk on the day.
	CheckedIn *bool `json:"checked_in"`
	// Person links the player to this person of the registry; Member is
	// their member number, which links them to its person. Without
	// either, the player is the one person of the same name and reading,
	// else a new person: the API never links on less.
	Person int64  `json:"person"`
	Member string `json:"member"`
	// Division is the event's division the player registers in
	// (divisions.go): left out, the tournament's own.
	Division string `json:"division"`
}

func (s *Handlers) AddPlayer(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req addPlayerRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.PlayerInput{Name: req.Name, Kana: req.Kana, CheckedIn: req.CheckedIn == nil || *req.CheckedIn,
		Member: req.Member, Person: tournament.PersonChoice{ID: req.Person}, Division: req.Division}
	p, err := s.svc.AddPlayer(c.Request.Context(), auth.Judge(c), tid, in)
	if err != nil {
		return 0, nil, err
	}
	return s.playerIn(c, p)
}

func (s *Handlers) ListPlayers(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	ps, err := s.svc.Players(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	division, err := s.divisionOf(c, tid)
	if err != nil {
		return 0, nil, err
	}
	out := make([]PlayerJSON, len(ps))
	for i, p := range ps {
		out[i] = toPlayerJSON(p)
		out[i].Division = division
	}
	return http.StatusOK, gin.H{"players": out}, nil
}

func (s *Handlers) DropPlayer(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	p, err := s.svc.DropPlayer(c.Request.Context(), auth.Judge(c), tid, pid)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

// DeletePlayer removes a registration that has no game on record: 204,
// or 409 for a player who has played (drop them instead).
func (s *Handlers) DeletePlayer(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	if _, err := s.svc.DeletePlayer(c.Request.Context(), auth.Judge(c), tid, pid); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

// IssueCode gives a player a new code, voiding the old one: 200 with the
// player and the new code.
func (s *Handlers) IssueCode(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	p, err := s.svc.IssueCode(c.Request.Context(), auth.Judge(c), tid, pid)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

type checkInRequest struct {
	CheckedIn bool `json:"checked_in"`
}

func (s *Handlers) CheckIn(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	var req checkInRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.CheckIn(c.Request.Context(), auth.Judge(c), tid, pid, req.CheckedIn)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}
