package tournament

import (
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// Late entries (issue 30): a player who arrives after a round was paired
// joins it while it has not started, as the ruleset prefers (a table of 3
// becomes 4, or a new table of the late players: referee.SeatLate), or
// starts from the next round, the rounds they missed counting as the
// ruleset says (referee.MissedGame).

// ActionSeatLate is the audit action of SeatLate.
const ActionSeatLate = "round.late"

// LateSeating says what SeatLate did in a round.
type LateSeating struct {
	Round  int
	Join   referee.LateJoin // the ruleset's preference
	Missed referee.Missed   // how the rounds a late player missed count
	Seated []LateSeat       // the players who joined the round
	Next   []int64          // the players who start from the next round
}

// LateSeat is a late player seated in a paired round.
type LateSeat struct {
	Player   int64
	Table    int
	NewTable bool // a table of the late players, added to the round
}

// SeatLate enters the players ids, who arrived after round n (the latest)
// was paired: while the round has not started they join it as the
// ruleset's late_entry.join says (referee.SeatLate), the others start from
// round n+1; every round before their first counts as late_entry.missed
// says. They are checked in. The round page and the audit say which.
func (s *Service) SeatLate(ctx context.Context, judge string, tournamentID int64, n int, ids []int64) (LateSeating, error) {
	e, err := s.loadOpen(ctx, judge, tournamentID)
	if err != nil {
		return LateSeating{}, err
	}
	old, late, err := e.lateOf(n, ids)
	if err != nil {
		return LateSeating{}, err
	}
	rs := e.t.Ruleset.WithDefaults()
	wasStarted := started(old, e.clocks[old.ID])
	sizes := make([]int, len(old.Tables))
	for i, t := range old.Tables {
		sizes[i] = len(t.Players)
	}
	at := referee.SeatLate(sizes, len(late), rs.LateEntry.Join, wasStarted)
	out := LateSeating{Round: n, Join: rs.LateEntry.Join, Missed: rs.LateEntry.Missed}
	r := old
	r.Tables = slices.Clone(old.Tables)
	for i := range r.Tables {
		r.Tables[i].Players = slices.Clone(r.Tables[i].Players)
	}
	last := 0
	if len(old.Tables) > 0 {
		last = old.Tables[len(old.Tables)-1].Number
	}
	for i := range late {
		p := &late[i]
		p.CheckedIn = true
		t := at[i]
		if t == referee.LateNone {
			p.LateEntryRound, p.LateJoin = n+1, referee.LateNextRound
			out.Next = append(out.Next, p.ID)
			continue
		}
		p.LateEntryRound, p.LateJoin = n, referee.LateFill
		if t >= len(old.Tables) {
			p.LateJoin = referee.LateNewTable
			number := last + 1 + t - len(old.Tables)
			if t >= len(r.Tables) {
				r.Tables = append(r.Tables, Table{RoundID: old.ID, Number: number})
			}
		}
		r.Tables[t].Players = append(r.Tables[t].Players, p.ID)
		out.Seated = append(out.Seated, LateSeat{Player: p.ID, Table: r.Tables[t].Number, NewTable: t >= len(old.Tables)})
	}
	if err := e.rescore(&r); err != nil {
		return LateSeating{}, err
	}
	c := s.change(judge, ActionSeatLate, fmt.Sprintf("round %d", n), nil, out)
	if err := s.store.SeatPlayers(ctx, &r, old, late, len(out.Seated) > 0, c); err != nil {
		return LateSeating{}, err
	}
	return out, nil
}

// lateOf returns round n, which late players may join (the latest, not a
// final), and the players ids to enter late in it, refusing a player who
// cannot be: one dropped, a substitute, or one the round already has.
func (e record) lateOf(n int, ids []int64) (Round, []Player, error) {
	r, err := e.round(n)
	if err != nil {
		return Round{}, nil, err
	}
	switch {
	case n != len(e.rounds):
		return Round{}, nil, invalid("late-not-latest", fmt.Sprintf("late players join the latest round (%d), not round %d", len(e.rounds), n),
			map[string]any{"Round": n, "Latest": len(e.rounds)})
	case r.Mode == ModeFinal:
		return Round{}, nil, invalid("late-final", fmt.Sprintf("round %d is a final stage: its players come from the cut", n), map[string]any{"Round": n})
	case len(ids) == 0:
		return Round{}, nil, invalid("late-none", "choose the late players to enter", nil)
	}
	in := map[int64]bool{}
	for _, id := range r.Byes {
		in[id] = true
	}
	for _, t := range r.Tables {
		for _, id := range t.Players {
			in[id] = true
		}
	}
	var late []Player
	for _, id := range ids {
		p, ok := e.player(id)
		switch {
		case !ok:
			return Round{}, nil, fmt.Errorf("player %d: %w", id, ErrNotFound)
		case p.DroppedRound != 0:
			return Round{}, nil, invalid("late-dropped", describe(p)+" has dropped", map[string]any{"Player": p.Name})
		case p.Substitute:
			return Round{}, nil, invalid("late-substitute", describe(p)+" is a substitute: a substitute sits in at a table, they do not enter",
				map[string]any{"Player": p.Name})
		case in[id]:
			return Round{}, nil, invalid("late-in-round", fmt.Sprintf("%s is already in round %d", describe(p), n),
				map[string]any{"Player": p.Name, "Round": n})
		}
		in[id] = true
		late = append(late, p)
	}
	return r, late, nil
}

// LateView is what the round page says of late players.
type LateView struct {
	Join   referee.LateJoin
	Missed referee.Missed
	// Open says late players can be entered in the round: the latest, not
	// a final. Started says the round has started: they start from the
	// next round.
	Open, Started bool
	// Waiting are the checked-in players the round does not have: late
	// arrivals to enter.
	Waiting []Player
	// Entries are the late players of the round, in registration order.
	Entries []LateLine
	// Subs are the substitutes the round does not seat, who may sit in
	// at a table of 3 (SitIn) while it is open.
	Subs []Player
}

// JoinsRound says entering the waiting players now seats them in this
// round (referee.SeatLate): the round has not started and the ruleset lets
// late players join a paired round. Otherwise they start from the next.
func (v LateView) JoinsRound() bool {
	return !v.Started && v.Join != referee.LateNextRound
}

// LateLine is one late player of a round, as the round page says it.
type LateLine struct {
	Player Player
	How    referee.LateJoin
	Table  int // the table they joined, 0 when they start from the next round
	From   int // the first round they play
}

// LateView returns what round n's page says of late players.
func (s *Service) LateView(ctx context.Context, tournamentID int64, n int) (LateView, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return LateView{}, err
	}
	e := snap.e
	r, err := e.round(n)
	if err != nil {
		return LateView{}, err
	}
	rs := e.t.Ruleset.WithDefaults()
	v := LateView{Join: rs.LateEntry.Join, Missed: rs.LateEntry.Missed, Started: started(r, e.clocks[r.ID]),
		Open: n == len(e.rounds) && r.Mode != ModeFinal && e.t.Closed == nil}
	table := map[int64]int{}
	for _, t := range r.Tables {
		for _, id := range t.Players {
			table[id] = t.Number
		}
	}
	for _, id := range r.Byes {
		table[id] = -1
	}
	for _, p := range e.players {
		switch {
		case p.LateJoin == referee.LateNextRound && p.LateEntryRound == n+1:
			v.Entries = append(v.Entries, LateLine{Player: p, How: p.LateJoin, From: n + 1})
		case p.LateJoin != "" && p.LateJoin != referee.LateNextRound && p.LateEntryRound == n && table[p.ID] > 0:
			v.Entries = append(v.Entries, LateLine{Player: p, How: p.LateJoin, Table: table[p.ID], From: n})
		case v.Open && p.Substitute && p.DroppedRound == 0 && table[p.ID] == 0:
			v.Subs = append(v.Subs, p)
		case v.Open && p.CheckedIn && p.DroppedRound == 0 && !p.Substitute && table[p.ID] == 0 && p.LateEntryRound <= n:
			v.Waiting = append(v.Waiting, p)
		}
	}
	return v, nil
}

// lateGames are the games the standings credit for rounds a player did
// not play (referee.MissedGame): the qualifying rounds before a late
// player's first, as late_entry.missed says, and a no-show's round, as
// no_show says.
func (e record) lateGames(rounds []Round) []referee.Game {
	rs := e.t.Ruleset.WithDefaults()
	var out []referee.Game
	for _, p := range e.players {
		for _, r := range rounds {
			m := referee.MissedNotPlayed
			switch {
			case r.Mode == ModeFinal:
				continue
			case r.Number < p.LateEntryRound:
				m = rs.LateEntry.Missed
			case r.Number == p.NoShowRound:
				m = rs.NoShow
			}
			if g, ok := referee.MissedGame(pid(p.ID), m); ok {
				out = append(out, g)
			}
		}
	}
	return out
}

// substituted is game g with its substitutes counted as the ruleset's
// substitutes setting says (referee.SubstituteGame), and the games it
// credits them instead.
func (e record) substituted(g referee.Game) (referee.Game, []referee.Game) {
	subs := map[string]bool{}
	for _, pl := range g.Placings {
		if p, ok := e.player(fromPID(pl.Player)); ok && p.Substitute {
			subs[pl.Player] = true
		}
	}
	if len(subs) == 0 {
		return g, nil
	}
	return referee.SubstituteGame(g, subs, e.t.Ruleset.WithDefaults().Substitutes)
}

// ranked are the IDs of the players the standings rank: every player but
// a substitute whose games count for nobody.
func (e record) ranked() []int64 {
	nobody := e.t.Ruleset.WithDefaults().Substitutes.Count == referee.SubstituteNobody
	ids := make([]int64, 0, len(e.players))
	for _, p := range e.players {
		if !(p.Substitute && nobody) {
			ids = append(ids, p.ID)
		}
	}
	return sortedIDs(ids)
}
