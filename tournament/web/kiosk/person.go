package kiosk

import (
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// personPage is the view model of a person's public page: every event
// they played here, newest first, a page at a time. Their member number
// is never shown.
type personPage struct {
	Lang    string
	Title   string
	Heading string
	Path    string
	Name    string // the person's, as the registry has it
	Kana    string
	Events  []personEvent
	Total   int
	Page    int
	Pages   int
	Prev    string // the newer page's address, "" on the first
	Next    string // the older page's, "" on the last
	Rating  ratingView
}

// personEvent is one event of the page.
type personEvent struct {
	TID      int64
	PID      int64 // the player they were in it
	Name     string
	Date     string
	Finished bool
	Rank     int // final once finished, else so far; 0 for none yet
}

// ShowPerson shows a person's events, tournament.MaxPersonEvents to a page (?page=),
// each with its date and their rank, linked to their page in it.
func (s *Pages) ShowPerson(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return render.Result{}, err
	}
	page := 1
	if v := c.Query("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 || page > 10_000 {
			return render.Result{}, problem.ErrNoRoute
		}
	}
	ctx := c.Request.Context()
	ev, err := s.svc.PersonEvents(ctx, id, page)
	if err != nil {
		return render.Result{}, err
	}
	if page > ev.Pages {
		return render.Result{}, problem.ErrNoRoute
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	vm := personPage{Lang: lang, Path: c.Request.URL.RequestURI(), Name: ev.Person.Name, Kana: tournament.Hiragana(ev.Person.Kana),
		Title:   p.Text("person_page.title", map[string]any{"Name": ev.Person.Name}),
		Heading: p.Text("person_page.heading", map[string]any{"N": ev.Total}),
		Total:   ev.Total, Page: ev.Page, Pages: ev.Pages}
	for _, e := range ev.Events {
		live, err := s.live.Live(ctx, e.TournamentID)
		if err != nil {
			return render.Result{}, err
		}
		vm.Events = append(vm.Events, personEvent{TID: e.TournamentID, PID: e.PlayerID, Name: e.Name, Date: e.Date,
			Finished: e.Closed, Rank: live.Rank(e.PlayerID)})
	}
	if vm.Rating, err = s.ratingView(ctx, p, id); err != nil {
		return render.Result{}, err
	}
	base := route.Path(route.PersonPage, id)
	if page > 1 {
		vm.Prev = base + pageQuery(page-1)
	}
	if page < ev.Pages {
		vm.Next = base + pageQuery(page+1)
	}
	return render.Show("person_page", vm), nil
}

// pageQuery is the query of page n of a list: none for the first.
func pageQuery(n int) string {
	if n <= 1 {
		return ""
	}
	return "?" + url.Values{"page": {strconv.Itoa(n)}}.Encode()
}
