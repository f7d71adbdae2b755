package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// On PostgreSQL a change at one table holds the table and shares the
// tournament: while another server's transaction holds table 1 as a save
// there does (until its commit, the flush of the write-ahead log
// included), a save at table 2 of the same tournament commits, and a
// change of the whole tournament (its closing) waits for the first to end.
func TestChangesAtTablesOverlapAcrossServers(t *testing.T) {
	if !tournamenttest.OnPostgres() {
		t.Skip("the locks of several servers are PostgreSQL's")
	}
	ctx := context.Background()
	dsn := tournamenttest.NewDSN(t)
	f := newFixtureOn(t, tournamenttest.OpenDSN(t, dsn), 16, 4, 4, 4, 4)
	// The first server's save at table 1, under way: its transaction
	// holds what a change at a table takes (store.Tx.lockTable).
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	held, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback(ctx)
	if _, err := held.Exec(ctx, "SELECT rounds.tournament_id FROM round_tables JOIN rounds ON rounds.id = round_tables.round_id "+
		"JOIN tournaments ON tournaments.id = rounds.tournament_id WHERE round_tables.id = $1 "+
		"FOR NO KEY UPDATE OF round_tables FOR SHARE OF tournaments", f.round.Tables[0].ID); err != nil {
		t.Fatal(err)
	}

	other := tournamenttest.OpenDSN(t, dsn)
	began := time.Now()
	saved := make(chan error, 1)
	go func() {
		r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "judge-b", At: t0, Reason: "ended by the judge"}
		for i, p := range f.round.Tables[1].Players {
			r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: 9 - i})
		}
		saved <- other.SaveResult(ctx, f.round.Tables[1].ID, 0, &r, change("result.save"))
	}()
	select {
	case err := <-saved:
		if err != nil {
			t.Fatalf("the save at table 2: %v", err)
		}
		t.Logf("the save at table 2 took %v", time.Since(began))
	case <-time.After(10 * time.Second):
		t.Fatal("the save at table 2 waited for the transaction at table 1: the tournament is locked whole")
	}

	closed := make(chan error, 1)
	go func() {
		closed <- other.SetClosed(ctx, f.t.ID, &tournament.Closure{Judge: "judge-b", At: t0}, change(tournament.ActionClose))
	}()
	select {
	case err := <-closed:
		t.Fatalf("the closing did not wait for the change at table 1 (error %v)", err)
	case <-time.After(500 * time.Millisecond):
	}
	if err := held.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-closed:
		// Refused or not (tables have no result), it ran once the table's
		// change ended.
		t.Logf("the closing ran %v after (%v)", time.Since(began), err)
	case <-time.After(10 * time.Second):
		t.Fatal("the closing did not run once the change at table 1 ended")
	}
}
