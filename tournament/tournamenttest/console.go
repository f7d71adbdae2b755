package tournamenttest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// Console is a judge's console on a service over a real database (SQLite,
// or PostgreSQL: see NewStore) with a clock that moves a minute per call and
// seeds counting up from 1, so every run is the same: what the service's
// tests and the scenario tests play events through. At is the clock's last
// reading; a test moves it to let time pass.
type Console struct {
	T   *testing.T
	Ctx context.Context
	Svc *tournament.Service
	St  *store.Store
	At  time.Time
}

// T0 is when a console's clock starts.
var T0 = time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)

// NewConsole returns a console on a new store (NewStore).
func NewConsole(t *testing.T) *Console {
	t.Helper()
	return NewConsoleOn(t, NewStore(t))
}

// NewConsoleOn is NewConsole on the store st.
func NewConsoleOn(t *testing.T, st *store.Store) *Console {
	t.Helper()
	c := &Console{T: t, Ctx: context.Background(), At: T0, St: st}
	c.Svc = NewServiceOn(t, st, func() time.Time {
		c.At = c.At.Add(time.Minute)
		return c.At
	})
	return c
}

// NewClockConsole returns a console whose clock stays at At until the test
// moves it, for the tests that read the round clock.
func NewClockConsole(t *testing.T) *Console {
	t.Helper()
	c := NewConsole(t)
	c.Svc = tournament.NewService(c.St, Rulesets(t), func() time.Time { return c.At },
		tournament.WithSeeds(Seeds()))
	return c
}

// Names are the players' names and readings the consoles register, in
// order.
var Names = []tournament.PlayerInput{
	{Name: "青木", Kana: "あおき"}, {Name: "井上", Kana: "いのうえ"}, {Name: "上田", Kana: "うえだ"},
	{Name: "遠藤", Kana: "えんどう"}, {Name: "岡田", Kana: "おかだ"}, {Name: "加藤", Kana: "かとう"},
	{Name: "木村", Kana: "きむら"}, {Name: "工藤", Kana: "くどう"}, {Name: "小林", Kana: "こばやし"},
	{Name: "佐藤", Kana: "さとう"}, {Name: "清水", Kana: "しみず"}, {Name: "鈴木", Kana: "すずき"},
	{Name: "田中", Kana: "たなか"},
}

// SetUp creates a tournament with the first n Names, all checked in.
func (c *Console) SetUp(n, rounds int) (tournament.Tournament, []tournament.Player) {
	c.T.Helper()
	tour, err := c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{
		Name: "11月定例会", Date: "2025-11-22", Venue: "カードショップ", Rounds: rounds,
	})
	if err != nil {
		c.T.Fatal(err)
	}
	var players []tournament.Player
	for _, nm := range Names[:n] {
		p, err := c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, Kana: nm.Kana})
		if err == nil {
			p, err = c.Svc.CheckIn(c.Ctx, "judge-a", p.TournamentID, p.ID, true)
		}
		if err != nil {
			c.T.Fatal(err)
		}
		players = append(players, p)
	}
	return tour, players
}

// Save saves a result for round n table t with the VP given in the table's
// pairing order; declared is an index into that order, or -1.
func (c *Console) Save(tour tournament.Tournament, n, table, version int, vp []int, declared int, reason string) tournament.TableResult {
	c.T.Helper()
	view, err := c.Svc.RoundView(c.Ctx, tour.ID, n)
	if err != nil {
		c.T.Fatal(err)
	}
	players := view.Round.Tables[table-1].Players
	in := tournament.ResultInput{Version: version, Reason: reason}
	for i, p := range players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: vp[i]})
	}
	if declared >= 0 {
		in.Declared = players[declared]
	}
	res, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, n, table, in)
	if err != nil {
		c.T.Fatal(err)
	}
	return res
}

// FixTable fixes player id of a tournament to table with the edit form,
// the rest of the player as read sees them now; write saves the edit
// (another judge's console, in a race).
func FixTable(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, table int) (tournament.Player, error) {
	return EditWith(ctx, read, write, judge, tid, id, func(e *tournament.PlayerEdit) { e.FixedTable = table })
}

// KeepApart sets the players id is kept apart from with the edit form, as FixTable.
func KeepApart(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, others []int64) (tournament.Player, error) {
	return EditWith(ctx, read, write, judge, tid, id, func(e *tournament.PlayerEdit) { e.KeepApart = others })
}

// Rename changes a player's name and kana with the edit form, as FixTable.
func Rename(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, in tournament.PlayerInput) (tournament.Player, error) {
	return EditWith(ctx, read, write, judge, tid, id, func(e *tournament.PlayerEdit) { e.PlayerInput = in })
}

// EditWith reads player id with read, makes change to the edit form filled
// as the console fills it, and saves it with write.
func EditWith(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, change func(*tournament.PlayerEdit)) (tournament.Player, error) {
	p, err := read.GetPlayer(ctx, tid, id)
	if err != nil {
		return tournament.Player{}, err
	}
	e := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana}, FixedTable: p.FixedTable, KeepApart: p.KeepApart}
	change(&e)
	return write.EditPlayer(ctx, judge, tid, id, e)
}

// Conflict checks that err is a conflict the console can say in words: a
// violation of one of the codes.
func Conflict(t testing.TB, what string, err error, codes ...string) {
	t.Helper()
	var v *referee.Violation
	if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || !slices.Contains(codes, v.Code) {
		t.Errorf("%s error = %v, want ErrConflict with a violation of %v", what, err, codes)
	}
}

// Outcome is a call's result, to check with OK: Must(f()).OK(t); Err is
// for the tests that want the error.
type Outcome[T any] struct {
	Value T
	Err   error
}

// Must holds a call's value and error for OK.
func Must[T any](v T, err error) Outcome[T] { return Outcome[T]{v, err} }

// OK fails the test on the call's error and returns its value.
func (o Outcome[T]) OK(t testing.TB) T {
	t.Helper()
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	return o.Value
}
