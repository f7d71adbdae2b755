package tournament

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// ImportRecord restores a record (package recordfile reads the file) as a
// new tournament of this server, everything in it, in one transaction;
// the audit log says it was imported, by whom and from what source (a
// file's name). The record must check (CheckRecord): one that disagrees
// with its own facts is refused with the Violation record-disagrees,
// naming how many disagreements and the first, before anything is
// written, as is a text the forms would refuse. Its players are linked to
// the registry as an import of players links them (the member number's
// person, else the one person of the same name and reading, else a new
// person); their codes are not in a record, so none is issued (IssueCode
// gives one). A round the record gives no repeats for is recorded with
// those CheckRecord counts. It returns the tournament as stored.
func (s *Service) ImportRecord(ctx context.Context, judge, source string, r Record) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	r, err := cleanRecord(r)
	if err != nil {
		return Tournament{}, err
	}
	check := CheckRecord(r)
	if n := len(check.Disagreements); n > 0 {
		first := check.Disagreements[0].String()
		return Tournament{}, invalid("record-disagrees", fmt.Sprintf("the record does not check (%d disagreements; the first: %s)", n, first),
			map[string]any{"Count": n, "First": first})
	}
	for i := range r.Rounds {
		rr := &r.Rounds[i]
		if rr.Unscored {
			rr.Repeats = check.RoundRepeats[i]
		}
		if rr.Uncosted {
			rr.Cost = check.RoundCosts[i]
		}
	}
	if err := s.linkPeople(ctx, &r); err != nil {
		return Tournament{}, err
	}
	summary := struct {
		Source     string
		FromID     int64
		WrittenAt  time.Time
		Players    int
		Rounds     int
		Penalties  int
		Repeats    int
		Tournament Tournament
	}{source, r.Tournament.ID, r.WrittenAt, len(r.Players), len(r.Rounds), len(r.Penalties), check.Repeats, r.Tournament}
	// The event is marked as imported (a season lists it so), which its
	// record file does not carry.
	r.Tournament.Imported = ImportedFromRecord
	c := s.change(judge, "tournament.import", fmt.Sprintf("tournament %s (imported from %s)", r.Tournament.Name, source), nil, summary)
	if err := s.store.ImportRecord(ctx, &r, c); err != nil {
		return Tournament{}, err
	}
	return s.store.Tournament(ctx, r.Tournament.ID)
}

// linkPeople decides whom each player of r is in the registry, as an
// import of players does (PersonIndex.Register). Two players of the
// record of one name and reading are two people: the second is a new one
// (the registry merges people later); one member number for two is
// refused.
func (s *Service) linkPeople(ctx context.Context, r *Record) error {
	rows := make([]ImportRow, len(r.Players))
	for i, p := range r.Players {
		rows[i] = ImportRow{Name: p.Name, Kana: p.Kana, Member: r.Members[p.ID]}
	}
	x, err := s.personIndex(ctx, rows)
	if err != nil {
		return err
	}
	for i := range r.Players {
		p, row := &r.Players[i], rows[i]
		p.PersonID, p.Person, err = x.Register(0, row.Name, row.Kana, row.Member, PersonChoice{})
		var v *referee.Violation
		if errors.As(err, &v) && v.Code == "person-already-registered" && row.Member == "" {
			p.PersonID, p.Person, err = x.Register(0, row.Name, row.Kana, "", PersonChoice{New: true})
		}
		if err != nil {
			return fmt.Errorf("player %d (%s): %w", p.ID, p.Name, err)
		}
	}
	return nil
}

// cleanRecord checks every text of a record with the rules the forms
// apply (names, readings, member numbers, judges, reasons, notes) and the
// settings as a new tournament's, and returns it with the texts as the
// forms keep them, the players' codes cleared.
func cleanRecord(r Record) (Record, error) {
	t := r.Tournament
	in, err := TournamentInput{Name: t.Name, Date: t.Date, Venue: t.Venue, Rounds: t.Rounds, GameMinutes: max(t.GameMinutes, 1),
		SelfCheckIn: t.SelfCheckIn, SelfReport: t.SelfReport}.check()
	if err != nil {
		return r, fmt.Errorf("the tournament: %w", err)
	}
	if t.GameMinutes < 1 {
		return r, invalid("game-minutes-out-of-range", fmt.Sprintf("game minutes must be between 1 and 240, got %d", t.GameMinutes),
			map[string]any{"Minutes": t.GameMinutes, "Min": 1, "Max": 240})
	}
	r.Tournament.Name, r.Tournament.Date, r.Tournament.Venue, r.Tournament.SelfReport = in.Name, in.Date, in.Venue, in.SelfReport
	if err := t.Ruleset.Validate(); err != nil {
		return r, fmt.Errorf("%w: the tournament's ruleset: %w", ErrInvalid, err)
	}
	var errs []error
	text := func(f textField, s *string, where string, optional bool) {
		v, err := f.clean(*s)
		if err == nil && v == "" && !optional {
			err = invalid("text-missing", f.name+" is empty", map[string]any{"Field": f.name})
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
		*s = v
	}
	if t.Closed != nil {
		closed := *t.Closed
		text(fieldJudge, &closed.Judge, "the closure", false)
		r.Tournament.Closed = &closed
	}
	r.Players = slices.Clone(r.Players)
	r.Members = maps.Clone(r.Members)
	for i := range r.Players {
		p := &r.Players[i]
		where := fmt.Sprintf("player %d", p.ID)
		text(fieldPlayerName, &p.Name, where, false)
		text(fieldKana, &p.Kana, where, true)
		p.CodeHash, p.Code, p.Person, p.PersonID = "", "", nil, 0
		if m, ok := r.Members[p.ID]; ok {
			if r.Members[p.ID], err = checkMember(m); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", where, err))
			}
		}
	}
	r.Rounds = slices.Clone(r.Rounds)
	for i := range r.Rounds {
		cleanRound(&r.Rounds[i], text)
	}
	errs = append(errs, cleanTeams(&r, text)...)
	r.Penalties = slices.Clone(r.Penalties)
	for i := range r.Penalties {
		p := &r.Penalties[i]
		where := fmt.Sprintf("penalty %d", i+1)
		text(fieldJudge, &p.Judge, where, false)
		text(fieldNote, &p.Note, where, true)
		if err := referee.CheckLevel(t.Ruleset, p.Level); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
		if rv := p.Revoked; rv != nil {
			revoked := *rv
			text(fieldJudge, &revoked.Judge, where+" (its revocation)", false)
			text(fieldReason, &revoked.Reason, where+" (its revocation)", true)
			p.Revoked = &revoked
		}
	}
	return r, errors.Join(errs...)
}

// cleanRound checks the texts of a round of a record, as cleanRecord.
func cleanRound(rr *RecordRound, text func(f textField, s *string, where string, optional bool)) {
	where := fmt.Sprintf("round %d", rr.Number)
	text(fieldJudge, &rr.PairedBy, where, false)
	rr.Amendments = slices.Clone(rr.Amendments)
	for i := range rr.Amendments {
		text(fieldJudge, &rr.Amendments[i].Judge, where+" (a change to the pairing)", false)
		text(fieldReason, &rr.Amendments[i].Reason, where+" (a change to the pairing)", false)
	}
	rr.Clock = slices.Clone(rr.Clock)
	for i := range rr.Clock {
		text(fieldJudge, &rr.Clock[i].Judge, where+" (the clock)", false)
		text(fieldReason, &rr.Clock[i].Reason, where+" (the clock)", true)
	}
	rr.Round.Tables = slices.Clone(rr.Round.Tables)
	rr.Tables = slices.Clone(rr.Tables)
	for k := range rr.Round.Tables {
		t := &rr.Round.Tables[k]
		at := fmt.Sprintf("%s table %d", where, t.Number)
		if t.Seating != nil {
			s := *t.Seating
			text(fieldJudge, &s.Judge, at+" (the seating)", false)
			t.Seating = &s
		}
		if t.Board != nil {
			b := *t.Board
			text(fieldJudge, &b.Judge, at+" (the board)", false)
			t.Board = &b
		}
		if k >= len(rr.Tables) {
			continue
		}
		rt := &rr.Tables[k]
		rt.Revisions = slices.Clone(rt.Revisions)
		for i := range rt.Revisions {
			res := &rt.Revisions[i]
			text(fieldJudge, &res.Judge, fmt.Sprintf("%s (revision %d)", at, res.Version), false)
			text(fieldReason, &res.Reason, fmt.Sprintf("%s (revision %d)", at, res.Version), true)
			text(fieldReason, &res.LateReason, fmt.Sprintf("%s (revision %d)", at, res.Version), true)
		}
		if n := len(rt.Revisions); n > 0 {
			latest := rt.Revisions[n-1]
			t.Result, t.Revisions = &latest, n
		}
		rt.Reports = slices.Clone(rt.Reports)
		for i := range rt.Reports {
			rep := &rt.Reports[i]
			text(fieldReason, &rep.Reason, at+" (a players' report)", true)
			text(fieldReason, &rep.LateReason, at+" (a players' report)", true)
			if d := rep.Dispute; d != nil {
				dispute := *d
				text(fieldNote, &dispute.Note, at+" (a dispute)", true)
				rep.Dispute = &dispute
			}
		}
		rt.Moves = slices.Clone(rt.Moves)
		for i := range rt.Moves {
			text(fieldJudge, &rt.Moves[i].Judge, at+" (the recorded game)", false)
		}
		t.Moves = len(rt.Moves)
	}
}
