package console

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// noteQualifications says on each player's line where they stand in the
// qualifications the event counts for (issue 29): the attempt their
// check-in is or would be, or that every attempt is used, and whether the
// desk should take their real name.
func (s *Pages) noteQualifications(ctx context.Context, lang string, tid int64, players []tournament.Player, lines []playerLine) error {
	people := make([]int64, 0, len(players))
	person := map[int64]int64{}
	for _, p := range players {
		if p.PersonID != 0 {
			people, person[p.ID] = append(people, p.PersonID), p.PersonID
		}
	}
	notes, err := s.svc.QualificationNotes(ctx, tid, people)
	if err != nil || len(notes) == 0 {
		return err
	}
	for i := range lines {
		l := &lines[i]
		for _, n := range notes[person[l.ID]] {
			data := map[string]any{"Season": n.Season.Name, "N": n.Used + 1, "Attempts": n.Attempts, "Used": n.Used}
			id := "qualification.will_be"
			switch {
			case l.CheckedIn:
				id = "qualification.is"
			case n.Refused != nil:
				id, l.AttemptsUsed = "qualification.used", true
			}
			l.Qualification = append(l.Qualification, s.i18n.Text(lang, id, data))
			if n.RealNameMissing {
				l.RealNameWanted = true
			}
		}
	}
	return nil
}

// recordRealName records the real name typed beside a player's check-in,
// when there is one, before the check-in.
func (s *Pages) recordRealName(c *gin.Context, tid, pid int64) error {
	name := strings.TrimSpace(c.PostForm("real_name"))
	if name == "" {
		return nil
	}
	p, err := s.svc.GetPlayer(c.Request.Context(), tid, pid)
	if err != nil {
		return err
	}
	_, err = s.svc.RecordRealName(c.Request.Context(), auth.Judge(c), p.PersonID, name)
	return err
}
