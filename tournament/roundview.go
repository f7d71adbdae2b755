package tournament

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// Rounds returns every round as recorded, by number.
func (s *Service) Rounds(ctx context.Context, tournamentID int64) ([]Round, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.Rounds(), nil
}

// RoundView is a round as the console and the kiosk show it.
type RoundView struct {
	Round  Round
	Tables []TableView
	Byes   []Player
	Clock  []ClockEvent // the facts the round's clock is computed from
	Timer  Clock        // the clock computed from Clock at the time of the view
	// Started says something is recorded at a table (a seating, a result)
	// or on the clock: the round is no longer paired again (RepairRound).
	Started bool
	// Missing lists players active in the round who are not in its pairing
	// (late entries, players checked in since); Withdrawn lists players in
	// the pairing who no longer play it. Either calls for RepairRound.
	// Both are by CollationKey.
	Missing, Withdrawn []Player
	// Repeats are the round's repeat meetings, by table.
	Repeats []Repeat
	// Labels are the tournament's players' labels by ID (Labels), for the
	// byes and every player named.
	Labels map[int64]string
}

// TableView is one table with its players, board and placings.
type TableView struct {
	Table   Table
	Players []SeatView     // in play order once seated, else in pairing order
	Board   *referee.Board // nil until the board is set
	Result  *Result        // the latest revision, or nil (and while it waits for confirmation)
	Places  []Placing      // computed from Result and the penalties given in the game
	// Entered is the latest revision while it waits for a second
	// account's confirmation (Table.Entered), placed as EnteredPlaces.
	Entered       *Result
	EnteredPlaces []Placing
	Clock         TableClock // the table's time on the round's clock
	// Locked says the table's seating and board no longer change: a
	// result was played on them (SetSeating, SetBoard, SetDeal refuse).
	Locked bool
}

// SeatView is a player at a table.
type SeatView struct {
	PlayerID int64
	Name     string
	Kana     string
	Label    string // the name, told apart from the same names (Labels)
	Seat     int    // play order, 0 before seating
	Color    referee.Color
}

// Placing is a player's place in one game, computed from the latest result
// revision and the penalties given in the game.
type Placing struct {
	PlayerID int64
	VP       int // what counts: capped (§11) and after penalties
	Place    int
	Reported int // the VP written on the score sheet, before the cap
	// Deducted is what the game's penalties took off the capped VP: a VP
	// deduction's points, or every point for a game loss (docs/rules.md,
	// Penalties), so that VP = min(Reported, cap) - Deducted.
	Deducted int
	// Penalties are the standing penalties given to the player in the game
	// that change its score or place (a VP deduction, a game loss, a
	// disqualification), oldest first: what a deduction comes from.
	Penalties []Penalty
}

// Sum is the arithmetic from the VP on the score sheet to what counts, as
// every page shows it (docs/rules.md, Penalties: a deduction shows as such,
// not just the lower number): the cap (§11), then a game loss (0) or the
// deduction: "6 − 2 = 4", "12 → 10", "6 → 0". It is "" when nothing
// changed the sheet's VP.
func (p Placing) Sum() string {
	capped := p.VP + p.Deducted
	sum := fmt.Sprint(p.Reported)
	if capped != p.Reported {
		sum += fmt.Sprintf(" → %d", capped)
	}
	switch {
	case p.Lost():
		if capped != 0 {
			sum += " → 0"
		}
	case p.Deducted > 0:
		sum += fmt.Sprintf(" − %d = %d", p.Deducted, p.VP)
	}
	if sum == fmt.Sprint(p.VP) {
		return ""
	}
	return sum
}

// Lost reports whether a penalty made the game a loss for the player.
func (p Placing) Lost() bool {
	return slices.ContainsFunc(p.Penalties, func(x Penalty) bool {
		return x.Level == referee.GameLoss || x.Level == referee.Disqualification
	})
}

// RoundView returns round n with its tables' players, boards and placings.
func (s *Service) RoundView(ctx context.Context, tournamentID int64, n int) (RoundView, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return RoundView{}, err
	}
	return snap.RoundView(n, s.Now())
}

// roundView builds RoundView for round n of the event, its clock at now.
func (e record) roundView(n int, now time.Time) (RoundView, error) {
	r, err := e.round(n)
	if err != nil {
		return RoundView{}, err
	}
	v := RoundView{Round: r, Repeats: e.repeats(r), Labels: e.labels, Clock: e.clocks[r.ID]}
	v.Timer = clockAt(e.t, r, v.Clock, r.Tables, now)
	v.Started = started(r, v.Clock)
	paired := map[int64]bool{}
	for _, t := range r.Tables {
		tv, err := e.tableView(r, t)
		if err != nil {
			return RoundView{}, err
		}
		tv.Clock, _ = v.Timer.Table(t.Number)
		v.Tables = append(v.Tables, tv)
		for _, id := range t.Players {
			paired[id] = true
		}
	}
	for _, id := range r.Byes {
		paired[id] = true
		if p, ok := e.player(id); ok {
			v.Byes = append(v.Byes, p)
		}
	}
	for _, p := range e.players {
		switch {
		case paired[p.ID] && !p.Active(n):
			v.Withdrawn = append(v.Withdrawn, p)
		case !paired[p.ID] && p.Active(n) && p.CheckedIn && r.Mode != ModeFinal:
			// A final stage seats the players of its cut alone.
			v.Missing = append(v.Missing, p)
		}
	}
	sortPlayers(v.Missing)
	sortPlayers(v.Withdrawn)
	return v, nil
}

func (e record) tableView(r Round, t Table) (TableView, error) {
	tv := TableView{Table: t, Result: t.Result, Entered: t.Entered, Locked: t.checkUnlocked(r.Number) != nil}
	for _, id := range t.Players {
		p, _ := e.player(id)
		tv.Players = append(tv.Players, SeatView{PlayerID: id, Name: p.Name, Kana: p.Kana, Label: e.labels[id]})
	}
	if t.Seating != nil {
		for i := range tv.Players {
			for _, st := range t.Seating.Seats {
				if st.PlayerID == tv.Players[i].PlayerID {
					tv.Players[i].Seat, tv.Players[i].Color = st.Order, st.Color
				}
			}
		}
		slices.SortStableFunc(tv.Players, func(a, b SeatView) int { return a.Seat - b.Seat })
	}
	if t.Board != nil {
		b, err := boardOf(e.t.Ruleset, *t.Board)
		if err != nil {
			return TableView{}, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
		tv.Board = &b
	}
	if t.Result != nil {
		ps, err := e.placings(r.Number, *t.Result)
		if err != nil {
			return TableView{}, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
		tv.Places = ps
	}
	if t.Entered != nil {
		var err error
		if tv.EnteredPlaces, err = e.placings(r.Number, *t.Entered); err != nil {
			return TableView{}, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
	}
	return tv, nil
}

// placings places a game of round n from a result revision, as place does,
// with each player's score as written, what the penalties took off and the
// penalties that did (docs/rules.md, Penalties: a deduction shows as such).
func (e record) placings(n int, res Result) ([]Placing, error) {
	ps, err := e.place(n, res)
	if err != nil {
		return nil, err
	}
	out := make([]Placing, len(ps))
	for i, p := range ps {
		id := fromPID(p.Player)
		pl := Placing{PlayerID: id, VP: p.VP, Place: p.Place}
		for _, sc := range res.Scores {
			if sc.PlayerID == id {
				pl.Reported = sc.VP
			}
		}
		pl.Deducted = e.t.Ruleset.CapVP(pl.Reported) - p.VP
		for _, x := range e.gamePenalties[entry{n, id}] {
			if x.Level == referee.VPDeduction || x.Level == referee.GameLoss || x.Level == referee.Disqualification {
				pl.Penalties = append(pl.Penalties, x)
			}
		}
		out[i] = pl
	}
	return out, nil
}
