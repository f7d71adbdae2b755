package tournament_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// lateRuleset is the default ruleset with the late entry, substitute and
// no-show settings set by set, under its own name.
func lateRuleset(t *testing.T, name string, set func(*referee.Ruleset)) referee.Ruleset {
	t.Helper()
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	rs.Name = name
	set(&rs)
	if err := rs.Validate(); err != nil {
		t.Fatal(err)
	}
	return rs
}

// lateStandingsText is the standings for a golden file, with the
// placement points, where a credited last place shows.
func (c *console) lateStandingsText(tour tournament.Tournament) string {
	c.T.Helper()
	var b strings.Builder
	b.WriteString("rank  player     firsts  vp   share  points  played  dropped\n")
	for _, s := range must(c.Svc.Standings(c.Ctx, tour.ID)).OK(c.T) {
		fmt.Fprintf(&b, "%4d  %-8s %6d  %3d  %6.4f  %6d  %6d  %7d\n", s.Rank, s.Name, s.Firsts, s.VP, s.Share, s.Points, s.Played, s.DroppedRound)
	}
	return b.String()
}

// latePlayers registers the late arrivals, checked in, after the round
// was paired.
func (c *console) latePlayers(tour tournament.Tournament, names ...string) []int64 {
	c.T.Helper()
	var ids []int64
	for _, nm := range names {
		p := must(c.Svc.AddPlayer(c.Ctx, "desk", tour.ID, tournament.PlayerInput{Name: nm, CheckedIn: true})).OK(c.T)
		ids = append(ids, p.ID)
	}
	return ids
}

// tableSizes are round n's tables' sizes, in table order.
func (c *console) tableSizes(tour tournament.Tournament, n int) []int {
	c.T.Helper()
	var out []int
	for _, tb := range must(c.Svc.RoundView(c.Ctx, tour.ID, n)).OK(c.T).Round.Tables {
		out = append(out, len(tb.Players))
	}
	return out
}

// A late player joins the paired round while it has not started, as the
// ruleset prefers: at a table of 3, which becomes 4 (fill), or with the
// other late players at a new table (new-table). The standings are golden
// (testdata/late-fill.golden, late-new-table.golden), the round page's
// view says what happened and the audit keeps it.
func TestLateEntryJoinsThePairedRound(t *testing.T) {
	for _, tc := range []struct {
		join     referee.LateJoin
		players  int
		late     []string
		sizes    []int
		newTable bool
	}{
		{referee.LateFill, 7, []string{"遅刻 一郎"}, []int{4, 4}, false},
		{referee.LateNewTable, 8, []string{"遅刻 一郎", "遅刻 二郎", "遅刻 三郎"}, []int{4, 4, 3}, true},
	} {
		t.Run(string(tc.join), func(t *testing.T) {
			rs := lateRuleset(t, "late-"+string(tc.join), func(rs *referee.Ruleset) { rs.LateEntry.Join = tc.join })
			c := newEventConsole(t, rs)
			tour, _ := c.enter(rs, tc.players, 2)
			must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			ids := c.latePlayers(tour, tc.late...)
			v := must(c.Svc.LateView(c.Ctx, tour.ID, 1)).OK(t)
			if !v.Open || v.Started || len(v.Waiting) != len(ids) || v.Join != tc.join {
				t.Fatalf("late view before = %+v, want the %d late players waiting", v, len(ids))
			}
			got := must(c.Svc.SeatLate(c.Ctx, "judge-b", tour.ID, 1, ids)).OK(t)
			if len(got.Seated) != len(ids) || len(got.Next) != 0 || got.Seated[0].NewTable != tc.newTable {
				t.Errorf("SeatLate = %+v, want every late player seated (new table %v)", got, tc.newTable)
			}
			if sizes := c.tableSizes(tour, 1); !slices.Equal(sizes, tc.sizes) {
				t.Errorf("round 1's tables = %v, want %v", sizes, tc.sizes)
			}
			v = must(c.Svc.LateView(c.Ctx, tour.ID, 1)).OK(t)
			if len(v.Entries) != len(ids) || len(v.Waiting) != 0 || v.Entries[0].How != tc.join || v.Entries[0].Table == 0 {
				t.Errorf("late view after = %+v, want the late players' tables", v)
			}
			// Entering them again is refused, and changes nothing.
			if _, err := c.Svc.SeatLate(c.Ctx, "judge-b", tour.ID, 1, ids[:1]); code(err) != "late-in-round" {
				t.Errorf("entering a seated player again = %v, want late-in-round", err)
			}
			c.play(tour, 1, []int{10, 7, 6, 4}, []int{10, 8, 5})
			must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			c.play(tour, 2, []int{10, 9, 6, 3}, []int{10, 7, 7})
			name := "late-" + string(tc.join) + ".golden"
			tournamenttest.Golden(t, filepath.Join("testdata", name), c.lateStandingsText(tour), *update)
			c.mustAudit(tour, tournament.ActionSeatLate, fmt.Sprintf(`"Join":"%s"`, tc.join))
			c.recordChecksAndImports(t, tour)
		})
	}
}

// mustAudit fails unless the audit has an entry of action whose After
// holds want.
func (c *console) mustAudit(tour tournament.Tournament, action, want string) {
	c.T.Helper()
	for _, e := range must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(c.T) {
		if e.Action == action && strings.Contains(e.After, want) {
			return
		}
	}
	c.T.Errorf("no %s audit entry with %s", action, want)
}

// A late player who comes once the round has started (or whose ruleset
// never joins a paired round) starts from the next round, the round they
// missed counted as the ruleset says: a last place (4th, 0 VP) or not
// played (testdata/late-next-*.golden).
func TestLateEntryStartsFromTheNextRound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		join   referee.LateJoin
		missed referee.Missed
		start  bool // the round has started when they come
	}{
		{"last-place", referee.LateFill, referee.MissedLastPlace, true},
		{"not-played", referee.LateNextRound, referee.MissedNotPlayed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := lateRuleset(t, "late-next-"+tc.name, func(rs *referee.Ruleset) {
				rs.LateEntry = referee.LateEntry{Join: tc.join, Missed: tc.missed}
			})
			c := newEventConsole(t, rs)
			tour, _ := c.enter(rs, 7, 2)
			must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			if tc.start {
				// Table 1 has drawn its play order: the round has started.
				must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
			}
			ids := c.latePlayers(tour, "遅刻 一郎")
			got := must(c.Svc.SeatLate(c.Ctx, "judge-b", tour.ID, 1, ids)).OK(t)
			if len(got.Seated) != 0 || !slices.Equal(got.Next, ids) || got.Missed != tc.missed {
				t.Errorf("SeatLate = %+v, want the player from round 2, the round counted %s", got, tc.missed)
			}
			if sizes := c.tableSizes(tour, 1); !slices.Equal(sizes, []int{4, 3}) {
				t.Errorf("round 1's tables = %v, want them as paired", sizes)
			}
			v := must(c.Svc.LateView(c.Ctx, tour.ID, 1)).OK(t)
			if len(v.Entries) != 1 || v.Entries[0].From != 2 || v.Entries[0].How != referee.LateNextRound {
				t.Errorf("late view = %+v, want the player from round 2", v)
			}
			c.play(tour, 1, []int{10, 7, 6, 4}, []int{10, 8, 5})
			r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			if !slices.ContainsFunc(r2.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, ids[0]) }) {
				t.Errorf("round 2 = %+v, want the late player in it", r2.Tables)
			}
			c.play(tour, 2, []int{10, 9, 6, 3}, []int{10, 7, 7})
			tournamenttest.Golden(t, filepath.Join("testdata", "late-next-"+tc.name+".golden"), c.lateStandingsText(tour), *update)
			var played int
			for _, s := range must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t) {
				if s.PlayerID == ids[0] {
					played = s.Played
				}
			}
			if want := map[referee.Missed]int{referee.MissedLastPlace: 2, referee.MissedNotPlayed: 1}[tc.missed]; played != want {
				t.Errorf("the late player played %d games, want %d", played, want)
			}
		})
	}
}

// Late entries are refused with a code for a round that is not the
// latest, an empty choice, a dropped player and a substitute.
func TestLateEntryRefusals(t *testing.T) {
	c := newConsole(t)
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	tour, players := c.enter(rs, 8, 3)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.play(tour, 1, []int{10, 7, 6, 4}, []int{10, 8, 5})
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	ids := c.latePlayers(tour, "遅刻 一郎", "助っ人")
	must(c.Svc.MarkSubstitute(c.Ctx, "judge-a", tour.ID, ids[1], true)).OK(t)
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, players[0].ID)).OK(t)
	for _, tc := range []struct {
		n    int
		ids  []int64
		want string
	}{
		{1, ids[:1], "late-not-latest"},
		{2, nil, "late-none"},
		{2, []int64{ids[1]}, "late-substitute"},
		{2, []int64{players[1].ID}, "late-in-round"},
		{2, []int64{players[0].ID}, "late-dropped"},
	} {
		_, err := c.Svc.SeatLate(c.Ctx, "judge-a", tour.ID, tc.n, tc.ids)
		if !errors.Is(err, tournament.ErrInvalid) || code(err) != tc.want {
			t.Errorf("SeatLate(%d, %v) = %v, want %s", tc.n, tc.ids, err, tc.want)
		}
	}
}
