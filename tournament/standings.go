package tournament

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// Standing is one player's line in the tournament standings.
type Standing struct {
	Rank     int // players equal on every key of the ruleset share a rank
	PlayerID int64
	Name     string
	Kana     string
	Label    string  // the name, told apart from the same names (Labels)
	Firsts   int     // 1st places, shared 1sts included
	VP       int     // total recorded VP (capped per game, after penalties)
	Share    float64 // VP share
	Points   int     // placement points
	Played   int     // games played
	Byes     int
	// Penalties counts the player's standing penalties, of any level;
	// revoked ones do not count.
	Penalties int
	// DroppedRound is the first round the player no longer plays; 0 while active.
	DroppedRound int
	// Disqualified is the effect of the player's disqualification on the
	// games they played, "" while they are not disqualified.
	Disqualified referee.DQEffect
}

// Standings ranks every player from the latest result revision of every
// table of the qualifying rounds (a final's tables decide FinalStandings), the byes, and the effect of the standing penalties (docs/rules.md,
// Tournament standings). Nothing of it is stored: it is computed on each call.
// Players sharing a rank are listed by CollationKey.
func (s *Service) Standings(ctx context.Context, tournamentID int64) ([]Standing, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.Standings()
}

// StandingsAfter ranks every player as Standings does, counting rounds 1
// to n alone and the penalties given outside a round or in them: the
// standings as they stood after round n, for a print of that moment.
func (s *Service) StandingsAfter(ctx context.Context, tournamentID int64, n int) ([]Standing, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.StandingsAfter(n)
}

// standings ranks the event's players, as Standings does, over the
// qualifying rounds: a final's games decide the final results
// (finalStandings), not the standings.
func (e record) standings() ([]Standing, error) {
	st, err := e.standingsOf(e.qualifying())
	if err != nil {
		return nil, e.named(err)
	}
	penalties := map[int64]int{}
	for _, p := range e.penalties {
		if p.Revoked == nil {
			penalties[p.PlayerID]++
		}
	}
	out := make([]Standing, 0, len(st))
	for _, x := range st {
		id := fromPID(x.Player)
		p, _ := e.player(id)
		out = append(out, Standing{
			Rank: x.Rank, PlayerID: id, Name: p.Name, Kana: p.Kana, Label: e.labels[id],
			Firsts: x.Firsts, VP: x.VP, Share: x.Share, Points: x.Points,
			Played: x.Played, Byes: x.Byes, Penalties: penalties[id], DroppedRound: p.DroppedRound,
			Disqualified: p.DQEffect,
		})
	}
	keys := make(map[int64]string, len(out))
	for _, x := range out {
		keys[x.PlayerID] = CollationKey(x.Kana, x.Name, x.PlayerID)
	}
	slices.SortFunc(out, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(keys[a.PlayerID], keys[b.PlayerID]))
	})
	return out, nil
}

// standingsOf computes the referee's standings of the event's players over rounds.
func (e record) standingsOf(rounds []Round) ([]referee.Standing, error) {
	var games []referee.Game
	var byes []string
	dq := e.disqualified()
	for _, r := range rounds {
		for _, t := range r.Tables {
			if t.Result == nil {
				continue
			}
			ps, err := e.place(r.Number, *t.Result)
			if err != nil {
				return nil, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
			}
			// A disqualification's effect on the games played (docs/rules.md, Penalties).
			if g, ok := referee.Disqualified(referee.Game{Placings: ps}, dq); ok {
				// A substitute's game (late.go, docs/rules.md).
				g, fixed := e.substituted(g)
				games = append(append(games, g), fixed...)
			}
		}
		byes = append(byes, pids(r.Byes)...)
	}
	// The rounds a late player missed, a no-show's seat (late.go).
	games = append(games, e.lateGames(rounds)...)
	ids := e.ranked()
	return referee.Standings(e.t.Ruleset, games, byes, pids(ids))
}
