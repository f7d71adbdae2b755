package tournament

import (
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// roundChange is a pairing as the audit log records its change: the round,
// and how many open reports of its tables the change discarded.
type roundChange struct {
	*Round
	DiscardedReports int
}

// openReports lists the IDs of the open reports (OpenReportStatuses) of
// the given tables, by ID, among the event's reports.
func (e record) openReports(tables []Table) []int64 {
	var out []int64
	for _, r := range e.reports {
		at := slices.ContainsFunc(tables, func(t Table) bool { return t.ID == r.TableID })
		if at && slices.Contains(OpenReportStatuses, r.Status) {
			out = append(out, r.ID)
		}
	}
	return out
}

// SwapPlayers trades the places of players a and b in round n (either may
// have the bye). The pairing must still honour its rules (pairing.Amend);
// the reason is required and recorded.
func (s *Service) SwapPlayers(ctx context.Context, judge string, tournamentID int64, n int, a, b int64, reason string) (Round, error) {
	am := Amendment{A: a, B: b, Reason: reason}
	return s.amend(ctx, judge, tournamentID, n, am, pairing.Change{A: pid(a), B: pid(b), Reason: reason})
}

// MovePlayer moves player a to table in round n, as SwapPlayers does.
func (s *Service) MovePlayer(ctx context.Context, judge string, tournamentID int64, n int, a int64, table int, reason string) (Round, error) {
	am := Amendment{A: a, Table: table, Reason: reason}
	return s.amend(ctx, judge, tournamentID, n, am, pairing.Change{A: pid(a), Table: table, Reason: reason})
}

func (s *Service) amend(ctx context.Context, judge string, tournamentID int64, n int, am Amendment, ch pairing.Change) (Round, error) {
	if err := checkJudge(judge); err != nil {
		return Round{}, err
	}
	var err error
	if am.Reason, err = fieldReason.clean(am.Reason); err != nil {
		return Round{}, err
	}
	if am.Reason == "" {
		return Round{}, invalid("amend-reason-missing", "a change to the pairing needs a reason", nil)
	}
	e, old, r, err := s.planAmend(ctx, tournamentID, n, ch)
	if err != nil {
		return Round{}, err
	}
	am.Judge, am.At = judge, s.now().UTC()
	r.Amendments = append(slices.Clone(old.Amendments), am)
	// A report names the players of its table: one of a table whose
	// players change no longer fits it.
	var moved []Table
	for i, t := range old.Tables {
		if !sameMembers(t.Players, r.Tables[i].Players) {
			moved = append(moved, t)
		}
	}
	discard := e.openReports(moved)
	c := s.change(judge, "round.amend", fmt.Sprintf("round %d", n), old, &roundChange{Round: &r, DiscardedReports: len(discard)})
	if err := s.store.AmendRound(ctx, &r, old, am, discard, c); err != nil {
		return Round{}, err
	}
	return s.store.Round(ctx, tournamentID, n)
}

// planAmend is round n with the change ch made (pairing.Amend), not
// recorded: the event it was planned in, the round as recorded and the
// round changed.
func (s *Service) planAmend(ctx context.Context, tournamentID int64, n int, ch pairing.Change) (record, Round, Round, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return record{}, Round{}, Round{}, err
	}
	old, err := e.round(n)
	if err != nil {
		return record{}, Round{}, Round{}, err
	}
	who := slices.Clone(old.Byes)
	pr := pairing.Round{Byes: pids(old.Byes), Seed: old.Seed}
	for _, t := range old.Tables {
		who = append(who, t.Players...)
		pr.Tables = append(pr.Tables, pids(t.Players))
	}
	req, err := e.request(n, who, old.Seed)
	if err != nil {
		return record{}, Round{}, Round{}, err
	}
	out, err := pairing.Amend(req, pr, ch)
	if err != nil {
		return record{}, Round{}, Round{}, fmt.Errorf("round %d: %w", n, e.named(err))
	}
	if len(out.Tables) != len(old.Tables) {
		return record{}, Round{}, Round{}, fmt.Errorf("round %d: the amended pairing has %d tables, want %d", n, len(out.Tables), len(old.Tables))
	}
	r := old
	r.Tables = slices.Clone(old.Tables)
	for i, t := range out.Tables {
		r.Tables[i].Players = fromPIDs(t)
	}
	r.Byes, r.Cost, r.Repeats = fromPIDs(out.Byes), out.Cost, out.Repeats
	return e, old, r, nil
}

// CheckSwap is what SwapPlayers would do to round n's repeat meetings,
// recording nothing: the repeats the swap adds, for the judge to confirm
// before swapping. An error is the swap's refusal, as SwapPlayers gives it.
func (s *Service) CheckSwap(ctx context.Context, tournamentID int64, n int, a, b int64) ([]Repeat, error) {
	return s.checkAmend(ctx, tournamentID, n, pairing.Change{A: pid(a), B: pid(b), Reason: "check"})
}

// CheckMove is CheckSwap for MovePlayer.
func (s *Service) CheckMove(ctx context.Context, tournamentID int64, n int, a int64, table int) ([]Repeat, error) {
	return s.checkAmend(ctx, tournamentID, n, pairing.Change{A: pid(a), Table: table, Reason: "check"})
}

func (s *Service) checkAmend(ctx context.Context, tournamentID int64, n int, ch pairing.Change) ([]Repeat, error) {
	e, old, r, err := s.planAmend(ctx, tournamentID, n, ch)
	if err != nil {
		return nil, err
	}
	before := map[[2]int64]bool{}
	for _, rp := range e.repeats(old) {
		before[[2]int64{rp.A, rp.B}] = true
	}
	var added []Repeat
	for _, rp := range e.repeats(r) {
		if !before[[2]int64{rp.A, rp.B}] {
			added = append(added, rp)
		}
	}
	return added, nil
}

// SamePairing says rounds a and b seat the same players at each table
// number and give the same byes: a round paired again that changed
// nothing.
func SamePairing(a, b Round) bool {
	if len(a.Tables) != len(b.Tables) || !sameMembers(a.Byes, b.Byes) {
		return false
	}
	for i := range a.Tables {
		if a.Tables[i].Number != b.Tables[i].Number || !sameMembers(a.Tables[i].Players, b.Tables[i].Players) {
			return false
		}
	}
	return true
}

// Repeat is two players seated at one table of a round who had met at a
// table in earlier rounds: the pairing avoids it, a judge's change may
// make it.
type Repeat struct {
	Table  int
	A, B   int64 // A < B
	Rounds []int // the earlier rounds in which they met
}

// repeats lists the repeat meetings of round r, by table, among the rounds
// of e before it; none at a stage of the final, whose players come from
// the cut: meeting again there is the point (issue 24).
func (e record) repeats(r Round) []Repeat {
	if r.Mode == ModeFinal {
		return nil
	}
	met := map[[2]int64][]int{}
	for _, er := range e.rounds {
		if er.Number >= r.Number {
			continue
		}
		for _, t := range er.Tables {
			for i, a := range t.Players {
				for _, b := range t.Players[i+1:] {
					k := [2]int64{min(a, b), max(a, b)}
					met[k] = append(met[k], er.Number)
				}
			}
		}
	}
	var out []Repeat
	for _, t := range r.Tables {
		for i, a := range t.Players {
			for _, b := range t.Players[i+1:] {
				k := [2]int64{min(a, b), max(a, b)}
				if rounds := met[k]; len(rounds) > 0 {
					out = append(out, Repeat{Table: t.Number, A: k[0], B: k[1], Rounds: rounds})
				}
			}
		}
	}
	return out
}
