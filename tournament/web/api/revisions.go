package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// RevisionJSON is one revision of a table's score sheet as it was saved:
// the VP as entered, before any cap or penalty.
type RevisionJSON struct {
	Version  int           `json:"version"`
	Scores   []IdScoreJSON `json:"scores"`
	Declared *int64        `json:"declared"`
	EndedBy  string        `json:"ended_by"`
	Judge    string        `json:"judge"`
	At       time.Time     `json:"at"`
	Reason   string        `json:"reason,omitempty"`
	// EndedEarly: ended by time before the table's signal, on the judge's
	// Reason (§12); LateReason: a declaration confirmed after the signal.
	EndedEarly bool   `json:"ended_early,omitempty"`
	LateReason string `json:"late_reason,omitempty"`
	// Report is the players' report this revision was saved from: it was
	// reported by players (and accepted by Judge).
	Report int64 `json:"report,omitempty"`
	// GameMoves is the number of moves of the table's recorded game this
	// revision was saved from.
	GameMoves int `json:"game_moves,omitempty"`
	// The two-person rule (issue 27): a revision entered under it
	// (needs_confirm) counts once another account confirmed it.
	NeedsConfirm  bool       `json:"needs_confirm,omitempty"`
	ConfirmedBy   string     `json:"confirmed_by,omitempty"`
	ConfirmedAt   *time.Time `json:"confirmed_at,omitempty"`
	ConfirmReason string     `json:"confirm_reason,omitempty"`
}

func toRevisionJSON(r tournament.Result) RevisionJSON {
	return RevisionJSON{Version: r.Version, Scores: toScoresJSON(r.Scores), Declared: declaredJSON(r.Declared), EndedBy: r.EndedBy,
		Judge: r.Judge, At: r.At, Reason: r.Reason, EndedEarly: r.EndedEarly, LateReason: r.LateReason, Report: r.ReportID,
		GameMoves: r.GameMoves, NeedsConfirm: r.NeedsConfirm, ConfirmedBy: r.ConfirmedBy, ConfirmedAt: r.ConfirmedAt, ConfirmReason: r.ConfirmReason}
}

// toScoresJSON is a sheet's VP as entered, never null.
func toScoresJSON(scores []tournament.Score) []IdScoreJSON {
	out := []IdScoreJSON{}
	for _, sc := range scores {
		out = append(out, IdScoreJSON{Player: sc.PlayerID, VP: sc.VP, Breakdown: toBreakdownJSON(sc.Breakdown)})
	}
	return out
}

// declaredJSON is the declared winner, null when the game ended by time.
func declaredJSON(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// ListRevisions answers a table's whole result history, oldest first:
// who saved each revision, when and why.
func (s *Handlers) ListRevisions(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	revs, err := s.svc.Revisions(c.Request.Context(), tid, n, number)
	if err != nil {
		return 0, nil, err
	}
	out := make([]RevisionJSON, len(revs))
	for i, r := range revs {
		out[i] = toRevisionJSON(r)
	}
	return http.StatusOK, gin.H{"revisions": out}, nil
}
