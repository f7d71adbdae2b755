package tournament

import (
	"context"
	"slices"
	"time"
)

// Live is what the players' kiosk shows of a tournament, read at one moment:
// the latest round with its clock and results, and the standings.
type Live struct {
	Tournament Tournament
	Round      *RoundView // the latest round; nil before round 1 is paired
	// Standings are those after the complete rounds: StandingsAfter rounds,
	// every table of which has a result, so that nobody's line counts a
	// game the others have not played yet. LiveStandings count every
	// result recorded so far, mid-round too.
	Standings      []Standing
	StandingsAfter int
	LiveStandings  []Standing
	// Final is the event's final results once its final is played
	// (FinalStandings); nil before.
	Final []FinalStanding
	// Winners are who won the tournament once it is finished (Winners);
	// nil before.
	Winners []Winner
	// Teams are a team event's standings over Standings, LiveTeams over
	// LiveStandings (TeamStandings); nil without teams.
	Teams, LiveTeams []TeamStanding
}

// Live returns the tournament's latest round and standings, read together
// so that the two agree.
func (s *Service) Live(ctx context.Context, tournamentID int64) (Live, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return Live{}, err
	}
	return snap.Live(s.Now())
}

// live0 computes the snapshot's Live, its clock at now.
func (s *Snapshot) live0(now time.Time) (Live, error) {
	e := s.e
	l := Live{Tournament: e.t}
	if n := len(e.rounds); n > 0 {
		v, err := s.RoundView(n, now)
		if err != nil {
			return Live{}, err
		}
		l.Round = &v
	}
	var err error
	if l.LiveStandings, err = s.Standings(); err != nil {
		return Live{}, err
	}
	l.StandingsAfter = e.complete()
	l.Standings = l.LiveStandings
	if l.StandingsAfter < len(e.rounds) {
		done := e
		done.rounds = e.rounds[:l.StandingsAfter]
		if l.Standings, err = done.standings(); err != nil {
			return Live{}, err
		}
	}
	if l.Final, err = s.FinalStandings(); err != nil {
		return Live{}, err
	}
	l.Winners = e.winners(l.Standings, l.Final)
	l.Teams, l.LiveTeams = e.teamStandingsOf(l.Standings), e.teamStandingsOf(l.LiveStandings)
	return l, nil
}

// complete returns how many rounds, from the first, have a result at every
// table: the rounds standings can count without counting half a round.
func (e record) complete() int {
	for i, r := range e.rounds {
		if slices.ContainsFunc(r.Tables, func(t Table) bool { return t.Result == nil }) {
			return i
		}
	}
	return len(e.rounds)
}

// At returns l with the round's clock computed at now, for a Live read
// earlier and kept: every other part of it changes only with a recorded
// change.
func (l Live) At(now time.Time) Live {
	if l.Round == nil {
		return l
	}
	v := l.Round.At(l.Tournament, now)
	l.Round = &v
	return l
}

// At returns v with its clock computed at now, for a view read earlier and
// kept, as Live.At does; t is the round's tournament, whose game time the
// clock counts and whose end stops it.
func (v RoundView) At(t Tournament, now time.Time) RoundView {
	v.Timer = clockAt(t, v.Round, v.Clock, v.Round.Tables, now)
	v.Tables = slices.Clone(v.Tables)
	for i := range v.Tables {
		v.Tables[i].Clock, _ = v.Timer.Table(v.Tables[i].Table.Number)
	}
	return v
}

// Now returns the service's time, the reference of every clock it computes.
func (s *Service) Now() time.Time { return s.now().UTC() }
