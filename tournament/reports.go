package tournament

import (
	"context"
	"fmt"
	"slices"
	"time"
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
	Scores       []Score
	Declared     int64
	Reason       string
	Confirmed    []int64 // the players who confirmed it, the reporter first
	DisputedBy   int64   // the player who disputed it, 0 for none
	Status       string
	Version      int // the revision it became, once accepted
	At           time.Time
}

// ReportInput is what a player enters for their table.
type ReportInput struct {
	Scores   []Score
	Declared int64
	Reason   string // why a game recorded as ended by time ended before its signal
}

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
			map[string]any{"Player": p.Name, "Round": n, "Table": number})
	}
	return p, t, nil
}

// ReportResult records a player's report of their table's result, after
// checking it exactly as a judge's first score sheet is checked
// (PreviewResult); the reporter has confirmed it by sending it.
func (s *Service) ReportResult(ctx context.Context, tournamentID int64, n, number int, player int64, code string, in ReportInput) (Report, error) {
	e, err := s.load(ctx, tournamentID)
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
	if t.Result != nil {
		return Report{}, Conflict("report-table-has-result", fmt.Sprintf("table %d of round %d has a judge's result", number, n),
			map[string]any{"Round": n, "Table": number})
	}
	if _, err := s.PreviewResult(ctx, tournamentID, n, number, ResultInput{Scores: in.Scores, Declared: in.Declared, Reason: in.Reason}); err != nil {
		return Report{}, err
	}
	r := Report{
		TournamentID: tournamentID, TableID: t.ID, Round: n, Table: number, ReportedBy: p.ID,
		Scores: slices.Clone(in.Scores), Declared: in.Declared, Reason: in.Reason,
		Confirmed: []int64{p.ID}, Status: ReportAwaiting, At: s.now().UTC(),
	}
	if err := s.store.AddReport(ctx, &r, s.change(PlayerActor, "report.add", reportSubject(r, p), nil, &r)); err != nil {
		return Report{}, err
	}
	return s.settle(ctx, r)
}

// ConfirmReport records a player's confirmation of their table's report;
// the last confirmation puts it in the judges' queue, or saves it when the
// tournament allows (SelfReportAuto).
func (s *Service) ConfirmReport(ctx context.Context, tournamentID, reportID, player int64, code string) (Report, error) {
	return s.answerReport(ctx, tournamentID, reportID, player, code, "report.confirm", func(r *Report, p Player) {
		r.Confirmed = append(r.Confirmed, p.ID)
		if len(r.Confirmed) == len(r.Scores) {
			r.Status = ReportConfirmed
		}
	})
}

// DisputeReport records that a player at the table disagrees with its
// report: a judge is called, and sees the report beside the sheet they enter.
func (s *Service) DisputeReport(ctx context.Context, tournamentID, reportID, player int64, code string) (Report, error) {
	return s.answerReport(ctx, tournamentID, reportID, player, code, "report.dispute", func(r *Report, p Player) {
		r.DisputedBy, r.Status = p.ID, ReportDisputed
	})
}

func (s *Service) answerReport(ctx context.Context, tournamentID, reportID, player int64, code, action string, answer func(*Report, Player)) (Report, error) {
	r, err := s.GetReport(ctx, tournamentID, reportID)
	if err != nil {
		return Report{}, err
	}
	e, err := s.load(ctx, tournamentID)
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
		return Report{}, invalid("report-already-confirmed", describe(p)+" already confirmed this report", map[string]any{"Player": p.Name})
	}
	after := r
	after.Confirmed = slices.Clone(r.Confirmed)
	answer(&after, p)
	if err := s.store.UpdateReport(ctx, r, after, s.change(PlayerActor, action, reportSubject(after, p), nil, &after)); err != nil {
		return Report{}, err
	}
	return s.settle(ctx, after)
}

// settle saves a confirmed report at once when the tournament allows it.
// A judge's sheet saved meanwhile wins: the report then stays confirmed,
// and the judges see both.
func (s *Service) settle(ctx context.Context, r Report) (Report, error) {
	t, err := s.store.Tournament(ctx, r.TournamentID)
	if err != nil || r.Status != ReportConfirmed || t.SelfReport != SelfReportAuto {
		return r, err
	}
	return s.acceptReport(ctx, PlayerActor, r)
}

// AcceptReport saves a confirmed report as the first revision of its
// table's result, in the name of the judge, with the report's ID (its
// history says "reported by players"). A table that has a judge's result
// refuses it with a *ConflictError: a report never overwrites a sheet.
func (s *Service) AcceptReport(ctx context.Context, judge string, tournamentID, reportID int64) (Report, error) {
	if err := checkJudge(judge); err != nil {
		return Report{}, err
	}
	r, err := s.GetReport(ctx, tournamentID, reportID)
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
	e, err := s.load(ctx, r.TournamentID)
	if err != nil {
		return Report{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return Report{}, err
	}
	t, tr, err := s.checkResult(ctx, e, r.Round, r.Table, judge, ResultInput{Scores: r.Scores, Declared: r.Declared, Reason: r.Reason})
	if err != nil {
		return Report{}, err
	}
	tr.Result.ReportID = r.ID
	c := s.change(judge, "result.save", tableSubject(r.Round, r.Table)+" (reported by players)", t.Result, &tr.Result)
	if err := s.store.SaveResult(ctx, t.ID, 0, &tr.Result, c); err != nil {
		return Report{}, err
	}
	r.Status, r.Version = ReportAccepted, tr.Result.Version
	return r, nil
}

// GetReport returns a report of a tournament.
func (s *Service) GetReport(ctx context.Context, tournamentID, id int64) (Report, error) {
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
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	return s.store.Reports(ctx, tournamentID)
}

func reportSubject(r Report, p Player) string {
	return fmt.Sprintf("%s: report of %s", tableSubject(r.Round, r.Table), describe(p))
}
