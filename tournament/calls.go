package tournament

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// A judge call's status (issue 27).
const (
	CallOpen      = "open"      // nobody answers it yet
	CallClaimed   = "claimed"   // a judge is on the way (ClaimedBy)
	CallEscalated = "escalated" // passed to the head judges
	CallResolved  = "resolved"  // answered (Resolution)
)

// Call is a player's call for a judge at their table, from the table's
// phone page, or made by a dispute of the table's report (ReportID).
type Call struct {
	ID           int64
	TournamentID int64
	Round, Table int
	PlayerID     int64
	ReportID     int64 // the report a dispute called about; 0 for a player's call
	Note         string
	Status       string
	At           time.Time
	ClaimedBy    string
	ClaimedAt    *time.Time
	EscalatedBy  string
	EscalatedAt  *time.Time
	ResolvedBy   string
	ResolvedAt   *time.Time
	Resolution   string
}

// Open reports whether the call waits for an answer.
func (c Call) Open() bool { return c.Status != CallResolved }

// callSubject is the audit subject of a call.
func callSubject(c Call) string {
	return fmt.Sprintf("%s: call %d", tableSubject(c.Round, c.Table), c.ID)
}

// CallJudge records a player's call for a judge at table number of the
// latest round, with their code (the caller bounds the guesses at it, as
// a check-in's) and an optional note. A table that has a call waiting
// already answers that call: a second player's tap sends no second judge.
func (s *Service) CallJudge(ctx context.Context, tournamentID, player int64, code string, number int, note string) (Call, error) {
	note, err := fieldReason.clean(note)
	if err != nil {
		return Call{}, err
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Call{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return Call{}, err
	}
	if len(e.rounds) == 0 {
		return Call{}, invalid("call-no-round", "no round is paired yet: there is no table to call a judge to", nil)
	}
	n := e.rounds[len(e.rounds)-1].Number
	p, _, err := s.atTable(ctx, e, n, number, player, code)
	if err != nil {
		return Call{}, err
	}
	calls, err := s.store.Calls(ctx, tournamentID)
	if err != nil {
		return Call{}, err
	}
	if i := slices.IndexFunc(calls, func(c Call) bool { return c.Open() && c.Round == n && c.Table == number }); i >= 0 {
		return calls[i], nil
	}
	c := Call{TournamentID: tournamentID, Round: n, Table: number, PlayerID: p.ID, Note: note, Status: CallOpen, At: s.now().UTC()}
	if err := s.store.AddCall(ctx, &c, s.change(PlayerActor, "call.open", fmt.Sprintf("%s: call of %s", tableSubject(n, number), describe(p)), nil, &c)); err != nil {
		return Call{}, err
	}
	return c, nil
}

// disputeCall is the call a dispute of report r by player p makes.
func (s *Service) disputeCall(r Report, p Player) Call {
	c := Call{TournamentID: r.TournamentID, Round: r.Round, Table: r.Table, PlayerID: p.ID, ReportID: r.ID, Status: CallOpen, At: s.now().UTC()}
	if r.Dispute != nil {
		c.Note = r.Dispute.Note
	}
	return c
}

// Calls lists a tournament's calls, the oldest first: read from the store
// once per version of the tournament (a call's every change moves it), by
// the first reader after a change, and shared by every page after it (the
// console's navigation shows them on every page), each given its own copy.
func (s *Service) Calls(ctx context.Context, tournamentID int64) ([]Call, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	calls, err := s.calls.get(ctx, tournamentID, snap.Version(), func(ctx context.Context) ([]Call, error) {
		return s.store.Calls(ctx, tournamentID)
	})
	return slices.Clone(calls), err
}

// TableCalls lists the calls of table number of round n, the oldest first.
func (s *Service) TableCalls(ctx context.Context, tournamentID int64, n, number int) ([]Call, error) {
	calls, err := s.Calls(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	var out []Call
	for _, c := range calls {
		if c.Round == n && c.Table == number {
			out = append(out, c)
		}
	}
	return out, nil
}

// ClaimCall says judge answers the call: on the way to the table. A call
// another judge claimed is theirs (call-claimed) unless it was escalated
// since, which any judge may take; claiming one's own again changes
// nothing.
func (s *Service) ClaimCall(ctx context.Context, judge string, tournamentID, id int64) (Call, error) {
	return s.answerCall(ctx, judge, tournamentID, id, "call.claim", func(c *Call, now time.Time) error {
		switch {
		case c.Status == CallClaimed && c.ClaimedBy == judge:
			return nil
		case c.Status == CallClaimed:
			return Conflict("call-claimed", fmt.Sprintf("call %d is %s's", c.ID, c.ClaimedBy), map[string]any{"Judge": c.ClaimedBy})
		}
		c.Status, c.ClaimedBy, c.ClaimedAt = CallClaimed, judge, &now
		return nil
	})
}

// EscalateCall passes the call to the head judges.
func (s *Service) EscalateCall(ctx context.Context, judge string, tournamentID, id int64) (Call, error) {
	return s.answerCall(ctx, judge, tournamentID, id, "call.escalate", func(c *Call, now time.Time) error {
		c.Status, c.EscalatedBy, c.EscalatedAt = CallEscalated, judge, &now
		return nil
	})
}

// ResolveCall closes the call with what was decided (note, optional).
func (s *Service) ResolveCall(ctx context.Context, judge string, tournamentID, id int64, note string) (Call, error) {
	note, err := fieldReason.clean(note)
	if err != nil {
		return Call{}, err
	}
	return s.answerCall(ctx, judge, tournamentID, id, "call.resolve", func(c *Call, now time.Time) error {
		c.Status, c.ResolvedBy, c.ResolvedAt, c.Resolution = CallResolved, judge, &now, note
		return nil
	})
}

// answerCall changes call id of a tournament as change does, unless it is
// resolved already (call-resolved), and records it, audited as action.
func (s *Service) answerCall(ctx context.Context, judge string, tournamentID, id int64, action string, change func(*Call, time.Time) error) (Call, error) {
	if err := checkJudge(judge); err != nil {
		return Call{}, err
	}
	before, err := s.store.Call(ctx, id)
	if err != nil {
		return Call{}, err
	}
	if before.TournamentID != tournamentID {
		return Call{}, fmt.Errorf("call %d of tournament %d: %w", id, tournamentID, ErrNotFound)
	}
	if !before.Open() {
		return Call{}, Conflict("call-resolved", fmt.Sprintf("call %d was resolved by %s", id, before.ResolvedBy), map[string]any{"Judge": before.ResolvedBy})
	}
	after := before
	if err := change(&after, s.now().UTC()); err != nil {
		return Call{}, err
	}
	if after == before {
		return before, nil
	}
	if err := s.store.UpdateCall(ctx, before, after, s.change(judge, action, callSubject(after), &before, &after)); err != nil {
		return Call{}, err
	}
	return after, nil
}
