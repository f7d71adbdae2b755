package console

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// hallPage is the page titled titleID of the console outside any
// tournament (staff, people, seasons, rulesets, past events) with the
// navigation of the one tournament in play, as the landing page has it:
// its open judge calls follow the judges, live and with the chime, to
// every page of the console (issue 27). With none or two in play the page
// has no tournament's navigation.
func (s *Pages) hallPage(c *gin.Context, titleID string, data map[string]any) (render.Page, error) {
	page := s.pages.Page(c, titleID, data)
	ctx := c.Request.Context()
	ts, err := s.svc.ListedTournaments(ctx, false)
	if err != nil {
		return page, err
	}
	page.Nav, err = s.navInPlay(ctx, ts)
	return page, err
}

// navInPlay is the navigation of the one tournament of ts in play (rounds
// begun, not closed), nil when none or several are.
func (s *Pages) navInPlay(ctx context.Context, ts []tournament.Tournament) (*render.Nav, error) {
	t, ok := inPlay(ts)
	if !ok {
		return nil, nil
	}
	return s.newNav(ctx, t, "")
}
