package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/catanjudge/catanjudge/referee"
)

// ActionUndoRound is the audit action of an undone round, whose entry
// keeps the round as it was (Store.UndoRound).
const ActionUndoRound = "round.undo"

// UndoneRound says what undoing (or restoring) a round took away (or
// put back).
type UndoneRound struct {
	Round                                                   int
	Tables, Results, Reports, Penalties, GameMoves, Rulings int
	Reason                                                  string
}

// UndoRound undoes round n, the latest, paired by mistake or with the
// wrong players (referee.CheckUndoRound): while nothing was recorded at
// its tables any judge may, after that only a head judge with a reason. Its tables,
// seatings, boards, byes, results, reports, rulings, recorded games,
// clock and the penalties given in its games go together in one
// transaction, kept in the audit so that RestoreRound can put them back;
// the standings, computed from what is recorded, follow. A penalty given
// outside a round stays.
//
// role is the judge's: a judge who is not the head is refused once
// something is recorded with a *RoleNeeded (the route lets any judge
// try, the rules decide on what the round holds).
func (s *Service) UndoRound(ctx context.Context, judge string, role Role, tournamentID int64, n int, reason string) (UndoneRound, error) {
	if err := checkJudge(judge); err != nil {
		return UndoneRound{}, err
	}
	reason, err := fieldReason.clean(reason)
	if err != nil {
		return UndoneRound{}, err
	}
	if err := s.checkOpen(ctx, tournamentID); err != nil {
		return UndoneRound{}, err
	}
	check := func(latest int, recorded bool) error {
		err := referee.CheckUndoRound(n, latest, recorded, role.Allows(RoleHead), reason)
		var v *referee.Violation
		if errors.As(err, &v) && v.Code == referee.UndoNeedsHead {
			return &RoleNeeded{Need: RoleHead, Role: role, Code: v.Code, Err: err}
		}
		if err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		return nil
	}
	c := s.change(judge, ActionUndoRound, fmt.Sprintf("round %d", n), nil, UndoneRound{Round: n, Reason: reason})
	return s.store.UndoRound(ctx, tournamentID, n, check, c)
}

// RestoreRound puts back round n as UndoRound kept it, when it is the
// round after the latest: its tables, results and penalties count again.
func (s *Service) RestoreRound(ctx context.Context, judge string, tournamentID int64, n int) (UndoneRound, error) {
	if err := checkJudge(judge); err != nil {
		return UndoneRound{}, err
	}
	if err := s.checkOpen(ctx, tournamentID); err != nil {
		return UndoneRound{}, err
	}
	return s.store.RestoreRound(ctx, tournamentID, n, s.change(judge, "round.restore", fmt.Sprintf("round %d", n), nil, nil))
}

// RestorableRound returns the undone round RestoreRound can put back now
// (the latest undo, of the round after the latest), and false when there
// is none.
func (s *Service) RestorableRound(ctx context.Context, tournamentID int64) (UndoneRound, bool, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return UndoneRound{}, false, err
	}
	rounds := snap.Rounds()
	e, ok, err := s.store.LastAuditEntry(ctx, tournamentID, ActionUndoRound)
	if err != nil || !ok {
		return UndoneRound{}, false, err
	}
	var u UndoneRound
	if err := json.Unmarshal([]byte(e.After), &u); err != nil {
		return UndoneRound{}, false, fmt.Errorf("audit entry %d: %w", e.ID, err)
	}
	return u, u.Round == len(rounds)+1, nil
}

// checkOpen refuses a change of a tournament that is closed.
func (s *Service) checkOpen(ctx context.Context, tournamentID int64) error {
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return err
	}
	return t.checkOpen()
}

// RoleNeeded is a change the judge's role does not allow, decided by the
// rules on what the record holds (referee.CheckUndoRound): the pages and
// the API say it as the route guard's 403 role-forbidden, naming Need.
type RoleNeeded struct {
	Need, Role Role
	Code       string // the rule's code
	Err        error
}

func (e *RoleNeeded) Error() string {
	return fmt.Sprintf("role %q may not: it needs %q: %v", e.Role, e.Need, e.Err)
}

func (e *RoleNeeded) Unwrap() error { return e.Err }
