package tournament

import (
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// Substitutes and no-shows (issue 30): a helper who sits in at a short
// table, whose games count as the ruleset's substitutes setting says
// (referee.SubstituteGame), and a player who does not come to their
// table, taken from it with their seat counted as no_show says
// (referee.MissedGame).

// Audit actions of substitutes and no-shows.
const (
	ActionSubstitute = "player.substitute"
	ActionSitIn      = "round.sit_in"
	ActionNoShow     = "round.no_show"
)

// MarkSubstitute marks player id a substitute (or, with on false, a
// player again): a helper who is not paired, and sits in at short tables
// (SitIn). A player who has played a round as a player cannot become a
// substitute.
func (s *Service) MarkSubstitute(ctx context.Context, judge string, tournamentID, id int64, on bool) (Player, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	return s.updatePlayer(ctx, judge, tournamentID, id, ActionSubstitute, nil, func(p *Player) error {
		if p.Substitute == on {
			return errUnchanged
		}
		if on {
			if n := e.pairedIn(p.ID); n > 0 {
				return invalid("substitute-has-played", fmt.Sprintf("%s was paired in round %d: a player who played is not a substitute", describe(*p), n),
					map[string]any{"Player": p.Name, "Round": n})
			}
		}
		p.Substitute = on
		if on {
			p.CheckedIn = false
		}
		return nil
	})
}

// pairedIn returns the first round that seats player id or gives them
// the bye, 0 for none.
func (e record) pairedIn(id int64) int {
	for _, r := range e.rounds {
		if e.inRound(r, id) {
			return r.Number
		}
	}
	return 0
}

// SitIn seats substitute id at table number of round n, the latest, a
// table of 3 whose game has not begun (no seating, result or recorded
// game): it becomes a table of 4, and its game is counted as the ruleset
// says of substitutes.
func (s *Service) SitIn(ctx context.Context, judge string, tournamentID int64, n, number int, id int64) (Table, error) {
	e, err := s.loadOpen(ctx, judge, tournamentID)
	if err != nil {
		return Table{}, err
	}
	r, i, err := e.latestTable(n, number)
	if err != nil {
		return Table{}, err
	}
	p, ok := e.player(id)
	switch {
	case !ok:
		return Table{}, fmt.Errorf("player %d: %w", id, ErrNotFound)
	case !p.Substitute:
		return Table{}, invalid("sit-in-not-substitute", describe(p)+" is not a substitute", map[string]any{"Player": p.Name})
	case e.inRound(r, id):
		return Table{}, invalid("sit-in-in-round", fmt.Sprintf("%s already sits in round %d", describe(p), n), map[string]any{"Player": p.Name, "Round": n})
	case len(r.Tables[i].Players) != 3:
		return Table{}, invalid("sit-in-table-full", fmt.Sprintf("round %d table %d has %d players: a substitute sits in at a table of 3", n, number, len(r.Tables[i].Players)),
			map[string]any{"Round": n, "Table": number, "Count": len(r.Tables[i].Players)})
	}
	nr := r
	nr.Tables = slices.Clone(r.Tables)
	nr.Tables[i].Players = append(slices.Clone(r.Tables[i].Players), id)
	if err := e.rescore(&nr); err != nil {
		return Table{}, err
	}
	c := s.change(judge, ActionSitIn, fmt.Sprintf("round %d table %d: %s", n, number, p.Name), nil, map[string]any{"Round": n, "Table": number, "Player": id})
	if err := s.store.SeatPlayers(ctx, &nr, r, nil, false, c); err != nil {
		return Table{}, err
	}
	return nr.Tables[i], nil
}

// latestTable returns round n, which must be the latest and not a final,
// and the index of its table number.
func (e record) latestTable(n, number int) (Round, int, error) {
	r, err := e.round(n)
	if err != nil {
		return Round{}, 0, err
	}
	if n != len(e.rounds) || r.Mode == ModeFinal {
		return Round{}, 0, invalid("table-change-not-latest", fmt.Sprintf("only the latest round (%d) of the qualifying rounds changes its tables", len(e.rounds)),
			map[string]any{"Round": n, "Latest": len(e.rounds)})
	}
	i := slices.IndexFunc(r.Tables, func(t Table) bool { return t.Number == number })
	if i < 0 {
		return Round{}, 0, fmt.Errorf("round %d table %d: %w", n, number, ErrNotFound)
	}
	return r, i, nil
}

// inRound says round r seats player id or gives them the bye.
func (e record) inRound(r Round, id int64) bool {
	return slices.Contains(r.Byes, id) || slices.ContainsFunc(r.Tables, func(t Table) bool { return slices.Contains(t.Players, id) })
}

// NoShow takes player id, who did not come to table number of round n
// (the latest), from it before its game begins (no result, no recorded
// game): they are dropped from round n+1, and their seat in round n counts
// as the ruleset's no_show says. The table's seating, which named them,
// goes: the players left draw their play order again. A table of 3 keeps
// its three: a substitute sits in first (SitIn).
func (s *Service) NoShow(ctx context.Context, judge string, tournamentID int64, n, number int, id int64) (Player, error) {
	e, err := s.loadOpen(ctx, judge, tournamentID)
	if err != nil {
		return Player{}, err
	}
	r, i, err := e.latestTable(n, number)
	if err != nil {
		return Player{}, err
	}
	p, ok := e.player(id)
	switch {
	case !ok:
		return Player{}, fmt.Errorf("player %d: %w", id, ErrNotFound)
	case !slices.Contains(r.Tables[i].Players, id):
		return Player{}, invalid("no-show-not-at-table", fmt.Sprintf("%s does not sit at round %d table %d", describe(p), n, number),
			map[string]any{"Player": p.Name, "Round": n, "Table": number})
	case len(r.Tables[i].Players) <= 3:
		return Player{}, invalid("no-show-table-of-3", fmt.Sprintf("round %d table %d would be left with %d players: seat a substitute first", n, number, len(r.Tables[i].Players)-1),
			map[string]any{"Round": n, "Table": number})
	}
	before := p
	p.NoShowRound = n
	if p.DroppedRound == 0 {
		p.DroppedRound = n + 1
	}
	left := r
	left.Tables = slices.Clone(r.Tables)
	left.Tables[i].Players = slices.DeleteFunc(slices.Clone(r.Tables[i].Players), func(pid int64) bool { return pid == id })
	if err := e.rescore(&left); err != nil {
		return Player{}, err
	}
	effect := e.t.Ruleset.WithDefaults().NoShow
	c := s.change(judge, ActionNoShow, fmt.Sprintf("round %d table %d: %s (%s)", n, number, p.Name, effect), snapshot(before), snapshot(p))
	if err := s.store.LeaveTable(ctx, left, number, p, c); err != nil {
		return Player{}, err
	}
	return p, nil
}

// NoShowEffect is how a no-show's seat counts under the tournament's
// ruleset.
func (t Tournament) NoShowEffect() referee.Missed { return t.Ruleset.WithDefaults().NoShow }

// rescore sets r's repeats and pairing cost to what its tables make
// against the rounds before it (pairing.Score, as the draw counted them):
// a table a late player, a substitute or a no-show changed is counted as
// it is played, so the round's record says what its tables make
// (catanjudge check derives them the same way).
func (e record) rescore(r *Round) error {
	who := slices.Clone(r.Byes)
	tables := make([][]string, len(r.Tables))
	for i, t := range r.Tables {
		who = append(who, t.Players...)
		tables[i] = pids(t.Players)
	}
	req, err := e.request(r.Number, who, r.Seed)
	if err != nil {
		return err
	}
	scored, err := pairing.Score(req, tables, pids(r.Byes))
	if err != nil {
		return fmt.Errorf("round %d: %w", r.Number, e.named(err))
	}
	r.Cost, r.Repeats = scored.Cost, scored.Repeats
	return nil
}
