package console

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// tournamentsPage is the view model of /judge: every tournament and the
// form that creates one.
type tournamentsPage struct {
	render.Page
	Tournaments []tournamentLine
	// Archived says the list is of the archived tournaments ("show
	// archived"), else of the others.
	Archived bool
	Rulesets []rulesetOption
	Form     tournamentForm
}

type tournamentLine struct {
	ID          int64
	Name        string
	Date        string
	Venue       string
	Ruleset     string
	Rounds      int
	Paired      int  // rounds paired so far
	Closed      bool // finished
	GameMinutes int

	InFinal bool // the latest round is a stage of the final (tournament.Tournament.InFinal)
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
	Shop        string // the shop that runs the event, for its seasons
	Ruleset     string
	Rounds      string
	GameMinutes string
	SelfCheckIn bool
	SelfReport  string
	Team        bool // a team event (issue 30)
	// ConfirmResults is the two-person rule: a result counts once another
	// account confirms it.
	ConfirmResults bool
	Errors         fieldErrors
	Error          string // a message for the whole form
}

// tournamentRules says where the tournament form shows the service's
// refusals of its fields.
var tournamentRules = fieldRules{
	"tournament-name-missing":   {"name", "form.required"},
	"rounds-out-of-range":       {"rounds", "form.range"},
	"game-minutes-out-of-range": {"game_minutes", "form.range"},
}

func (s *Pages) ShowTournaments(c *gin.Context) (render.Result, error) {
	form := tournamentForm{Ruleset: s.defaultRuleset, Rounds: "5"}
	return s.tournamentsPage(c, http.StatusOK, form)
}

func (s *Pages) tournamentsPage(c *gin.Context, status int, form tournamentForm) (render.Result, error) {
	archived := c.Query("archived") == "1"
	ts, err := s.svc.ListedTournaments(c.Request.Context(), archived)
	if err != nil {
		return render.Result{}, err
	}
	vm := tournamentsPage{Page: s.pages.Page(c, "page.tournaments", nil), Form: form, Archived: archived}
	for _, t := range ts {
		vm.Tournaments = append(vm.Tournaments, tournamentLine{
			ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue,
			Ruleset: t.Ruleset.Name + " " + t.Ruleset.Version, Rounds: t.Rounds, GameMinutes: t.GameMinutes,
			Paired: t.Paired, Closed: t.Closed != nil, InFinal: t.InFinal(),
		})
	}
	for _, rs := range s.rulesets.All() {
		vm.Rulesets = append(vm.Rulesets, rulesetOption{Name: rs.Name, Version: rs.Version, GameMinutes: rs.GameMinutes})
	}
	// The judges' landing page follows the one tournament in play as its
	// own pages do: its navigation, with its open calls live and the chime.
	if !archived {
		if vm.Nav, err = s.navInPlay(c.Request.Context(), ts); err != nil {
			return render.Result{}, err
		}
	}
	return render.ShowStatus(status, "tournaments", vm), nil
}

// readTournamentForm reads the form: the name is filled in, numbers are
// numbers. The service checks the rest (tournamentRules).
func (s *Pages) readTournamentForm(c *gin.Context, lang string) (tournamentForm, tournament.TournamentInput) {
	f := tournamentForm{
		Name:        strings.TrimSpace(c.PostForm("name")),
		Date:        strings.TrimSpace(c.PostForm("date")),
		Venue:       strings.TrimSpace(c.PostForm("venue")),
		Shop:        strings.TrimSpace(c.PostForm("shop")),
		Ruleset:     c.PostForm("ruleset"),
		Rounds:      strings.TrimSpace(c.PostForm("rounds")),
		GameMinutes: strings.TrimSpace(c.PostForm("game_minutes")),
		SelfCheckIn: c.PostForm("self_checkin") == "1",
		SelfReport:  c.PostForm("self_report"),
		Team:        c.PostForm("team") == "1",
		Errors:      fieldErrors{},
		// The two-person rule (issue 27).
		ConfirmResults: c.PostForm("confirm_results") == "1",
	}
	in := tournament.TournamentInput{Name: f.Name, Date: f.Date, Venue: f.Venue, Ruleset: f.Ruleset, SelfCheckIn: f.SelfCheckIn, SelfReport: f.SelfReport}
	in.Shop, in.Team, in.ConfirmResults = f.Shop, f.Team, f.ConfirmResults
	if f.Name == "" {
		f.Errors["name"] = s.i18n.Text(lang, "form.required", nil)
	}
	in.Rounds = s.formNumber(lang, f.Rounds, true, f.Errors, "rounds")
	in.GameMinutes = s.formNumber(lang, f.GameMinutes, false, f.Errors, "game_minutes")
	return f, in
}

func (s *Pages) CreateTournament(c *gin.Context) (render.Result, error) {
	lang := s.i18n.Lang(c)
	form, in := s.readTournamentForm(c, lang)
	if len(form.Errors) > 0 {
		return s.tournamentsPage(c, http.StatusUnprocessableEntity, form)
	}
	t, err := s.svc.CreateTournament(c.Request.Context(), auth.Judge(c), in)
	if err != nil {
		var ok bool
		if form.Error, ok = s.placeFormError(c, lang, err, tournamentRules, form.Errors); !ok {
			return render.Result{}, err
		}
		return s.tournamentsPage(c, http.StatusUnprocessableEntity, form)
	}
	return render.SeeOther(route.Path(route.Tournament, t.ID), "flash.tournament_created"), nil
}

// overviewPage is the view model of /judge/t/:id.
type overviewPage struct {
	render.Page
	T         tournamentLine
	Players   int
	CheckedIn int
	Dropped   int
	NextRound int // the number the next pairing gets
	CanPair   bool
	PairError string // why pairing was refused, next to its button
	// CanMakeFinal says the next stage of a top-cut final can be made now
	// (the qualifying rounds are played); FinalCut is its players.
	CanMakeFinal bool
	// FinalUnplayed says the event has a top cut whose final has no
	// results yet: closing now lets the standings decide (a warning).
	FinalUnplayed bool
	FinalCut      int
	Form          tournamentForm
	RulesetVer    string
	End           endForm
	// Archived says who archived the tournament when, in words; "" while
	// it is listed. DeleteError says why deleting it was refused.
	Archived    string
	DeleteError string
	// Loopback names the kiosk's address when it is this machine's own,
	// which players' phones cannot open.
	Loopback string
	// Restore is the undone round that can be put back (undo.go), nil for none.
	Restore *restoreForm
	// Divisions is the card of the event's divisions (divisions.go).
	Divisions *divisionsCard
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
	remove    string // why deleting was refused
	division  divisionForms
}

func (s *Pages) ShowTournament(c *gin.Context) (render.Result, error) {
	return s.overview(c, http.StatusOK, overviewForms{})
}

// tournamentFormOf is the edit form of t as recorded.
func tournamentFormOf(t tournament.Tournament) tournamentForm {
	return tournamentForm{
		Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: t.Ruleset.Name,
		Rounds: strconv.Itoa(t.Rounds), GameMinutes: strconv.Itoa(t.GameMinutes), SelfCheckIn: t.SelfCheckIn, SelfReport: t.SelfReport,
		Shop: t.Shop, Team: t.Team, ConfirmResults: t.ConfirmResults,
	}
}

// overview is the :id tournament's overview with the forms f.
func (s *Pages) overview(c *gin.Context, status int, f overviewForms) (render.Result, error) {
	t, nav, players, err := s.loadPlayers(c, "overview")
	if err != nil {
		return render.Result{}, err
	}
	ctx := c.Request.Context()
	canPair, err := s.svc.CanPair(ctx, t.ID)
	if err != nil {
		return render.Result{}, err
	}
	fv, err := s.svc.Final(ctx, t.ID)
	if err != nil {
		return render.Result{}, err
	}
	finalCut := 0
	if len(fv.Stages) > 0 {
		finalCut = fv.Stages[0].Players
	}
	lang := s.i18n.Lang(c)
	end, err := s.endOf(ctx, lang, t, f.end)
	if err != nil {
		return render.Result{}, err
	}
	form := tournamentFormOf(t)
	if f.edit != nil {
		// The ruleset is the tournament's copy, whatever the form says.
		form, form.Ruleset = *f.edit, t.Ruleset.Name
	}
	att := tournament.CountAttendance(players)
	vm := overviewPage{
		Page: s.pages.Page(c, "page.overview", map[string]any{"Name": t.Name}),
		T: tournamentLine{
			ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: t.Ruleset.Name,
			Rounds: t.Rounds, GameMinutes: t.GameMinutes, InFinal: t.InFinal(),
		},
		RulesetVer: t.Ruleset.Version,
		Loopback:   loopback(s.kioskURL(t.ID)),
		Players:    att.Registered,
		CheckedIn:  att.CheckedIn,
		Dropped:    att.Dropped,
		NextRound:  len(nav.Rounds) + 1,
		CanPair:    canPair,
		// The first stage of a top cut; later stages are made from the
		// standings page, beside the stages made.
		CanMakeFinal:  fv.Ready == nil && len(fv.Made) == 0 && len(fv.Stages) > 0,
		FinalUnplayed: fv.Format == referee.TopCut && fv.Results == nil,
		FinalCut:      finalCut,
		PairError:     f.pairError,
		Form:          form,
		End:           end,
		DeleteError:   f.remove,
	}
	if t.Archived != nil {
		vm.Archived = s.i18n.Text(lang, "keep.archived_by", map[string]any{"Judge": t.Archived.Judge, "At": s.i18n.In(lang).Time(t.Archived.At)})
	}
	vm.Nav = nav
	vm.Divisions = divisionsCardOf(t, f.division)
	vm.Restore, err = s.restoreForm(c, t.ID)
	return render.ShowStatus(status, "tournament", vm), err
}

// endOf is the overview's end form of t: its state, and once it is
// closed, who closed it and its winners; end is the form as refused, if it was.
func (s *Pages) endOf(ctx context.Context, lang string, t tournament.Tournament, end endForm) (endForm, error) {
	end.State = t.State()
	if t.Closed != nil {
		end.ClosedBy = s.i18n.Text(lang, "end.closed_by", map[string]any{"Judge": t.Closed.Judge, "At": s.i18n.In(lang).Time(t.Closed.At)})
		ws, err := s.svc.Winners(ctx, t.ID)
		if err != nil {
			return endForm{}, err
		}
		end.Winners = s.i18n.In(lang).Winners(ws)
	}
	return end, nil
}

func (s *Pages) EditTournament(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	form, in := s.readTournamentForm(c, lang)
	status := http.StatusUnprocessableEntity
	if len(form.Errors) == 0 {
		t, err := s.svc.EditTournament(c.Request.Context(), auth.Judge(c), tid, in)
		if err == nil {
			return render.SeeOther(route.Path(route.Tournament, t.ID), "flash.saved"), nil
		}
		if !s.place(lang, err, tournamentRules, form.Errors) {
			var ok bool
			if status, form.Error, ok = s.refusal(c, err); !ok {
				return render.Result{}, err
			}
		}
	}
	return s.overview(c, status, overviewForms{edit: &form})
}

// CloseTournament closes the tournament: its standings are final.
func (s *Pages) CloseTournament(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.CloseTournament(c.Request.Context(), auth.Judge(c), tid); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.overview(c, status, overviewForms{end: endForm{Error: msg}})
	}
	return render.SeeOther(route.Path(route.Tournament, tid), "flash.closed"), nil
}

// ReopenTournament reopens a closed tournament, with the judge's reason.
func (s *Pages) ReopenTournament(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	end := endForm{Reason: strings.TrimSpace(c.PostForm("reason"))}
	if _, err := s.svc.ReopenTournament(c.Request.Context(), auth.Judge(c), tid, end.Reason); err != nil {
		var status int
		var ok bool
		if status, end.Error, ok = s.refusal(c, err); !ok {
			return render.Result{}, err
		}
		return s.overview(c, status, overviewForms{end: end})
	}
	return render.SeeOther(route.Path(route.Tournament, tid), "flash.reopened"), nil
}

// ArchiveTournament archives a tournament: kept, off the lists.
func (s *Pages) ArchiveTournament(c *gin.Context) (render.Result, error) {
	return s.archive(c, s.svc.ArchiveTournament, "flash.archived")
}

// UnarchiveTournament lists an archived tournament again.
func (s *Pages) UnarchiveTournament(c *gin.Context) (render.Result, error) {
	return s.archive(c, s.svc.UnarchiveTournament, "flash.unarchived")
}

func (s *Pages) archive(c *gin.Context, set func(context.Context, string, int64) (tournament.Tournament, error), flash string) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	if _, err := set(c.Request.Context(), auth.Judge(c), tid); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Tournament, tid), flash), nil
}

// DeleteTournament deletes a tournament that never started (the form asks
// to confirm); one that started is refused on its overview.
func (s *Pages) DeleteTournament(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	if err := s.svc.DeleteTournament(c.Request.Context(), auth.Judge(c), tid); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.overview(c, status, overviewForms{remove: msg})
	}
	return render.SeeOther(route.Path(route.Tournaments), "flash.tournament_deleted"), nil
}

// loopback is the kiosk's address kiosk when phones cannot open it, else "".
func loopback(kiosk string) string {
	if route.Unreachable(kiosk) {
		return kiosk
	}
	return ""
}

// inPlay is the one tournament of ts whose rounds have begun and which is
// not closed, if there is exactly one.
func inPlay(ts []tournament.Tournament) (tournament.Tournament, bool) {
	var found []tournament.Tournament
	for _, t := range ts {
		if t.Paired > 0 && t.Closed == nil {
			found = append(found, t)
		}
	}
	if len(found) != 1 {
		return tournament.Tournament{}, false
	}
	return found[0], true
}
