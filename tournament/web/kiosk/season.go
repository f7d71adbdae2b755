package kiosk

import (
	"fmt"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// seasonPage is the view model of /seasons/:season, a season's standings
// for everyone, to print on A4: the formula in words, each person's
// points and the results that count, the events gathered. Real names are
// never on it.
type seasonPage struct {
	Lang, Title, Path string
	Back, BackText    string
	Name              string // the season's
	Dates             string
	Shops             string
	Formula           string
	Qualification     string
	Lines             []seasonLine
	Events, Pending   []seasonEvent
	Loopback          bool
	Kiosk             string
}

type seasonLine struct {
	Rank    int
	Shared  bool
	Person  int64
	Name    string
	Kana    string
	Points  string
	Events  int
	Counted []string // "12月定例会 1位 10", best first
}

type seasonEvent struct {
	TID      int64
	Date     string
	Shop     string
	Name     string
	Imported bool
}

// ShowSeason shows a season's standings.
func (s *Pages) ShowSeason(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "season")
	if err != nil {
		return render.Result{}, err
	}
	st, err := s.svc.SeasonStandings(c.Request.Context(), id)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	se := st.Season
	vm := seasonPage{Lang: lang, Path: c.Request.URL.RequestURI(), Back: route.Home, BackText: p.Text("results.back", nil),
		Name: se.Name, Title: p.Text("season.title", nil), Dates: p.Text("season.dates", map[string]any{"From": se.From, "To": se.To}),
		Shops: p.List(se.Shops), Formula: formulaText(p, se.Formula)}
	if q := se.Qualification; q != nil {
		vm.Qualification = p.Text("season.qualification", map[string]any{"Attempts": q.Attempts, "Rank": q.Rank})
	}
	for i, l := range st.Lines {
		line := seasonLine{Rank: l.Rank, Person: l.Person.ID, Name: l.Person.Name, Kana: l.Person.Kana, Points: fmt.Sprint(tournament.RoundPoints(l.Points)), Events: l.Events,
			Shared: i > 0 && st.Lines[i-1].Rank == l.Rank || i+1 < len(st.Lines) && st.Lines[i+1].Rank == l.Rank}
		for _, r := range l.Results {
			if r.Counted {
				line.Counted = append(line.Counted, p.Text("season.result", map[string]any{"Event": r.Event.Name, "Rank": r.Rank, "Points": tournament.RoundPoints(r.Points)}))
			}
		}
		vm.Lines = append(vm.Lines, line)
	}
	vm.Events, vm.Pending = seasonEvents(st.Events), seasonEvents(st.Pending)
	return render.Show("season_page", vm), nil
}

func seasonEvents(es []tournament.EventStamp) []seasonEvent {
	out := make([]seasonEvent, len(es))
	for i, e := range es {
		out[i] = seasonEvent{TID: e.ID, Date: e.Day(), Shop: e.Shop, Name: e.Name, Imported: e.Imported != ""}
	}
	return out
}

// formulaText says a season's formula in p's words.
func formulaText(p i18n.Printer, f season.Formula) string {
	ints := func(xs []int) string {
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, "・")
	}
	var out string
	if f.Kind == season.KindZeroSum {
		out = p.Text("season.formula_zero_sum", map[string]any{"Uma4": ints(f.Uma4), "Uma3": ints(f.Uma3), "VP": f.VP})
	} else {
		out = p.Text("season.formula_placement", map[string]any{"Points": ints(f.Points)})
	}
	if f.Best > 0 {
		return out + p.Text("season.best", map[string]any{"N": f.Best})
	}
	return out + p.Text("season.all", nil)
}
