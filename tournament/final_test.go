package tournament_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// rulesetSource offers the rulesets of a test.
type rulesetSource map[string]referee.Ruleset

func (r rulesetSource) Get(name string) (referee.Ruleset, bool) {
	rs, ok := r[name]
	return rs, ok
}

// nationalWith returns the built-in national-2025 ruleset with its event
// format changed by edit.
func nationalWith(t *testing.T, edit func(*referee.EventFormat)) referee.Ruleset {
	t.Helper()
	rs, ok := tournamenttest.Rulesets(t).Get("national-2025")
	if !ok {
		t.Fatal("no national-2025 ruleset")
	}
	edit(&rs.Event)
	if err := rs.Validate(); err != nil {
		t.Fatal(err)
	}
	return rs
}

// newEventConsole is newConsole with the service offering rs alone.
func newEventConsole(t *testing.T, rs referee.Ruleset) *console {
	t.Helper()
	c := newConsole(t)
	c.Svc = tournament.NewService(c.St, rulesetSource{rs.Name: rs}, func() time.Time {
		c.At = c.At.Add(time.Minute)
		return c.At
	}, tournament.WithSeeds(tournamenttest.Seeds()))
	return c
}

var moreNames = []tournament.PlayerInput{
	{Name: "中村", Kana: "なかむら"}, {Name: "西田", Kana: "にしだ"}, {Name: "野口", Kana: "のぐち"}, {Name: "橋本", Kana: "はしもと"}, {Name: "平野", Kana: "ひらの"},
	{Name: "藤田", Kana: "ふじた"}, {Name: "本田", Kana: "ほんだ"}, {Name: "松本", Kana: "まつもと"}, {Name: "宮崎", Kana: "みやざき"}, {Name: "村上", Kana: "むらかみ"},
	{Name: "森", Kana: "もり"},
}

// enter creates a tournament under rs with n players, all checked in.
func (c *console) enter(rs referee.Ruleset, n, rounds int) (tournament.Tournament, []tournament.Player) {
	c.T.Helper()
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{
		Name: "地区予選", Date: "2025-11-22", Venue: "公民館", Rounds: rounds, Ruleset: rs.Name,
	})).OK(c.T)
	var players []tournament.Player
	for _, nm := range append(slices.Clone(names), moreNames...)[:n] {
		p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, Kana: nm.Kana, CheckedIn: true})).OK(c.T)
		players = append(players, p)
	}
	return tour, players
}

// play saves a declared win at every table of round n: the VP of vp4 (or
// vp3 at a 3-player table) in the table's pairing order, the first
// declaring.
func (c *console) play(tour tournament.Tournament, n int, vp4, vp3 []int) {
	c.T.Helper()
	r := must(c.Svc.RoundView(c.Ctx, tour.ID, n)).OK(c.T).Round
	for _, tb := range r.Tables {
		vp := vp4
		if len(tb.Players) == 3 {
			vp = vp3
		}
		c.Save(tour, n, tb.Number, 0, vp, 0, "")
	}
}

// code returns the rule code of err, or "".
func code(err error) string {
	var v *referee.Violation
	if errors.As(err, &v) {
		return v.Code
	}
	return ""
}

// report writes the rounds, each stage's cut and the standings and final
// results of an event, for a golden file.
func (c *console) report(tour tournament.Tournament, players []tournament.Player) string {
	c.T.Helper()
	var b strings.Builder
	names := func(ids []int64) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = nameOf(players, id)
		}
		return strings.Join(out, " ")
	}
	for _, r := range must(c.Svc.Rounds(c.Ctx, tour.ID)).OK(c.T) {
		fmt.Fprintf(&b, "round %d (%s, seed %d, repeats %d)\n", r.Number, r.Mode, r.Seed, r.Repeats)
		if r.Cut != nil {
			fmt.Fprintf(&b, "  cut stage %d seed %d: %s; draw: %s\n", r.Cut.Stage, r.Cut.Seed, names(r.Cut.Advancing), names(r.Cut.Draw))
		}
		v := must(c.Svc.RoundView(c.Ctx, tour.ID, r.Number)).OK(c.T)
		for _, tv := range v.Tables {
			fmt.Fprintf(&b, "  table %d:", tv.Table.Number)
			for _, pl := range tv.Places {
				fmt.Fprintf(&b, " %d.%s(%d)", pl.Place, nameOf(players, pl.PlayerID), pl.VP)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("standings\nrank  player  firsts  vp   share\n")
	for _, s := range must(c.Svc.Standings(c.Ctx, tour.ID)).OK(c.T) {
		fmt.Fprintf(&b, "%4d  %-6s %6d  %3d  %6.4f\n", s.Rank, s.Name, s.Firsts, s.VP, s.Share)
	}
	b.WriteString("final results\nrank  player  from\n")
	for _, f := range must(c.Svc.FinalStandings(c.Ctx, tour.ID)).OK(c.T) {
		from := "standings"
		if f.Stage > 0 {
			from = fmt.Sprintf("stage %d/%d place %d (round %d table %d)", f.Stage, f.Stages, f.Place, f.Round, f.Table)
		}
		fmt.Fprintf(&b, "%4d  %-6s %s\n", f.Rank, f.Name, from)
	}
	return b.String()
}

// replayCut draws the first stage's cut again from the qualifying
// standings and the recorded seed: the same players advance in the same
// drawn order.
func replayCut(t *testing.T, standings []tournament.Standing, n int, cut tournament.Cut) {
	t.Helper()
	var st []referee.Standing
	for _, s := range standings {
		if s.DroppedRound == 0 {
			st = append(st, referee.Standing{Rank: s.Rank, Player: fmt.Sprint(s.PlayerID)})
		}
	}
	adv, draw, err := referee.Cut(st, n, cut.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(adv, draw); got != fmt.Sprint(cut.Advancing, cut.Draw) && !(len(draw) == 0 && len(cut.Draw) == 0 && fmt.Sprint(adv) == fmt.Sprint(cut.Advancing)) {
		t.Errorf("the cut replayed with seed %d = %v draw %v, want the recorded %v draw %v", cut.Seed, adv, draw, cut.Advancing, cut.Draw)
	}
}

// The national final's format: 16 players, 3 Swiss rounds, then the top 4
// play a final table. Two players share 4th place at the cut line, so a
// seeded draw decides, recorded with its seed and replayable. The final
// table's shared 2nd place is shared in the final results; everyone else
// keeps their qualifying rank. Checked against testdata/final16.golden.
func TestScenarioTopFourFinal(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {})
	c := newEventConsole(t, rs)
	tour, players := c.enter(rs, 16, 3)
	for n := 1; n <= 2; n++ {
		must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
		c.play(tour, n, []int{10, 8, 6, 4}, nil)
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if _, err := c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID); code(err) != "final-results-missing" {
		t.Errorf("MakeFinal(round 3 unplayed) error = %v, want final-results-missing", err)
	}
	// Round 3 ends by time, after the 8 minutes of placement and the 60
	// of play; at table 2 two players share 1st with 9 VP, and the sums
	// of every table are equal, so two players tie on every key at the cut.
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 3, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = c.At.Add(70 * time.Minute)
	for tb := 1; tb <= 4; tb++ {
		vp := []int{9, 7, 5, 3}
		if tb == 2 {
			vp = []int{9, 9, 3, 3}
		}
		c.Save(tour, 3, tb, 0, vp, -1, "")
	}
	r := must(c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID)).OK(t)
	if r.Number != 4 || r.Mode != tournament.ModeFinal || len(r.Tables) != 1 || len(r.Tables[0].Players) != 4 || r.Cut == nil {
		t.Fatalf("MakeFinal() = round %d %s with %d tables, cut %v; want round 4, one final table of 4", r.Number, r.Mode, len(r.Tables), r.Cut)
	}
	if len(r.Cut.Draw) < 2 {
		t.Fatalf("the cut %+v has no draw: the scenario wants a tie at the cut line", r.Cut)
	}
	got := must(c.Svc.RoundView(c.Ctx, tour.ID, 4)).OK(t).Round.Cut
	if fmt.Sprint(*got) != fmt.Sprint(*r.Cut) {
		t.Errorf("the stored cut = %+v, want %+v", *got, *r.Cut)
	}
	replayCut(t, must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t), 4, *got)
	if _, err := c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID); code(err) != "final-already-made" || !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("MakeFinal(again) error = %v, want the conflict final-already-made", err)
	}
	if _, err := c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID); code(err) != "final-made" {
		t.Errorf("PairNextRound(after the final) error = %v, want final-made", err)
	}
	if v := must(c.Svc.RoundView(c.Ctx, tour.ID, 4)).OK(t); len(v.Missing) != 0 {
		t.Errorf("RoundView(the final).Missing = %v, want nobody: the final seats its cut alone", v.Missing)
	}
	if _, err := c.Svc.RepairRound(c.Ctx, "judge-a", tour.ID, 4); code(err) != "repair-final" {
		t.Errorf("RepairRound(the final) error = %v, want repair-final", err)
	}
	if fs := must(c.Svc.FinalStandings(c.Ctx, tour.ID)).OK(t); fs != nil {
		t.Errorf("FinalStandings(before the final is played) = %v, want nil", fs)
	}
	c.Save(tour, 4, 1, 0, []int{6, 7, 7, 10}, 3, "") // the 4th seed wins; a shared 2nd
	fs := must(c.Svc.FinalStandings(c.Ctx, tour.ID)).OK(t)
	final := r.Tables[0].Players
	if len(fs) != 16 || fs[0].PlayerID != final[3] || fs[1].Rank != 2 || fs[2].Rank != 2 || fs[3].PlayerID != final[0] || fs[3].Rank != 4 {
		t.Errorf("FinalStandings() starts %+v, want the final table's winner, a shared 2nd, then its 1st seed 4th", fs[:4])
	}
	for _, f := range fs[4:] {
		if f.Stage != 0 || slices.Contains(final, f.PlayerID) {
			t.Errorf("FinalStandings() line %+v after the final table, want a qualifying line", f)
		}
	}
	// The standings stay the qualifying standings: the final counts apart.
	for _, s := range must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t) {
		if s.Played != 3 {
			t.Errorf("Standings() %s played %d games, want the 3 qualifying ones", s.Name, s.Played)
		}
	}
	var made int
	for _, e := range must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t) {
		if e.Action == "final.make" {
			made++
			if !strings.Contains(e.After, fmt.Sprintf(`"Seed":%d`, r.Cut.Seed)) {
				t.Errorf("final.make audit entry %s does not record the seed %d", e.After, r.Cut.Seed)
			}
		}
	}
	if made != 1 {
		t.Errorf("audit log has %d final.make lines, want 1", made)
	}
	tournamenttest.Golden(t, filepath.Join("testdata", "final16.golden"), c.report(tour, players), *update)
}

// Chained cuts: the top 16 play four semi-final tables and each table's
// winner plays the final. Dropped players do not go on.
func TestScenarioChainedCut(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) { e.Cut = []int{16, 4} })
	c := newEventConsole(t, rs)
	tour, players := c.enter(rs, 18, 2)
	for n := 1; n <= 2; n++ {
		must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
		c.play(tour, n, []int{10, 8, 6, 4}, []int{10, 8, 6})
	}
	leader := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t)[0]
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, leader.PlayerID)).OK(t)
	semi := must(c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID)).OK(t)
	if len(semi.Tables) != 4 || semi.Cut.Stage != 1 || len(semi.Cut.Advancing) != 16 || slices.Contains(semi.Cut.Advancing, leader.PlayerID) {
		t.Fatalf("MakeFinal(stage 1) = %d tables, cut %+v; want 4 tables of the top 16 still in, without the dropped leader", len(semi.Tables), semi.Cut)
	}
	if _, err := c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID); code(err) != "final-results-missing" {
		t.Errorf("MakeFinal(semi-finals unplayed) error = %v, want final-results-missing", err)
	}
	c.play(tour, 3, []int{10, 8, 6, 4}, nil)
	if fs := must(c.Svc.FinalStandings(c.Ctx, tour.ID)).OK(t); fs != nil {
		t.Errorf("FinalStandings(semi-finals only) = %v, want nil", fs)
	}
	final := must(c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID)).OK(t)
	var winners []int64
	for _, tb := range semi.Tables {
		winners = append(winners, tb.Players[0])
	}
	if len(final.Tables) != 1 || final.Cut.Stage != 2 || !sameIDs(final.Tables[0].Players, winners) {
		t.Fatalf("MakeFinal(stage 2) = %+v, want one table of the semi-final winners %v", final.Tables, winners)
	}
	c.play(tour, 4, []int{10, 8, 6, 4}, nil)
	fs := must(c.Svc.FinalStandings(c.Ctx, tour.ID)).OK(t)
	if len(fs) != 18 || fs[0].Stage != 2 || fs[4].Stage != 1 || fs[4].Place != 2 || fs[15].Stage != 1 || fs[16].Stage != 0 {
		t.Errorf("FinalStandings() = %+v; want the final's 4, then the semi-finalists by place, then the 2 others", fs)
	}
	tournamenttest.Golden(t, filepath.Join("testdata", "final-chained.golden"), c.report(tour, players), *update)
}

func sameIDs(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// The national rules' other format: the last Swiss round's table 1 (the
// leaders' table) decides the champion; there is no final to make.
func TestScenarioLeadersTable(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) { e.Final, e.Cut = referee.LeadersTable, nil })
	c := newEventConsole(t, rs)
	tour, players := c.enter(rs, 12, 3)
	for n := 1; n <= 3; n++ {
		must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
		if n < 3 {
			c.play(tour, n, []int{10, 8, 6, 4}, nil)
		}
	}
	if _, err := c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID); code(err) != "final-not-top-cut" {
		t.Errorf("MakeFinal(leaders' table) error = %v, want final-not-top-cut", err)
	}
	// Table 1's last player in pairing order (the lowest standing there) wins it.
	r3 := must(c.Svc.RoundView(c.Ctx, tour.ID, 3)).OK(t).Round
	c.Save(tour, 3, 1, 0, []int{4, 6, 8, 10}, 3, "")
	c.Save(tour, 3, 2, 0, []int{10, 8, 6, 4}, 0, "")
	if fs := must(c.Svc.FinalStandings(c.Ctx, tour.ID)).OK(t); len(fs) != 12 || fs[0].PlayerID != r3.Tables[0].Players[3] || fs[0].Stage != 1 {
		t.Errorf("FinalStandings() = %+v, want the leaders' table's winner %d first", fs, r3.Tables[0].Players[3])
	}
	c.Save(tour, 3, 3, 0, []int{10, 8, 6, 4}, 0, "")
	must(c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)).OK(t)
	live := must(c.Svc.Live(c.Ctx, tour.ID)).OK(t)
	if len(live.Winners) != 1 || live.Winners[0].PlayerID != r3.Tables[0].Players[3] || len(live.Final) != 12 {
		t.Errorf("Live() winners %+v with %d final lines, want the leaders' table's winner", live.Winners, len(live.Final))
	}
	tournamenttest.Golden(t, filepath.Join("testdata", "leaders-table.golden"), c.report(tour, players), *update)
}

// meetings counts, over the given rounds, the pairs seated together more
// than once.
func repeatMeetings(rounds []tournament.Round) int {
	met := map[[2]int64]int{}
	repeats := 0
	for _, r := range rounds {
		for _, tb := range r.Tables {
			for i, a := range tb.Players {
				for _, b := range tb.Players[i+1:] {
					k := [2]int64{min(a, b), max(a, b)}
					if met[k]++; met[k] > 1 {
						repeats++
					}
				}
			}
		}
	}
	return repeats
}

// The national rules' earlier format: 24 players, rounds 1 and 2 drawn in
// advance by the whole-schedule solver, with nobody meeting twice, then 2
// Swiss rounds and the top-4 final. Checked against
// testdata/final24-schedule.golden.
func TestScenarioScheduleThenSwiss(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {
		e.Rounds = []referee.RoundFormat{referee.ScheduleRound, referee.ScheduleRound, referee.SwissRound}
	})
	c := newEventConsole(t, rs)
	tour, players := c.enter(rs, 24, 4)
	for n := 1; n <= 4; n++ {
		r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
		want := tournament.ModeSwiss
		if n <= 2 {
			want = tournament.ModeSchedule
		}
		if r.Mode != want || len(r.Tables) != 6 {
			t.Fatalf("round %d = %s with %d tables, want %s with 6", n, r.Mode, len(r.Tables), want)
		}
		c.play(tour, n, []int{10, 8, 6, 4}, nil)
	}
	rounds := must(c.Svc.Rounds(c.Ctx, tour.ID)).OK(t)
	if got := repeatMeetings(rounds[:2]); got != 0 || rounds[1].Repeats != 0 {
		t.Errorf("the 2 rounds drawn in advance repeat %d meetings (round 2 records %d), want 0", got, rounds[1].Repeats)
	}
	if rounds[1].Seed != rounds[0].Seed {
		t.Errorf("round 2's seed %d, want the schedule's, round 1's %d", rounds[1].Seed, rounds[0].Seed)
	}
	must(c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.play(tour, 5, []int{10, 8, 6, 4}, nil)
	tournamenttest.Golden(t, filepath.Join("testdata", "final24-schedule.golden"), c.report(tour, players), *update)
}

// A schedule that no longer replays (a player dropped after round 1) draws
// its remaining rounds again from the rounds played: still nobody meets twice.
func TestScheduleAfterADrop(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {
		e.Rounds = []referee.RoundFormat{referee.ScheduleRound, referee.ScheduleRound, referee.ScheduleRound, referee.SwissRound}
	})
	c := newEventConsole(t, rs)
	tour, players := c.enter(rs, 16, 4)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.play(tour, 1, []int{10, 8, 6, 4}, nil)
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, players[0].ID)).OK(t)
	for n := 2; n <= 3; n++ {
		r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
		if r.Mode != tournament.ModeSchedule || slices.ContainsFunc(r.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, players[0].ID) }) {
			t.Fatalf("round %d = %s %+v, want a schedule round without the dropped player", n, r.Mode, r.Tables)
		}
		c.play(tour, n, []int{10, 8, 6, 4}, []int{10, 8, 6})
	}
	if got := repeatMeetings(must(c.Svc.Rounds(c.Ctx, tour.ID)).OK(t)); got != 0 {
		t.Errorf("the schedule rounds repeat %d meetings after a drop, want 0", got)
	}
}

// The ruleset says what a schedule puts first. 13 players over 4 rounds
// drawn in advance: spreading the 3-player tables evenly (nobody at two
// more than anyone else) costs repeat meetings that putting the fewest
// repeats first avoids.
func TestSchedulePriority(t *testing.T) {
	repeats := map[referee.SchedulePriority]int{}
	for _, priority := range []referee.SchedulePriority{referee.SpreadFirst, referee.RepeatsFirst} {
		rs := nationalWith(t, func(e *referee.EventFormat) {
			e.Rounds = []referee.RoundFormat{referee.ScheduleRound, referee.ScheduleRound, referee.ScheduleRound, referee.ScheduleRound, referee.SwissRound}
			e.SchedulePriority = priority
		})
		c := newEventConsole(t, rs)
		tour, players := c.enter(rs, 13, 5)
		for n := 1; n <= 4; n++ {
			must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			c.play(tour, n, []int{10, 8, 6, 4}, []int{10, 8, 6})
		}
		rounds := must(c.Svc.Rounds(c.Ctx, tour.ID)).OK(t)
		repeats[priority] = repeatMeetings(rounds)
		three := map[int64]int{}
		for _, r := range rounds {
			for _, tb := range r.Tables {
				if len(tb.Players) == 3 {
					for _, p := range tb.Players {
						three[p]++
					}
				}
			}
		}
		lo, hi := 4, 0
		for _, p := range players {
			lo, hi = min(lo, three[p.ID]), max(hi, three[p.ID])
		}
		if priority == referee.SpreadFirst && hi-lo > 1 {
			t.Errorf("spread first: 3-player tables from %d to %d a player, want within one", lo, hi)
		}
	}
	if repeats[referee.RepeatsFirst] >= repeats[referee.SpreadFirst] {
		t.Errorf("repeats first meets %d again, spread first %d: want fewer", repeats[referee.RepeatsFirst], repeats[referee.SpreadFirst])
	}
}
