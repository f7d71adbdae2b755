package rating

import (
	"cmp"
	"fmt"
	"slices"
)

// Game is one table's finished game: its players and the place each took
// (1 is first; players who share a place tie). A table of 3 is a game as
// a table of 4 is: the model compares whoever sat at it.
type Game struct {
	Players []int64
	Places  []int
}

// Event is one event's games, round by round. The games of one round are
// rated together, from the ratings before the round (a player plays one
// game a round); a final stage is a round like any other.
type Event struct {
	ID string // the event's key in the history
	// Date is the day the event was played (YYYY-MM-DD): events are rated
	// in the order they were played, however late one was entered.
	Date string
	// Seq orders events of one date: the order they were held in, as far
	// as anyone knows (the order they were entered).
	Seq    int64
	Rounds [][]Game
}

// Point is what one event did to a player's rating.
type Point struct {
	Event         string
	Date          string
	Before, After Rating
	Games         int // the player's games in the event
}

// Ledger is every player's rating after a replay of the events, with the
// history that led to it.
type Ledger struct {
	model   Model
	ratings map[int64]Rating
	games   map[int64]int
	history map[int64][]Point
}

// Replay rates the games of events from new ratings, event by event in the
// order they were played (Event.Date, then Event.Seq, then Event.ID), round
// by round. The outcome depends only on the events: an event corrected or
// dated anew changes the ratings from that event on, and the same events
// replayed give the same ledger.
func Replay(m Model, events []Event) (*Ledger, error) {
	ordered := slices.Clone(events)
	slices.SortStableFunc(ordered, func(a, b Event) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.ID, b.ID))
	})
	l := &Ledger{model: m, ratings: map[int64]Rating{}, games: map[int64]int{}, history: map[int64][]Point{}}
	for _, e := range ordered {
		if err := l.play(e); err != nil {
			return nil, fmt.Errorf("event %s: %w", e.ID, err)
		}
	}
	return l, nil
}

// play rates one event's rounds and records each player's point.
func (l *Ledger) play(e Event) error {
	before := map[int64]Rating{}
	played := map[int64]int{}
	var order []int64
	for n, round := range e.Rounds {
		seen := map[int64]bool{}
		for g, game := range round {
			if len(game.Players) != len(game.Places) {
				return fmt.Errorf("round %d game %d: %d places for %d players", n+1, g+1, len(game.Places), len(game.Players))
			}
			ratings := make([]Rating, len(game.Players))
			for i, p := range game.Players {
				if seen[p] {
					return fmt.Errorf("round %d: player %d plays two games", n+1, p)
				}
				seen[p] = true
				ratings[i] = l.Rating(p)
				if _, ok := before[p]; !ok {
					before[p] = ratings[i]
					order = append(order, p)
				}
			}
			after, err := l.model.Rate(ratings, game.Places)
			if err != nil {
				return fmt.Errorf("round %d game %d: %w", n+1, g+1, err)
			}
			for i, p := range game.Players {
				l.ratings[p] = after[i]
				l.games[p]++
				played[p]++
			}
		}
	}
	for _, p := range order {
		l.history[p] = append(l.history[p], Point{Event: e.ID, Date: e.Date, Before: before[p], After: l.ratings[p], Games: played[p]})
	}
	return nil
}

// Rating returns a player's rating: a new player's before any game.
func (l *Ledger) Rating(p int64) Rating {
	if r, ok := l.ratings[p]; ok {
		return r
	}
	return l.model.New()
}

// Games returns how many games a player was rated on.
func (l *Ledger) Games(p int64) int { return l.games[p] }

// History returns a player's points, event by event in the order rated.
func (l *Ledger) History(p int64) []Point { return slices.Clone(l.history[p]) }

// Players returns every player rated, by ID.
func (l *Ledger) Players() []int64 {
	out := make([]int64, 0, len(l.ratings))
	for p := range l.ratings {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
