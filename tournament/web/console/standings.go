package console

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// standingsPage is the view model of /judge/t/:id/standings.
type standingsPage struct {
	render.Page
	Lines     []standingLine
	HasPoints bool // the ruleset ranks by placement points
	Order     string
	Final     bool   // the tournament is finished: these standings are final
	Winners   string // the players ranked 1st, once final
	TID       int64
	Rounds    []int // the rounds paired, for the print's "after round N"
}

type standingLine struct {
	Rank      int
	Shared    bool // the rank is shared with the line above or below
	Name      string
	Kana      string
	Firsts    int
	VP        int
	Share     string // percent with one decimal
	Points    int
	Played    int
	Byes      int
	Penalties int
	Dropped   int
}

func (s *Pages) ShowStandings(c *gin.Context) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "standings")
	if err != nil {
		return render.Result{}, err
	}
	st, err := s.svc.Standings(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	title := "page.standings"
	if t.Closed != nil {
		title = "page.final_standings"
	}
	vm := standingsPage{
		Page:      s.pages.Page(c, title, map[string]any{"Name": t.Name}),
		HasPoints: slices.Contains(t.Ruleset.StandingsOrder, referee.KeyPoints),
		Final:     t.Closed != nil,
	}
	if vm.Final {
		vm.Winners = s.i18n.In(lang).Winners(st)
	}
	vm.Nav = nav
	vm.TID, vm.Rounds = t.ID, nav.Rounds
	vm.Order = s.standingsOrder(lang, t.Ruleset)
	vm.Lines = standingLines(st)
	return render.Show("standings", vm), nil
}

// standingsOrder says how the ruleset ranks: "1位の回数 → 勝利点 → ...".
func (s *Pages) standingsOrder(lang string, rs referee.Ruleset) string {
	var order string
	for i, k := range rs.StandingsOrder {
		if i > 0 {
			order += " → "
		}
		order += s.i18n.Text(lang, "standings.key_"+string(k), nil)
	}
	return order
}

// standingLines are the standings as the pages list them.
func standingLines(st []tournament.Standing) []standingLine {
	var out []standingLine
	for i, x := range st {
		out = append(out, standingLine{
			Rank: x.Rank, Name: x.Name, Kana: x.Kana, Firsts: x.Firsts, VP: x.VP,
			Share:  i18n.Share(x.Share),
			Points: x.Points, Played: x.Played, Byes: x.Byes, Penalties: x.Penalties, Dropped: x.DroppedRound,
			Shared: (i > 0 && st[i-1].Rank == x.Rank) || (i+1 < len(st) && st[i+1].Rank == x.Rank),
		})
	}
	return out
}

// standingsPrint is the view model of the standings' printable.
type standingsPrint struct {
	printPage
	Lines     []standingLine
	HasPoints bool
	Order     string
	After     int // the rounds counted
	Final     bool
}

// PrintStandings prints the standings on A4 without the console around
// them: after the round ?after= names, by default every round so far.
func (s *Pages) PrintStandings(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	ctx := c.Request.Context()
	t, err := s.svc.GetTournament(ctx, tid)
	if err != nil {
		return render.Result{}, err
	}
	after := t.Paired
	if v := c.Query("after"); v != "" {
		if after, err = strconv.Atoi(v); err != nil || after < 1 || after > t.Paired {
			return render.Result{}, &problem.BadRequest{ID: "error.range", Data: map[string]any{"Field": "after", "Min": 1, "Max": t.Paired}, Detail: "after=" + v}
		}
	}
	var st []tournament.Standing
	if after > 0 && after < t.Paired {
		st, err = s.svc.StandingsAfter(ctx, tid, after)
	} else {
		st, err = s.svc.Standings(ctx, tid)
	}
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	vm := standingsPrint{
		printPage: s.newPrintPage(c, printRound{t: t, rv: tournament.RoundView{Round: tournament.Round{Number: after}}}, "print.standings"),
		Lines:     standingLines(st), HasPoints: slices.Contains(t.Ruleset.StandingsOrder, referee.KeyPoints),
		Order: s.standingsOrder(lang, t.Ruleset), After: after, Final: t.Closed != nil && after == t.Paired,
	}
	vm.Back = route.Path(route.Standings, tid)
	if vm.Final {
		vm.Title = s.i18n.Text(lang, "print.standings_final", nil)
	}
	return render.Show("print_standings", vm), nil
}

// auditPage is the view model of /judge/t/:id/audit.
// indentJSON lays out an audit entry's JSON for reading; text that is not
// JSON is shown as it is.
func indentJSON(s string) string {
	if s == "" {
		return ""
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(s), "", "  "); err != nil {
		return s
	}
	return buf.String()
}
