package api

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// ShowRecord answers the tournament's record file (docs/record.md): the
// whole event as one JSON document, facts and what the server derives
// from them, which catanjudge check checks and catanjudge import-record
// restores. Judges only: it holds the judges' notes and the member
// numbers.
func (s *Handlers) ShowRecord(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	r, err := s.svc.Record(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	f, err := recordfile.FromRecord(r, s.generator)
	if err != nil {
		return 0, nil, err
	}
	// A browser saves it as a file, named after the event (the console's
	// link); a client of the API reads the JSON as before.
	c.Header("Content-Disposition", attachment(r.Tournament.Name+".record.json", fmt.Sprintf("tournament-%d.record.json", tid)))
	c.Header("Cache-Control", "no-store")
	return http.StatusOK, f, nil
}
