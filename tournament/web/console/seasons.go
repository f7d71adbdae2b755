package console

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// seasonsPage is the view model of /judge/seasons: the seasons, and the
// form of a new one (issue 29).
type seasonsPage struct {
	render.Page
	Seasons []seasonItem
	Form    seasonForm
}

type seasonItem struct {
	ID            int64
	Name, Dates   string
	Shops         string
	Qualification bool
}

// seasonForm is the new season's form as typed.
type seasonForm struct {
	Name, From, To, Shops  string
	Kind                   string
	Points, Uma4, Uma3, VP string
	Best                   string
	Qualify, RealName      bool
	Attempts, Rank         string
	Errors                 fieldErrors
	Error                  string
}

// seasonRules puts a season's refusals next to their fields.
var seasonRules = fieldRules{
	"season-name-missing":                 {"name", ""},
	"season-dates-reversed":               {"to", ""},
	"date-format":                         {"from", ""},
	"season-formula-unknown":              {"kind", ""},
	"season-points-missing":               {"points", ""},
	"season-uma-size":                     {"uma4", ""},
	"season-uma-not-zero":                 {"uma4", ""},
	"season-best-out-of-range":            {"best", ""},
	"qualification-attempts-out-of-range": {"attempts", ""},
	"qualification-rank-out-of-range":     {"rank", ""},
}

// ShowSeasons lists the seasons with the form of a new one.
func (s *Pages) ShowSeasons(c *gin.Context) (render.Result, error) {
	return s.seasonsPage(c, http.StatusOK, seasonForm{Kind: season.KindPlacement, Points: "10, 7, 5, 3, 2, 1", Best: "0", Attempts: "3", Rank: "1"})
}

func (s *Pages) seasonsPage(c *gin.Context, status int, form seasonForm) (render.Result, error) {
	ss, err := s.svc.Seasons(c.Request.Context())
	if err != nil {
		return render.Result{}, err
	}
	p := s.i18n.In(s.i18n.Lang(c))
	page, err := s.hallPage(c, "seasons.title", nil)
	if err != nil {
		return render.Result{}, err
	}
	vm := seasonsPage{Page: page, Form: form}
	for _, se := range ss {
		vm.Seasons = append(vm.Seasons, seasonItem{ID: se.ID, Name: se.Name, Dates: p.Text("season.dates", map[string]any{"From": se.From, "To": se.To}),
			Shops: p.List(se.Shops), Qualification: se.Qualification != nil})
	}
	return render.ShowStatus(status, "seasons", vm), nil
}

// ints reads a list of whole numbers typed with commas, spaces or 、.
func ints(s string) ([]int, bool) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '、' || r == ' ' || r == '　' || r == '/' }) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// readSeasonForm reads the season form into the service's input; a
// number that is no number is an error next to its field.
func (s *Pages) readSeasonForm(c *gin.Context, lang string) (seasonForm, tournament.SeasonInput) {
	f := seasonForm{Name: c.PostForm("name"), From: c.PostForm("from"), To: c.PostForm("to"), Shops: c.PostForm("shops"), Kind: c.PostForm("kind"),
		Points: c.PostForm("points"), Uma4: c.PostForm("uma4"), Uma3: c.PostForm("uma3"), VP: c.PostForm("vp"), Best: c.PostForm("best"),
		Qualify: c.PostForm("qualify") == "1", RealName: c.PostForm("real_name") == "1", Attempts: c.PostForm("attempts"), Rank: c.PostForm("rank"),
		Errors: fieldErrors{}}
	in := tournament.SeasonInput{Name: f.Name, From: f.From, To: f.To, Formula: season.Formula{Kind: f.Kind}}
	for _, shop := range strings.FieldsFunc(f.Shops, func(r rune) bool { return r == '\n' || r == ',' || r == '、' }) {
		in.Shops = append(in.Shops, strings.TrimSpace(shop))
	}
	number := func(field, v string, to *int) {
		if n, ok := ints(v); !ok || len(n) > 1 {
			f.Errors[field] = s.i18n.Text(lang, "form.number", nil)
		} else if len(n) == 1 {
			*to = n[0]
		}
	}
	list := func(field, v string, to *[]int) {
		if n, ok := ints(v); ok {
			*to = n
		} else {
			f.Errors[field] = s.i18n.Text(lang, "form.number", nil)
		}
	}
	if f.Kind == season.KindZeroSum {
		list("uma4", f.Uma4, &in.Formula.Uma4)
		list("uma3", f.Uma3, &in.Formula.Uma3)
		number("vp", f.VP, &in.Formula.VP)
	} else {
		list("points", f.Points, &in.Formula.Points)
	}
	number("best", f.Best, &in.Formula.Best)
	if f.Qualify {
		in.Qualification = &tournament.Qualification{RealName: f.RealName}
		number("attempts", f.Attempts, &in.Qualification.Attempts)
		number("rank", f.Rank, &in.Qualification.Rank)
	}
	return f, in
}

// CreateSeason makes a season from the form; a refusal shows next to its
// field, the form kept.
func (s *Pages) CreateSeason(c *gin.Context) (render.Result, error) {
	lang := s.i18n.Lang(c)
	form, in := s.readSeasonForm(c, lang)
	if len(form.Errors) > 0 {
		return s.seasonsPage(c, http.StatusUnprocessableEntity, form)
	}
	se, err := s.svc.CreateSeason(c.Request.Context(), auth.Judge(c), in)
	if err != nil {
		var ok bool
		if form.Error, ok = s.placeFormError(c, lang, err, seasonRules, form.Errors); !ok {
			return render.Result{}, err
		}
		return s.seasonsPage(c, http.StatusUnprocessableEntity, form)
	}
	return render.SeeOther(route.Path(route.Season, se.ID), "seasons.created"), nil
}

// seasonPage is the view model of /judge/seasons/:season: the standings
// and, for a qualification, the ledger with the real names.
type seasonPage struct {
	render.Page
	ID      int64
	Dates   string
	Shops   string
	Lines   []seasonLine
	Ledger  []ledgerLine
	Qualify string // the qualification's rule in words; "" for a league
	Pending int
}

type seasonLine struct {
	Rank    int
	Person  int64
	Name    string
	Points  string
	Events  int
	Counted string
}

type ledgerLine struct {
	Person    int64
	Name      string
	RealName  string
	Attempts  string
	Left      int
	Qualified string
}

// ShowSeason shows a season's standings and its qualification ledger.
func (s *Pages) ShowSeason(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "season")
	if err != nil {
		return render.Result{}, err
	}
	ctx := c.Request.Context()
	st, err := s.svc.SeasonStandings(ctx, id)
	if err != nil {
		return render.Result{}, err
	}
	p := s.i18n.In(s.i18n.Lang(c))
	se := st.Season
	page, err := s.hallPage(c, "seasons.one", map[string]any{"Name": se.Name})
	if err != nil {
		return render.Result{}, err
	}
	vm := seasonPage{Page: page, ID: id, Pending: len(st.Pending),
		Dates: p.Text("season.dates", map[string]any{"From": se.From, "To": se.To}), Shops: p.List(se.Shops), Lines: seasonLines(p, st)}
	if se.Qualification != nil {
		l, err := s.svc.Qualification(ctx, id)
		if err != nil {
			return render.Result{}, err
		}
		vm.Qualify = p.Text("season.qualification", map[string]any{"Attempts": l.Rule.Attempts, "Rank": l.Rule.Rank})
		vm.Ledger = ledgerLines(p, l)
	}
	return render.Show("season", vm), nil
}

func seasonLines(p i18n.Printer, st tournament.SeasonStandings) []seasonLine {
	var out []seasonLine
	for _, l := range st.Lines {
		line := seasonLine{Rank: l.Rank, Person: l.Person.ID, Name: l.Person.Name, Points: fmt.Sprint(tournament.RoundPoints(l.Points)), Events: l.Events}
		var counted []string
		for _, r := range l.Results {
			if r.Counted {
				counted = append(counted, p.Text("season.result", map[string]any{"Event": r.Event.Name, "Rank": r.Rank, "Points": tournament.RoundPoints(r.Points)}))
			}
		}
		line.Counted = strings.Join(counted, p.Text("list.sep", nil))
		out = append(out, line)
	}
	return out
}

func ledgerLines(p i18n.Printer, l tournament.QualificationLedger) []ledgerLine {
	var out []ledgerLine
	for _, en := range l.People {
		line := ledgerLine{Person: en.Person.ID, Name: en.Person.Name, Left: en.Left}
		if en.RealName != nil {
			line.RealName = en.RealName.Name
		}
		var attempts []string
		for _, a := range en.Attempts {
			id := "seasons.attempt"
			if a.Over {
				id = "seasons.attempt_over"
			}
			attempts = append(attempts, p.Text(id, map[string]any{"N": a.Number, "Event": a.Event.Name}))
		}
		line.Attempts = strings.Join(attempts, p.Text("list.sep", nil))
		if a := en.Qualified; a != nil {
			line.Qualified = p.Text("seasons.qualified_by", map[string]any{"Event": a.Event.Name, "Rank": a.Rank})
		}
		out = append(out, line)
	}
	return out
}
