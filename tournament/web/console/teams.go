package console

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The pages of a team event (issue 30): the teams with the registration
// of a new one, a team with its line-up for a round, and the team
// standings. The service decides who plays and how teams rank; the pages
// say it.

// teamsPage is the view model of the teams page.
type teamsPage struct {
	render.Page
	TID             int64
	Min, Max, Plays int
	Round           int // the next round to pair, 0 when every round is paired
	Teams           []teamLine
	Name            string        // the registration form as typed
	Free            []memberLine  // the players of no team, to choose from
	Errors          fieldErrors   // the registration's refusals
	Error           string        // a refusal of the whole form
	Team            *teamPageView // a team's own page; nil on the list
}

// teamLine is a team on the teams page.
type teamLine struct {
	ID      int64
	Name    string
	Members string // names
	Next    string // the next round's line-up, in words
}

// memberLine is a player to choose in a form.
type memberLine struct {
	ID            int64
	Name, Kana    string
	Checked, Gone bool // Gone: dropped or disqualified
}

// teamPageView is a team's page: its line-ups and the form of one.
type teamPageView struct {
	ID      int64
	Name    string
	Members []memberLine // the line-up form's choices
	Rounds  []lineupLine // every round, with its line-up
	Round   int          // the round the form names
	Choices []int        // the rounds a line-up can be named for
}

// lineupLine is a round's line-up of a team.
type lineupLine struct {
	Round   int
	Players string
	How     string // how it was decided, in words
}

// teamRules say where the forms show the service's refusals.
var teamRules = fieldRules{
	"team-name-missing":      {"name", ""},
	"team-name-too-long":     {"name", ""},
	"team-name-taken":        {"name", ""},
	"team-too-small":         {"players", ""},
	"team-too-large":         {"players", ""},
	"team-player-repeated":   {"players", ""},
	"player-in-team":         {"players", ""},
	"lineup-size":            {"players", ""},
	"lineup-not-member":      {"players", ""},
	"lineup-player-repeated": {"players", ""},
	"lineup-player-inactive": {"players", ""},
	"lineup-round-paired":    {"players", ""},
	"lineup-round-unknown":   {"players", ""},
}

// ShowTeams is the teams page.
func (s *Pages) ShowTeams(c *gin.Context) (render.Result, error) {
	return s.teamsView(c, http.StatusOK, "", nil, nil)
}

// RegisterTeam registers the team the form names.
func (s *Pages) RegisterTeam(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	in := tournament.TeamInput{Name: strings.TrimSpace(c.PostForm("name")), Players: formIDs(c, "player")}
	if _, err = s.svc.RegisterTeam(c.Request.Context(), auth.Judge(c), tid, in); err == nil {
		return render.SeeOther(route.Path(route.Teams, tid), "flash.team_registered"), nil
	}
	errs, err := s.teamErrors(c, err)
	if err != nil {
		return render.Result{}, err
	}
	return s.teamsView(c, http.StatusUnprocessableEntity, in.Name, in.Players, errs)
}

// teamErrors puts the service's refusal err by its field, or returns it
// when no form shows it.
func (s *Pages) teamErrors(c *gin.Context, err error) (fieldErrors, error) {
	errs := fieldErrors{}
	if s.place(s.i18n.Lang(c), err, teamRules, errs) {
		return errs, nil
	}
	msg, ok := s.formError(c, err)
	if !ok {
		return nil, err
	}
	errs[""] = msg
	return errs, nil
}

// formIDs reads the IDs a form's checkboxes of name give, in order.
func formIDs(c *gin.Context, name string) []int64 {
	var out []int64
	for _, v := range c.PostFormArray(name) {
		if id, err := strconv.ParseInt(v, 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

func (s *Pages) teamsView(c *gin.Context, status int, name string, chosen []int64, errs fieldErrors) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "teams")
	if err != nil {
		return render.Result{}, err
	}
	snap, err := s.svc.Snapshot(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	rules := t.Ruleset.WithDefaults().Teams
	vm := teamsPage{Page: s.pages.Page(c, "page.teams", nil), TID: t.ID, Min: rules.MinSize, Max: rules.MaxSize, Plays: rules.Plays,
		Name: name, Errors: errs, Error: errs[""]}
	vm.Nav = nav
	if n := t.Paired + 1; n <= t.Rounds {
		vm.Round = n
	}
	names := s.names(snap)
	for _, tm := range snap.Teams() {
		line := teamLine{ID: tm.ID, Name: tm.Name, Members: joinNames(names, tm.Players)}
		if vm.Round > 0 {
			ids, how := snap.PlannedLineup(tm, vm.Round)
			line.Next = s.lineupWords(vm.Lang, names, ids, how)
		}
		vm.Teams = append(vm.Teams, line)
	}
	for _, p := range snap.Players() {
		if p.Team == nil && p.DroppedRound == 0 {
			vm.Free = append(vm.Free, memberLine{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana), Checked: slices.Contains(chosen, p.ID)})
		}
	}
	return render.ShowStatus(status, "teams", vm), nil
}

// names are the players' labels (their names, told apart), by ID.
func (s *Pages) names(snap *tournament.Snapshot) map[int64]string {
	out := map[int64]string{}
	for _, p := range snap.Players() {
		out[p.ID] = p.Name
	}
	for id, l := range tournament.Labels(snap.Players()) {
		out[id] = l
	}
	return out
}

func joinNames(names map[int64]string, ids []int64) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = names[id]
	}
	return strings.Join(out, "・")
}

// lineupWords says a planned line-up and how it was decided.
func (s *Pages) lineupWords(lang string, names map[int64]string, ids []int64, how string) string {
	if how == tournament.LineupMissing {
		return s.i18n.Text(lang, "teams.lineup.missing", nil)
	}
	return joinNames(names, ids) + s.i18n.Text(lang, "teams.lineup."+how, nil)
}
