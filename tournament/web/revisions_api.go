package web

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
)

// revisionJSON is one revision of a table's score sheet as it was saved:
// the VP as entered, before any cap or penalty.
type revisionJSON struct {
	Version  int           `json:"version"`
	Scores   []idScoreJSON `json:"scores"`
	Declared *int64        `json:"declared"`
	EndedBy  string        `json:"ended_by"`
	Judge    string        `json:"judge"`
	At       time.Time     `json:"at"`
	Reason   string        `json:"reason,omitempty"`
	// EndedEarly: ended by time before the table's signal, on the judge's
	// Reason (§12); LateReason: a declaration confirmed after the signal.
	EndedEarly bool   `json:"ended_early,omitempty"`
	LateReason string `json:"late_reason,omitempty"`
}

func toRevisionJSON(r tournament.Result) revisionJSON {
	out := revisionJSON{Version: r.Version, Scores: []idScoreJSON{}, EndedBy: r.EndedBy, Judge: r.Judge, At: r.At, Reason: r.Reason,
		EndedEarly: r.EndedEarly, LateReason: r.LateReason}
	if r.Declared != 0 {
		d := r.Declared
		out.Declared = &d
	}
	for _, sc := range r.Scores {
		out.Scores = append(out.Scores, idScoreJSON{Player: sc.PlayerID, VP: sc.VP})
	}
	return out
}

// listRevisionsAPI answers a table's whole result history, oldest first:
// who saved each revision, when and why.
func (s *Server) listRevisionsAPI(c *gin.Context) (int, any, error) {
	tid, n, number, err := tableParams(c)
	if err != nil {
		return 0, nil, err
	}
	revs, err := s.deps.Service.Revisions(c.Request.Context(), tid, n, number)
	if err != nil {
		return 0, nil, err
	}
	out := make([]revisionJSON, len(revs))
	for i, r := range revs {
		out[i] = toRevisionJSON(r)
	}
	return http.StatusOK, gin.H{"revisions": out}, nil
}
