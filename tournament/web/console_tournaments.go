package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

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

// tournamentRules says where the tournament form shows the service's
// refusals of its fields.
var tournamentRules = fieldRules{
	"tournament-name-missing":   {"name", "form.required"},
	"rounds-out-of-range":       {"rounds", "form.range"},
	"game-minutes-out-of-range": {"game_minutes", "form.range"},
}

func (s *Server) showTournaments(c *gin.Context) (result, error) {
	form := tournamentForm{Ruleset: s.deps.DefaultRuleset, Rounds: "5"}
	return s.tournamentsPage(c, http.StatusOK, form)
}

func (s *Server) tournamentsPage(c *gin.Context, status int, form tournamentForm) (result, error) {
	ts, err := s.deps.Service.ListTournaments(c.Request.Context())
	if err != nil {
		return result{}, err
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
	return showStatus(status, "tournaments", vm), nil
}

// readTournamentForm reads the form: the name is filled in, numbers are
// numbers. The service checks the rest (tournamentRules).
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
		f.Errors["name"] = s.i18n.Text(lang, "form.required", nil)
	}
	in.Rounds = s.formNumber(lang, f.Rounds, true, f.Errors, "rounds")
	in.GameMinutes = s.formNumber(lang, f.GameMinutes, false, f.Errors, "game_minutes")
	return f, in
}

func (s *Server) createTournament(c *gin.Context) (result, error) {
	lang := s.i18n.Lang(c)
	form, in := s.readTournamentForm(c, lang)
	if len(form.Errors) > 0 {
		return s.tournamentsPage(c, http.StatusUnprocessableEntity, form)
	}
	t, err := s.deps.Service.CreateTournament(c.Request.Context(), c.GetString(judgeKey), in)
	if err != nil {
		if !s.place(lang, err, tournamentRules, form.Errors) {
			var ok bool
			if form.Error, ok = s.formError(c, err); !ok {
				return result{}, err
			}
		}
		return s.tournamentsPage(c, http.StatusUnprocessableEntity, form)
	}
	return seeOther(route.Path(route.Tournament, t.ID), "flash.tournament_created"), nil
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

// overviewForms is what the overview shows again after a refused action:
// the edit form as typed, the message of a refused pairing, or the end
// form with its message.
type overviewForms struct {
	edit      *tournamentForm // nil for the tournament as recorded
	pairError string
	end       endForm
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

func (s *Server) showTournament(c *gin.Context) (result, error) {
	return s.overview(c, http.StatusOK, overviewForms{})
}

// tournamentFormOf is the edit form of t as recorded.
func tournamentFormOf(t tournament.Tournament) tournamentForm {
	return tournamentForm{
		Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: t.Ruleset.Name,
		Rounds: strconv.Itoa(t.Rounds), GameMinutes: strconv.Itoa(t.GameMinutes),
	}
}

// overview is the :id tournament's overview with the forms f.
func (s *Server) overview(c *gin.Context, status int, f overviewForms) (result, error) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		return result{}, err
	}
	ctx := c.Request.Context()
	players, err := s.deps.Service.Players(ctx, t.ID)
	if err != nil {
		return result{}, err
	}
	canPair, err := s.deps.Service.CanPair(ctx, t.ID)
	if err != nil {
		return result{}, err
	}
	lang := s.i18n.Lang(c)
	end := f.end
	end.State = t.State()
	if t.Closed != nil {
		end.ClosedBy = s.i18n.Text(lang, "end.closed_by", map[string]any{"Judge": t.Closed.Judge, "At": s.i18n.In(lang).Time(t.Closed.At)})
		st, err := s.deps.Service.Standings(ctx, t.ID)
		if err != nil {
			return result{}, err
		}
		end.Winners = winnerNames(lang, st)
	}
	form := tournamentFormOf(t)
	if f.edit != nil {
		// The ruleset is the tournament's copy, whatever the form says.
		form, form.Ruleset = *f.edit, t.Ruleset.Name
	}
	att := tournament.CountAttendance(players)
	vm := overviewPage{
		page: s.newPage(c, "page.overview", map[string]any{"Name": t.Name}),
		T: tournamentLine{
			ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: t.Ruleset.Name,
			Rounds: t.Rounds, GameMinutes: t.GameMinutes,
		},
		RulesetVer: t.Ruleset.Version,
		Players:    att.Registered,
		CheckedIn:  att.CheckedIn,
		Dropped:    att.Dropped,
		NextRound:  len(nav.Rounds) + 1,
		CanPair:    canPair,
		PairError:  f.pairError,
		Form:       form,
		End:        end,
	}
	vm.Nav = nav
	return showStatus(status, "tournament", vm), nil
}

func (s *Server) editTournament(c *gin.Context) (result, error) {
	tid, err := pathID(c, "id")
	if err != nil {
		return result{}, err
	}
	lang := s.i18n.Lang(c)
	form, in := s.readTournamentForm(c, lang)
	status := http.StatusUnprocessableEntity
	if len(form.Errors) == 0 {
		t, err := s.deps.Service.EditTournament(c.Request.Context(), c.GetString(judgeKey), tid, in)
		if err == nil {
			return seeOther(route.Path(route.Tournament, t.ID), "flash.saved"), nil
		}
		if !s.place(lang, err, tournamentRules, form.Errors) {
			var ok bool
			if status, form.Error, ok = s.refusal(c, err); !ok {
				return result{}, err
			}
		}
	}
	return s.overview(c, status, overviewForms{edit: &form})
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
func (s *Server) closeTournament(c *gin.Context) (result, error) {
	tid, err := pathID(c, "id")
	if err != nil {
		return result{}, err
	}
	if _, err := s.deps.Service.CloseTournament(c.Request.Context(), c.GetString(judgeKey), tid); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return result{}, err
		}
		return s.overview(c, status, overviewForms{end: endForm{Error: msg}})
	}
	return seeOther(route.Path(route.Tournament, tid), "flash.closed"), nil
}

// reopenTournament reopens a closed tournament, with the judge's reason.
func (s *Server) reopenTournament(c *gin.Context) (result, error) {
	tid, err := pathID(c, "id")
	if err != nil {
		return result{}, err
	}
	end := endForm{Reason: strings.TrimSpace(c.PostForm("reason"))}
	if _, err := s.deps.Service.ReopenTournament(c.Request.Context(), c.GetString(judgeKey), tid, end.Reason); err != nil {
		var status int
		var ok bool
		if status, end.Error, ok = s.refusal(c, err); !ok {
			return result{}, err
		}
		return s.overview(c, status, overviewForms{end: end})
	}
	return seeOther(route.Path(route.Tournament, tid), "flash.reopened"), nil
}
