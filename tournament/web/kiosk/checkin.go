package kiosk

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// checkInPage is the phone's check-in page: pick your name, type the code
// on your card.
type checkInPage struct {
	Lang    string
	Title   string
	Heading string
	Path    string
	TID     int64
	Name    string // the tournament's
	Open    bool   // the tournament lets players check themselves in
	Players []checkInOption
	Player  int64  // the player chosen
	Error   string // why the check-in was refused
	Done    string // the player just checked in, by name
	Already bool   // they were checked in before
}

type checkInOption struct {
	ID        int64
	Name      string
	Kana      string
	CheckedIn bool
}

// ShowCheckIn shows the check-in form.
func (s *Pages) ShowCheckIn(c *gin.Context) (render.Result, error) {
	vm, err := s.checkInPage(c)
	if err != nil {
		return render.Result{}, err
	}
	vm.Player, _ = strconv.ParseInt(c.Query("player"), 10, 64)
	return render.Show("checkin", vm), nil
}

// CheckIn checks the chosen player in with the code typed. A wrong code
// counts against the phone's address and the player (auth.Codes).
func (s *Pages) CheckIn(c *gin.Context) (render.Result, error) {
	vm, err := s.checkInPage(c)
	if err != nil {
		return render.Result{}, err
	}
	vm.Player, _ = strconv.ParseInt(c.PostForm("player"), 10, 64)
	code := c.PostForm("code")
	var p tournament.Player
	for _, o := range vm.Players {
		vm.Already = vm.Already || o.ID == vm.Player && o.CheckedIn
	}
	err = s.codes.Check(c, vm.TID, vm.Player, func() (err error) {
		p, err = s.svc.SelfCheckIn(c.Request.Context(), vm.TID, vm.Player, code)
		return err
	})
	if err != nil {
		status, msg, _ := problem.Describe(s.i18n.In(vm.Lang), err)
		if status >= http.StatusInternalServerError && !errors.Is(err, problem.ErrTooManyCodes) {
			return render.Result{}, err
		}
		vm.Error = msg
		return render.ShowStatus(status, "checkin", vm), nil
	}
	vm.Done = p.Name
	return render.Show("checkin", vm), nil
}

// checkInPage reads the :id tournament and its players still in it.
func (s *Pages) checkInPage(c *gin.Context) (checkInPage, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return checkInPage{}, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return checkInPage{}, err
	}
	ps, err := s.svc.Players(c.Request.Context(), tid)
	if err != nil {
		return checkInPage{}, err
	}
	lang := s.i18n.Lang(c)
	vm := checkInPage{
		Lang: lang, Path: c.Request.URL.RequestURI(), TID: tid, Name: t.Name,
		Title:   s.i18n.Text(lang, "checkin.title", map[string]any{"Name": t.Name}),
		Heading: s.i18n.Text(lang, "checkin.heading", nil),
		Open:    t.SelfCheckIn && t.Closed == nil,
	}
	for _, p := range ps {
		if p.DroppedRound == 0 {
			vm.Players = append(vm.Players, checkInOption{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(strings.TrimSpace(p.Kana)), CheckedIn: p.CheckedIn})
		}
	}
	return vm, nil
}
