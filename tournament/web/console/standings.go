package console

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// standingsPage is the view model of /judge/t/:id/standings.
type standingsPage struct {
	render.Page
	Lines     []standingLine
	HasPoints bool // the ruleset ranks by placement points
	Order     string
	Final     bool   // the tournament is finished: these standings are final
	Winners   string // the players ranked 1st, once final
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
	for i, k := range t.Ruleset.StandingsOrder {
		if i > 0 {
			vm.Order += " → "
		}
		vm.Order += s.i18n.Text(lang, "standings.key_"+string(k), nil)
	}
	for i, x := range st {
		vm.Lines = append(vm.Lines, standingLine{
			Rank: x.Rank, Name: x.Name, Kana: x.Kana, Firsts: x.Firsts, VP: x.VP,
			Share:  strconv.FormatFloat(x.Share*100, 'f', 1, 64),
			Points: x.Points, Played: x.Played, Byes: x.Byes, Penalties: x.Penalties, Dropped: x.DroppedRound,
			Shared: (i > 0 && st[i-1].Rank == x.Rank) || (i+1 < len(st) && st[i+1].Rank == x.Rank),
		})
	}
	return render.Show("standings", vm), nil
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
