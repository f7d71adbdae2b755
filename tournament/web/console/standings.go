package console

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
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
	// Event is the event's final: its stages, the results it decided, and
	// the form that makes the next stage.
	Event finalSection
}

// finalSection is the final part of the standings page.
type finalSection struct {
	TopCut  bool // the ruleset's final is a top cut (the judge makes it)
	Leaders bool // the last round's table 1 decides the champion
	Cut     int  // the players of the first stage
	Stages  []stageLine
	// CanMake says the next stage can be made now; Why says, when it cannot
	// yet, why (a hint); Error is the refusal of a form just posted.
	CanMake    bool
	Why, Error string
	Lines      []finalLine // the final results, once the final is played
}

// stageLine is one stage of the final as made: its round and its cut.
type stageLine struct {
	Stage, Of, Round int
	Advancing        string // names, best first
	Draw             string // the drawn order of those tied at the line, "" when none
	Seed             uint64
}

// finalLine is one line of the final results.
type finalLine struct {
	Rank      int
	Shared    bool
	Name      string
	Kana      string
	FromFinal bool   // the final table decided it
	From      string // which part decided it, for people
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
	// Disqualified is the effect of the player's disqualification, "" for none.
	Disqualified string
}

func (s *Pages) ShowStandings(c *gin.Context) (render.Result, error) {
	return s.standingsPage(c, http.StatusOK, "")
}

// MakeFinal makes the next stage of the final and shows it on the
// standings page, or shows the page again with the refusal.
func (s *Pages) MakeFinal(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.MakeFinal(c.Request.Context(), auth.Judge(c), tid); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.standingsPage(c, status, msg)
	}
	return render.SeeOther(route.Path(route.Standings, tid)+"#final", "flash.final_made"), nil
}

// standingsPage renders the standings page with status, and formError
// beside the final's form.
func (s *Pages) standingsPage(c *gin.Context, status int, formError string) (render.Result, error) {
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
		TID:       t.ID,
	}
	fv, err := s.svc.Final(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	vm.Event = s.finalSection(lang, fv, st)
	vm.Event.Error = formError
	if vm.Final {
		ws, err := s.svc.Winners(c.Request.Context(), t.ID)
		if err != nil {
			return render.Result{}, err
		}
		vm.Winners = s.i18n.In(lang).Winners(ws)
	}
	vm.Nav = nav
	vm.TID, vm.Rounds = t.ID, nav.Rounds
	vm.Order = s.standingsOrder(lang, t.Ruleset)
	vm.Lines = standingLines(st)
	return render.ShowStatus(status, "standings", vm), nil
}

// standingsOrder says how the ruleset ranks: "1位の回数 → 勝利点 → ...".
func (s *Pages) standingsOrder(lang string, rs referee.Ruleset) string {
	return s.i18n.In(lang).StandingsOrder(rs)
}

// standingLines are the standings as the pages list them.
func standingLines(st []tournament.Standing) []standingLine {
	var out []standingLine
	for i, x := range st {
		out = append(out, standingLine{
			Rank: x.Rank, Name: x.Name, Kana: tournament.Hiragana(x.Kana), Firsts: x.Firsts, VP: x.VP,
			Share:  i18n.Share(x.Share),
			Points: x.Points, Played: x.Played, Byes: x.Byes, Penalties: x.Penalties, Dropped: x.DroppedRound,
			Disqualified: string(x.Disqualified),
			Shared:       (i > 0 && st[i-1].Rank == x.Rank) || (i+1 < len(st) && st[i+1].Rank == x.Rank),
		})
	}
	return out
}

// finalSection builds the final part of the standings page.
func (s *Pages) finalSection(lang string, fv tournament.FinalView, st []tournament.Standing) finalSection {
	p := s.i18n.In(lang)
	out := finalSection{TopCut: fv.Format == referee.TopCut, Leaders: fv.Format == referee.LeadersTable}
	if len(fv.Stages) > 0 {
		out.Cut = fv.Stages[0].Players
	}
	for _, r := range fv.Made {
		if r.Cut == nil {
			continue
		}
		out.Stages = append(out.Stages, stageLine{Stage: r.Cut.Stage, Of: len(fv.Stages), Round: r.Number,
			Advancing: p.Players(r.Cut.Advancing, st), Draw: p.Players(r.Cut.Draw, st), Seed: r.Cut.Seed})
	}
	if out.TopCut {
		out.CanMake = fv.Ready == nil
		if fv.Ready != nil && code(fv.Ready) != "final-already-made" {
			_, out.Why, _ = problem.Describe(s.i18n.In(lang), fv.Ready)
		}
	}
	for i, f := range fv.Results {
		l := finalLine{Rank: f.Rank, Name: f.Name, Kana: tournament.Hiragana(f.Kana), FromFinal: f.FromFinal(),
			Shared: (i > 0 && fv.Results[i-1].Rank == f.Rank) || (i+1 < len(fv.Results) && fv.Results[i+1].Rank == f.Rank)}
		l.From = p.FinalFrom(f, out.Leaders)
		out.Lines = append(out.Lines, l)
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
	// Event is the final's part: its results come first once the final
	// is played and every round is counted.
	Event finalSection
	// Teams are a team event's standings (teams_pages.go); HideIndividual
	// leaves the players' own off, as the ruleset says.
	Teams          []teamStandingLine
	HideIndividual bool
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
	at := tournament.Round{Number: after}
	if after > t.Rounds {
		at.Mode = tournament.ModeFinal // only the final's stages follow the rounds planned
	}
	vm := standingsPrint{
		printPage: s.newPrintPage(c, printRound{t: t, rv: tournament.RoundView{Round: at}}, "print.standings"),
		Lines:     standingLines(st), HasPoints: slices.Contains(t.Ruleset.StandingsOrder, referee.KeyPoints),
		Order: s.standingsOrder(lang, t.Ruleset), After: after, Final: t.Closed != nil && after == t.Paired,
	}
	vm.Back = route.Path(route.Standings, tid)
	if after == t.Paired {
		fv, err := s.svc.Final(ctx, tid)
		if err != nil {
			return render.Result{}, err
		}
		if len(fv.Results) > 0 {
			vm.Event = s.finalSection(lang, fv, st)
		}
	}
	if vm.Final {
		vm.Title = s.i18n.Text(lang, "print.standings_final", nil)
	}
	if err := s.printTeams(ctx, t, st, &vm); err != nil {
		return render.Result{}, err
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
