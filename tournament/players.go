package tournament

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// PlayerInput is what a judge enters for a player.
type PlayerInput struct {
	Name string
	Kana string // reading, for sorting and search; optional
}

func (in PlayerInput) check() (PlayerInput, error) {
	in.Name, in.Kana = strings.TrimSpace(in.Name), strings.TrimSpace(in.Kana)
	if in.Name == "" {
		return in, invalid("player-name-missing", "the player needs a name", nil)
	}
	return in, nil
}

// Players lists a tournament's players, by kana.
func (s *Service) Players(ctx context.Context, tournamentID int64) ([]Player, error) {
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	return s.store.Players(ctx, tournamentID)
}

// GetPlayer returns a player.
func (s *Service) GetPlayer(ctx context.Context, id int64) (Player, error) {
	return s.store.Player(ctx, id)
}

// AddPlayer registers a player. Once round 1 is paired, the player is a late
// entry who plays from the first open round (see DropPlayer): a round that
// is paired but has not started includes them once it is re-paired.
func (s *Service) AddPlayer(ctx context.Context, judge string, tournamentID int64, in PlayerInput) (Player, error) {
	if err := checkJudge(judge); err != nil {
		return Player{}, err
	}
	in, err := in.check()
	if err != nil {
		return Player{}, err
	}
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return Player{}, err
	}
	rounds, err := s.store.Rounds(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	p := Player{TournamentID: tournamentID, Name: in.Name, Kana: in.Kana}
	if len(rounds) > 0 {
		if p.LateEntryRound, err = s.openRound(ctx, rounds); err != nil {
			return Player{}, err
		}
	}
	if err := s.store.AddPlayer(ctx, &p, s.change(judge, "player.add", "player "+p.Name, nil, &p)); err != nil {
		return Player{}, err
	}
	return p, nil
}

// UpdatePlayer changes a player's name and kana.
func (s *Service) UpdatePlayer(ctx context.Context, judge string, id int64, in PlayerInput) (Player, error) {
	in, err := in.check()
	if err != nil {
		return Player{}, err
	}
	return s.updatePlayer(ctx, judge, id, "player.update", func(p *Player) error {
		p.Name, p.Kana = in.Name, in.Kana
		return nil
	})
}

// CheckIn records that a player is present (or, with in false, undoes it).
// Only checked-in players are paired.
func (s *Service) CheckIn(ctx context.Context, judge string, id int64, in bool) (Player, error) {
	return s.updatePlayer(ctx, judge, id, "player.check_in", func(p *Player) error {
		p.CheckedIn = in
		return nil
	})
}

// DropPlayer drops a player from the tournament. The drop takes effect from
// the latest paired round if that round has not started anywhere (no seating,
// no result, no clock), so re-pairing it with RepairRound leaves the player
// out; otherwise from the next round to be paired. Their recorded games stay
// in everyone's standings.
func (s *Service) DropPlayer(ctx context.Context, judge string, id int64) (Player, error) {
	p, err := s.store.Player(ctx, id)
	if err != nil {
		return Player{}, err
	}
	rounds, err := s.store.Rounds(ctx, p.TournamentID)
	if err != nil {
		return Player{}, err
	}
	from, err := s.openRound(ctx, rounds)
	if err != nil {
		return Player{}, err
	}
	return s.updatePlayer(ctx, judge, id, "player.drop", func(p *Player) error {
		if p.DroppedRound != 0 {
			return invalid("already-dropped", fmt.Sprintf("%s already dropped from round %d", describe(*p), p.DroppedRound),
				map[string]any{"Player": p.Name, "Round": p.DroppedRound})
		}
		p.DroppedRound = from
		return nil
	})
}

// openRound returns the first round a change to who plays can still affect:
// the latest paired round if it has not started, else the next one.
func (s *Service) openRound(ctx context.Context, rounds []Round) (int, error) {
	if len(rounds) == 0 {
		return 1, nil
	}
	last := rounds[len(rounds)-1]
	started, err := s.started(ctx, last)
	if err != nil {
		return 0, err
	}
	if started {
		return last.Number + 1, nil
	}
	return last.Number, nil
}

// started reports whether anything was recorded at a round's tables or clock.
func (s *Service) started(ctx context.Context, r Round) (bool, error) {
	for _, t := range r.Tables {
		if t.Seating != nil || t.Result != nil {
			return true, nil
		}
	}
	events, err := s.store.ClockEvents(ctx, r.ID)
	if err != nil {
		return false, err
	}
	return len(events) > 0, nil
}

// ReinstatePlayer undoes a drop (or the drop of a revoked disqualification).
func (s *Service) ReinstatePlayer(ctx context.Context, judge string, id int64) (Player, error) {
	return s.updatePlayer(ctx, judge, id, "player.reinstate", func(p *Player) error {
		if p.DroppedRound == 0 {
			return invalid("not-dropped", describe(*p)+" has not dropped", map[string]any{"Player": p.Name})
		}
		p.DroppedRound = 0
		return nil
	})
}

// SetFixedTable asks that a player always sit at table (an accessibility
// request); 0 removes the request.
func (s *Service) SetFixedTable(ctx context.Context, judge string, id int64, table int) (Player, error) {
	if table < 0 || table > 100 {
		return Player{}, invalid("fixed-table-out-of-range", fmt.Sprintf("table %d is not a table number", table),
			map[string]any{"Table": table, "Max": 100})
	}
	return s.updatePlayer(ctx, judge, id, "player.fixed_table", func(p *Player) error {
		p.FixedTable = table
		return nil
	})
}

// SetKeepApart sets the players a player must never be paired with (family,
// same team). The request holds both ways.
func (s *Service) SetKeepApart(ctx context.Context, judge string, id int64, others []int64) (Player, error) {
	players := map[int64]bool{}
	return s.updatePlayer(ctx, judge, id, "player.keep_apart", func(p *Player) error {
		all, err := s.store.Players(ctx, p.TournamentID)
		if err != nil {
			return err
		}
		for _, o := range all {
			players[o.ID] = true
		}
		others = sortedIDs(others)
		for _, o := range others {
			switch {
			case o == p.ID:
				return invalid("keep-apart-self", describe(*p)+" cannot be kept apart from themselves",
					map[string]any{"Player": p.Name})
			case !players[o]:
				return notInTournament(o)
			}
		}
		p.KeepApart = others
		return nil
	})
}

// notInTournament reports a player id that is not one of the tournament's players.
func notInTournament(id int64) error {
	return invalid("player-not-in-tournament", fmt.Sprintf("player %d is not in this tournament", id), map[string]any{"ID": id})
}

// updatePlayer applies edit to a player and stores it with its audit entry.
func (s *Service) updatePlayer(ctx context.Context, judge string, id int64, action string, edit func(*Player) error) (Player, error) {
	if err := checkJudge(judge); err != nil {
		return Player{}, err
	}
	p, err := s.store.Player(ctx, id)
	if err != nil {
		return Player{}, err
	}
	before := snapshot(p)
	p.KeepApart = slices.Clone(p.KeepApart)
	if err := edit(&p); err != nil {
		return Player{}, err
	}
	if err := s.store.UpdatePlayer(ctx, p, s.change(judge, action, describe(p), before, p)); err != nil {
		return Player{}, err
	}
	return p, nil
}
