package console

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// ShowTeam is a team's page: its members, each round's line-up, and the
// form naming the line-up of a round not paired yet (?round=N, else the
// next one).
func (s *Pages) ShowTeam(c *gin.Context) (render.Result, error) {
	n, _ := strconv.Atoi(c.Query("round"))
	return s.teamView(c, http.StatusOK, n, nil, nil)
}

// NameLineup names the team's players for the form's round.
func (s *Pages) NameLineup(c *gin.Context) (render.Result, error) {
	tid, team, err := route.IDs(c, "team")
	if err != nil {
		return render.Result{}, err
	}
	n, _ := strconv.Atoi(c.PostForm("round"))
	players := formIDs(c, "player")
	if _, err = s.svc.NameLineup(c.Request.Context(), auth.Judge(c), tid, team, n, players); err == nil {
		return render.SeeOther(route.Path(route.TeamPage, tid, team)+fmt.Sprintf("?round=%d", n), "flash.lineup_named"), nil
	}
	errs, err := s.teamErrors(c, err)
	if err != nil {
		return render.Result{}, err
	}
	return s.teamView(c, http.StatusUnprocessableEntity, n, players, errs)
}

// teamView is team's page with the line-up form of round n (0 for the
// next), as typed when chosen is not nil.
func (s *Pages) teamView(c *gin.Context, status, n int, chosen []int64, errs fieldErrors) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "teams")
	if err != nil {
		return render.Result{}, err
	}
	id, err := route.ID(c, "team")
	if err != nil {
		return render.Result{}, err
	}
	snap, err := s.svc.Snapshot(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	tm, err := snap.Team(id)
	if err != nil {
		return render.Result{}, err
	}
	rules := t.Ruleset.WithDefaults().Teams
	vm := teamsPage{Page: s.pages.Page(c, "page.team", map[string]any{"Team": tm.Name}), TID: t.ID, Min: rules.MinSize, Max: rules.MaxSize,
		Plays: rules.Plays, Errors: errs, Error: errs[""]}
	vm.Nav = nav
	view := &teamPageView{ID: tm.ID, Name: tm.Name}
	for k := t.Paired + 1; k <= t.Rounds; k++ {
		view.Choices = append(view.Choices, k)
	}
	if !slices.Contains(view.Choices, n) && len(view.Choices) > 0 {
		n = view.Choices[0]
	}
	view.Round = n
	names := s.names(snap)
	for k := 1; k <= t.Rounds; k++ {
		line := lineupLine{Round: k}
		if k <= t.Paired {
			l, _ := tm.Lineup(k)
			line.Players = joinNames(names, s.played(snap, tm, k, l))
		} else {
			ids, how := snap.PlannedLineup(tm, k)
			line.Players = s.lineupWords(vm.Lang, names, ids, how)
		}
		view.Rounds = append(view.Rounds, line)
	}
	planned, _ := snap.PlannedLineup(tm, n)
	if chosen == nil {
		chosen = planned
	}
	for _, pid := range tm.Players {
		p, _ := snap.Player(pid)
		view.Members = append(view.Members, memberLine{ID: pid, Name: names[pid], Kana: tournament.Hiragana(p.Kana),
			Checked: slices.Contains(chosen, pid), Gone: n > 0 && !p.Active(n)})
	}
	vm.Team = view
	return render.ShowStatus(status, "team", vm), nil
}

// played are the team's players seated in round n (a paired round): the
// line-up as it played, whatever was named.
func (s *Pages) played(snap *tournament.Snapshot, tm tournament.Team, n int, named tournament.Lineup) []int64 {
	r, err := snap.Round(n)
	if err != nil {
		return named.Players
	}
	var out []int64
	for _, tb := range r.Tables {
		for _, id := range tb.Players {
			if slices.Contains(tm.Players, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// teamStandingsPage is the view model of the team standings.
type teamStandingsPage struct {
	render.Page
	TID        int64
	Order      string // the keys, in words
	Individual bool   // the ruleset shows the players' own standings
	Lines      []teamStandingLine
}

// teamStandingLine is a team's line of the team standings.
type teamStandingLine struct {
	Rank               int
	Shared             bool
	Name               string
	ID                 int64
	Points, VP, Firsts int
	Played             int
	Players            []tournament.Standing
	ShareText          string
}

// ShowTeamStandings is the team standings page.
func (s *Pages) ShowTeamStandings(c *gin.Context) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "teams")
	if err != nil {
		return render.Result{}, err
	}
	snap, err := s.svc.Snapshot(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	st, err := snap.TeamStandings()
	if err != nil {
		return render.Result{}, err
	}
	rules := t.Ruleset.WithDefaults().Teams
	vm := teamStandingsPage{Page: s.pages.Page(c, "page.team_standings", nil), TID: t.ID, Individual: !rules.HideIndividual}
	vm.Nav = nav
	for i, k := range rules.Order {
		if i > 0 {
			vm.Order += s.i18n.Text(vm.Lang, "teams.then", nil)
		}
		vm.Order += s.i18n.Text(vm.Lang, "teams.key."+string(k), nil)
	}
	vm.Lines = teamStandingLines(st)
	return render.Show("team_standings", vm), nil
}

func teamStandingLines(st []tournament.TeamStanding) []teamStandingLine {
	var out []teamStandingLine
	for i, x := range st {
		shared := (i > 0 && st[i-1].Rank == x.Rank) || (i+1 < len(st) && st[i+1].Rank == x.Rank)
		out = append(out, teamStandingLine{Rank: x.Rank, Shared: shared, Name: x.Name, ID: x.TeamID, Points: x.Points, VP: x.VP,
			Firsts: x.Firsts, Played: x.Played, Players: x.Players, ShareText: fmt.Sprintf("%.2f%%", x.Share*100)})
	}
	return out
}

// printTeams puts a team event's standings over the players' standings st
// on the standings' print, and leaves the players' own off when the
// ruleset hides them.
func (s *Pages) printTeams(ctx context.Context, t tournament.Tournament, st []tournament.Standing, vm *standingsPrint) error {
	if !t.Team {
		return nil
	}
	snap, err := s.svc.Snapshot(ctx, t.ID)
	if err != nil {
		return err
	}
	vm.Teams = teamStandingLines(snap.TeamStandingsOf(st))
	if vm.HideIndividual = t.Ruleset.WithDefaults().Teams.HideIndividual; vm.HideIndividual {
		vm.Lines = nil
	}
	return nil
}
