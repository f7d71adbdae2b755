package tournament_test

import (
	"errors"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// reportTable is a paired table with its players' codes, for reports.
type reportTable struct {
	players []int64
	codes   map[int64]string
}

// reportSetUp pairs round 1 of n players under the self-report mode and
// issues every player a code.
func reportSetUp(c *console, n int, mode string) (tournament.Tournament, []reportTable) {
	c.t.Helper()
	tour, _ := c.setUp(n, 3)
	tour = must(c.svc.EditTournament(c.ctx, "judge-a", tour.ID, tournament.TournamentInput{
		Name: tour.Name, Date: tour.Date, Venue: tour.Venue, Rounds: tour.Rounds, SelfReport: mode,
	})).ok(c.t)
	must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(c.t)
	var out []reportTable
	for _, t := range must(c.svc.RoundView(c.ctx, tour.ID, 1)).ok(c.t).Round.Tables {
		rt := reportTable{players: t.Players, codes: map[int64]string{}}
		for _, p := range t.Players {
			rt.codes[p] = must(c.svc.IssueCode(c.ctx, "judge-a", tour.ID, p)).ok(c.t).Code
		}
		out = append(out, rt)
	}
	return tour, out
}

// input is a report of the table: vp in its pairing order, the first
// player declared.
func (rt reportTable) input(vp ...int) tournament.ReportInput {
	in := tournament.ReportInput{Declared: rt.players[0]}
	for i, p := range rt.players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: vp[i]})
	}
	return in
}

// A table's players report its result, each confirms with their own code,
// and a judge accepts it: the first revision, marked as the players'
// report. The checks are the judge's sheet's; a report never goes over a
// judge's sheet.
func TestTableReports(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 12, tournament.SelfReportApprove)
	t1, t2, t3 := tables[0], tables[1], tables[2]
	a, b, cc, d := t1.players[0], t1.players[1], t1.players[2], t1.players[3]

	violationOf(t, "a player of another table", must(c.svc.ReportResult(c.ctx, tour.ID, 1, 1, t2.players[0], t2.codes[t2.players[0]], t1.input(10, 7, 5, 3))).err, "report-not-at-table")
	violationOf(t, "a wrong code", must(c.svc.ReportResult(c.ctx, tour.ID, 1, 1, a, t1.codes[b], t1.input(10, 7, 5, 3))).err, "player-code-wrong")
	// The judge's sheet's own checks answer: the scores must be the table's.
	bad := t1.input(10, 7, 5, 3)
	bad.Scores[3].PlayerID = t2.players[0]
	violationOf(t, "scores of another table", must(c.svc.ReportResult(c.ctx, tour.ID, 1, 1, a, t1.codes[a], bad)).err, "scores-not-the-table")
	bad = t1.input(10, 7, 5, 3)
	bad.Scores[0].VP = 99
	_, judgeErr := c.svc.PreviewResult(c.ctx, tour.ID, 1, 1, tournament.ResultInput{Scores: bad.Scores, Declared: bad.Declared})
	if _, err := c.svc.ReportResult(c.ctx, tour.ID, 1, 1, a, t1.codes[a], bad); err == nil || judgeErr == nil || err.Error() != judgeErr.Error() {
		t.Fatalf("an impossible VP: report refused with %v, the judge's sheet with %v; want the same refusal", err, judgeErr)
	}

	r := must(c.svc.ReportResult(c.ctx, tour.ID, 1, 1, a, t1.codes[a], t1.input(10, 7, 5, 3))).ok(t)
	if r.Status != tournament.ReportAwaiting || len(r.Confirmed) != 1 {
		t.Fatalf("new report %+v, want awaiting with the reporter's confirmation", r)
	}
	if _, err := c.svc.ReportResult(c.ctx, tour.ID, 1, 1, b, t1.codes[b], t1.input(10, 7, 5, 3)); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("a second report of the table = %v, want the conflict report-open", err)
	}
	violationOf(t, "the reporter again", must(c.svc.ConfirmReport(c.ctx, tour.ID, r.ID, a, t1.codes[a])).err, "report-already-confirmed")
	violationOf(t, "confirm with another's code", must(c.svc.ConfirmReport(c.ctx, tour.ID, r.ID, b, t1.codes[cc])).err, "player-code-wrong")
	if _, err := c.svc.AcceptReport(c.ctx, "judge-a", tour.ID, r.ID); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("accepting a report not confirmed = %v, want a conflict", err)
	}
	must(c.svc.ConfirmReport(c.ctx, tour.ID, r.ID, b, t1.codes[b])).ok(t)
	must(c.svc.ConfirmReport(c.ctx, tour.ID, r.ID, cc, t1.codes[cc])).ok(t)
	r = must(c.svc.ConfirmReport(c.ctx, tour.ID, r.ID, d, t1.codes[d])).ok(t)
	if r.Status != tournament.ReportConfirmed {
		t.Fatalf("after every confirmation %+v, want confirmed (the judges' queue: approve mode)", r)
	}
	if rv := must(c.svc.RoundView(c.ctx, tour.ID, 1)).ok(t); rv.Round.Tables[0].Result != nil {
		t.Fatalf("a confirmed report was saved before a judge accepted it")
	}
	r = must(c.svc.AcceptReport(c.ctx, "judge-b", tour.ID, r.ID)).ok(t)
	revs := must(c.svc.Revisions(c.ctx, tour.ID, 1, 1)).ok(t)
	if r.Status != tournament.ReportAccepted || len(revs) != 1 || revs[0].ReportID != r.ID || revs[0].Judge != "judge-b" || revs[0].Declared != a {
		t.Fatalf("accepted %+v, revisions %+v; want revision 1 by judge-b from the report", r, revs)
	}
	if _, err := c.svc.AcceptReport(c.ctx, "judge-b", tour.ID, r.ID); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("accepting twice = %v, want a conflict", err)
	}

	// Table 2: the judge's sheet came first; no report is taken.
	c.save(tour, 1, 2, 0, []int{10, 7, 5, 3}, 0, "")
	if _, err := c.svc.ReportResult(c.ctx, tour.ID, 1, 2, t2.players[0], t2.codes[t2.players[0]], t2.input(10, 2, 2, 2)); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("a report over a judge's sheet = %v, want the conflict report-table-has-result", err)
	}

	// Table 3: a dispute calls a judge; the judge saves a sheet meanwhile
	// and the report stays as it was, beside it.
	r3 := must(c.svc.ReportResult(c.ctx, tour.ID, 1, 3, t3.players[0], t3.codes[t3.players[0]], t3.input(10, 7, 5, 3))).ok(t)
	r3 = must(c.svc.DisputeReport(c.ctx, tour.ID, r3.ID, t3.players[1], t3.codes[t3.players[1]])).ok(t)
	if r3.Status != tournament.ReportDisputed || r3.DisputedBy != t3.players[1] {
		t.Fatalf("disputed %+v", r3)
	}
	if _, err := c.svc.ConfirmReport(c.ctx, tour.ID, r3.ID, t3.players[2], t3.codes[t3.players[2]]); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("confirming a disputed report = %v, want a conflict", err)
	}
	judge := c.save(tour, 1, 3, 0, []int{8, 10, 5, 3}, 1, "")
	revs = must(c.svc.Revisions(c.ctx, tour.ID, 1, 3)).ok(t)
	if len(revs) != 1 || revs[0].ReportID != 0 || revs[0].Version != judge.Result.Version {
		t.Fatalf("table 3 revisions %+v, want the judge's sheet alone", revs)
	}
}

// A confirmed report is saved at once when the tournament allows it
// (auto), as the players'; when a judge saved the table between the last
// confirmation's read and its save, the judge's sheet stands.
func TestTableReportsAuto(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 8, tournament.SelfReportAuto)
	t1 := tables[0]
	r := must(c.svc.ReportResult(c.ctx, tour.ID, 1, 1, t1.players[0], t1.codes[t1.players[0]], t1.input(10, 7, 5, 3))).ok(t)
	for _, p := range t1.players[1:] {
		r = must(c.svc.ConfirmReport(c.ctx, tour.ID, r.ID, p, t1.codes[p])).ok(t)
	}
	revs := must(c.svc.Revisions(c.ctx, tour.ID, 1, 1)).ok(t)
	if r.Status != tournament.ReportAccepted || len(revs) != 1 || revs[0].ReportID != r.ID || revs[0].Judge != tournament.PlayerActor {
		t.Fatalf("auto: report %+v, revisions %+v; want saved as the players'", r, revs)
	}
	// Off: no report is taken.
	off, offTables := reportSetUp(c, 4, tournament.SelfReportOff)
	p := offTables[0].players[0]
	violationOf(t, "a report when off", must(c.svc.ReportResult(c.ctx, off.ID, 1, 1, p, offTables[0].codes[p], offTables[0].input(10, 7, 5, 3))).err, "self-report-off")
}
