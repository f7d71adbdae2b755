package tournament

import (
	"context"
	"fmt"
	"slices"
)

// RemakeFinal makes the final's latest stage again, with the judge's
// reason, before any of its tables has a result: the cut is drawn again
// with a new seed from the standings as they stand (a player dropped
// since, even while the stage was under way, no longer goes on: the next
// in the standings does), and the stage is seated anew; whatever was
// recorded at its old tables (seatings, boards, the clock, recorded
// games, rulings, players' reports) goes with them. A final stage is never
// paired again as a Swiss round is (RepairRound refuses it): this is its
// own action, audited as final.remake with the reason.
func (s *Service) RemakeFinal(ctx context.Context, judge string, tournamentID int64, reason string) (Round, error) {
	if err := checkJudge(judge); err != nil {
		return Round{}, err
	}
	reason, err := fieldReason.clean(reason)
	if err != nil {
		return Round{}, err
	}
	if reason == "" {
		return Round{}, invalid("remake-reason-missing", "remaking the final needs a reason", nil)
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Round{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return Round{}, err
	}
	finals := e.finals()
	if len(finals) == 0 {
		return Round{}, Conflict("final-not-made", "the final is not made yet", nil)
	}
	old := finals[len(finals)-1]
	if slices.ContainsFunc(old.Tables, func(t Table) bool { return t.Result != nil }) {
		return Round{}, Conflict("final-has-result", fmt.Sprintf("round %d has a result: the final is played", old.Number), map[string]any{"Round": old.Number})
	}
	before := e
	before.rounds = e.rounds[:len(e.rounds)-1]
	// A finalist who dropped once the stage was under way (from the round
	// after it, OpenRound) does not play it made again.
	before.players = slices.Clone(e.players)
	for i, p := range before.players {
		if p.DroppedRound == old.Number+1 {
			before.players[i].DroppedRound = old.Number
		}
	}
	r, err := s.nextFinal(before, judge)
	if err != nil {
		return Round{}, err
	}
	subject := fmt.Sprintf("round %d (final stage %d of %d)", r.Number, r.Cut.Stage, len(e.t.Ruleset.WithDefaults().Event.Stages()))
	c := s.change(judge, "final.remake", subject, &old, &remadeFinal{Round: &r, Reason: reason})
	if err := s.store.RemakeFinal(ctx, &r, old, c); err != nil {
		return Round{}, err
	}
	return r, nil
}

// Remakeable reports whether RemakeFinal takes round v, as far as the
// round tells (it must be the latest, of an open tournament, besides): a
// stage of the final none of whose tables has a result.
func (v RoundView) Remakeable() bool {
	return v.Round.Mode == ModeFinal && !slices.ContainsFunc(v.Round.Tables, func(t Table) bool { return t.Result != nil })
}

// remadeFinal is a final stage made again as the audit log records it:
// the stage, and the judge's reason.
type remadeFinal struct {
	*Round
	Reason string
}
