package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// playersPage is the view model of /judge/t/:id/players: the players by
// kana with their status, and the registration form.
type playersPage struct {
	render.Page
	TID     int64
	Players []playerLine
	Paired  int // rounds paired so far: once round 1 is, a new player is a late entry
	Form    playerForm
	// Divisions are the event's divisions a player registers in, this
	// one first (divisions.go); nil for an event of one.
	Divisions []string
	CheckedIn int
	Active    int
	// Refused is a refused check-in, drop or reinstatement, shown in the
	// player's row next to its buttons.
	Refused playerRefusal
	// Query is the search typed (?q=): the list shows the players whose
	// name or reading holds it, folded as tournament.FoldReading folds;
	// Shown is how many.
	Query string
	Shown int
	Total int // every player registered
	// Waiting counts the players shown who are not checked in and have not
	// dropped: the bulk check-in's "everyone shown".
	Waiting int
	// Done says what the last check-in from the list changed, for the list
	// a script swaps in without a reload (part=list); ListError why the
	// bulk check-in changed nothing (a refusal, shown as one).
	Done      string
	ListError string
	// Cards are the new players' cards not printed yet, with their codes,
	// which the desk prints together (ShowCards); Reprint counts the cards
	// printed lately, which can be printed again.
	Cards   []playerCard
	Reprint int

	players []tournament.Player // every player registered, as read
}

// playerRefusal is the message of an action refused for one player.
type playerRefusal struct {
	ID      int64
	Message string
}

type playerLine struct {
	ID         int64
	Name       string
	Kana       string
	CheckedIn  bool
	LateEntry  int
	Dropped    int
	FixedTable int
	KeepApart  []string // names
	// Qualification says where the player stands in each qualification
	// the event counts for (noteQualifications); AttemptsUsed that their
	// check-in would be refused, RealNameWanted that the desk should ask
	// for their real name.
	Qualification  []string
	AttemptsUsed   bool
	RealNameWanted bool
}

// playerForm is the player form as the judge typed it.
type playerForm struct {
	Name    string
	Kana    string
	Member  string // the member number typed (registration)
	CheckIn bool
	// Division is the event's division chosen (divisions.go).
	Division string
	// Candidates are the people of the registry the player may be, when
	// the service asks (tournament.PersonQuestion): the judge chooses one
	// or a new person (Person: an ID, or "new").
	Candidates []personLine
	Person     string
	FixedTable string
	KeepApart  []int64
	Errors     fieldErrors
	Error      string
	// Base is the player as the edit form showed them, carried in hidden
	// fields: the edit saves only what the judge changed from it, and
	// never reverts a field another judge changed since (EditPlayer).
	Base *playerBase
	// Stale, after a conflict: what this judge changed, beside the form
	// that starts again from what is saved.
	Stale *staleForm
	Mine  map[string]string // field name → the value typed, where it is not what is saved
	// Merged says the form carries this judge's changes taken back over
	// the player as saved now, from Base: saving asks first (Overwrite)
	// before it changes a field another judge changed since.
	Merged    bool
	Overwrite *overwriteForm
}

// playerBase is the edit form's fields as the page showed them.
type playerBase struct {
	Name, Kana, FixedTable, KeepApart string // KeepApart: player IDs, comma-separated
}

// playerFormOf is the edit form of p as recorded, with p as its base.
func playerFormOf(p tournament.Player) playerForm {
	form := playerForm{Name: p.Name, Kana: p.Kana, KeepApart: p.KeepApart}
	if p.FixedTable != 0 {
		form.FixedTable = strconv.Itoa(p.FixedTable)
	}
	form.Base = &playerBase{Name: form.Name, Kana: form.Kana, FixedTable: form.FixedTable, KeepApart: joinIDs(p.KeepApart)}
	return form
}

// joinIDs writes ids comma-separated, as a form carries them.
func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// playerRules says where the player forms show the service's refusals of
// their fields.
var playerRules = fieldRules{
	"player-name-missing":       {"name", "form.required"},
	"fixed-table-out-of-range":  {"fixed_table", "form.range"},
	"member-invalid":            {"member", ""},
	"member-too-long":           {"member", ""},
	"member-taken":              {"member", ""},
	"member-mismatch":           {"member", ""},
	"person-already-registered": {"person", ""},
	"person-unknown":            {"person", ""},
	"person-gone":               {"person", ""},
}

func (s *Pages) ShowPlayers(c *gin.Context) (render.Result, error) {
	if c.Query("part") == "list" {
		return s.playersList(c, "")
	}
	return s.playersPage(c, http.StatusOK, playerForm{CheckIn: true}, playerRefusal{})
}

// playersQuery is the players page's search, from the query string or, for
// the forms in its rows, their hidden field.
func playersQuery(c *gin.Context) string {
	if q, ok := c.GetPostForm("q"); ok {
		return strings.TrimSpace(q)
	}
	return strings.TrimSpace(c.Query("q"))
}

// playersAfter is where a check-in from the players page goes back to: the
// page with the search the judge typed, at the row, or the search box.
func playersAfter(tid int64, q string, pid int64) string {
	to := route.Path(route.Players, tid)
	if q != "" {
		return to + "?q=" + url.QueryEscape(q) + "#q"
	}
	if pid != 0 {
		to += fmt.Sprintf("#p%d", pid)
	}
	return to
}

// playerRefused shows the players page again with the message of the
// action refused for player p in its row; an error the row cannot show is
// the error page's.
func (s *Pages) playerRefused(c *gin.Context, p tournament.Player, err error) (render.Result, error) {
	status, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	refused := playerRefusal{ID: p.ID, Message: msg}
	if c.PostForm("part") == "list" {
		vm, err := s.playersView(c, playerForm{CheckIn: true}, refused)
		if err != nil {
			return render.Result{}, err
		}
		return render.Part("players", "list", vm), nil
	}
	return s.playersPage(c, status, playerForm{CheckIn: true}, refused)
}

func (s *Pages) playersPage(c *gin.Context, status int, form playerForm, refused playerRefusal) (render.Result, error) {
	vm, err := s.playersView(c, form, refused)
	if err != nil {
		return render.Result{}, err
	}
	kept, err := s.deskCards(c.Request.Context(), vm.TID, vm.players, time.Now())
	if err != nil {
		return render.Result{}, err
	}
	vm.Cards, vm.Reprint = kept.Waiting, len(kept.Printed)
	return render.ShowStatus(status, "players", vm), nil
}

// playersView is the players page's view model: the form as given, the
// refusal of an action in a player's row, the list as the search filters it.
func (s *Pages) playersView(c *gin.Context, form playerForm, refused playerRefusal) (playersPage, error) {
	t, nav, players, err := s.loadPlayers(c, "players")
	if err != nil {
		return playersPage{}, err
	}
	att := tournament.CountAttendance(players)
	vm := playersPage{Page: s.pages.Page(c, "page.players", map[string]any{"Name": t.Name}), TID: t.ID, Form: form, Refused: refused,
		CheckedIn: att.CheckedIn, Active: att.Active, Paired: len(nav.Rounds), Query: playersQuery(c)}
	folded := tournament.FoldReading(vm.Query)
	vm.Total, vm.players = len(players), players
	vm.Nav = nav
	vm.Divisions = divisionChoices(t)
	names := map[int64]string{}
	for _, p := range players {
		names[p.ID] = p.Name
	}
	for _, p := range players {
		if folded != "" && !strings.Contains(tournament.FoldReading(p.Name), folded) && !strings.Contains(tournament.FoldReading(p.Kana), folded) {
			continue
		}
		vm.Shown++
		if !p.CheckedIn && p.DroppedRound == 0 {
			vm.Waiting++
		}
		line := playerLine{
			ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana), CheckedIn: p.CheckedIn,
			LateEntry: p.LateEntryRound, Dropped: p.DroppedRound, FixedTable: p.FixedTable,
		}
		for _, o := range p.KeepApart {
			line.KeepApart = append(line.KeepApart, names[o])
		}
		vm.Players = append(vm.Players, line)
	}
	if err := s.noteQualifications(c.Request.Context(), s.i18n.Lang(c), t.ID, players, vm.Players); err != nil {
		return playersPage{}, err
	}
	return vm, nil
}

func (s *Pages) AddPlayer(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	form := playerForm{
		Name:    strings.TrimSpace(c.PostForm("name")),
		Kana:    strings.TrimSpace(c.PostForm("kana")),
		Member:  strings.TrimSpace(c.PostForm("member")),
		CheckIn: c.PostForm("check_in") == "1",
		Person:  c.PostForm("person"),
		Errors:  fieldErrors{},
		// The division registered in (divisions.go).
		Division: c.PostForm("division"),
	}
	if form.Name == "" {
		form.Errors["name"] = s.i18n.Text(lang, "form.required", nil)
		return s.playersPage(c, http.StatusUnprocessableEntity, form, playerRefusal{})
	}
	// One change: a refused registration leaves no player behind, so the
	// form sent again registers them once.
	in := tournament.PlayerInput{Name: form.Name, Kana: form.Kana, Member: form.Member, CheckedIn: form.CheckIn, Person: personChoice(form.Person), Division: form.Division}
	p, err := s.svc.AddPlayer(c.Request.Context(), auth.Judge(c), tid, in)
	var q *tournament.PersonQuestion
	if errors.As(err, &q) {
		// Someone of the registry may be them: the judge chooses.
		for _, cand := range q.Match.Candidates {
			form.Candidates = append(form.Candidates, personLineOf(s.i18n.In(lang), cand.PersonEntry, cand.How))
		}
		return s.playersPage(c, http.StatusOK, form, playerRefusal{})
	}
	if err != nil {
		status := http.StatusUnprocessableEntity
		var ok bool
		if status, form.Error, ok = s.placeRefusal(c, lang, err, playerRules, form.Errors); !ok {
			return render.Result{}, err
		}
		return s.playersPage(c, status, form, playerRefusal{})
	}
	// The player's card waits on this page with the others not printed
	// yet; the form is empty again, with the focus on the name: the desk
	// registers one player after another.
	// A player registered in another division is on its players page.
	if err := s.keepCards(c.Request.Context(), p.TournamentID, []tournament.Player{p}, time.Now()); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Players, p.TournamentID)+"#name", "flash.player_added"), nil
}

// tournamentPlayer reads the :pid player of the :id tournament.
func (s *Pages) tournamentPlayer(c *gin.Context) (tournament.Player, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return tournament.Player{}, err
	}
	return s.svc.GetPlayer(c.Request.Context(), tid, pid)
}

// playerAction is a button on the players page for one player: check-in,
// drop, reinstatement, deletion. The action's refusal shows in the
// player's row; done is where the browser goes, with its message.
func (s *Pages) playerAction(act func(ctx context.Context, judge string, tid, pid int64) (tournament.Player, error), anchor bool, flashID string) render.Handler {
	return func(c *gin.Context) (render.Result, error) {
		p, err := s.tournamentPlayer(c)
		if err != nil {
			return render.Result{}, err
		}
		if _, err := act(c.Request.Context(), auth.Judge(c), p.TournamentID, p.ID); err != nil {
			return s.playerRefused(c, p, err)
		}
		if c.PostForm("part") == "list" {
			return s.playersList(c, s.i18n.Text(s.i18n.Lang(c), flashID+"_name", map[string]any{"Name": p.Name}))
		}
		if !anchor {
			return render.SeeOther(route.Path(route.Players, p.TournamentID), flashID), nil
		}
		return render.SeeOther(playersAfter(p.TournamentID, playersQuery(c), p.ID), flashID), nil
	}
}

// SetCheckIn checks a player in, or out with in=0.
func (s *Pages) SetCheckIn(c *gin.Context) (render.Result, error) {
	in := c.PostForm("in") == "1"
	flashID := "flash.checked_in"
	if !in {
		flashID = "flash.checked_out"
	}
	checkIn := func(ctx context.Context, judge string, tid, pid int64) (tournament.Player, error) {
		if err := s.recordRealName(c, tid, pid); err != nil {
			return tournament.Player{}, err
		}
		return s.svc.CheckIn(ctx, judge, tid, pid, in)
	}
	return s.playerAction(checkIn, true, flashID)(c)
}

// playersList is the players page's list alone, saying done: what a
// script swaps in after a check-in from the list, without a reload.
func (s *Pages) playersList(c *gin.Context, done string) (render.Result, error) {
	vm, err := s.playersView(c, playerForm{CheckIn: true}, playerRefusal{})
	if err != nil {
		return render.Result{}, err
	}
	vm.Done = done
	return render.Part("players", "list", vm), nil
}

// CheckInMany is the desk's bulk check-in: the players ticked in the list
// (ids), or with all=1 every player the search shows who is not checked in.
func (s *Pages) CheckInMany(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	var ids []int64
	if c.PostForm("all") == "1" {
		players, err := s.svc.Players(c.Request.Context(), tid)
		if err != nil {
			return render.Result{}, err
		}
		folded := tournament.FoldReading(playersQuery(c))
		for _, p := range players {
			if folded == "" || strings.Contains(tournament.FoldReading(p.Name), folded) || strings.Contains(tournament.FoldReading(p.Kana), folded) {
				ids = append(ids, p.ID)
			}
		}
	} else {
		for _, v := range c.PostFormArray("ids") {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil || id <= 0 {
				return render.Result{}, &problem.BadRequest{ID: "error.invalid", Detail: "player id " + strconv.Quote(v)}
			}
			ids = append(ids, id)
		}
	}
	lang := s.i18n.Lang(c)
	if len(ids) == 0 {
		vm, err := s.playersView(c, playerForm{CheckIn: true}, playerRefusal{})
		if err != nil {
			return render.Result{}, err
		}
		vm.ListError = s.i18n.Text(lang, "players.bulk_none", nil)
		if c.PostForm("part") == "list" {
			return render.Part("players", "list", vm), nil
		}
		return render.ShowStatus(http.StatusUnprocessableEntity, "players", vm), nil
	}
	done, err := s.svc.CheckInPlayers(c.Request.Context(), auth.Judge(c), tid, ids, true)
	if err != nil {
		return render.Result{}, err
	}
	msg := s.i18n.Text(lang, "players.bulk_done", map[string]any{"N": len(done)})
	if c.PostForm("part") == "list" {
		return s.playersList(c, msg)
	}
	return render.SeeOther(playersAfter(tid, playersQuery(c), 0), "players.bulk_done_flash"), nil
}

func (s *Pages) DropPlayer(c *gin.Context) (render.Result, error) {
	return s.playerAction(s.svc.DropPlayer, true, "flash.dropped")(c)
}

// DeletePlayer deletes a mistaken registration, one with no game on
// record; a player who has played is refused with why (drop them instead).
func (s *Pages) DeletePlayer(c *gin.Context) (render.Result, error) {
	return s.playerAction(s.svc.DeletePlayer, false, "flash.deleted")(c)
}

func (s *Pages) ReinstatePlayer(c *gin.Context) (render.Result, error) {
	return s.playerAction(s.svc.ReinstatePlayer, true, "flash.reinstated")(c)
}

// playerPage is the view model of a player's edit page.
type playerPage struct {
	render.Page
	TID    int64
	Player playerLine
	Others []keepApartOption
	Form   playerForm
	// Deletable says the registration can be deleted (it has nothing on
	// record); otherwise Kept says why it stays, and the player is dropped.
	Deletable bool
	Kept      string
	HasCode   bool // the player has a code (registered since codes were issued)
	// Person is the player's person of the registry, with every event
	// they played; nil for none.
	Person *personLine
	// Disqualified is the effect of the player's disqualification in
	// words, "" for none; DQReason its reason.
	Disqualified, DQReason string
	// Substitute says the player is a substitute (late.go).
	Substitute bool
}

type keepApartOption struct {
	ID      int64
	Name    string
	Kana    string
	Checked bool
}

func (s *Pages) ShowPlayer(c *gin.Context) (render.Result, error) {
	p, err := s.tournamentPlayer(c)
	if err != nil {
		return render.Result{}, err
	}
	return s.playerPage(c, http.StatusOK, p, playerFormOf(p))
}

func (s *Pages) playerPage(c *gin.Context, status int, p tournament.Player, form playerForm) (render.Result, error) {
	t, nav, players, err := s.loadPlayers(c, "players")
	if err != nil {
		return render.Result{}, err
	}
	vm := playerPage{
		Page:   s.pages.Page(c, "page.player", map[string]any{"Name": p.Name}),
		TID:    t.ID,
		Player: playerLine{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana), CheckedIn: p.CheckedIn, LateEntry: p.LateEntryRound, Dropped: p.DroppedRound},
		Form:   form,
		// A player without a code was registered before codes were issued.
		HasCode: p.CodeHash != "",
	}
	vm.Nav, vm.Substitute = nav, p.Substitute
	if p.DQEffect != "" {
		vm.Disqualified, vm.DQReason = s.i18n.Text(vm.Lang, "dq.effect."+string(p.DQEffect), nil), p.DQReason
	}
	if p.PersonID != 0 {
		person, err := s.svc.GetPerson(c.Request.Context(), p.PersonID)
		if err != nil {
			return render.Result{}, err
		}
		line := personLineOf(s.i18n.In(vm.Lang), person, "")
		vm.Person = &line
	}
	switch err := s.svc.CheckDelete(c.Request.Context(), p.TournamentID, p.ID); {
	case err == nil:
		vm.Deletable = true
	case errors.Is(err, tournament.ErrConflict):
		_, vm.Kept, _ = problem.Describe(s.i18n.In(vm.Lang), err)
	default:
		return render.Result{}, err
	}
	for _, o := range players {
		if o.ID != p.ID {
			vm.Others = append(vm.Others, keepApartOption{ID: o.ID, Name: o.Name, Kana: tournament.Hiragana(o.Kana), Checked: slices.Contains(form.KeepApart, o.ID)})
		}
	}
	return render.ShowStatus(status, "player", vm), nil
}

// readPlayerForm reads the edit form: the name is filled in, the fixed
// table is a number, the players kept apart are player IDs.
func (s *Pages) readPlayerForm(c *gin.Context, lang string) (playerForm, tournament.PlayerEdit, error) {
	form := playerForm{
		Name:       strings.TrimSpace(c.PostForm("name")),
		Kana:       strings.TrimSpace(c.PostForm("kana")),
		FixedTable: strings.TrimSpace(c.PostForm("fixed_table")),
		Errors:     fieldErrors{},
	}
	for _, v := range c.PostFormArray("keep_apart") {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return form, tournament.PlayerEdit{}, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": "keep_apart"}, Detail: err.Error()}
		}
		form.KeepApart = append(form.KeepApart, id)
	}
	slices.Sort(form.KeepApart)
	base, baseEdit, ok := readPlayerBase(c)
	if !ok {
		return form, tournament.PlayerEdit{}, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": "base_keep_apart"}, Detail: "base_keep_apart"}
	}
	form.Base = base
	if form.Name == "" {
		form.Errors["name"] = s.i18n.Text(lang, "form.required", nil)
	}
	in := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: form.Name, Kana: form.Kana}, KeepApart: form.KeepApart, Base: baseEdit}
	in.FixedTable = s.formNumber(lang, form.FixedTable, false, form.Errors, "fixed_table")
	return form, in, nil
}

// EditPlayer saves the edit form as one change: name and kana, fixed table
// and keep-apart requests; a refused field saves none of the others, and
// an unchanged form saves nothing.
func (s *Pages) EditPlayer(c *gin.Context) (render.Result, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	form, in, err := s.readPlayerForm(c, lang)
	if err != nil {
		return render.Result{}, err
	}
	// A form that reads, and asks nothing of the player as saved now,
	// is saved before the page is built; the page shows a refusal.
	merged := c.PostForm("merged") == "1" && form.Base != nil
	posted := c.PostForm("action") != "mine" && len(form.Errors) == 0 && !merged
	if posted {
		if _, err = s.svc.EditPlayer(c.Request.Context(), auth.Judge(c), tid, pid, in); err == nil {
			return render.SeeOther(route.Path(route.Players, tid)+fmt.Sprintf("#p%d", pid), "flash.saved"), nil
		}
	}
	p, err2 := s.svc.GetPlayer(c.Request.Context(), tid, pid)
	if err2 != nil {
		return render.Result{}, err2
	}
	switch {
	case posted:
	case c.PostForm("action") == "mine":
		// The judge takes back what they changed after a conflict: the
		// form shows it over the player as saved now, to save knowingly.
		return s.playerPage(c, http.StatusOK, p, s.takeBackPlayer(c, p, form))
	case len(form.Errors) > 0:
		return s.playerPage(c, http.StatusUnprocessableEntity, p, form)
	default:
		if res, asked, err := s.askOverwrite(c, p, &form, &in); asked || err != nil {
			return res, err
		}
		_, err = s.svc.EditPlayer(c.Request.Context(), auth.Judge(c), p.TournamentID, p.ID, in)
	}
	switch {
	case err == nil:
		return render.SeeOther(route.Path(route.Players, p.TournamentID)+fmt.Sprintf("#p%d", p.ID), "flash.saved"), nil
	case code(err) == "player-changed":
		return s.stalePlayer(c, p, form, err)
	case s.place(lang, err, playerRules, form.Errors):
		return s.playerPage(c, http.StatusUnprocessableEntity, p, form)
	}
	status, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	form.Error = msg
	return s.playerPage(c, status, p, form)
}

// askOverwrite asks before a form merged after a conflict (its base
// carried over the player as saved now) changes a field another judge
// changed since; confirmed, the save goes over it (in.Base).
func (s *Pages) askOverwrite(c *gin.Context, p tournament.Player, form *playerForm, in *tournament.PlayerEdit) (render.Result, bool, error) {
	form.Merged = true
	if form.Overwrite = s.playerOverwrites(c, p, *form); form.Overwrite == nil {
		return render.Result{}, false, nil
	}
	if c.PostForm("overwrite") != form.Overwrite.Token {
		res, err := s.playerPage(c, http.StatusConflict, p, *form)
		return res, true, err
	}
	// Confirmed: the save goes over what the other judge saved.
	in.Base = overBase(in.Base, p, form.Overwrite)
	return render.Result{}, false, nil
}

// readPlayerBase reads the base an edit form carries: the player as the
// page showed them. A form without one (nil) edits the player as read now.
func readPlayerBase(c *gin.Context) (*playerBase, *tournament.PlayerEdit, bool) {
	if _, ok := c.GetPostForm("base_name"); !ok {
		return nil, nil, true
	}
	b := &playerBase{Name: c.PostForm("base_name"), Kana: c.PostForm("base_kana"), FixedTable: c.PostForm("base_fixed_table"), KeepApart: c.PostForm("base_keep_apart")}
	edit := &tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: b.Name, Kana: b.Kana}}
	edit.FixedTable, _ = strconv.Atoi(strings.TrimSpace(b.FixedTable))
	for _, part := range strings.Split(b.KeepApart, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return nil, nil, false
		}
		edit.KeepApart = append(edit.KeepApart, id)
	}
	return b, edit, true
}

// personChoice reads the judge's choice of a person of the registry: an
// ID, "new" for a new person, or nothing yet, which asks when someone may
// be them (tournament.PersonChoice).
func personChoice(v string) tournament.PersonChoice {
	if v == "new" {
		return tournament.PersonChoice{New: true}
	}
	if id, err := strconv.ParseInt(v, 10, 64); err == nil && id > 0 {
		return tournament.PersonChoice{ID: id}
	}
	return tournament.PersonChoice{Ask: true}
}
