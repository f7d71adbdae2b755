package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// PersonJSON is a person of the registry, for judges only: it carries the
// member number.
type PersonJSON struct {
	ID       int64            `json:"id"`
	Name     string           `json:"name"`
	Kana     string           `json:"kana,omitempty"`
	Member   string           `json:"member,omitempty"`
	Archived bool             `json:"archived"`
	Events   int              `json:"events"`
	Last     *PersonEventJSON `json:"last,omitempty"`
}

// PersonEventJSON is a tournament a person played, as one of its players.
type PersonEventJSON struct {
	Tournament int64  `json:"tournament"`
	Name       string `json:"name"`
	Date       string `json:"date,omitempty"`
	Player     int64  `json:"player"`
	Closed     bool   `json:"closed"`
}

func toPersonEventJSON(e tournament.PersonEvent) PersonEventJSON {
	return PersonEventJSON{Tournament: e.TournamentID, Name: e.Name, Date: e.Date, Player: e.PlayerID, Closed: e.Closed}
}

func toPersonJSON(p tournament.PersonEntry) PersonJSON {
	out := PersonJSON{ID: p.ID, Name: p.Name, Kana: p.Kana, Member: p.Member, Archived: p.Archived != nil, Events: p.EventsPlayed()}
	if p.Last.TournamentID != 0 {
		last := toPersonEventJSON(p.Last)
		out.Last = &last
	}
	return out
}

// ListPeople lists the registry: ?q= searches names and readings (folded
// as the console folds them), ?archived=true lists the archived people,
// ?page= from 1, tournament.PeoplePageSize to a page.
func (s *Handlers) ListPeople(c *gin.Context) (int, any, error) {
	page, err := strconv.Atoi(c.DefaultQuery("page", "1"))
	if err != nil || page < 1 {
		return 0, nil, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": "page"}, Detail: "page=" + c.Query("page")}
	}
	archived, err := strconv.ParseBool(c.DefaultQuery("archived", "false"))
	if err != nil {
		return 0, nil, &problem.BadRequest{ID: "error.json_field", Data: map[string]any{"Field": "archived"}, Detail: err.Error()}
	}
	list, err := s.svc.People(c.Request.Context(), c.Query("q"), archived, page)
	if err != nil {
		return 0, nil, err
	}
	people := make([]PersonJSON, len(list.People))
	for i, p := range list.People {
		people[i] = toPersonJSON(p)
	}
	return http.StatusOK, gin.H{"people": people, "total": list.Total, "page": list.Page, "pages": list.Pages}, nil
}

// ShowPerson answers a person of the registry with every tournament they
// played ("tournaments"), newest first.
func (s *Handlers) ShowPerson(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return 0, nil, err
	}
	rec, err := s.svc.Person(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	events := make([]PersonEventJSON, len(rec.Events))
	for i, e := range rec.Events {
		events[i] = toPersonEventJSON(e)
	}
	r, err := s.svc.Rating(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, struct {
		PersonJSON
		Tournaments []PersonEventJSON `json:"tournaments"`
		Rating      RatingJSON        `json:"rating"`
	}{toPersonJSON(rec.PersonEntry), events, personRatingJSON(r)}, nil
}

type editPersonRequest struct {
	Name   string `json:"name"`
	Kana   string `json:"kana"`
	Member string `json:"member"`
}

// EditPerson changes a person's name, kana and member number: 200 with
// the person.
func (s *Handlers) EditPerson(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return 0, nil, err
	}
	var req editPersonRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	if _, err := s.svc.EditPerson(c.Request.Context(), auth.Judge(c), id, tournament.PersonInput(req)); err != nil {
		return 0, nil, err
	}
	return s.personAnswer(c.Request.Context(), id)
}

type mergeRequest struct {
	Person int64 `json:"person"`
}

// MergePeople merges the person the body names into the path's: 200 with
// the person kept, 409 people-share-tournament when both played one
// tournament.
func (s *Handlers) MergePeople(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return 0, nil, err
	}
	var req mergeRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	if _, err := s.svc.MergePeople(c.Request.Context(), auth.Judge(c), id, req.Person); err != nil {
		return 0, nil, err
	}
	return s.personAnswer(c.Request.Context(), id)
}

// ArchivePerson archives a person: 200 with the person.
func (s *Handlers) ArchivePerson(c *gin.Context) (int, any, error) {
	return s.archivePerson(c, s.svc.ArchivePerson)
}

// UnarchivePerson lists an archived person again: 200 with the person.
func (s *Handlers) UnarchivePerson(c *gin.Context) (int, any, error) {
	return s.archivePerson(c, s.svc.UnarchivePerson)
}

func (s *Handlers) archivePerson(c *gin.Context, set func(context.Context, string, int64) (tournament.Person, error)) (int, any, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return 0, nil, err
	}
	if _, err := set(c.Request.Context(), auth.Judge(c), id); err != nil {
		return 0, nil, err
	}
	return s.personAnswer(c.Request.Context(), id)
}

// personAnswer is 200 with person id as the registry has them now.
func (s *Handlers) personAnswer(ctx context.Context, id int64) (int, any, error) {
	p, err := s.svc.GetPerson(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPersonJSON(p), nil
}
