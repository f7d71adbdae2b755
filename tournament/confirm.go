package tournament

import (
	"context"
	"fmt"
)

// Confirmation is a second account's confirmation of a revision entered
// under the two-person rule (Tournament.ConfirmResults).
type Confirmation struct {
	Judge  string
	Reason string // a head confirming their own entry says why
}

// ConfirmResult confirms revision version of the result of table number
// of round n, entered under the two-person rule, unchanged: from then on
// it counts (standings, the kiosk, closing, the final). The account that
// entered it may not (confirm-self), unless it is a head's (head) who says
// why (reason, audited); a version that is no longer the table's latest
// is refused with stale-result, a revision that waits for nobody with
// result-confirmed. Audited as result.confirm.
func (s *Service) ConfirmResult(ctx context.Context, judge string, head bool, tournamentID int64, n, number, version int, reason string) (Result, error) {
	if err := checkJudge(judge); err != nil {
		return Result{}, err
	}
	reason, err := fieldReason.clean(reason)
	if err != nil {
		return Result{}, err
	}
	_, t, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return Result{}, err
	}
	latest := t.Latest()
	switch {
	case latest == nil || latest.Version != version:
		current := 0
		if latest != nil {
			current = latest.Version
		}
		return Result{}, Conflict("stale-result", fmt.Sprintf("%s: version %d is not the latest (%d)", tableSubject(n, number), version, current),
			map[string]any{"Version": version, "Current": current})
	case !latest.Pending():
		return Result{}, Conflict("result-confirmed", fmt.Sprintf("%s: version %d waits for no confirmation", tableSubject(n, number), version),
			map[string]any{"Version": version, "Judge": latest.ConfirmedBy})
	case latest.Judge == judge && (!head || reason == ""):
		return Result{}, Conflict("confirm-self", fmt.Sprintf("%s: %s entered version %d: another account confirms it", tableSubject(n, number), judge, version),
			map[string]any{"Judge": judge, "Head": head})
	case latest.Judge != judge:
		// A reason is a head's for their own entry: another's needs none.
		reason = ""
	}
	after := *latest
	now := s.now().UTC()
	after.ConfirmedBy, after.ConfirmedAt, after.ConfirmReason = judge, &now, reason
	c := s.change(judge, "result.confirm", tableSubject(n, number), nil, map[string]any{"version": version, "entered_by": latest.Judge, "reason": reason})
	if err := s.store.ConfirmResult(ctx, t.ID, version, Confirmation{Judge: judge, Reason: reason}, now, c); err != nil {
		return Result{}, err
	}
	return after, nil
}
