package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// A change at a table reads its tournament with the table, in one query
// of its own (Store.Table): that tournament is the one Store.Tournament
// reads, every setting of it, so that a setting added to the tournament
// (the two-person rule, the shop) is not lost to the changes at tables.
func TestTableFactsCarryTheWholeTournament(t *testing.T) {
	ctx := context.Background()
	st := tournamenttest.NewStore(t)
	svc := tournament.NewService(st, tournamenttest.Rulesets(t), tournamenttest.Clock(t0, time.Second))
	ev, err := tournamenttest.RecordEvent(ctx, st, svc, 8, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	in := tournament.TournamentInput{Name: "土曜カタン大会", Date: "2026-12-05", Venue: "秋葉原", Shop: "カタン堂", Rounds: 4,
		GameMinutes: 55, SelfCheckIn: true, SelfReport: tournament.SelfReportApprove, ConfirmResults: true}
	if _, err := svc.EditTournament(ctx, "山田", ev.Tournament.ID, in); err != nil {
		t.Fatal(err)
	}
	want, err := st.Tournament(ctx, ev.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !want.ConfirmResults || want.Shop != in.Shop || !want.SelfCheckIn || want.GameMinutes != in.GameMinutes {
		t.Fatalf("the tournament as edited = %+v, want every setting of %+v", want, in)
	}
	f, err := st.Table(ctx, ev.Tournament.ID, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	// How many rounds are paired is counted from the rounds, which a
	// change at a table does not read.
	want.Paired = 0
	if !reflect.DeepEqual(f.Tournament, want) {
		t.Errorf("the table's tournament = %+v\nwant the tournament's %+v", f.Tournament, want)
	}
}
