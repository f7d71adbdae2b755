package tournament

import (
	"context"

	"github.com/catanjudge/catanjudge/referee"
)

// Winner is a player who won the event (Winners).
type Winner struct {
	PlayerID int64
	Name     string
	Kana     string
	Label    string // the name, told apart from the same names (Labels)
}

// Winners returns who won the tournament once it is finished (several
// when they share the first place), or nil while it is open. It is the
// one decision of the event's winner: every page, the API and the
// workbook name the players it returns.
func (s *Service) Winners(ctx context.Context, tournamentID int64) ([]Winner, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	standings, err := e.standings()
	if err != nil {
		return nil, err
	}
	final, err := e.finalStandings()
	if err != nil {
		return nil, err
	}
	return e.winners(standings, final), nil
}

// winners decides who won the event from its qualifying standings and its
// final results (nil without a final played), by referee.Winners: the
// final's first place where a final was played, by the final table's
// places and the ruleset's final tie rule; else the standings' first.
// Nobody has won an event that is not finished.
func (e record) winners(standings []Standing, final []FinalStanding) []Winner {
	if e.t.Closed == nil {
		return nil
	}
	st := make([]referee.Standing, len(standings))
	for i, x := range standings {
		st[i] = referee.Standing{Rank: x.Rank, Player: pid(x.PlayerID), Played: x.Played}
	}
	fs := make([]referee.FinalStanding, len(final))
	for i, f := range final {
		fs[i] = referee.FinalStanding{Rank: f.Rank, Player: pid(f.PlayerID)}
	}
	var out []Winner
	for _, w := range referee.Winners(fs, st) {
		id := fromPID(w)
		p, _ := e.player(id)
		out = append(out, Winner{PlayerID: id, Name: p.Name, Kana: p.Kana, Label: e.labels[id]})
	}
	return out
}
