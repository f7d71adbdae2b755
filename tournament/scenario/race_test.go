package scenario_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// racingStore lets another judge's change land between a use case's reads
// and its write: once a read named in a hook returns, the hook runs, once.
// Every write goes to the real store, so the use case's write meets the
// state the other change left.
type racingStore struct {
	*store.Store
	mu    sync.Mutex
	hooks map[string]func()
}

// after runs f once the next read of one of methods has returned.
func (s *racingStore) after(f func(), methods ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var once sync.Once
	for _, m := range methods {
		s.hooks[m] = func() { once.Do(f) }
	}
}

func (s *racingStore) fire(method string) {
	s.mu.Lock()
	f := s.hooks[method]
	if f != nil {
		clear(s.hooks)
	}
	s.mu.Unlock()
	if f != nil {
		f()
	}
}

func (s *racingStore) Penalties(ctx context.Context, tournamentID int64) ([]tournament.Penalty, error) {
	ps, err := s.Store.Penalties(ctx, tournamentID)
	s.fire("Penalties")
	return ps, err
}

func (s *racingStore) Player(ctx context.Context, id int64) (tournament.Player, error) {
	p, err := s.Store.Player(ctx, id)
	s.fire("Player")
	return p, err
}

func (s *racingStore) Players(ctx context.Context, tournamentID int64) ([]tournament.Player, error) {
	ps, err := s.Store.Players(ctx, tournamentID)
	s.fire("Players")
	return ps, err
}

func (s *racingStore) Rounds(ctx context.Context, tournamentID int64) ([]tournament.Round, error) {
	rs, err := s.Store.Rounds(ctx, tournamentID)
	s.fire("Rounds")
	return rs, err
}

// Event reads the players, the rounds and the penalties (and the rest of
// a snapshot's facts) at once: the hooks of those reads run after it.
func (s *racingStore) Event(ctx context.Context, tournamentID int64) (tournament.EventRecord, error) {
	rec, err := s.Store.Event(ctx, tournamentID)
	s.fire("Players")
	s.fire("Rounds")
	s.fire("Penalties")
	return rec, err
}

// Table reads a table's round, players and penalties at once, as Event
// does for the whole event.
func (s *racingStore) Table(ctx context.Context, tournamentID int64, n, number int) (tournament.TableFacts, error) {
	f, err := s.Store.Table(ctx, tournamentID, n, number)
	s.fire("Players")
	s.fire("Rounds")
	s.fire("Penalties")
	return f, err
}

func (s *racingStore) Progress(ctx context.Context, tournamentID int64) (tournament.Progress, error) {
	p, err := s.Store.Progress(ctx, tournamentID)
	s.fire("Progress")
	return p, err
}

// race is two judges' consoles on two servers of one database (two stores
// on it): a's reads can be interleaved with b's changes.
type race struct {
	*console
	a    *tournament.Service
	st   *racingStore
	tour tournament.Tournament
	ps   []tournament.Player
}

// newRace sets up a tournament of n checked-in players and rounds rounds;
// c.Svc is judge B's console and r.a judge A's.
func newRace(t *testing.T, n, rounds int) *race {
	dsn := tournamenttest.NewDSN(t)
	c := newConsoleOn(t, tournamenttest.OpenDSN(t, dsn))
	rs := &racingStore{Store: tournamenttest.OpenDSN(t, dsn), hooks: map[string]func(){}}
	r := &race{console: c, st: rs}
	// Judge A's console keeps its own time: the two consoles run at once.
	r.a = tournamenttest.NewServiceOn(t, rs, tournamenttest.Clock(c.At, time.Minute), tournament.WithSeeds(tournamenttest.Seeds()))
	r.tour, r.ps = c.SetUp(n, rounds)
	return r
}

// Two amendments computed from the same pairing: the second to be written
// is refused, not applied over the first (which it would undo).
func TestStaleAmendmentIsRefused(t *testing.T) {
	r := newRace(t, 8, 2)
	r1 := must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
	one, two := r1.Tables[0].Players, r1.Tables[1].Players
	r.st.after(func() {
		must(r.Svc.SwapPlayers(r.Ctx, "judge-b", r.tour.ID, 1, one[1], two[1], "B の入れ替え")).OK(t)
	}, "Penalties")
	_, err := r.a.SwapPlayers(r.Ctx, "judge-a", r.tour.ID, 1, one[0], two[0], "A の入れ替え")
	conflict(t, "SwapPlayers(over a newer swap)", err, "round-changed")
	got := must(r.Svc.RoundView(r.Ctx, r.tour.ID, 1)).OK(t).Round
	if !slices.Contains(got.Tables[0].Players, two[1]) || !slices.Contains(got.Tables[1].Players, one[1]) ||
		!slices.Contains(got.Tables[0].Players, one[0]) || len(got.Amendments) != 1 {
		t.Errorf("round 1 after the refused swap: tables %v amendments %+v, want judge B's swap only", got.Tables, got.Amendments)
	}
	// Judge A, having reloaded, swaps again.
	must(r.a.SwapPlayers(r.Ctx, "judge-a", r.tour.ID, 1, one[0], two[0], "A の入れ替え")).OK(t)
}

// A repair computed before an amendment does not silently replace it.
func TestStaleRepairIsRefused(t *testing.T) {
	r := newRace(t, 8, 2)
	r1 := must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
	r.st.after(func() {
		must(r.Svc.SwapPlayers(r.Ctx, "judge-b", r.tour.ID, 1, r1.Tables[0].Players[0], r1.Tables[1].Players[0], "B")).OK(t)
	}, "Penalties")
	_, err := r.a.RepairRound(r.Ctx, "judge-a", r.tour.ID, 1)
	conflict(t, "RepairRound(over a newer swap)", err, "round-changed")
	if got := must(r.Svc.RoundView(r.Ctx, r.tour.ID, 1)).OK(t).Round; len(got.Amendments) != 1 {
		t.Errorf("round 1 amendments %+v after the refused repair, want judge B's swap", got.Amendments)
	}
}

// A seating is computed from the table's players; it is refused when the
// table changed after they were read.
func TestSeatingOfAChangedTableIsRefused(t *testing.T) {
	r := newRace(t, 8, 2)
	r1 := must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
	r.st.after(func() {
		must(r.Svc.SwapPlayers(r.Ctx, "judge-b", r.tour.ID, 1, r1.Tables[0].Players[0], r1.Tables[1].Players[0], "B")).OK(t)
	}, "Penalties")
	_, err := r.a.SetSeating(r.Ctx, "judge-a", r.tour.ID, 1, 1, tournament.SeatingInput{Auto: true})
	conflict(t, "SetSeating(a table changed meanwhile)", err, "table-players-changed")
	if got := must(r.Svc.RoundView(r.Ctx, r.tour.ID, 1)).OK(t).Round; got.Tables[0].Seating != nil {
		t.Errorf("table 1 seating = %+v, want none", got.Tables[0].Seating)
	}
	must(r.a.SetSeating(r.Ctx, "judge-a", r.tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
}

// A deal is checked against the board's roll (§3 ウ): it is refused when
// another judge set up a new board after it was read, not saved onto it.
func TestDealOnAReplacedBoardIsRefused(t *testing.T) {
	r := newRace(t, 8, 2)
	must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
	first := must(r.Svc.SetBoard(r.Ctx, "judge-b", r.tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 2, Blue: 5}})).OK(t)
	chips := dealOf(t, r.tour.Ruleset, *first.Board)
	var second tournament.Table
	r.st.after(func() {
		second = must(r.Svc.SetBoard(r.Ctx, "judge-b", r.tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 4, Blue: 3}})).OK(t)
	}, "Penalties")
	_, err := r.a.SetDeal(r.Ctx, "judge-a", r.tour.ID, 1, 1, tournament.DealInput{Chips: chips})
	conflict(t, "SetDeal(on a board replaced meanwhile)", err, "board-changed")
	got := must(r.Svc.RoundView(r.Ctx, r.tour.ID, 1)).OK(t).Round.Tables[0].Board
	if got == nil || got.Roll != second.Board.Roll || got.Seed != second.Board.Seed || got.Deal != nil {
		t.Errorf("table 1 board after the refused deal = %+v, want judge B's new board %+v without a deal", got, second.Board)
	}
	// Judge A, having reloaded, enters the deal of the new board; a deal
	// entered meanwhile on the same board is no conflict.
	r.st.after(func() {
		must(r.Svc.SetDeal(r.Ctx, "judge-b", r.tour.ID, 1, 1, tournament.DealInput{Chips: dealOf(t, r.tour.Ruleset, *second.Board)})).OK(t)
	}, "Penalties")
	must(r.a.SetDeal(r.Ctx, "judge-a", r.tour.ID, 1, 1, tournament.DealInput{Chips: dealOf(t, r.tour.Ruleset, *second.Board)})).OK(t)
}

// dealOf returns the chips the console dealt on the board rec records.
func dealOf(t *testing.T, rs referee.Ruleset, rec tournament.BoardRecord) []referee.Chip {
	t.Helper()
	b, err := referee.NewBoard(rs, rec.Roll, rec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return b.Chips()
}

// Two judges fixing players to one table at once cannot seat more than
// MaxFixedPerTable there: the count is checked again where the request is
// written.
func TestRacingFixedTablesDoNotOverfillATable(t *testing.T) {
	r := newRace(t, 8, 1)
	for _, p := range r.ps[:3] {
		must(fixTable(r.Ctx, r.Svc, r.Svc, "judge-b", r.tour.ID, p.ID, 1)).OK(t)
	}
	r.st.after(func() { must(fixTable(r.Ctx, r.Svc, r.Svc, "judge-b", r.tour.ID, r.ps[3].ID, 1)).OK(t) }, "Players")
	_, err := fixTable(r.Ctx, r.Svc, r.a, "judge-a", r.tour.ID, r.ps[4].ID, 1)
	conflict(t, "SetFixedTable(table 1 filled meanwhile)", err, "fixed-table-full")
	if v := (*referee.Violation)(nil); errors.As(err, &v) && (v.Args["Table"] != 1 || v.Args["Player"] != r.ps[4].Name) {
		t.Errorf("fixed-table-full args %v, want Table 1 and Player %s", v.Args, r.ps[4].Name)
	}
	fixedAt := func() []int64 {
		var ids []int64
		for _, p := range must(r.Svc.Players(r.Ctx, r.tour.ID)).OK(t) {
			if p.FixedTable == 1 {
				ids = append(ids, p.ID)
			}
		}
		return ids
	}
	want := []int64{r.ps[0].ID, r.ps[1].ID, r.ps[2].ID, r.ps[3].ID}
	if got := fixedAt(); !sameSet(got, want) {
		t.Errorf("players fixed to table 1 = %v, want %v", got, want)
	}
	// So is the edit form.
	must(fixTable(r.Ctx, r.Svc, r.Svc, "judge-b", r.tour.ID, r.ps[3].ID, 0)).OK(t)
	r.st.after(func() { must(fixTable(r.Ctx, r.Svc, r.Svc, "judge-b", r.tour.ID, r.ps[5].ID, 1)).OK(t) }, "Players")
	edit := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: r.ps[4].Name, Kana: r.ps[4].Kana}, FixedTable: 1}
	_, err = r.a.EditPlayer(r.Ctx, "judge-a", r.ps[4].TournamentID, r.ps[4].ID, edit)
	conflict(t, "EditPlayer(table 1 filled meanwhile)", err, "fixed-table-full")
	want[3] = r.ps[5].ID
	if got := fixedAt(); !sameSet(got, want) {
		t.Errorf("players fixed to table 1 after the refused edit = %v, want %v", got, want)
	}
}

// A check-in and a disqualification of the same player at once: each
// writes only what it changes, so neither undoes the other.
func TestCheckInKeepsARacingDisqualification(t *testing.T) {
	r := newRace(t, 8, 2)
	p := r.ps[0]
	r.st.after(func() {
		must(r.Svc.RecordPenalty(r.Ctx, "judge-b", r.tour.ID, tournament.PenaltyInput{
			PlayerID: p.ID, Offence: "unsporting-conduct", Level: referee.Disqualification,
		})).OK(t)
	}, "Player")
	must(r.a.CheckIn(r.Ctx, "judge-a", p.TournamentID, p.ID, false)).OK(t)
	got := must(r.Svc.GetPlayer(r.Ctx, p.TournamentID, p.ID)).OK(t)
	if got.DroppedRound != 1 || got.CheckedIn {
		t.Errorf("player after a check-out racing a disqualification = %+v, want dropped from round 1 and checked out", got)
	}
}

// Two edits of the same field from the same state: the second is refused.
func TestStalePlayerEditIsRefused(t *testing.T) {
	r := newRace(t, 4, 1)
	p := r.ps[0]
	r.st.after(func() {
		must(rename(r.Ctx, r.Svc, r.Svc, "judge-b", r.tour.ID, p.ID, tournament.PlayerInput{Name: "青木B", Kana: "あおき"})).OK(t)
	}, "Player")
	_, err := rename(r.Ctx, r.Svc, r.a, "judge-a", r.tour.ID, p.ID, tournament.PlayerInput{Name: "青木A", Kana: "あおき"})
	conflict(t, "UpdatePlayer(over a newer edit)", err, "player-changed")
	if got := must(r.Svc.GetPlayer(r.Ctx, p.TournamentID, p.ID)).OK(t); got.Name != "青木B" {
		t.Errorf("name after the refused edit = %q, want judge B's 青木B", got.Name)
	}
	// So are two keep-apart lists.
	r.st.after(func() { must(keepApart(r.Ctx, r.Svc, r.Svc, "judge-b", r.tour.ID, p.ID, []int64{r.ps[1].ID})).OK(t) }, "Player")
	_, err = keepApart(r.Ctx, r.Svc, r.a, "judge-a", r.tour.ID, p.ID, []int64{r.ps[2].ID})
	conflict(t, "SetKeepApart(over a newer list)", err, "player-changed")
	if got := must(r.Svc.GetPlayer(r.Ctx, p.TournamentID, p.ID)).OK(t); !slices.Equal(got.KeepApart, []int64{r.ps[1].ID}) {
		t.Errorf("keep-apart after the refused edit = %v, want judge B's [%d]", got.KeepApart, r.ps[1].ID)
	}
	// The same change made twice at once is no conflict: it is made.
	r.st.after(func() { must(r.Svc.CheckIn(r.Ctx, "judge-b", p.TournamentID, p.ID, false)).OK(t) }, "Player")
	must(r.a.CheckIn(r.Ctx, "judge-a", p.TournamentID, p.ID, false)).OK(t)
}

// A change decided from how far the tournament has gone (the rounds
// paired, whether the latest has started) is refused when a round was
// paired or started after it was read.
func TestChangesDecidedFromTheRoundsAreRechecked(t *testing.T) {
	t.Run("edit tournament", func(t *testing.T) {
		r := newRace(t, 8, 3)
		must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
		r.Save(r.tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
		r.Save(r.tour, 1, 2, 0, []int{10, 8, 6, 4}, 0, "")
		r.st.after(func() { must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t) }, "Rounds", "Progress")
		in := tournament.TournamentInput{Name: r.tour.Name, Rounds: 1}
		_, err := r.a.EditTournament(r.Ctx, "judge-a", r.tour.ID, in)
		conflict(t, "EditTournament(rounds 1 while round 2 is paired)", err, "tournament-progressed")
		if got := must(r.Svc.GetTournament(r.Ctx, r.tour.ID)).OK(t); got.Rounds != 3 {
			t.Errorf("rounds after the refused edit = %d, want 3", got.Rounds)
		}
	})
	t.Run("drop", func(t *testing.T) {
		r := newRace(t, 8, 3)
		r1 := must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
		p := r1.Tables[0].Players[0]
		r.st.after(func() {
			must(r.Svc.SetSeating(r.Ctx, "judge-b", r.tour.ID, 1, 2, tournament.SeatingInput{Auto: true})).OK(t)
		}, "Rounds", "Progress")
		_, err := r.a.DropPlayer(r.Ctx, "judge-a", r.tour.ID, p)
		conflict(t, "DropPlayer(round 1 started meanwhile)", err, "tournament-progressed")
		if got := must(r.Svc.GetPlayer(r.Ctx, r.tour.ID, p)).OK(t); got.DroppedRound != 0 {
			t.Errorf("DroppedRound after the refused drop = %d, want 0", got.DroppedRound)
		}
		if got := must(r.a.DropPlayer(r.Ctx, "judge-a", r.tour.ID, p)).OK(t); got.DroppedRound != 2 {
			t.Errorf("DroppedRound after round 1 started = %d, want 2", got.DroppedRound)
		}
	})
	t.Run("disqualify", func(t *testing.T) {
		r := newRace(t, 8, 3)
		r1 := must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
		p := r1.Tables[0].Players[0]
		r.st.after(func() {
			must(r.Svc.SetSeating(r.Ctx, "judge-b", r.tour.ID, 1, 2, tournament.SeatingInput{Auto: true})).OK(t)
		}, "Progress")
		in := tournament.PenaltyInput{PlayerID: p, Offence: "unsporting-conduct", Level: referee.Disqualification}
		_, err := r.a.RecordPenalty(r.Ctx, "judge-a", r.tour.ID, in)
		conflict(t, "RecordPenalty(disqualification, round 1 started meanwhile)", err, "tournament-progressed")
		if got := must(r.Svc.GetPlayer(r.Ctx, r.tour.ID, p)).OK(t); got.DroppedRound != 0 {
			t.Errorf("DroppedRound after the refused disqualification = %d, want 0", got.DroppedRound)
		}
	})
	t.Run("add player", func(t *testing.T) {
		r := newRace(t, 8, 3)
		r.st.after(func() { must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t) }, "Rounds", "Progress")
		_, err := r.a.AddPlayer(r.Ctx, "judge-a", r.tour.ID, tournament.PlayerInput{Name: "遅刻", Kana: "ちこく"})
		conflict(t, "AddPlayer(round 1 paired meanwhile)", err, "tournament-progressed")
		if got := must(r.a.AddPlayer(r.Ctx, "judge-a", r.tour.ID, tournament.PlayerInput{Name: "遅刻", Kana: "ちこく"})).OK(t); got.LateEntryRound != 1 {
			t.Errorf("LateEntryRound once round 1 is paired = %d, want 1", got.LateEntryRound)
		}
	})
}

// Two goroutines amend the same round from the same state at once: at
// most one amendment is written per pairing read, and whatever is recorded
// is what the round shows.
func TestConcurrentAmendmentsAreNotLost(t *testing.T) {
	r := newRace(t, 8, 2)
	r1 := must(r.Svc.PairNextRound(r.Ctx, "judge-b", r.tour.ID)).OK(t)
	one, two := r1.Tables[0].Players, r1.Tables[1].Players
	for k := range 5 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, svc := range []*tournament.Service{r.a, r.Svc} {
			wg.Go(func() {
				_, errs[i] = svc.SwapPlayers(r.Ctx, "judge", r.tour.ID, 1, one[i], two[i], "同時")
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, tournament.ErrConflict) {
				t.Fatalf("attempt %d: SwapPlayers error = %v, want none or ErrConflict", k, err)
			}
		}
		// Replaying the recorded amendments on the pairing must give the round.
		got := must(r.Svc.RoundView(r.Ctx, r.tour.ID, 1)).OK(t).Round
		want := [][]int64{slices.Clone(one), slices.Clone(two)}
		for _, a := range got.Amendments {
			for _, tb := range want {
				for j, p := range tb {
					switch p {
					case a.A:
						tb[j] = a.B
					case a.B:
						tb[j] = a.A
					}
				}
			}
		}
		for i, tb := range want {
			if !sameSet(tb, got.Tables[i].Players) {
				t.Fatalf("attempt %d: table %d = %v, but its amendments %+v make %v", k, i+1, got.Tables[i].Players, got.Amendments, tb)
			}
		}
	}
}

func sameSet(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Every form that edits a recorded thing carries what it showed: a save
// decided on an older version of a table's seating, board or deal is
// refused with who recorded the newer one, and never replaces it; a player
// edited on an old page keeps the fields another judge changed since, or is
// refused when the same field changed.
func TestStaleFormsNeverRevert(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(8, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	v := func(n int) *int { return &n }
	stale := func(name string, err error, record string, expected, current int, judge string) {
		t.Helper()
		var se *tournament.StaleError
		if !errors.As(err, &se) || !errors.Is(err, tournament.ErrConflict) {
			t.Fatalf("%s: error = %v, want a *StaleError", name, err)
		}
		if se.Record != record || se.Expected != expected || se.Current != current || se.Judge != judge {
			t.Errorf("%s: %+v, want %s version %d over %d by %s", name, se, record, current, expected, judge)
		}
	}

	// Two judges roll for table 1 on the same page (no seating yet).
	a := must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true, Version: v(0)})).OK(t)
	if a.Seating.Version != 1 {
		t.Errorf("the first seating is version %d, want 1", a.Seating.Version)
	}
	_, err := c.Svc.SetSeating(c.Ctx, "judge-b", tour.ID, 1, 1, tournament.SeatingInput{Auto: true, Version: v(0)})
	stale("a second seating on the page without one", err, tournament.RecordSeating, 0, 1, "judge-a")
	if got := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round.Tables[0].Seating; got.Seed != a.Seating.Seed {
		t.Errorf("the seating after the refused one = %+v, want judge A's", got)
	}
	b := must(c.Svc.SetSeating(c.Ctx, "judge-b", tour.ID, 1, 1, tournament.SeatingInput{Auto: true, Version: v(1)})).OK(t)
	if b.Seating.Version != 2 {
		t.Errorf("a seating entered knowingly over version 1 is version %d, want 2", b.Seating.Version)
	}

	// The board, then the deal entered on it.
	board := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 2, Blue: 5}, Version: v(0)})).OK(t)
	_, err = c.Svc.SetBoard(c.Ctx, "judge-b", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 6, Blue: 1}, Version: v(0)})
	stale("a second board on the page without one", err, tournament.RecordBoard, 0, 1, "judge-a")
	chips := dealOf(t, tour.Ruleset, *board.Board)
	must(c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: chips, Version: v(1)})).OK(t)
	swapped := slices.Clone(chips)
	swapped[0].Number, swapped[1].Number = chips[1].Number, chips[0].Number
	if _, err := c.Svc.SetDeal(c.Ctx, "judge-b", tour.ID, 1, 1, tournament.DealInput{Chips: swapped, Version: v(1)}); err != nil {
		var de *tournament.DealError
		if !errors.As(err, &de) {
			stale("a deal entered on the board before judge A's deal", err, tournament.RecordBoard, 1, 2, "judge-a")
		}
	} else {
		t.Errorf("a deal entered on an old version of the board was saved")
	}
	if got := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round.Tables[0].Board; got.Version != 2 || !slices.Equal(got.Deal, chips) {
		t.Errorf("the board after the refused deal = version %d, deal %v; want judge A's deal, version 2", got.Version, got.Deal)
	}

	// A player's page opened by two judges: A fixes them to table 2, B
	// renames them on the old page; both hold. C, also on the old page,
	// fixes them to table 1: refused, A's table stands.
	p := ps[7]
	shown := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana}}
	withTable := shown
	withTable.FixedTable, withTable.Base = 2, &shown
	must(c.Svc.EditPlayer(c.Ctx, "judge-a", p.TournamentID, p.ID, withTable)).OK(t)
	renamed := shown
	renamed.Name, renamed.Base = "改名", &shown
	must(c.Svc.EditPlayer(c.Ctx, "judge-b", p.TournamentID, p.ID, renamed)).OK(t)
	if got := must(c.Svc.GetPlayer(c.Ctx, p.TournamentID, p.ID)).OK(t); got.Name != "改名" || got.FixedTable != 2 {
		t.Errorf("player after two edits on one page = %q at table %d, want 改名 at table 2", got.Name, got.FixedTable)
	}
	other := shown
	other.FixedTable, other.Base = 1, &shown
	_, err = c.Svc.EditPlayer(c.Ctx, "judge-c", p.TournamentID, p.ID, other)
	var vi *referee.Violation
	if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &vi) || vi.Code != "player-changed" {
		t.Errorf("a stale edit of the same field: error = %v, want the conflict player-changed", err)
	}
	if got := must(c.Svc.GetPlayer(c.Ctx, p.TournamentID, p.ID)).OK(t); got.FixedTable != 2 {
		t.Errorf("fixed table after the refused edit = %d, want judge A's 2", got.FixedTable)
	}
}

// Two judges change different settings of a tournament at once (PATCH):
// each change stays, the later one does not write back what it read of
// the other's.
func TestConcurrentTournamentPatchesKeepBoth(t *testing.T) {
	r := newRace(t, 4, 2)
	venue, name := "新宿会場", "A の大会名"
	r.st.after(func() {
		must(r.Svc.PatchTournament(r.Ctx, "judge-b", r.tour.ID, tournament.TournamentPatch{Venue: &venue})).OK(t)
	}, "Progress")
	got := must(r.a.PatchTournament(r.Ctx, "judge-a", r.tour.ID, tournament.TournamentPatch{Name: &name})).OK(t)
	if got.Name != name || got.Venue != venue {
		t.Errorf("PatchTournament(name) answered %q at %q, want %q at %q", got.Name, got.Venue, name, venue)
	}
	stored := must(r.Svc.GetTournament(r.Ctx, r.tour.ID)).OK(t)
	if stored.Name != name || stored.Venue != venue {
		t.Errorf("after both patches the tournament is %q at %q, want %q at %q", stored.Name, stored.Venue, name, venue)
	}
}
