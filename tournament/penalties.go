package tournament

import (
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// PenaltyInput is a penalty as the judge enters it.
type PenaltyInput struct {
	PlayerID int64
	Round    int // 0 when given outside a round
	// Table is the table number in Round; 0 looks it up from the pairing.
	Table   int
	Offence string // a code of the ruleset's catalogue
	// Level is the judge's decision (§14); empty to take the level the
	// escalation rules suggest from the player's earlier penalties.
	Level referee.Level
	Note  string
}

// recordPenalty records a penalty. Its effect on the game (a VP deduction, a
// game loss, a disqualification) shows in the placings of the game the
// player plays in the penalty's round, wherever a later swap or move seats
// them, and in the standings; so those levels need a round in which the
// player has a table (a disqualification outside a round only drops). A
// disqualification drops the player from the first round after the
// penalty's that has not started.
func (s *Service) recordPenalty(ctx context.Context, judge string, tournamentID int64, in PenaltyInput) (Penalty, error) {
	if err := checkJudge(judge); err != nil {
		return Penalty{}, err
	}
	note, err := fieldNote.clean(in.Note)
	if err != nil {
		return Penalty{}, err
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Penalty{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return Penalty{}, err
	}
	rs := e.t.Ruleset
	p, ok := e.player(in.PlayerID)
	if !ok {
		return Penalty{}, notInTournament(in.PlayerID)
	}
	if _, ok := rs.Offence(in.Offence); !ok {
		return Penalty{}, invalid("unknown-offence", fmt.Sprintf("unknown offence %q", in.Offence), map[string]any{"Offence": in.Offence})
	}
	seated := false
	if in.Round != 0 {
		r, err := e.round(in.Round)
		if err != nil {
			return Penalty{}, invalid("round-not-paired", fmt.Sprintf("round %d is not paired", in.Round), map[string]any{"Round": in.Round})
		}
		i := slices.IndexFunc(r.Tables, func(t Table) bool { return slices.Contains(t.Players, p.ID) })
		switch {
		case i < 0 && in.Table != 0:
			return Penalty{}, invalid("no-table-in-round", fmt.Sprintf("%s has no table in round %d", describe(p), in.Round),
				map[string]any{"Player": e.label(p), "Round": in.Round})
		case i < 0:
		case in.Table == 0:
			seated, in.Table = true, r.Tables[i].Number
		case in.Table != r.Tables[i].Number:
			return Penalty{}, invalid("penalty-wrong-table",
				fmt.Sprintf("%s plays at table %d in round %d, not table %d", describe(p), r.Tables[i].Number, in.Round, in.Table),
				map[string]any{"Player": e.label(p), "Table": r.Tables[i].Number, "Round": in.Round, "Given": in.Table})
		default:
			seated = true
		}
	} else if in.Table != 0 {
		return Penalty{}, invalid("penalty-table-without-round", "a penalty at a table needs its round", nil)
	}
	if in.Level == "" {
		if in.Level, err = e.suggestLevel(p.ID, in.Offence); err != nil {
			return Penalty{}, err
		}
	} else if err := referee.CheckLevel(rs, in.Level); err != nil {
		return Penalty{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	// A VP deduction and a game loss act on a game, and so does the game
	// loss of a disqualification (docs/rules.md, Penalties): without a table in
	// the round they would be recorded and change nothing. A
	// disqualification outside a round still drops the player.
	gameLevel := in.Level == referee.VPDeduction || in.Level == referee.GameLoss ||
		in.Level == referee.Disqualification && in.Round != 0
	if gameLevel && !seated {
		args := map[string]any{"Player": e.label(p), "Level": string(in.Level), "Round": in.Round}
		if in.Round == 0 {
			return Penalty{}, invalid("penalty-needs-game",
				fmt.Sprintf("a %s changes a game: %s needs the round in which they played", in.Level, describe(p)), args)
		}
		return Penalty{}, invalid("penalty-needs-game",
			fmt.Sprintf("a %s changes a game, but %s had no table in round %d", in.Level, describe(p), in.Round), args)
	}
	pen := Penalty{
		TournamentID: tournamentID,
		PlayerID:     p.ID,
		Round:        in.Round,
		Table:        in.Table,
		Offence:      in.Offence,
		Level:        in.Level,
		Judge:        judge,
		At:           s.now().UTC(),
		Note:         note,
	}
	dropFrom := 0
	var from *Progress
	if pen.Level == referee.Disqualification {
		// docs/rules.md, Penalties: dropped from the tournament; the current
		// game counts as lost (event.place applies that). The drop never
		// reaches back into a round already started: the player's games
		// there stand, with the game loss in this one.
		prog, err := s.store.Progress(ctx, tournamentID)
		if err != nil {
			return Penalty{}, err
		}
		from, dropFrom = &prog, prog.OpenRound()
		if in.Round != 0 {
			dropFrom = max(dropFrom, in.Round+1)
		}
	}
	c := s.change(judge, "penalty.add", fmt.Sprintf("%s: %s (%s)", describe(p), pen.Offence, pen.Level), nil, &pen)
	if err := s.store.AddPenalty(ctx, &pen, dropFrom, from, c); err != nil {
		return Penalty{}, err
	}
	return pen, nil
}

// PenaltySuggestion returns the level the escalation rules suggest (§14)
// for a new penalty of offence given to a player, from the player's
// standing penalties for the same offence (the level RecordPenalty gives
// when the judge leaves it to the rules), with how the rules reached it:
// which repeat this is and the highest level the earlier ones reached
// (docs/rules.md, Penalties), for the judge to read before deciding.
func (s *Service) PenaltySuggestion(ctx context.Context, tournamentID, playerID int64, offence string) (referee.Suggestion, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return referee.Suggestion{}, err
	}
	if _, ok := e.player(playerID); !ok {
		return referee.Suggestion{}, notInTournament(playerID)
	}
	return e.suggest(playerID, offence)
}

// suggestLevel asks the referee for the level of a new penalty of offence
// from the player's standing penalties for it.
func (e record) suggestLevel(playerID int64, offence string) (referee.Level, error) {
	sg, err := e.suggest(playerID, offence)
	return sg.Level, err
}

// suggest asks the referee for its suggestion for a new penalty of offence
// from the player's standing penalties for it, oldest first.
func (e record) suggest(playerID int64, offence string) (referee.Suggestion, error) {
	var earlier []referee.Level
	for _, x := range e.penalties {
		if x.PlayerID == playerID && x.Offence == offence && x.Revoked == nil {
			earlier = append(earlier, x.Level)
		}
	}
	return referee.Suggest(e.t.Ruleset, offence, earlier)
}

// RevokePenalty revokes a penalty of a tournament, with a reason; it stays
// on record. Revoking a disqualification does not undo the drop:
// ReinstatePlayer does.
func (s *Service) RevokePenalty(ctx context.Context, judge string, tournamentID, id int64, reason string) (Penalty, error) {
	if err := checkJudge(judge); err != nil {
		return Penalty{}, err
	}
	reason, err := fieldReason.clean(reason)
	if err != nil {
		return Penalty{}, err
	}
	if reason == "" {
		return Penalty{}, invalid("revoke-reason-missing", "revoking a penalty needs a reason", nil)
	}
	pen, err := s.store.Penalty(ctx, id)
	if err != nil {
		return Penalty{}, err
	}
	if pen.TournamentID != tournamentID {
		return Penalty{}, fmt.Errorf("penalty %d of tournament %d: %w", id, tournamentID, ErrNotFound)
	}
	if pen.Revoked != nil {
		return Penalty{}, Conflict("penalty-revoked", fmt.Sprintf("penalty %d was revoked by %s", id, pen.Revoked.Judge),
			map[string]any{"Judge": pen.Revoked.Judge})
	}
	before := snapshot(pen)
	rev := Revocation{Judge: judge, At: s.now().UTC(), Reason: reason}
	pen.Revoked = &rev
	c := s.change(judge, "penalty.revoke", fmt.Sprintf("penalty %d", id), before, pen)
	if err := s.store.RevokePenalty(ctx, id, rev, c); err != nil {
		return Penalty{}, err
	}
	return pen, nil
}

// Penalties lists a tournament's penalties, revoked ones included, oldest first.
func (s *Service) Penalties(ctx context.Context, tournamentID int64) ([]Penalty, error) {
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	return s.store.Penalties(ctx, tournamentID)
}
