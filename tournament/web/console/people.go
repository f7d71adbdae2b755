package console

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// peoplePage is the view model of /judge/people, the registry of people
// across events: a search by name or reading (folded by the service), the
// people with the events they played, the archived ones behind a switch,
// and the registry's history.
type peoplePage struct {
	render.Page
	Query     string
	Archived  bool // the archived people are listed
	People    []personLine
	Total     int
	PageNo    int
	Pages     int
	Prev      string
	Next      string
	SwitchURL string // the same list of the other kind
	History   []historyLine
	ByRating  bool   // the list is by rating (?sort=rating), not by reading
	SortURL   string // the same list sorted the other way
}

// personLine is a person of the registry in a list.
type personLine struct {
	ID     int64
	Name   string
	Kana   string
	Member string
	// Label is the name with what tells the person apart from another of
	// the same name: their reading, member number and registry number,
	// for a merge's confirmation.
	Label    string
	Refusal  string // why this entry cannot be merged with the page's person, when it cannot
	Events   int
	Last     string // the latest event's name
	LastDate string
	LastTID  int64
	Archived bool
	How      string // why a registration may be them, in words; "" in the registry's list
	Rating   string // the ordinal, "" without a game (rateLines)
	Games    int
}

// historyLine is an entry of the registry's history, as a sentence.
type historyLine struct {
	At       string
	Sentence string
	People   []personRef // the people it names, to link
}

// maxHistory is how many entries of the registry's history the list shows.
const maxHistory = 30

func personLineOf(p i18n.Printer, e tournament.PersonEntry, how string) personLine {
	l := personLine{ID: e.ID, Name: e.Name, Kana: tournament.Hiragana(e.Kana), Member: e.Member, Events: e.EventsPlayed(),
		Last: e.Last.Name, LastDate: e.Last.Date, LastTID: e.Last.TournamentID, Archived: e.Archived != nil}
	var details []string
	if e.Kana != "" {
		details = append(details, tournament.Hiragana(e.Kana))
	}
	if e.Member != "" {
		details = append(details, p.Text("people.member", nil)+": "+e.Member)
	}
	details = append(details, p.Text("person.number", map[string]any{"ID": e.ID}))
	sep := "・"
	if p.Lang == "en" {
		sep = ", "
	}
	l.Label = p.Text("person.label", map[string]any{"Name": e.Name, "Details": strings.Join(details, sep)})
	if how != "" {
		l.How = p.Text("people.how_"+how, nil)
	}
	return l
}

// ShowPeople lists the registry: ?q= searches names and readings,
// ?archived=1 lists the archived people, ?page= pages.
func (s *Pages) ShowPeople(c *gin.Context) (render.Result, error) {
	page, err := strconv.Atoi(c.DefaultQuery("page", "1"))
	if err != nil || page < 1 {
		return render.Result{}, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": "page"}, Detail: "page=" + c.Query("page")}
	}
	q, archived, byRating := strings.TrimSpace(c.Query("q")), c.Query("archived") == "1", c.Query("sort") == "rating"
	ctx := c.Request.Context()
	list, err := s.peopleList(ctx, q, archived, page, byRating)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	hall, err := s.hallPage(c, "people.title", nil)
	if err != nil {
		return render.Result{}, err
	}
	vm := peoplePage{Page: hall, Query: q, Archived: archived,
		Total: list.Total, PageNo: list.Page, Pages: list.Pages, ByRating: byRating}
	for _, e := range list.People {
		vm.People = append(vm.People, personLineOf(p, e, ""))
	}
	if err := s.rateLines(ctx, vm.People); err != nil {
		return render.Result{}, err
	}
	query := func(archived bool, page int, byRating bool) string {
		v := url.Values{}
		if q != "" {
			v.Set("q", q)
		}
		if byRating {
			v.Set("sort", "rating")
		}
		if archived {
			v.Set("archived", "1")
		}
		if page > 1 {
			v.Set("page", strconv.Itoa(page))
		}
		if len(v) == 0 {
			return route.People
		}
		return route.People + "?" + v.Encode()
	}
	vm.SwitchURL, vm.SortURL = query(!archived, 1, byRating), query(archived, 1, !byRating)
	if page > 1 {
		vm.Prev = query(archived, page-1, byRating)
	}
	if page < list.Pages {
		vm.Next = query(archived, page+1, byRating)
	}
	log, err := s.svc.RegistryLog(ctx)
	if err != nil {
		return render.Result{}, err
	}
	vm.History = historyOf(p, log[:min(len(log), maxHistory)])
	return render.Show("people", vm), nil
}

// historyOf writes the registry's entries as sentences.
func historyOf(p i18n.Printer, log []tournament.AuditEntry) []historyLine {
	out := make([]historyLine, 0, len(log))
	for _, e := range log {
		var rec struct {
			ID           int64
			Name         string
			Kept, Merged struct {
				ID   int64
				Name string
			}
		}
		_ = json.Unmarshal([]byte(e.After), &rec)
		l := historyLine{At: p.Time(e.At)}
		data := map[string]any{"Judge": e.Judge, "Person": rec.Name, "ID": rec.ID}
		switch {
		case e.Action == tournament.ActionPersonMerge:
			data["Person"], data["Other"], data["ID"], data["OtherID"] = rec.Kept.Name, rec.Merged.Name, rec.Kept.ID, rec.Merged.ID
			l.People = []personRef{{ID: rec.Kept.ID, Name: rec.Kept.Name}}
		case rec.ID != 0:
			l.People = []personRef{{ID: rec.ID, Name: rec.Name}}
		}
		l.Sentence = p.Text("audit.say."+e.Action, data)
		out = append(out, l)
	}
	return out
}

// personPage is the view model of a person's console page: their events,
// the edit form, the merge with another entry, the archive.
type personPage struct {
	render.Page
	Person personLine
	// ArchivedBy and ArchivedAt say who archived them, when.
	ArchivedBy, ArchivedAt string
	Events                 []tournament.PersonEvent
	Form                   personForm
	Alike                  []personLine // other entries of the same name or reading
	Merge                  mergeForm
	History                []historyLine
	// RealName is the real name recorded for the qualifications, "" for
	// none: the judges' eyes only (issue 29).
	RealName string
}

// personForm is the edit form of a person, as the judge typed it.
type personForm struct {
	Name, Kana, Member string
	Errors             fieldErrors
	Error              string
}

// mergeForm is the form that merges another entry into this one.
type mergeForm struct {
	Other string // the other entry's number, as typed
	Error string
}

// personRules says where the person form shows the service's refusals.
var personRules = fieldRules{
	"person-name-missing": {"name", "form.required"},
	"member-invalid":      {"member", ""},
	"member-too-long":     {"member", ""},
	"member-taken":        {"member", ""},
}

// ShowPerson shows a person of the registry.
func (s *Pages) ShowPerson(c *gin.Context) (render.Result, error) {
	return s.personPage(c, http.StatusOK, nil, mergeForm{})
}

// personPage renders a person's page with status; form is the edit form
// as typed (nil for the person as recorded) and merge the merge form's.
func (s *Pages) personPage(c *gin.Context, status int, form *personForm, merge mergeForm) (render.Result, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return render.Result{}, err
	}
	rec, err := s.svc.Person(c.Request.Context(), id)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	page, err := s.hallPage(c, "person.title", map[string]any{"Name": rec.Name})
	if err != nil {
		return render.Result{}, err
	}
	vm := personPage{Page: page, Person: personLineOf(p, rec.PersonEntry, ""),
		Events: rec.Events, Merge: merge, History: historyOf(p, rec.History)}
	if a := rec.Archived; a != nil {
		vm.ArchivedBy, vm.ArchivedAt = a.Judge, p.Time(a.At)
	}
	vm.Form = personForm{Name: rec.Name, Kana: rec.Kana, Member: rec.Member}
	if form != nil {
		vm.Form = *form
	}
	for _, o := range rec.Alike {
		l := personLineOf(p, o, "")
		if err := rec.Refused[o.ID]; err != nil {
			_, l.Refusal, _ = problem.Describe(p, err)
		}
		vm.Alike = append(vm.Alike, l)
	}
	if err := s.personRating(c.Request.Context(), &vm); err != nil {
		return render.Result{}, err
	}
	return render.ShowStatus(status, "person", vm), nil
}

// EditPerson saves a person's name, kana and member number.
func (s *Pages) EditPerson(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	form := personForm{Name: strings.TrimSpace(c.PostForm("name")), Kana: strings.TrimSpace(c.PostForm("kana")),
		Member: strings.TrimSpace(c.PostForm("member")), Errors: fieldErrors{}}
	in := tournament.PersonInput{Name: form.Name, Kana: form.Kana, Member: form.Member}
	if _, err := s.svc.EditPerson(c.Request.Context(), auth.Judge(c), id, in); err != nil {
		status := http.StatusUnprocessableEntity
		var ok bool
		if status, form.Error, ok = s.placeRefusal(c, lang, err, personRules, form.Errors); !ok {
			return render.Result{}, err
		}
		return s.personPage(c, status, &form, mergeForm{})
	}
	return render.SeeOther(route.Path(route.Person, id), "flash.saved"), nil
}

// MergePerson merges the entry the form names (other: a number typed, or
// an entry of the same name offered) into this one.
func (s *Pages) MergePerson(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return render.Result{}, err
	}
	merge := mergeForm{Other: strings.TrimSpace(c.PostForm("other"))}
	other, err := strconv.ParseInt(sheet.HalfWidth(merge.Other), 10, 64)
	if err != nil || other <= 0 {
		merge.Error = s.i18n.Text(s.i18n.Lang(c), "person.merge_number", nil)
		return s.personPage(c, http.StatusUnprocessableEntity, nil, merge)
	}
	if _, err := s.svc.MergePeople(c.Request.Context(), auth.Judge(c), id, other); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		merge.Error = msg
		return s.personPage(c, status, nil, merge)
	}
	return render.SeeOther(route.Path(route.Person, id), "flash.person_merged"), nil
}

// ArchivePerson archives a person: off the registry's list and its
// suggestions, kept whole.
func (s *Pages) ArchivePerson(c *gin.Context) (render.Result, error) {
	return s.archivePerson(c, s.svc.ArchivePerson, "flash.person_archived")
}

// UnarchivePerson lists an archived person again.
func (s *Pages) UnarchivePerson(c *gin.Context) (render.Result, error) {
	return s.archivePerson(c, s.svc.UnarchivePerson, "flash.person_unarchived")
}

func (s *Pages) archivePerson(c *gin.Context, set func(ctx context.Context, judge string, id int64) (tournament.Person, error), flashID string) (render.Result, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return render.Result{}, err
	}
	if _, err := set(c.Request.Context(), auth.Judge(c), id); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Person, id), flashID), nil
}
