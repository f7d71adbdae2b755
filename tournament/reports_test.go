package tournament_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
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
	c.T.Helper()
	tour, _ := c.SetUp(n, 3)
	tour = must(c.Svc.EditTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentInput{
		Name: tour.Name, Date: tour.Date, Venue: tour.Venue, Rounds: tour.Rounds, SelfReport: mode,
	})).OK(c.T)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(c.T)
	var out []reportTable
	for _, t := range must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(c.T).Round.Tables {
		rt := reportTable{players: t.Players, codes: map[int64]string{}}
		for _, p := range t.Players {
			rt.codes[p] = must(c.Svc.IssueCode(c.Ctx, "judge-a", tour.ID, p)).OK(c.T).Code
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

	violationOf(t, "a player of another table", must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, t2.players[0], t2.codes[t2.players[0]], t1.input(10, 7, 5, 3))).Err, "report-not-at-table")
	violationOf(t, "a wrong code", must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, a, t1.codes[b], t1.input(10, 7, 5, 3))).Err, "player-code-wrong")
	// The judge's sheet's own checks answer: the scores must be the table's.
	bad := t1.input(10, 7, 5, 3)
	bad.Scores[3].PlayerID = t2.players[0]
	violationOf(t, "scores of another table", must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, a, t1.codes[a], bad)).Err, "scores-not-the-table")
	bad = t1.input(10, 7, 5, 3)
	bad.Scores[0].VP = 99
	_, judgeErr := c.Svc.PreviewResult(c.Ctx, tour.ID, 1, 1, tournament.ResultInput{Scores: bad.Scores, Declared: bad.Declared})
	if _, err := c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, a, t1.codes[a], bad); err == nil || judgeErr == nil || err.Error() != judgeErr.Error() {
		t.Fatalf("an impossible VP: report refused with %v, the judge's sheet with %v; want the same refusal", err, judgeErr)
	}

	r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, a, t1.codes[a], t1.input(10, 7, 5, 3))).OK(t)
	if r.Status != tournament.ReportAwaiting || len(r.Confirmed) != 1 {
		t.Fatalf("new report %+v, want awaiting with the reporter's confirmation", r)
	}
	if _, err := c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, b, t1.codes[b], t1.input(10, 7, 5, 3)); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("a second report of the table = %v, want the conflict report-open", err)
	}
	violationOf(t, "the reporter again", must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, a, t1.codes[a])).Err, "report-already-confirmed")
	violationOf(t, "confirm with another's code", must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, b, t1.codes[cc])).Err, "player-code-wrong")
	if _, err := c.Svc.AcceptReport(c.Ctx, "judge-a", tour.ID, r.ID); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("accepting a report not confirmed = %v, want a conflict", err)
	}
	must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, b, t1.codes[b])).OK(t)
	must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, cc, t1.codes[cc])).OK(t)
	r = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, d, t1.codes[d])).OK(t)
	if r.Status != tournament.ReportConfirmed {
		t.Fatalf("after every confirmation %+v, want confirmed (the judges' queue: approve mode)", r)
	}
	if rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); rv.Round.Tables[0].Result != nil {
		t.Fatalf("a confirmed report was saved before a judge accepted it")
	}
	r = must(c.Svc.AcceptReport(c.Ctx, "judge-b", tour.ID, r.ID)).OK(t)
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if r.Status != tournament.ReportAccepted || len(revs) != 1 || revs[0].ReportID != r.ID || revs[0].Judge != "judge-b" || revs[0].Declared != a {
		t.Fatalf("accepted %+v, revisions %+v; want revision 1 by judge-b from the report", r, revs)
	}
	if stored := must(c.Svc.GetReport(c.Ctx, tour.ID, r.ID)).OK(t); stored.Side != tournament.SideReported || stored.Outcome() != "accepted-reported" {
		t.Errorf("the accepted report %+v has side %q (%s), want the reported side", stored, stored.Side, stored.Outcome())
	}
	if _, err := c.Svc.AcceptReport(c.Ctx, "judge-b", tour.ID, r.ID); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("accepting twice = %v, want a conflict", err)
	}

	// Table 2: the judge's sheet came first; no report is taken.
	c.Save(tour, 1, 2, 0, []int{10, 7, 5, 3}, 0, "")
	if _, err := c.Svc.ReportResult(c.Ctx, tour.ID, 1, 2, t2.players[0], t2.codes[t2.players[0]], t2.input(10, 2, 2, 2)); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("a report over a judge's sheet = %v, want the conflict report-table-has-result", err)
	}

	// Table 3: a dispute calls a judge; the judge saves a sheet meanwhile
	// and the report stays as it was, beside it.
	r3 := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 3, t3.players[0], t3.codes[t3.players[0]], t3.input(10, 7, 5, 3))).OK(t)
	r3 = must(c.Svc.DisputeReport(c.Ctx, tour.ID, r3.ID, t3.players[1], t3.codes[t3.players[1]], tournament.DisputeInput{})).OK(t)
	if r3.Status != tournament.ReportDisputed || r3.DisputedBy != t3.players[1] {
		t.Fatalf("disputed %+v", r3)
	}
	if _, err := c.Svc.ConfirmReport(c.Ctx, tour.ID, r3.ID, t3.players[2], t3.codes[t3.players[2]]); !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("confirming a disputed report = %v, want a conflict", err)
	}
	judge := c.Save(tour, 1, 3, 0, []int{8, 10, 5, 3}, 1, "")
	revs = must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 3)).OK(t)
	if len(revs) != 1 || revs[0].ReportID != 0 || revs[0].Version != judge.Result.Version {
		t.Fatalf("table 3 revisions %+v, want the judge's sheet alone", revs)
	}
}

// A confirmed report is saved at once when the tournament allows it
// (auto), as the players'; when a judge saved the table before the last
// confirmation, the judge's sheet stands and the confirmation is taken:
// the report stays confirmed, superseded, with no error for the player.
func TestTableReportsAuto(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 8, tournament.SelfReportAuto)
	t1, t2 := tables[0], tables[1]
	r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, t1.players[0], t1.codes[t1.players[0]], t1.input(10, 7, 5, 3))).OK(t)
	for _, p := range t1.players[1:] {
		r = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, p, t1.codes[p])).OK(t)
	}
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if r.Status != tournament.ReportAccepted || len(revs) != 1 || revs[0].ReportID != r.ID || revs[0].Judge != tournament.PlayerActor {
		t.Fatalf("auto: report %+v, revisions %+v; want saved as the players'", r, revs)
	}

	r2 := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 2, t2.players[0], t2.codes[t2.players[0]], t2.input(10, 7, 5, 3))).OK(t)
	for _, p := range t2.players[1:3] {
		r2 = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r2.ID, p, t2.codes[p])).OK(t)
	}
	judge := c.Save(tour, 1, 2, 0, []int{10, 6, 5, 3}, 0, "")
	last := t2.players[3]
	r2, err := c.Svc.ConfirmReport(c.Ctx, tour.ID, r2.ID, last, t2.codes[last])
	if err != nil || r2.Status != tournament.ReportConfirmed || !r2.Superseded(&judge.Result) {
		t.Fatalf("the last confirmation after a judge's sheet = %+v, %v; want it taken, the report confirmed and superseded", r2, err)
	}
	revs = must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 2)).OK(t)
	if len(revs) != 1 || revs[0].ReportID != 0 || revs[0].Version != judge.Result.Version {
		t.Fatalf("table 2 revisions %+v, want the judge's sheet alone", revs)
	}
	// Off: no report is taken.
	off, offTables := reportSetUp(c, 4, tournament.SelfReportOff)
	p := offTables[0].players[0]
	violationOf(t, "a report when off", must(c.Svc.ReportResult(c.Ctx, off.ID, 1, 1, p, offTables[0].codes[p], offTables[0].input(10, 7, 5, 3))).Err, "self-report-off")
}

// A player who disputes a report may give their own version of the sheet,
// checked as a report is (and refused when it is the report's own), with
// a note; the report then carries both. A judge's sheet saved as either
// version is the players' report, accepted; a sheet the judge changed is
// the judge's own, and the report stays beside it.
func TestDisputeWithVersion(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 8, tournament.SelfReportApprove)
	for i, rt := range tables {
		a, b := rt.players[0], rt.players[1]
		r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, i+1, a, rt.codes[a], rt.input(10, 7, 5, 3))).OK(t)
		dispute := func(in tournament.DisputeInput) (tournament.Report, error) {
			return c.Svc.DisputeReport(c.Ctx, tour.ID, r.ID, b, rt.codes[b], in)
		}
		violationOf(t, "the report's own sheet", must(dispute(tournament.DisputeInput{ReportInput: rt.input(10, 7, 5, 3)})).Err, "report-dispute-same")
		bad := rt.input(10, 7, 6, 3)
		bad.Declared = b
		if _, err := dispute(tournament.DisputeInput{ReportInput: bad}); code(err) != "winner-under-win-vp" {
			t.Fatalf("a version whose winner has 7: %v, want winner-under-win-vp, as the judge's sheet", err)
		}
		violationOf(t, "another's code", must(c.Svc.DisputeReport(c.Ctx, tour.ID, r.ID, b, rt.codes[a], tournament.DisputeInput{})).Err, "player-code-wrong")
		mine := rt.input(10, 7, 6, 3)
		mine.Scores[0] = tournament.Score{PlayerID: a, NoVP: true, Breakdown: &referee.Breakdown{Settlements: 2, Cities: 2, LongestRoad: true, PointCards: 2}}
		r = must(dispute(tournament.DisputeInput{ReportInput: mine, Note: "  上田は6点  "})).OK(t)
		d := r.Dispute
		if r.Status != tournament.ReportDisputed || r.DisputedBy != b || !d.HasVersion() || d.Note != "上田は6点" || d.Scores[0].VP != 10 || d.Scores[2].VP != 6 {
			t.Fatalf("disputed %+v, dispute %+v; want b's version (a's VP counted from the breakdown) and the note", r, d)
		}
		if stored := must(c.Svc.GetReport(c.Ctx, tour.ID, r.ID)).OK(t); !reflect.DeepEqual(stored, r) {
			t.Fatalf("stored report %+v, want %+v", stored, r)
		}
		differs, declared := r.Differs()
		if declared || !differs[rt.players[2]] || differs[a] != (d.Scores[0].Breakdown != nil) || differs[rt.players[3]] {
			t.Errorf("Differs() = %v, %v; want the third player's VP and the winner's breakdown", differs, declared)
		}
		sheet, ok := r.Sheet(tournament.SideDisputed, 0)
		if !ok || sheet.VP[rt.players[2]] != 6 || sheet.Breakdown[a].Cities != 2 || sheet.Declared != a {
			t.Fatalf("Sheet(disputed) = %+v, %v", sheet, ok)
		}
		in := tournament.ResultInput{Declared: sheet.Declared, ReportID: r.ID}
		for _, p := range rt.players {
			sc := tournament.Score{PlayerID: p, VP: sheet.VP[p]}
			if b, ok := sheet.Breakdown[p]; ok {
				sc.Breakdown = &b
			}
			in.Scores = append(in.Scores, sc)
		}
		if i == 1 {
			in.Scores[3].VP = 4 // the judge counted again
		}
		must(c.Svc.SaveResult(c.Ctx, "judge-b", tour.ID, 1, i+1, in)).OK(t)
		revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, i+1)).OK(t)
		after := must(c.Svc.GetReport(c.Ctx, tour.ID, r.ID)).OK(t)
		switch {
		case i == 0 && (revs[0].ReportID != r.ID || after.Status != tournament.ReportAccepted || after.Version != 1 || after.Side != tournament.SideDisputed):
			t.Errorf("table 1 saved as the disputed version: revision %+v, report %+v; want the report accepted as revision 1 from its disputed side", revs[0], after)
		case i == 1 && (revs[0].ReportID != 0 || after.Status != tournament.ReportDisputed):
			t.Errorf("table 2 saved changed: revision %+v, report %+v; want the judge's own sheet, the report still disputed", revs[0], after)
		}
	}
}

// The API's old dispute (no version) and a note alone.
func TestDisputeWithoutVersion(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 8, tournament.SelfReportApprove)
	for i, note := range []string{"", "ダイスが机から落ちた"} {
		rt := tables[i]
		a, b := rt.players[0], rt.players[1]
		r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, i+1, a, rt.codes[a], rt.input(10, 7, 5, 3))).OK(t)
		r = must(c.Svc.DisputeReport(c.Ctx, tour.ID, r.ID, b, rt.codes[b], tournament.DisputeInput{Note: note})).OK(t)
		if r.Status != tournament.ReportDisputed || r.Dispute.HasVersion() || (note == "") != (r.Dispute == nil) {
			t.Errorf("disputed with note %q: %+v", note, r.Dispute)
		}
		if _, ok := r.Sheet(tournament.SideDisputed, 0); ok {
			t.Errorf("a dispute without a version has a disputed sheet")
		}
	}
}

// §12 counts from when the players handed their report in: a declaration
// reported before the time signal and accepted after it needs no late
// reason. A game reported as ended by time before the signal needs the
// players' reason, and, as docs/rules.md §12 makes that the judge's word,
// waits for a judge even when the tournament saves confirmed reports at
// once.
func TestReportsAndTheTimeSignal(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(8, 3)
	tour = must(c.Svc.PatchTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentPatch{SelfReport: ptr(tournament.SelfReportAuto)})).OK(t)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	var tables []reportTable
	for _, tb := range must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round.Tables {
		rt := reportTable{players: tb.Players, codes: map[int64]string{}}
		for _, p := range tb.Players {
			rt.codes[p] = must(c.Svc.IssueCode(c.Ctx, "judge-a", tour.ID, p)).OK(t).Code
		}
		tables = append(tables, rt)
	}
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = c.At.Add(3 * time.Minute) // of the ruleset's 7

	// Table 1 ended by time early: the reason is asked for, then it waits.
	t1 := tables[0]
	early := t1.input(8, 7, 5, 3)
	early.Declared = 0
	violationOf(t, "ended by time early", must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, t1.players[0], t1.codes[t1.players[0]], early)).Err, "ended-by-time-early")
	early.Reason = "ジャッジが終了を告げた"
	r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, t1.players[0], t1.codes[t1.players[0]], early)).OK(t)
	for _, p := range t1.players[1:] {
		r = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, p, t1.codes[p])).OK(t)
	}
	if r.Status != tournament.ReportConfirmed {
		t.Fatalf("auto, ended early with the players' reason: %s, want confirmed (waiting for a judge)", r.Status)
	}

	// Table 2 declared in time; every confirmation comes after the signal.
	t2 := tables[1]
	r2 := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 2, t2.players[0], t2.codes[t2.players[0]], t2.input(10, 7, 5, 3))).OK(t)
	c.At = c.At.Add(3 * time.Hour)
	for _, p := range t2.players[1:] {
		r2 = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r2.ID, p, t2.codes[p])).OK(t)
	}
	if r2.Status != tournament.ReportAccepted {
		t.Errorf("auto, declared before the signal, confirmed after: %s, want accepted", r2.Status)
	}
	r = must(c.Svc.AcceptReport(c.Ctx, "judge-b", tour.ID, r.ID)).OK(t)
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if r.Status != tournament.ReportAccepted || !revs[0].EndedEarly || revs[0].Reason != early.Reason || revs[0].Judge != "judge-b" {
		t.Errorf("table 1 accepted: %+v; want ended early for the players' reason, by judge-b", revs[0])
	}
}

// A report's breakdowns are kept as the players gave them, and the
// revision a judge accepts carries them.
func TestReportBreakdownAccepted(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 4, tournament.SelfReportApprove)
	rt := tables[0]
	in := rt.input(10, 7, 5, 3)
	bd := &referee.Breakdown{Settlements: 2, Cities: 2, LongestRoad: true, PointCards: 2}
	in.Scores[0] = tournament.Score{PlayerID: rt.players[0], NoVP: true, Breakdown: bd}
	r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, rt.players[0], rt.codes[rt.players[0]], in)).OK(t)
	if got := r.Scores[0]; got.VP != 10 || got.Breakdown == nil || *got.Breakdown != *bd {
		t.Fatalf("the report's first score %+v, want 10 counted from %+v", got, bd)
	}
	for _, p := range rt.players[1:] {
		r = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, p, rt.codes[p])).OK(t)
	}
	must(c.Svc.AcceptReport(c.Ctx, "judge-a", tour.ID, r.ID)).OK(t)
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if got := revs[0].Scores[0]; got.VP != 10 || got.Breakdown == nil || *got.Breakdown != *bd {
		t.Errorf("the accepted revision's first score %+v, want the breakdown %+v", got, bd)
	}
}

// A judge who swaps or moves players discards the open reports of the
// tables whose players change: they name players no longer there. The
// table takes a new report, which its new players complete.
func TestAmendDiscardsOpenReports(t *testing.T) {
	c := newConsole(t)
	tour, tables := reportSetUp(c, 12, tournament.SelfReportApprove)
	t1, t2, t3 := tables[0], tables[1], tables[2]
	a, b := t1.players[0], t1.players[1]
	r1 := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, a, t1.codes[a], t1.input(10, 7, 5, 3))).OK(t)
	must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r1.ID, b, t1.codes[b])).OK(t)
	r3 := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 3, t3.players[0], t3.codes[t3.players[0]], t3.input(10, 7, 5, 3))).OK(t)
	x := t2.players[0]
	must(c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, b, x, "seated by mistake")).OK(t)
	if _, err := c.Svc.GetReport(c.Ctx, tour.ID, r1.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("table 1's open report after the swap: %v, want ErrNotFound", err)
	}
	if got := must(c.Svc.GetReport(c.Ctx, tour.ID, r3.ID)).OK(t); got.Status != tournament.ReportAwaiting {
		t.Errorf("table 3's report, its players unchanged, = %+v, want kept awaiting", got)
	}
	entries := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	i := slices.IndexFunc(entries, func(e tournament.AuditEntry) bool { return e.Action == "round.amend" })
	if i < 0 || !strings.Contains(entries[i].After, `"DiscardedReports":1`) {
		t.Errorf("the swap's audit entry (at %d), want round.amend with DiscardedReports 1", i)
	}

	now := reportTable{players: slices.Clone(t1.players), codes: t1.codes}
	now.players[1] = x
	now.codes[x] = t2.codes[x]
	r := must(c.Svc.ReportResult(c.Ctx, tour.ID, 1, 1, a, now.codes[a], now.input(10, 7, 5, 3))).OK(t)
	for _, p := range now.players[1:] {
		r = must(c.Svc.ConfirmReport(c.Ctx, tour.ID, r.ID, p, now.codes[p])).OK(t)
	}
	if r.Status != tournament.ReportConfirmed {
		t.Fatalf("the new report confirmed by the table's players = %+v, want confirmed", r)
	}
	must(c.Svc.AcceptReport(c.Ctx, "judge-a", tour.ID, r.ID)).OK(t)
}
