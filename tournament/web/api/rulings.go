package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// A ruling at a table: the position a judge rebuilt on the table's board,
// as POST /api/v1/referee/position takes its steps (the players named by
// their ids as strings, in play order), with the judge's note. The engine
// evaluates it under the tournament's ruleset; the ruling is stored with
// the judge and the answer, and never changes a result.

type rulingRequest struct {
	Steps []stepJSON `json:"steps"`
	Note  string     `json:"note"`
}

// RulingJSON is a stored ruling: the position's steps and players, the
// note, who ruled when, and the engine's answer after the last step as the
// position API says it (its reasons in the request's language).
type RulingJSON struct {
	ID         int64          `json:"id"`
	Players    []string       `json:"players"`
	Steps      []stepJSON     `json:"steps"`
	Note       string         `json:"note"`
	Judge      string         `json:"judge"`
	At         time.Time      `json:"at"`
	Notes      []noteJSON     `json:"notes"`
	Evaluation evaluationJSON `json:"evaluation"`
}

// SaveRuling answers POST .../tables/{t}/rulings: 201 with the ruling.
func (s *Handlers) SaveRuling(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req rulingRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.RulingInput{Note: req.Note, Steps: gameSteps(req.Steps)}
	r, _, err := s.svc.SaveRuling(c.Request.Context(), auth.Judge(c), tid, n, number, in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, s.rulingJSON(s.i18n.Lang(c), r), nil
}

// ListRulings answers GET .../tables/{t}/rulings: the table's rulings,
// oldest first.
func (s *Handlers) ListRulings(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	rs, err := s.svc.Rulings(c.Request.Context(), tid, n, number)
	if err != nil {
		return 0, nil, err
	}
	out := make([]RulingJSON, len(rs))
	for i, r := range rs {
		out[i] = s.rulingJSON(s.i18n.Lang(c), r)
	}
	return http.StatusOK, gin.H{"rulings": out}, nil
}

// rulingJSON writes a ruling with its stored answer in lang.
func (s *Handlers) rulingJSON(lang string, r tournament.Ruling) RulingJSON {
	p := s.i18n.In(lang)
	id := func(pid int64) string { return strconv.FormatInt(pid, 10) }
	out := RulingJSON{ID: r.ID, Players: []string{}, Steps: []stepJSON{}, Note: r.Note, Judge: r.Judge, At: r.At, Notes: []noteJSON{}}
	for _, pl := range r.Players {
		out.Players = append(out.Players, id(pl))
	}
	for _, st := range r.Steps {
		out.Steps = append(out.Steps, stepJSON{Do: st.Do, Player: st.Player, At: st.At, Edge: st.Edge})
	}
	names := map[int64]string{} // the API names players by id
	for _, n := range r.Answer.Notes {
		out.Notes = append(out.Notes, noteJSON{Step: n.Step, Code: n.Code, Section: n.Section, Message: problem.Violation(p, n.Violation(names))})
	}
	award := func(a tournament.RulingAward) awardJSON {
		out := awardJSON{Code: a.Why.Code, Section: a.Why.Section, Message: problem.Violation(p, a.Why.Violation(names))}
		if a.Holder != 0 {
			h := id(a.Holder)
			out.Holder = &h
		}
		if a.Why.Step >= 0 {
			step := a.Why.Step
			out.Step = &step
		}
		return out
	}
	out.Evaluation = evaluationJSON{Players: []playerEvaluationJSON{}, LongestRoad: award(r.Answer.LongestRoad), LargestArmy: award(r.Answer.LargestArmy)}
	for _, pl := range r.Answer.Players {
		b := pl.Breakdown
		vp := vpJSON{Settlements: b.Settlements, Cities: 2 * b.Cities, PointCards: b.PointCards}
		if b.LongestRoad {
			vp.LongestRoad = 2
		}
		if b.LargestArmy {
			vp.LargestArmy = 2
		}
		out.Evaluation.Players = append(out.Evaluation.Players, playerEvaluationJSON{Player: id(pl.PlayerID), Road: pl.Road, Roads: pl.Roads, Trail: pl.Trail,
			Settlements: b.Settlements, Cities: b.Cities, Soldiers: pl.Soldiers, PointCards: b.PointCards, VP: pl.VP, VPBreakdown: vp})
	}
	return out
}
