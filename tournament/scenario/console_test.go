// Package scenario_test plays the tournament service through whole events
// as judges do: the clock and its phases, the tables' placement, the games,
// two consoles racing on one event, and the snapshots two servers share.
// Its tests run again on PostgreSQL (POSTGRES_PKGS in the Makefile).
package scenario_test

import (
	"context"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// console is a service on a real database (SQLite, or PostgreSQL: see
// tournamenttest) with a clock that moves a minute per call and seeds
// counting up from 1, so every run is the same.
type console struct {
	t   *testing.T
	ctx context.Context
	svc *tournament.Service
	st  *store.Store
	at  time.Time
}

func newConsole(t *testing.T) *console {
	t.Helper()
	return newConsoleOn(t, tournamenttest.NewStore(t))
}

// newConsoleOn is newConsole on the store st.
func newConsoleOn(t *testing.T, st *store.Store) *console {
	t.Helper()
	c := &console{t: t, ctx: context.Background(), at: time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC), st: st}
	c.svc = tournamenttest.NewServiceOn(t, st, func() time.Time {
		c.at = c.at.Add(time.Minute)
		return c.at
	})
	return c
}

// outcome is a call's result, to check with ok: must(f()).ok(t).
type outcome[T any] struct {
	v   T
	err error
}

func must[T any](v T, err error) outcome[T] { return outcome[T]{v, err} }

// ok fails the test on the call's error and returns its value.
func (o outcome[T]) ok(t *testing.T) T {
	t.Helper()
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.v
}

var names = []struct{ name, kana string }{
	{"青木", "あおき"}, {"井上", "いのうえ"}, {"上田", "うえだ"}, {"遠藤", "えんどう"}, {"岡田", "おかだ"},
	{"加藤", "かとう"}, {"木村", "きむら"}, {"工藤", "くどう"}, {"小林", "こばやし"}, {"佐藤", "さとう"},
	{"清水", "しみず"}, {"鈴木", "すずき"}, {"田中", "たなか"},
}

// setUp creates a tournament with the first n names, all checked in.
func (c *console) setUp(n, rounds int) (tournament.Tournament, []tournament.Player) {
	c.t.Helper()
	tour := must(c.svc.CreateTournament(c.ctx, "judge-a", tournament.TournamentInput{
		Name: "11月定例会", Date: "2025-11-22", Venue: "カードショップ", Rounds: rounds,
	})).ok(c.t)
	var players []tournament.Player
	for _, nm := range names[:n] {
		p := must(c.svc.AddPlayer(c.ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.name, Kana: nm.kana})).ok(c.t)
		players = append(players, must(c.svc.CheckIn(c.ctx, "judge-a", p.TournamentID, p.ID, true)).ok(c.t))
	}
	return tour, players
}

// save saves a result for round n table t with the VP given in the table's
// pairing order; declared is an index into that order, or -1.
func (c *console) save(tour tournament.Tournament, n, table, version int, vp []int, declared int, reason string) tournament.TableResult {
	c.t.Helper()
	r := must(c.svc.RoundView(c.ctx, tour.ID, n)).ok(c.t).Round
	players := r.Tables[table-1].Players
	in := tournament.ResultInput{Version: version, Reason: reason}
	for i, p := range players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: vp[i]})
	}
	if declared >= 0 {
		in.Declared = players[declared]
	}
	return must(c.svc.SaveResult(c.ctx, "judge-a", tour.ID, n, table, in)).ok(c.t)
}

// fixTable, keepApart, rename and editWith are those of the tournament
// package's players_test.go.

// fixTable fixes player id of a tournament to table with the edit form,
// the rest of the player as read sees them now; write saves the edit
// (another judge's console, in a race).
func fixTable(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, table int) (tournament.Player, error) {
	return editWith(ctx, read, write, judge, tid, id, func(e *tournament.PlayerEdit) { e.FixedTable = table })
}

// keepApart sets the players id is kept apart from with the edit form, as fixTable.
func keepApart(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, others []int64) (tournament.Player, error) {
	return editWith(ctx, read, write, judge, tid, id, func(e *tournament.PlayerEdit) { e.KeepApart = others })
}

// rename changes a player's name and kana with the edit form, as fixTable.
func rename(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, in tournament.PlayerInput) (tournament.Player, error) {
	return editWith(ctx, read, write, judge, tid, id, func(e *tournament.PlayerEdit) { e.PlayerInput = in })
}

func editWith(ctx context.Context, read, write *tournament.Service, judge string, tid, id int64, change func(*tournament.PlayerEdit)) (tournament.Player, error) {
	p, err := read.GetPlayer(ctx, tid, id)
	if err != nil {
		return tournament.Player{}, err
	}
	e := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana}, FixedTable: p.FixedTable, KeepApart: p.KeepApart}
	change(&e)
	return write.EditPlayer(ctx, judge, tid, id, e)
}
