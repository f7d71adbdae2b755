package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// What players' reports of their table do (Tournament.SelfReport).
const (
	SelfReportOff     = "off"     // none are taken: the judges enter every sheet
	SelfReportApprove = "approve" // a confirmed report waits for a judge to accept it
	SelfReportAuto    = "auto"    // a confirmed report is saved at once
)

// A report's status.
const (
	ReportAwaiting  = "awaiting-confirmation" // some players at the table have not confirmed yet
	ReportConfirmed = "confirmed"             // every player confirmed: in the judges' queue
	ReportDisputed  = "disputed"              // a player disputed it: a judge is called
	ReportAccepted  = "accepted"              // saved as a revision of the table's result
)

// OpenReportStatuses are the statuses of a report still open: a table has
// at most one.
var OpenReportStatuses = []string{ReportAwaiting, ReportConfirmed, ReportDisputed}

// Report is a table's result as its players report it from their phones:
// every player's VP and the declared winner (0: ended by time), checked as
// a judge's score sheet is. Each other player at the table confirms it or
// disputes it with their own code. A confirmed report becomes a revision
// of the table's result (Result.ReportID) when a judge accepts it, or at
// once when the tournament allows (SelfReportAuto); it is never saved over
// a judge's sheet.
type Report struct {
	ID           int64
	TournamentID int64
	TableID      int64
	Round, Table int
	ReportedBy   int64
	// Scores are the sheet as the service counts it (PreviewResult): each
	// VP counted from its breakdown where the player gave one.
	Scores   []Score
	Declared int64
	// Reason and LateReason are the reasons §12 asks of the sheet, as
	// ResultInput's, when the reporter gave them.
	Reason, LateReason string
	Confirmed          []int64 // the players who confirmed it, the reporter first
	DisputedBy         int64   // the player who disputed it, 0 for none
	// Dispute is what the player who disputed the report said: their
	// version of the sheet, or only a note; nil when they only said no.
	Dispute *Dispute
	Status  string
	Version int // the revision it became, once accepted
	// Side is the version of the report that became that revision, once
	// accepted: SideReported (the reporter's, as confirmed, or a judge's
	// sheet saved as it) or SideDisputed (the disputing player's version
	// a judge saved); "" for a report accepted before sides were kept.
	Side string
	At   time.Time
}

// Dispute is a disputing player's version of their table's result,
// checked as a report is (Scores empty when they gave none), with their
// note to the judge.
type Dispute struct {
	Scores             []Score // counted, as Report.Scores
	Declared           int64
	Reason, LateReason string
	Note               string
}

// HasVersion says the disputing player gave their own sheet.
func (d *Dispute) HasVersion() bool { return d != nil && len(d.Scores) > 0 }

// Outcome is the report's status, with the version of it that became the
// result once accepted: ReportAccepted+"-"+SideReported or SideDisputed
// (ReportAccepted alone for a report accepted before sides were kept).
func (r Report) Outcome() string {
	if r.Status == ReportAccepted && r.Side != "" {
		return r.Status + "-" + r.Side
	}
	return r.Status
}

// Superseded reports whether the judges saved the table's result, res,
// otherwise than from this report while it was open: their sheet stands
// (a report never overwrites it), and the report no longer waits for them.
func (r Report) Superseded(res *Result) bool {
	return res != nil && r.Status != ReportAccepted && res.ReportID != r.ID
}

// ReportInput is what a player enters for their table.
type ReportInput struct {
	Scores   []Score
	Declared int64
	Reason   string // why a game recorded as ended by time ended before its signal (§12)
	// LateReason says that a declaration recorded after the table's time
	// signal was made before it (§12).
	LateReason string
}

// DisputeInput is what a player who disputes their table's report sends:
// their own version of the sheet (no Scores: they only say it is wrong)
// and a note for the judge.
type DisputeInput struct {
	ReportInput
	Note string
}

// Report sides: the version a judge opens a score sheet from.
const (
	SideReported = "reported" // the reporter's, as the others confirmed or disputed it
	SideDisputed = "disputed" // the disputing player's
)

// checkSelfReport refuses a report of a tournament that takes none.
func checkSelfReport(t Tournament) error {
	if t.SelfReport == SelfReportOff || t.SelfReport == "" {
		return invalid("self-report-off", "this tournament's results are entered by the judges", nil)
	}
	return nil
}

// checkSelfReportMode refuses an unknown setting.
func checkSelfReportMode(mode string) (string, error) {
	switch mode {
	case "", SelfReportOff:
		return SelfReportOff, nil
	case SelfReportApprove, SelfReportAuto:
		return mode, nil
	}
	return "", invalid("self-report-mode", fmt.Sprintf("self_report %q is none of off, approve and auto", mode), map[string]any{"Mode": mode})
}

// atTable checks the player's code and that they play table number of
// round n; it returns the player and the table.
func (s *Service) atTable(ctx context.Context, e record, n, number int, player int64, code string) (Player, Table, error) {
	p, err := s.CheckCode(ctx, e.t.ID, player, code)
	if err != nil {
		return Player{}, Table{}, err
	}
	_, t, err := e.table(n, number)
	if err != nil {
		return Player{}, Table{}, err
	}
	if !slices.Contains(t.Players, p.ID) {
		return Player{}, Table{}, invalid("report-not-at-table", fmt.Sprintf("%s does not play table %d of round %d", describe(p), number, n),
			map[string]any{"Player": e.label(p), "Round": n, "Table": number})
	}
	return p, t, nil
}

// reportResult records a player's report of their table's result, after
// checking it exactly as a judge's first score sheet is checked
// (PreviewResult); the reporter has confirmed it by sending it.
func (s *Service) reportResult(ctx context.Context, tournamentID int64, n, number int, player int64, code string, in ReportInput) (Report, error) {
	e, _, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return Report{}, err
	}
	if err := checkSelfReport(e.t); err != nil {
		return Report{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return Report{}, err
	}
	p, t, err := s.atTable(ctx, e, n, number, player, code)
	if err != nil {
		return Report{}, err
	}
	if t.Latest() != nil {
		return Report{}, Conflict("report-table-has-result", fmt.Sprintf("table %d of round %d has a judge's result", number, n),
			map[string]any{"Round": n, "Table": number})
	}
	_, sheet, err := s.checkResult(ctx, e, n, number, "", in.sheet())
	if err != nil {
		return Report{}, err
	}
	res := sheet.Result
	r := Report{
		TournamentID: tournamentID, TableID: t.ID, Round: n, Table: number, ReportedBy: p.ID,
		Scores: res.Scores, Declared: res.Declared, Reason: res.Reason, LateReason: res.LateReason,
		Confirmed: []int64{p.ID}, Status: ReportAwaiting, At: res.At,
	}
	if err := s.store.AddReport(ctx, &r, s.change(PlayerActor, "report.add", reportSubject(r, p), nil, &r)); err != nil {
		return Report{}, err
	}
	return s.settle(ctx, r)
}

// sheet is the score sheet a report gives, to check as a judge's.
func (in ReportInput) sheet() ResultInput {
	return ResultInput{Scores: in.Scores, Declared: in.Declared, Reason: in.Reason, LateReason: in.LateReason}
}

// ConfirmReport records a player's confirmation of their table's report;
// the last confirmation puts it in the judges' queue, or saves it when the
// tournament allows (SelfReportAuto).
func (s *Service) ConfirmReport(ctx context.Context, tournamentID, reportID, player int64, code string) (Report, error) {
	return s.answerReport(ctx, tournamentID, reportID, player, code, "report.confirm", func(r *Report, p Player) error {
		r.Confirmed = append(r.Confirmed, p.ID)
		if r.confirmedByAll() {
			r.Status = ReportConfirmed
		}
		return nil
	})
}

// confirmedByAll says every player the report scores confirmed it, and
// nobody else did: a count alone would let a player moved to the table
// complete a report of the players before them.
func (r Report) confirmedByAll() bool {
	scored := make([]int64, len(r.Scores))
	for i, sc := range r.Scores {
		scored[i] = sc.PlayerID
	}
	return sameMembers(scored, r.Confirmed)
}

// DisputeReport records that a player at the table disagrees with its
// report: a judge is called, and sees the report beside the sheet they
// enter. The player may give their own version of the sheet, checked as
// a report is (PreviewResult) and refused when it is the report's
// (report-dispute-same), and a note; without a version they only say no.
func (s *Service) DisputeReport(ctx context.Context, tournamentID, reportID, player int64, code string, in DisputeInput) (Report, error) {
	return s.answerReport(ctx, tournamentID, reportID, player, code, "report.dispute", func(r *Report, p Player) error {
		note, err := fieldReason.clean(in.Note)
		if err != nil {
			return err
		}
		d := &Dispute{Note: note}
		if len(in.Scores) > 0 {
			sheet, err := s.previewResult(ctx, tournamentID, r.Round, r.Table, in.sheet())
			if err != nil {
				return err
			}
			res := sheet.Result
			if sameSheet(res.Scores, res.Declared, r.Scores, r.Declared) {
				return invalid("report-dispute-same", "the version disputed is the report's own: confirm it, or change what is wrong", nil)
			}
			d.Scores, d.Declared, d.Reason, d.LateReason = res.Scores, res.Declared, res.Reason, res.LateReason
		}
		if d.HasVersion() || d.Note != "" {
			r.Dispute = d
		}
		r.DisputedBy, r.Status = p.ID, ReportDisputed
		return nil
	})
}

// sameSheet reports whether two sheets, as counted, give every player the
// same VP and breakdown, and the same declared winner.
func sameSheet(a []Score, declaredA int64, b []Score, declaredB int64) bool {
	if declaredA != declaredB || len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !sameOf(x, b) {
			return false
		}
	}
	return true
}

func sameBreakdown(a, b *referee.Breakdown) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// Differs says what the disputing player's version changes of the report:
// the players whose VP or breakdown differ, and whether the declared
// winner does; nothing without a version.
func (r Report) Differs() (players map[int64]bool, declared bool) {
	if !r.Dispute.HasVersion() {
		return nil, false
	}
	players = map[int64]bool{}
	for _, sc := range r.Scores {
		players[sc.PlayerID] = !sameOf(sc, r.Dispute.Scores)
	}
	return players, r.Declared != r.Dispute.Declared
}

// sameOf says scores give sc's player the VP and breakdown of sc.
func sameOf(sc Score, scores []Score) bool {
	i := slices.IndexFunc(scores, func(x Score) bool { return x.PlayerID == sc.PlayerID })
	return i >= 0 && scores[i].VP == sc.VP && sameBreakdown(scores[i].Breakdown, sc.Breakdown)
}

// Sheet returns the version of the report on side (SideReported or
// SideDisputed) as a score sheet a judge opens over the table's latest
// revision (version, 0 for none), and whether the report has that side.
func (r Report) Sheet(side string, version int) (Draft, bool) {
	scores, declared, reason, late := r.Scores, r.Declared, r.Reason, r.LateReason
	if side == SideDisputed {
		if !r.Dispute.HasVersion() {
			return Draft{}, false
		}
		d := r.Dispute
		scores, declared, reason, late = d.Scores, d.Declared, d.Reason, d.LateReason
	} else if side != SideReported {
		return Draft{}, false
	}
	out := Draft{Version: version, VP: map[int64]int{}, Declared: declared, ByTime: declared == 0, Reason: reason, LateReason: late}
	for _, sc := range scores {
		out.VP[sc.PlayerID] = sc.VP
		if sc.Breakdown != nil {
			if out.Breakdown == nil {
				out.Breakdown = map[int64]referee.Breakdown{}
			}
			out.Breakdown[sc.PlayerID] = *sc.Breakdown
		}
	}
	return out, true
}

func (s *Service) answerReport(ctx context.Context, tournamentID, reportID, player int64, code, action string, answer func(*Report, Player) error) (Report, error) {
	r, err := s.storedReport(ctx, tournamentID, reportID)
	if err != nil {
		return Report{}, err
	}
	e, _, err := s.tableFacts(ctx, tournamentID, r.Round, r.Table)
	if err != nil {
		return Report{}, err
	}
	p, _, err := s.atTable(ctx, e, r.Round, r.Table, player, code)
	if err != nil {
		return Report{}, err
	}
	switch {
	case r.Status != ReportAwaiting:
		return Report{}, Conflict("report-not-awaiting", fmt.Sprintf("report %d is %s", r.ID, r.Status), map[string]any{"Status": r.Status})
	case slices.Contains(r.Confirmed, p.ID):
		return Report{}, invalid("report-already-confirmed", describe(p)+" already confirmed this report", map[string]any{"Player": e.label(p)})
	}
	after := r
	after.Confirmed = slices.Clone(r.Confirmed)
	if err := answer(&after, p); err != nil {
		return Report{}, err
	}
	c := s.change(PlayerActor, action, reportSubject(after, p), nil, &after)
	if after.Status == ReportDisputed {
		// A dispute calls a judge by itself, in the same transaction.
		call := s.disputeCall(after, p)
		cc := s.change(PlayerActor, "call.open", fmt.Sprintf("%s: call of %s", tableSubject(r.Round, r.Table), describe(p)), nil, &call)
		if err := s.store.DisputeReport(ctx, r, after, &call, c, cc); err != nil {
			return Report{}, err
		}
		return after, nil
	}
	if err := s.store.UpdateReport(ctx, r, after, c); err != nil {
		return Report{}, err
	}
	return s.settle(ctx, after)
}

// settle saves a confirmed report at once when the tournament allows it.
// A judge's sheet saved meanwhile wins: the report then stays confirmed,
// and the judges see both. So does a report that needed a reason of §12
// (a game ended by time before its signal, a declaration recorded after
// it): docs/rules.md §12 makes those the judge's word, so a judge accepts it.
func (s *Service) settle(ctx context.Context, r Report) (Report, error) {
	t, err := s.store.Tournament(ctx, r.TournamentID)
	if err != nil || r.Status != ReportConfirmed || t.SelfReport != SelfReportAuto {
		return r, err
	}
	accepted, err := s.acceptReport(ctx, PlayerActor, r)
	if errors.Is(err, ErrConflict) {
		// The confirmation is recorded; the judges' sheet came first and
		// stands (Report.Superseded), which is no error of the player's:
		// the conflict speaks to a judge.
		return r, nil
	}
	return accepted, err
}

// AcceptReport saves a confirmed report as the first revision of its
// table's result, in the name of the judge, with the report's ID (its
// history says "reported by players"). A table that has a judge's result
// refuses it with a *ConflictError: a report never overwrites a sheet.
func (s *Service) AcceptReport(ctx context.Context, judge string, tournamentID, reportID int64) (Report, error) {
	if err := checkJudge(judge); err != nil {
		return Report{}, err
	}
	r, err := s.storedReport(ctx, tournamentID, reportID)
	if err != nil {
		return Report{}, err
	}
	if r.Status != ReportConfirmed {
		return Report{}, Conflict("report-not-confirmed", fmt.Sprintf("report %d is %s, not confirmed by every player", r.ID, r.Status),
			map[string]any{"Status": r.Status})
	}
	return s.acceptReport(ctx, judge, r)
}

func (s *Service) acceptReport(ctx context.Context, judge string, r Report) (Report, error) {
	e, _, err := s.tableFacts(ctx, r.TournamentID, r.Round, r.Table)
	if err != nil {
		return Report{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return Report{}, err
	}
	// §12 counts from when the players handed the sheet in, not from
	// when a judge got to it.
	in := ResultInput{Scores: r.Scores, Declared: r.Declared, Reason: r.Reason, LateReason: r.LateReason, HandedIn: r.At}
	t, tr, err := s.checkResult(ctx, e, r.Round, r.Table, judge, in)
	if err != nil {
		return Report{}, err
	}
	if judge == PlayerActor && (tr.Result.EndedEarly || tr.Result.LateReason != "") {
		return r, nil // settle: a judge accepts it
	}
	tr.Result.ReportID, tr.Result.ReportSide = r.ID, SideReported
	// An accepted report is entered as a judge's sheet is, under the
	// two-person rule.
	tr.Result.NeedsConfirm = e.t.ConfirmResults
	c := s.change(judge, "result.save", tableSubject(r.Round, r.Table)+reportedBy, t.Latest(), &tr.Result)
	if err := s.store.SaveResult(ctx, t.ID, 0, &tr.Result, c); err != nil {
		return Report{}, err
	}
	r.Status, r.Version, r.Side = ReportAccepted, tr.Result.Version, SideReported
	return r, nil
}

// GetReport returns a report of a tournament.
func (s *Service) GetReport(ctx context.Context, tournamentID, id int64) (Report, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return Report{}, err
	}
	return snap.Report(id)
}

// storedReport reads a report of a tournament from the store, for a
// change decided from it.
func (s *Service) storedReport(ctx context.Context, tournamentID, id int64) (Report, error) {
	r, err := s.store.Report(ctx, id)
	if err != nil {
		return Report{}, err
	}
	if r.TournamentID != tournamentID {
		return Report{}, fmt.Errorf("report %d of tournament %d: %w", id, tournamentID, ErrNotFound)
	}
	return r, nil
}

// Reports lists a tournament's reports, oldest first.
func (s *Service) Reports(ctx context.Context, tournamentID int64) ([]Report, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.Reports(), nil
}

// TableReports lists the reports of one table of a tournament, by the
// table's ID, oldest first: what a table's phones read.
func (s *Service) TableReports(ctx context.Context, tournamentID, tableID int64) ([]Report, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.TableReports(tableID), nil
}

func reportSubject(r Report, p Player) string {
	return fmt.Sprintf("%s: report of %s", tableSubject(r.Round, r.Table), describe(p))
}
