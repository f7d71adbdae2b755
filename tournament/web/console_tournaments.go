package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// fieldErrors holds a form's validation messages by field name, each shown
// next to its field.
type fieldErrors map[string]string

// tournamentsPage is the view model of /judge: every tournament and the
// form that creates one.
type tournamentsPage struct {
	page
	Tournaments []tournamentLine
	Rulesets    []rulesetOption
	Form        tournamentForm
}

type tournamentLine struct {
	ID          int64
	Name        string
	Date        string
	Venue       string
	Ruleset     string
	Rounds      int
	GameMinutes int
}

type rulesetOption struct {
	Name        string
	Version     string
	GameMinutes int
}

// tournamentForm is the tournament form as the judge typed it.
type tournamentForm struct {
	Name        string
	Date        string
	Venue       string
	Ruleset     string
	Rounds      string
	GameMinutes string
	Errors      fieldErrors
	Error       string // a message for the whole form
}

func (s *Server) showTournaments(c *gin.Context) {
	form := tournamentForm{Ruleset: s.deps.DefaultRuleset, Rounds: "5"}
	s.renderTournaments(c, http.StatusOK, form)
}

func (s *Server) renderTournaments(c *gin.Context, status int, form tournamentForm) {
	ts, err := s.deps.Service.ListTournaments(c.Request.Context())
	if err != nil {
		s.failPage(c, err)
		return
	}
	vm := tournamentsPage{page: s.newPage(c, "page.tournaments", nil), Form: form}
	for _, t := range ts {
		vm.Tournaments = append(vm.Tournaments, tournamentLine{
			ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue,
			Ruleset: t.Ruleset.Name + " " + t.Ruleset.Version, Rounds: t.Rounds, GameMinutes: t.GameMinutes,
		})
	}
	for _, rs := range s.deps.Rulesets.All() {
		vm.Rulesets = append(vm.Rulesets, rulesetOption{Name: rs.Name, Version: rs.Version, GameMinutes: rs.GameMinutes})
	}
	s.render(c, status, "tournaments", vm)
}

// readTournamentForm reads the form: the name is filled in, numbers are
// numbers. The service checks the rest (tournamentFields says where its
// refusals go).
func (s *Server) readTournamentForm(c *gin.Context, lang string) (tournamentForm, tournament.TournamentInput) {
	f := tournamentForm{
		Name:        strings.TrimSpace(c.PostForm("name")),
		Date:        strings.TrimSpace(c.PostForm("date")),
		Venue:       strings.TrimSpace(c.PostForm("venue")),
		Ruleset:     c.PostForm("ruleset"),
		Rounds:      strings.TrimSpace(c.PostForm("rounds")),
		GameMinutes: strings.TrimSpace(c.PostForm("game_minutes")),
		Errors:      fieldErrors{},
	}
	in := tournament.TournamentInput{Name: f.Name, Date: f.Date, Venue: f.Venue, Ruleset: f.Ruleset}
	if f.Name == "" {
		f.Errors["name"] = s.i18n.text(lang, "form.required", nil)
	}
	in.Rounds, _ = s.formInt(lang, f.Rounds, math.MinInt, math.MaxInt, true, f.Errors, "rounds")
	in.GameMinutes, _ = s.formInt(lang, f.GameMinutes, math.MinInt, math.MaxInt, false, f.Errors, "game_minutes")
	return f, in
}

// tournamentFields puts the service's refusal of the tournament form next
// to the field it is about, and reports whether it did.
func (s *Server) tournamentFields(lang string, err error, f *tournamentForm) bool {
	var v *referee.Violation
	if !errors.As(err, &v) {
		return false
	}
	switch v.Code {
	case "tournament-name-missing":
		f.Errors["name"] = s.i18n.text(lang, "form.required", nil)
	case "rounds-out-of-range":
		f.Errors["rounds"] = s.i18n.text(lang, "form.range", v.Args)
	case "game-minutes-out-of-range":
		f.Errors["game_minutes"] = s.i18n.text(lang, "form.range", v.Args)
	default:
		return false
	}
	return true
}

// formInt reads a whole number typed into field, recording a message in
// errs when it is missing (and required), not a number or outside [lo, hi].
func (s *Server) formInt(lang, v string, lo, hi int, required bool, errs fieldErrors, field string) (int, bool) {
	if v == "" {
		if required {
			errs[field] = s.i18n.text(lang, "form.required", nil)
			return 0, false
		}
		return 0, true
	}
	n, err := strconv.Atoi(toHalfWidth(v))
	if err != nil {
		errs[field] = s.i18n.text(lang, "form.number", nil)
		return 0, false
	}
	if n < lo || n > hi {
		errs[field] = s.i18n.text(lang, "form.range", map[string]any{"Min": lo, "Max": hi})
		return n, false
	}
	return n, true
}

// toHalfWidth turns full-width digits and minus, which a Japanese IME types,
// into ASCII.
func toHalfWidth(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '０' && r <= '９':
			return '0' + (r - '０')
		case r == '－' || r == 'ー':
			return '-'
		}
		return r
	}, s)
}

func (s *Server) createTournament(c *gin.Context) {
	lang := s.i18n.lang(c)
	form, in := s.readTournamentForm(c, lang)
	if len(form.Errors) > 0 {
		s.renderTournaments(c, http.StatusUnprocessableEntity, form)
		return
	}
	t, err := s.deps.Service.CreateTournament(c.Request.Context(), c.GetString(judgeKey), in)
	if s.tournamentFields(lang, err, &form) {
		s.renderTournaments(c, http.StatusUnprocessableEntity, form)
		return
	}
	if err != nil {
		if form.Error = s.formError(c, err); form.Error == "" {
			return
		}
		s.renderTournaments(c, http.StatusUnprocessableEntity, form)
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d", t.ID), "flash.tournament_created")
}

// formError returns the message of a service error that a form shows next
// to its fields (a rule the input breaks), or shows the error page and
// returns "" for any other error.
func (s *Server) formError(c *gin.Context, err error) string {
	status, msg, _ := s.describe(s.i18n.lang(c), err)
	if status != http.StatusUnprocessableEntity {
		s.failPage(c, err)
		return ""
	}
	s.log.Info("form refused", "id", c.GetString(requestIDKey), "err", err)
	return msg
}

// refusal returns the status and the message of a service error that the
// page shows next to the button or form that caused it: a rule the action
// breaks (422), or a conflict with what is recorded (409), such as another
// judge's change made first. For any other error it shows the error page
// and returns "".
func (s *Server) refusal(c *gin.Context, err error) (int, string) {
	status, msg, _ := s.describe(s.i18n.lang(c), err)
	if status != http.StatusUnprocessableEntity && status != http.StatusConflict {
		s.failPage(c, err)
		return 0, ""
	}
	s.log.Info("action refused", "id", c.GetString(requestIDKey), "status", status, "err", err)
	return status, msg
}

// overviewPage is the view model of /judge/t/:id.
type overviewPage struct {
	page
	T          tournamentLine
	Players    int
	CheckedIn  int
	Dropped    int
	NextRound  int // the number the next pairing gets
	CanPair    bool
	PairError  string // why pairing was refused, next to its button
	Form       tournamentForm
	RulesetVer string
	End        endForm
}

// endForm is the event's end on the overview: the button that closes the
// tournament, or, once closed, the winners and the form that reopens it.
type endForm struct {
	State    string // tournament.StateSetup, StateRunning or StateFinished
	ClosedBy string // who closed it when, in words
	Winners  string
	Error    string // why closing or reopening was refused
	Reason   string // the reason to reopen, as typed
}

// loadTournament reads the :id tournament and builds its navigation.
func (s *Server) loadTournament(c *gin.Context, active string) (tournament.Tournament, *tournamentNav, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return tournament.Tournament{}, nil, err
	}
	t, err := s.deps.Service.GetTournament(c.Request.Context(), id)
	if err != nil {
		return tournament.Tournament{}, nil, err
	}
	nav, err := s.newTournamentNav(c.Request.Context(), t, active)
	return t, nav, err
}

func (s *Server) newTournamentNav(ctx context.Context, t tournament.Tournament, active string) (*tournamentNav, error) {
	rounds, err := s.deps.Service.Rounds(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	nav := &tournamentNav{ID: t.ID, Name: t.Name, Active: active, Finished: t.Closed != nil}
	for _, r := range rounds {
		nav.Rounds = append(nav.Rounds, r.Number)
	}
	return nav, nil
}

// pathID reads a numeric path parameter; anything else is a page not found.
func pathID(c *gin.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoRoute
	}
	return id, nil
}

func (s *Server) showTournament(c *gin.Context) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		s.failPage(c, err)
		return
	}
	s.renderTournament(c, http.StatusOK, t, nav, tournamentFormOf(t), "", endForm{})
}

// renderOverview shows the :id tournament's overview again with the
// message of a refused pairing next to its button.
func (s *Server) renderOverview(c *gin.Context, status int, pairError string) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		s.failPage(c, err)
		return
	}
	s.renderTournament(c, status, t, nav, tournamentFormOf(t), pairError, endForm{})
}

// tournamentFormOf is the edit form of t as recorded.
func tournamentFormOf(t tournament.Tournament) tournamentForm {
	return tournamentForm{
		Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: t.Ruleset.Name,
		Rounds: strconv.Itoa(t.Rounds), GameMinutes: strconv.Itoa(t.GameMinutes),
	}
}

func (s *Server) renderTournament(c *gin.Context, status int, t tournament.Tournament, nav *tournamentNav, form tournamentForm, pairError string, end endForm) {
	players, err := s.deps.Service.Players(c.Request.Context(), t.ID)
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	end.State = t.State()
	if t.Closed != nil {
		end.ClosedBy = s.i18n.text(lang, "end.closed_by", map[string]any{"Judge": t.Closed.Judge, "At": localTime(t.Closed.At)})
		st, err := s.deps.Service.Standings(c.Request.Context(), t.ID)
		if err != nil {
			s.failPage(c, err)
			return
		}
		end.Winners = winnerNames(lang, st)
	}
	canPair, err := s.deps.Service.CanPair(c.Request.Context(), t.ID)
	if err != nil {
		s.failPage(c, err)
		return
	}
	vm := overviewPage{
		page: s.newPage(c, "page.overview", map[string]any{"Name": t.Name}),
		T: tournamentLine{
			ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: t.Ruleset.Name,
			Rounds: t.Rounds, GameMinutes: t.GameMinutes,
		},
		RulesetVer: t.Ruleset.Version,
		Players:    len(players),
		NextRound:  len(nav.Rounds) + 1,
		CanPair:    canPair,
		PairError:  pairError,
		Form:       form,
		End:        end,
	}
	vm.Nav = nav
	att := tournament.CountAttendance(players)
	vm.CheckedIn, vm.Dropped = att.CheckedIn, att.Dropped
	s.render(c, status, "tournament", vm)
}

func (s *Server) editTournament(c *gin.Context) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	form, in := s.readTournamentForm(c, lang)
	form.Ruleset = t.Ruleset.Name
	if len(form.Errors) > 0 {
		s.renderTournament(c, http.StatusUnprocessableEntity, t, nav, form, "", endForm{})
		return
	}
	if _, err := s.deps.Service.EditTournament(c.Request.Context(), c.GetString(judgeKey), t.ID, in); err != nil {
		if s.tournamentFields(lang, err, &form) {
			s.renderTournament(c, http.StatusUnprocessableEntity, t, nav, form, "", endForm{})
			return
		}
		var status int
		if status, form.Error = s.refusal(c, err); form.Error == "" {
			return
		}
		s.renderTournament(c, status, t, nav, form, "", endForm{})
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d", t.ID), "flash.saved")
}

// winnerNames names the players ranked 1st, as lang lists them.
func winnerNames(lang string, st []tournament.Standing) string {
	var names []string
	for _, w := range tournament.Winners(st) {
		names = append(names, w.Name)
	}
	sep := "、"
	if lang == "en" {
		sep = ", "
	}
	return strings.Join(names, sep)
}

// closeTournament closes the tournament: its standings are final.
func (s *Server) closeTournament(c *gin.Context) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		s.failPage(c, err)
		return
	}
	if _, err := s.deps.Service.CloseTournament(c.Request.Context(), c.GetString(judgeKey), t.ID); err != nil {
		var end endForm
		var status int
		if status, end.Error = s.refusal(c, err); end.Error != "" {
			s.renderTournament(c, status, t, nav, tournamentFormOf(t), "", end)
		}
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d", t.ID), "flash.closed")
}

// reopenTournament reopens a closed tournament, with the judge's reason.
func (s *Server) reopenTournament(c *gin.Context) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		s.failPage(c, err)
		return
	}
	end := endForm{Reason: strings.TrimSpace(c.PostForm("reason"))}
	if _, err := s.deps.Service.ReopenTournament(c.Request.Context(), c.GetString(judgeKey), t.ID, end.Reason); err != nil {
		var status int
		if status, end.Error = s.refusal(c, err); end.Error != "" {
			s.renderTournament(c, status, t, nav, tournamentFormOf(t), "", end)
		}
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d", t.ID), "flash.reopened")
}
