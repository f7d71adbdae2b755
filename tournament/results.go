package tournament

import (
	"context"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// EventResults is a tournament's whole record as the players' pages show
// it (issue 18): every round's tables with their placings, the standings
// after each round, the final results and the penalties shown to players.
// It is read in one go (Service.EventResults), so that a player's page and
// the results page are cut from one read the kiosk keeps until the next
// change.
type EventResults struct {
	Tournament Tournament
	Players    []Player // by CollationKey
	Rounds     []RoundResults
	// Standings are the standings after every qualifying round with a
	// result at every table (as Live's), and Final the final results once
	// the final is played.
	Standings []Standing
	Final     []FinalStanding
	// Winners are who won the event once it is finished (Winners).
	Winners []Winner
	// Penalties are the penalties shown to players (Penalty.Shown),
	// oldest first.
	Penalties []Penalty
	// Labels are the players' labels by ID (Labels).
	Labels map[int64]string
	byID   map[int64]int
}

// RoundResults is one round of an event's record.
type RoundResults struct {
	Number int
	Final  bool // a stage of the final (ModeFinal)
	Tables []TableView
	Byes   []int64
	// Standings are the standings after the round (as StandingsAfter):
	// nil for a stage of the final, which the standings do not count, and
	// for a round without a result at every table yet.
	Standings []Standing
}

// Shown reports whether players see the penalty on their pages: a
// standing penalty that changes a game or the event (a VP deduction, a
// game loss, a disqualification), which every screen shows as such
// (docs/rules.md, Penalties). A caution or a warning changes nothing a
// player's record shows, and stays between the judge and the player; a
// revoked penalty is not a penalty.
func (p Penalty) Shown() bool {
	if p.Revoked != nil {
		return false
	}
	switch p.Level {
	case referee.VPDeduction, referee.GameLoss, referee.Disqualification:
		return true
	}
	return false
}

// EventResults reads a tournament's whole record for the players' pages.
func (s *Service) EventResults(ctx context.Context, tournamentID int64) (EventResults, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return EventResults{}, err
	}
	out := EventResults{Tournament: e.t, Players: slices.Clone(e.players), Labels: e.labels, byID: map[int64]int{}}
	sortPlayers(out.Players)
	for i, p := range out.Players {
		out.byID[p.ID] = i
	}
	for _, p := range e.penalties {
		if p.Shown() {
			out.Penalties = append(out.Penalties, p)
		}
	}
	complete, qualifying := e.complete(), len(e.qualifying())
	for _, r := range e.rounds {
		rr := RoundResults{Number: r.Number, Final: r.Mode == ModeFinal, Byes: r.Byes}
		for _, t := range r.Tables {
			tv, err := e.tableView(r, t)
			if err != nil {
				return EventResults{}, err
			}
			rr.Tables = append(rr.Tables, tv)
		}
		if r.Number <= min(complete, qualifying) {
			if rr.Standings, err = e.after(r.Number).standings(); err != nil {
				return EventResults{}, err
			}
		}
		out.Rounds = append(out.Rounds, rr)
	}
	if n := min(complete, qualifying); n > 0 {
		out.Standings = out.Rounds[n-1].Standings
	}
	if out.Final, err = e.finalStandings(); err != nil {
		return EventResults{}, err
	}
	out.Winners = e.winners(out.Standings, out.Final)
	return out, nil
}

// after returns the event as it stood after round n: its rounds 1 to n,
// the penalties given outside a round or in them.
func (e record) after(n int) record {
	e.rounds = e.rounds[:n]
	var pens []Penalty
	for _, p := range e.penalties {
		if p.Round <= n {
			pens = append(pens, p)
		}
	}
	e.penalties = pens
	return e
}

// Player returns a player of the event.
func (r EventResults) Player(id int64) (Player, bool) {
	i, ok := r.byID[id]
	if !ok {
		return Player{}, false
	}
	return r.Players[i], true
}

// Rank returns a player's rank in the event: in the final results once
// the final is played, else in the standings after the rounds complete;
// 0 when they have none (no game counted yet).
func (r EventResults) Rank(id int64) int { return rankIn(r.Final, r.Standings, id) }

// Rank returns a player's rank in the event, as EventResults.Rank does.
func (l Live) Rank(id int64) int { return rankIn(l.Final, l.Standings, id) }

// rankIn is player id's rank in the final results, else in standings; 0
// for none.
func rankIn(final []FinalStanding, standings []Standing, id int64) int {
	for _, f := range final {
		if f.PlayerID == id {
			return f.Rank
		}
	}
	for _, st := range standings {
		if st.PlayerID == id && st.Played > 0 {
			return st.Rank
		}
	}
	return 0
}

// PlayerRound is one round of a player's event, as their page shows it.
type PlayerRound struct {
	Number int
	Final  bool // a stage of the final
	// Table is the player's table; 0 with Bye for a bye, 0 without it
	// for a stage of the final they did not reach.
	Table int
	Bye   bool
	Seat  int           // play order, 0 before the table is seated
	Color referee.Color // "" before
	// Players are everyone at the table, in play order once seated.
	Players []SeatView
	Result  *Result   // the table's latest revision; nil until saved
	Places  []Placing // the table's placings, from Result
	Placing *Placing  // the player's, with what penalties took off; nil until saved
	// Breakdown is the player's VP by where they come from, when the
	// sheet gives it.
	Breakdown *referee.Breakdown
	// Rank is the player's position in the standings after the round; 0
	// when the round is a stage of the final or not complete yet.
	Rank      int
	Penalties []Penalty // shown to players (Penalty.Shown), given in the round
}

// PlayerHistory is one player's event, round by round.
type PlayerHistory struct {
	Player    Player
	Rounds    []PlayerRound // the rounds the player was in, by number
	Rank      int           // Rank: 0 for none yet
	Standing  *Standing     // their line in the standings; nil before a game counts
	Penalties []Penalty     // shown to players, given outside a round
}

// PlayerHistory returns a player's event round by round: where they sat,
// how they placed, their standing after each round and the penalties
// shown to players; false when the event has no such player.
func (r EventResults) PlayerHistory(id int64) (PlayerHistory, bool) {
	p, ok := r.Player(id)
	if !ok {
		return PlayerHistory{}, false
	}
	h := PlayerHistory{Player: p, Rank: r.Rank(id)}
	for i, st := range r.Standings {
		if st.PlayerID == id && st.Played > 0 {
			h.Standing = &r.Standings[i]
		}
	}
	for _, pen := range r.Penalties {
		if pen.PlayerID == id && pen.Round == 0 {
			h.Penalties = append(h.Penalties, pen)
		}
	}
	for _, rr := range r.Rounds {
		pr, ok := rr.of(id)
		if !ok {
			continue
		}
		for _, pen := range r.Penalties {
			if pen.PlayerID == id && pen.Round == rr.Number {
				pr.Penalties = append(pr.Penalties, pen)
			}
		}
		h.Rounds = append(h.Rounds, pr)
	}
	return h, true
}

// of returns player id's round; false when they were not in it (not yet
// entered, or dropped).
func (rr RoundResults) of(id int64) (PlayerRound, bool) {
	pr := PlayerRound{Number: rr.Number, Final: rr.Final}
	for _, st := range rr.Standings {
		if st.PlayerID == id && st.Played > 0 {
			pr.Rank = st.Rank
		}
	}
	if slices.Contains(rr.Byes, id) {
		pr.Bye = true
		return pr, true
	}
	for _, tv := range rr.Tables {
		i := slices.IndexFunc(tv.Players, func(sv SeatView) bool { return sv.PlayerID == id })
		if i < 0 {
			continue
		}
		pr.Table, pr.Seat, pr.Color, pr.Players, pr.Result, pr.Places = tv.Table.Number, tv.Players[i].Seat, tv.Players[i].Color, tv.Players, tv.Result, tv.Places
		for j := range tv.Places {
			if tv.Places[j].PlayerID == id {
				pr.Placing = &tv.Places[j]
			}
		}
		if tv.Result != nil {
			for _, sc := range tv.Result.Scores {
				if sc.PlayerID == id {
					pr.Breakdown = sc.Breakdown
				}
			}
		}
		return pr, true
	}
	// A stage of the final seats its cut alone: the others did not advance.
	return pr, rr.Final
}
