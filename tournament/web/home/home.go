// Package home serves the site's front door, /: the tournaments under way
// with the links players open (the kiosk and the projector), and the way
// in for judges. It is read-only and needs no login.
package home

import (
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// Pages serves the landing page.
type Pages struct {
	svc   *tournament.Service
	pages *render.Engine
	judge func(*gin.Context) string
}

// New returns the landing page's handlers. judge names the judge logged in
// on the browser, or "", as the page is open to anyone.
func New(svc *tournament.Service, pages *render.Engine, judge func(*gin.Context) string) *Pages {
	return &Pages{svc: svc, pages: pages, judge: judge}
}

// homePage is the view model of /.
type homePage struct {
	render.Page
	Open     []line // not closed: set up or under way
	Finished []line // closed by a judge, newest first, a few
}

type line struct {
	ID     int64
	Name   string
	Date   string
	Venue  string
	Round  int  // rounds paired so far
	Rounds int  // rounds planned
	Final  bool // the latest round is a stage of the final
}

// maxFinished is how many closed tournaments the page lists: the front door
// is for today's event, not the archive.
const maxFinished = 5

// ShowHome lists the tournaments players may follow.
func (p *Pages) ShowHome(c *gin.Context) (render.Result, error) {
	vm := homePage{Page: p.pages.Page(c, "home.title", nil)}
	vm.Judge = p.judge(c)
	if p.svc != nil {
		ts, err := p.svc.ListedTournaments(c.Request.Context(), false)
		if err != nil {
			return render.Result{}, err
		}
		for _, t := range ts {
			l := line{ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Round: t.Paired, Rounds: t.Rounds, Final: t.InFinal()}
			if t.Closed != nil {
				if len(vm.Finished) < maxFinished {
					vm.Finished = append(vm.Finished, l)
				}
				continue
			}
			vm.Open = append(vm.Open, l)
		}
	}
	return render.Show("home", vm), nil
}
