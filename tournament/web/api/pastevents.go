package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

type pastScoreJSON struct {
	Name   string `json:"name"`
	Kana   string `json:"kana"`
	Member string `json:"member"`
	VP     int    `json:"vp"`
}

type pastTableJSON struct {
	Round  int             `json:"round"`
	Table  int             `json:"table"`
	Scores []pastScoreJSON `json:"scores"`
}

type pastEventJSON struct {
	Name   string          `json:"name"`
	Date   string          `json:"date"`
	Shop   string          `json:"shop"`
	Tables []pastTableJSON `json:"tables"`
}

type importEventsRequest struct {
	Events []pastEventJSON `json:"events"`
	DryRun bool            `json:"dry_run"`
}

type pastPlayerJSON struct {
	Name   string `json:"name"`
	Kana   string `json:"kana,omitempty"`
	Member string `json:"member,omitempty"`
	Person *int64 `json:"person"`
	Doubt  int    `json:"doubt"`
	Games  int    `json:"games"`
}

type pastPlanJSON struct {
	Name    string           `json:"name"`
	Date    string           `json:"date"`
	Shop    string           `json:"shop,omitempty"`
	Rounds  int              `json:"rounds"`
	Tables  int              `json:"tables"`
	Players []pastPlayerJSON `json:"players"`
}

// PastEvents are the events of an import request, as the service takes
// them: a results sheet's lines, in JSON.
func (r importEventsRequest) pastEvents() []tournament.PastEvent {
	out := make([]tournament.PastEvent, len(r.Events))
	for i, e := range r.Events {
		pe := tournament.PastEvent{Name: e.Name, Date: e.Date, Shop: e.Shop, Source: tournament.ImportedFromSheet}
		for _, t := range e.Tables {
			g := tournament.PastGame{Round: t.Round, Table: t.Table}
			for _, sc := range t.Scores {
				g.Scores = append(g.Scores, tournament.PastScore{Name: sc.Name, Kana: sc.Kana, Member: sc.Member, VP: sc.VP})
			}
			pe.Tables = append(pe.Tables, g)
		}
		out[i] = pe
	}
	return out
}

// ImportPastEvents imports past events from their results: 201 with the
// tournaments made (finished, "imported"), or with "dry_run" 200 with what
// it would do: each event's players and whom each is in the registry.
func (s *Handlers) ImportPastEvents(c *gin.Context) (int, any, error) {
	var req importEventsRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	if req.DryRun {
		plans, err := s.svc.PlanPastEvents(c.Request.Context(), req.pastEvents())
		if err != nil {
			return 0, nil, err
		}
		out := make([]pastPlanJSON, len(plans))
		for i, p := range plans {
			pj := pastPlanJSON{Name: p.Event.Name, Date: p.Event.Date, Shop: p.Event.Shop, Rounds: p.Rounds, Tables: len(p.Event.Tables), Players: []pastPlayerJSON{}}
			for _, pp := range p.Players {
				line := pastPlayerJSON{Name: pp.Name, Kana: pp.Kana, Member: pp.Member, Doubt: pp.Doubt, Games: pp.Games}
				if pp.PersonID != 0 {
					id := pp.PersonID
					line.Person = &id
				}
				pj.Players = append(pj.Players, line)
			}
			out[i] = pj
		}
		return http.StatusOK, gin.H{"plans": out}, nil
	}
	ts, err := s.svc.ImportPastEvents(c.Request.Context(), auth.Judge(c), req.pastEvents())
	if err != nil {
		return 0, nil, err
	}
	out := make([]TournamentJSON, len(ts))
	for i, t := range ts {
		out[i] = toTournamentJSON(t)
	}
	return http.StatusCreated, gin.H{"tournaments": out}, nil
}
