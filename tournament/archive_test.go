package tournament_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// listed reports whether tournament id is in the list of the archived
// tournaments (archived) or of the others.
func (c *console) listed(id int64, archived bool) bool {
	c.T.Helper()
	ts := must(c.Svc.ListedTournaments(c.Ctx, archived)).OK(c.T)
	return slices.ContainsFunc(ts, func(t tournament.Tournament) bool { return t.ID == id })
}

// actions lists the audit actions of tournament id, oldest first.
func (c *console) actions(id int64) []string {
	c.T.Helper()
	var out []string
	for _, e := range must(c.St.AuditLog(c.Ctx, id)).OK(c.T) {
		out = append([]string{e.Action}, out...)
	}
	return out
}

func TestArchiveTournamentKeepsItOffTheList(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(8, 1)
	other, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.Save(tour, 1, 1, 0, []int{10, 7, 5, 3}, 0, "")
	c.Save(tour, 1, 2, 0, []int{10, 7, 5, 3}, 0, "")
	// A finished tournament is what a judge archives: it takes it.
	must(c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)).OK(t)

	got := must(c.Svc.ArchiveTournament(c.Ctx, "judge-b", tour.ID)).OK(t)
	if got.Archived == nil || got.Archived.Judge != "judge-b" {
		t.Fatalf("archived = %+v, want judge-b's archival", got.Archived)
	}
	if c.listed(tour.ID, false) || !c.listed(tour.ID, true) {
		t.Error("an archived tournament is on the list, or not on the archived list")
	}
	if !c.listed(other.ID, false) || c.listed(other.ID, true) {
		t.Error("the other tournament left the list")
	}
	read := must(c.Svc.GetTournament(c.Ctx, tour.ID)).OK(t)
	if read.Archived == nil || read.Archived.Judge != "judge-b" || read.Closed == nil || read.Paired != 1 {
		t.Errorf("read back %+v: want archived by judge-b, still closed, its round kept", read)
	}
	// Archiving twice changes nothing and logs nothing.
	must(c.Svc.ArchiveTournament(c.Ctx, "judge-a", tour.ID)).OK(t)

	must(c.Svc.UnarchiveTournament(c.Ctx, "judge-a", tour.ID)).OK(t)
	if !c.listed(tour.ID, false) || c.listed(tour.ID, true) {
		t.Error("a tournament out of the archive is not back on the list")
	}
	if got := must(c.Svc.GetTournament(c.Ctx, tour.ID)).OK(t).Archived; got != nil {
		t.Errorf("archived = %+v after unarchiving, want nil", got)
	}
	acts := c.actions(tour.ID)
	want := []string{"tournament.close", tournament.ActionArchive, tournament.ActionUnarchive}
	if !slices.Equal(acts[len(acts)-3:], want) {
		t.Errorf("audit actions end %q, want %q", acts, want)
	}
}

func TestDeleteTournament(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(4, 3)
	// What an unstarted tournament can hold: a keep-apart request and a
	// penalty given outside a round.
	must(c.Svc.EditPlayer(c.Ctx, "judge-a", tour.ID, ps[0].ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: ps[0].Name, Kana: ps[0].Kana}, KeepApart: []int64{ps[1].ID}})).OK(t)
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: ps[2].ID, Offence: "note-taking", Level: referee.Warning})).OK(t)
	started, _ := c.SetUp(4, 3)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", started.ID)).OK(t)

	if err := c.Svc.DeleteTournament(c.Ctx, "judge-b", tour.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Svc.GetTournament(c.Ctx, tour.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Fatalf("read after delete: %v, want not found", err)
	}
	if ps, err := c.St.Players(c.Ctx, tour.ID); err != nil || len(ps) != 0 {
		t.Errorf("players after delete: %d, %v", len(ps), err)
	}
	// The log outside any tournament says who deleted which.
	var entry *tournament.AuditEntry
	for _, e := range must(c.St.AuditLog(c.Ctx, 0)).OK(t) {
		if e.Action == tournament.ActionDelete {
			entry = &e
			break
		}
	}
	if entry == nil {
		t.Fatal("no audit entry of the delete")
	}
	for _, want := range []string{`"Name":"11月定例会"`, `"Venue":"カードショップ"`, `"Players":4`} {
		if entry.Judge != "judge-b" || !strings.Contains(entry.Before, want) {
			t.Errorf("delete entry %+v: want judge-b and %s", *entry, want)
		}
	}

	// A tournament with a round paired is refused, by the service and by
	// the store under its lock, and stays whole.
	for name, del := range map[string]func() error{
		"service": func() error { return c.Svc.DeleteTournament(c.Ctx, "judge-a", started.ID) },
		"store": func() error {
			return c.St.DeleteTournament(c.Ctx, started.ID, tournament.Change{Judge: "judge-a", Action: tournament.ActionDelete})
		},
	} {
		err := del()
		var v *referee.Violation
		if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != "tournament-started" {
			t.Errorf("%s: delete of a started tournament: %v, want the conflict tournament-started", name, err)
		}
	}
	if got := must(c.Svc.GetTournament(c.Ctx, started.ID)).OK(t); got.Paired != 1 {
		t.Errorf("the started tournament after the refusals: %+v", got)
	}
	if err := c.Svc.DeleteTournament(c.Ctx, "judge-a", tour.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("delete twice: %v, want not found", err)
	}
}

// Issue 12: the lists put the latest event first by its date, whenever
// it was entered; one not dated yet, still being planned, comes first.
func TestListedTournamentsByDate(t *testing.T) {
	c := newConsole(t)
	var ids []int64
	for _, date := range []string{"2026-10-24", "2026-11-28", "", "2025-12-01"} {
		ids = append(ids, must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "例会 " + date, Date: date, Rounds: 1})).OK(t).ID)
	}
	var got []int64
	for _, tr := range must(c.Svc.ListedTournaments(c.Ctx, false)).OK(t) {
		got = append(got, tr.ID)
	}
	if want := []int64{ids[2], ids[1], ids[0], ids[3]}; !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v (undated, then 2026-11-28, 2026-10-24, 2025-12-01)", got, want)
	}
}
