package api

import (
	"cmp"
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The tournament JSON API. Writes need a judge session or the API token;
// the round and standings reads are public, as the kiosk shows the same facts.
// Player ids are the numbers the API returned.

type TournamentJSON struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	Date           string `json:"date,omitempty"`
	Venue          string `json:"venue,omitempty"`
	Shop           string `json:"shop,omitempty"`
	Imported       string `json:"imported,omitempty"` // what a past event was imported from
	Ruleset        string `json:"ruleset"`
	RulesetVersion string `json:"ruleset_version"`
	Rounds         int    `json:"rounds"`
	GameMinutes    int    `json:"game_minutes"`
	// SelfCheckIn says players may check themselves in with their code.
	SelfCheckIn bool `json:"self_checkin"`
	// SelfReport says what players' table reports do: "off", "approve"
	// (a judge accepts each) or "auto" (saved once every player confirmed).
	SelfReport string `json:"self_report"`
	// ConfirmResults is the two-person rule: a result counts once a
	// second account confirmed it.
	ConfirmResults bool `json:"confirm_results"`
	// State is "setup" (no round paired), "running" or "finished" (closed
	// by a judge: the results are final, nothing changes until reopened).
	State    string     `json:"state"`
	ClosedAt *time.Time `json:"closed_at,omitempty"`
	// ArchivedAt is set while a judge has the tournament archived: kept,
	// but off the console's list and the landing page.
	ArchivedAt *time.Time `json:"archived_at,omitempty"`
	// Team says it is a team event, and TeamRules are then the ruleset's
	// team settings (issue 30).
	Team      bool           `json:"team"`
	TeamRules *TeamRulesJSON `json:"team_rules,omitempty"`
	// Divisions in one event (divisions.go): the division this tournament
	// is, and the event's divisions, the main first; both left out for an
	// event of one division.
	Division  string         `json:"division,omitempty"`
	Divisions []DivisionJSON `json:"divisions,omitempty"`
}

func toTournamentJSON(t tournament.Tournament) TournamentJSON {
	out := TournamentJSON{
		ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Shop: t.Shop, Imported: t.Imported,
		Ruleset: t.Ruleset.Name, RulesetVersion: t.Ruleset.Version,
		Rounds: t.Rounds, GameMinutes: t.GameMinutes, SelfCheckIn: t.SelfCheckIn, SelfReport: cmp.Or(t.SelfReport, tournament.SelfReportOff), State: t.State(),
		ConfirmResults: t.ConfirmResults,
		Team:           t.Team, TeamRules: teamRulesJSON(t),
	}
	if t.Closed != nil {
		at := t.Closed.At
		out.ClosedAt = &at
	}
	if t.Archived != nil {
		at := t.Archived.At
		out.ArchivedAt = &at
	}
	out.Division, out.Divisions = t.Division, toDivisionsJSON(t.Divisions)
	return out
}

// ArchiveTournament archives a tournament (kept, off the lists).
func (s *Handlers) ArchiveTournament(c *gin.Context) (int, any, error) {
	return s.archive(c, s.svc.ArchiveTournament)
}

// UnarchiveTournament lists an archived tournament again.
func (s *Handlers) UnarchiveTournament(c *gin.Context) (int, any, error) {
	return s.archive(c, s.svc.UnarchiveTournament)
}

func (s *Handlers) archive(c *gin.Context, set func(context.Context, string, int64) (tournament.Tournament, error)) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	t, err := set(c.Request.Context(), auth.Judge(c), id)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

// DeleteTournament deletes a tournament that never started: 204, or 409
// tournament-started once a round is paired.
func (s *Handlers) DeleteTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	if err := s.svc.DeleteTournament(c.Request.Context(), auth.Judge(c), id); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

// CloseTournament closes a tournament whose tables all have results.
func (s *Handlers) CloseTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	t, err := s.svc.CloseTournament(c.Request.Context(), auth.Judge(c), id)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

// ReopenTournament reopens a closed tournament, with the judge's reason.
func (s *Handlers) ReopenTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req reasonRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.ReopenTournament(c.Request.Context(), auth.Judge(c), id, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

type createTournamentRequest struct {
	Name        string `json:"name"`
	Date        string `json:"date"`
	Venue       string `json:"venue"`
	Shop        string `json:"shop"`
	Ruleset     string `json:"ruleset"`
	Rounds      int    `json:"rounds"`
	GameMinutes int    `json:"game_minutes"`
	SelfCheckIn bool   `json:"self_checkin"`
	SelfReport  string `json:"self_report"`
	// ConfirmResults is the two-person rule (issue 27).
	ConfirmResults bool `json:"confirm_results"`
	// Team makes it a team event (issue 30).
	Team bool `json:"team"`
}

func (s *Handlers) CreateTournament(c *gin.Context) (int, any, error) {
	var req createTournamentRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.CreateTournament(c.Request.Context(), auth.Judge(c), tournament.TournamentInput(req))
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusCreated, t)
}

// editTournamentRequest is a change of a tournament's settings: a field
// left out stays as it is.
type editTournamentRequest struct {
	Name        *string `json:"name"`
	Date        *string `json:"date"`
	Venue       *string `json:"venue"`
	Shop        *string `json:"shop"`
	Rounds      *int    `json:"rounds"`
	GameMinutes *int    `json:"game_minutes"`
	SelfCheckIn *bool   `json:"self_checkin"`
	SelfReport  *string `json:"self_report"`
	// ConfirmResults is the two-person rule (issue 27).
	ConfirmResults *bool `json:"confirm_results"`
	// Team makes it a team event, or no longer one, before round 1 (issue 30).
	Team *bool `json:"team"`
}

// EditTournament changes the settings the body gives, by the console's
// rules (tournament.Service.EditTournament): 200 the tournament as GET
// answers it; 422 for a setting refused (rounds below those paired, the
// game time once a clock ran, an unknown self_report).
func (s *Handlers) EditTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req editTournamentRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.PatchTournament(c.Request.Context(), auth.Judge(c), id, tournament.TournamentPatch(req))
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

func (s *Handlers) ListTournaments(c *gin.Context) (int, any, error) {
	ts, err := s.svc.ListTournaments(c.Request.Context())
	if err != nil {
		return 0, nil, err
	}
	out := make([]TournamentJSON, len(ts))
	for i, t := range ts {
		out[i] = toTournamentJSON(t)
	}
	return http.StatusOK, gin.H{"tournaments": out}, nil
}

func (s *Handlers) ShowTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}
