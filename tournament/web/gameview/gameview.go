// Package gameview says a table's recorded game as the pages show it: the
// board with its pieces and the robber, the player to act and the phase,
// each player's VP, hand and development cards, the holders of the
// 2-point cards, and the moves in words. The judges' record page shows all
// the rules engine keeps; the room (the kiosk's board, on the projector or
// a phone) sees what the players at the table see (game.State.PublicVP,
// game.MoveSpec.Public): the hands as counts, and neither the cards face
// down nor the card a robber took.
package gameview

import (
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// Audience is who a view is for.
type Audience int

// The audiences of a recorded game.
const (
	Judges Audience = iota // everything the engine keeps
	Room                   // what the players at the table see
)

// Seat is a player of the game, in play order.
type Seat struct {
	ID       string // the player's id, as the moves name them
	Name     string
	Color    string // colour id: the CSS class of the seat dot
	ColorTxt string
}

// View is a recorded game as a page shows it.
type View struct {
	Board  drawing.Board
	Status string // who is to act, and what: the phase in words with its section
	Phase  string // the phase's id (game.Phase): setup, roll, discard, robber, main, over
	Over   bool
	// Players are in play order.
	Players     []Player
	LongestRoad Award
	LargestArmy Award
	Bank        string // the bank's resource cards (judges)
	Deck        int    // development cards left to buy
	Moves       []Move // newest first
	Count       int    // the record's moves
}

// Award is who holds a 2-point card, and (for the judges) the rule that
// put it there, with its section.
type Award struct {
	Holder string // the holder's name, "" while the card is in the bank
	Color  string
	Why    string
}

// Player is one player's part of the game.
type Player struct {
	Name     string
	Color    string
	ColorTxt string
	Current  bool // the player to act
	VP       int  // judges: every VP; room: the VP the table sees
	// Breakdown says where the VP come from.
	Breakdown   string
	Cards       int    // resource cards in hand
	Hand        string // by resource (judges)
	Dev         int    // development cards not played, face down
	DevText     string // by kind (judges)
	Played      string // development cards played with effect (face up)
	Road        int    // the longest road (§10 ア)
	LongestRoad bool
	LargestArmy bool
	Owes        int // cards to return after a 7 (§6 イ)
}

// Move is one move of the record in words.
type Move struct {
	N      int
	Player string // who made it; "" for the judge's time signal
	Color  string
	Text   string
	Judge  string // who entered it (judges)
	At     string
	Voided string // the rule it stood void under, with its section (§8 エ, §9)
}

// Options say what a view shows.
type Options struct {
	ID      string           // the board drawing's id
	Targets drawing.Targets  // what a judge taps on the board
	Last    int              // the moves listed, newest first; 0 for all
	Names   map[int64]string // the players' names by id, for the reasons
}

// New lays out game g for the audience, its words in p's language.
func New(p i18n.Printer, g tournament.Game, seats []Seat, who Audience, o Options) View {
	st := g.State()
	b := g.Board
	b.HasRobber = false
	if h, ok := st.Robber(); ok {
		b.Robber, b.HasRobber = h, true
	}
	v := View{Board: drawing.NewBoard(p, o.ID, b, nil), Phase: st.Phase().String(), Over: st.Phase() == game.Over,
		Deck: st.DeckLeft(), Count: len(g.Moves)}
	ds := make([]drawing.Seat, len(seats))
	for i, s := range seats {
		ds[i] = drawing.Seat{Name: s.Name, Color: s.Color}
	}
	named := drawing.NewPlaces(p, &g.Board)
	v.Board.Play = drawing.NewPlay(named, g.Evaluation, ds, v.Board, o.Targets)
	w := words{p: p, places: named, seats: seats}
	v.Status = w.status(st)
	for i, s := range seats {
		v.Players = append(v.Players, w.player(st, i, s, who))
	}
	say := func(e *game.Error) string { return w.rule(tournament.ReasonOf(e).Violation(o.Names)) }
	award := func(a game.Award) Award {
		out := Award{}
		if a.Holder >= 0 {
			out.Holder, out.Color = seats[a.Holder].Name, seats[a.Holder].Color
		}
		if who == Judges {
			out.Why = say(a.Why)
		}
		return out
	}
	v.LongestRoad, v.LargestArmy = award(g.Evaluation.LongestRoad), award(g.Evaluation.LargestArmy)
	if who == Judges {
		v.Bank = w.cards(st.Bank())
	}
	voided := map[int]string{}
	for _, e := range g.Played.Voided {
		voided[e.Index] = say(e)
	}
	for i := len(g.Moves) - 1; i >= 0 && (o.Last == 0 || len(v.Moves) < o.Last); i-- {
		m := g.Moves[i]
		spec := m.Move
		if who == Room {
			spec = spec.Public()
		}
		mv := Move{N: m.Number, Text: w.move(spec), Voided: voided[i]}
		if spec.Do != "time_up" {
			// The time signal is the judge's (§12), not the player's to act.
			mover := seats[g.Played.Movers[i]]
			mv.Player, mv.Color = mover.Name, mover.Color
		}
		if who == Judges {
			mv.Judge, mv.At = m.Judge, p.Clock(m.At)
		}
		v.Moves = append(v.Moves, mv)
	}
	return v
}

// words says a game's facts in p's language.
type words struct {
	p      i18n.Printer
	places drawing.Places // the board's hexes, corners and sides in words
	seats  []Seat
}

// name returns the name of the player with id, or id.
func (w words) name(id string) string {
	for _, s := range w.seats {
		if s.ID == id {
			return s.Name
		}
	}
	return id
}

// status says who is to act and what, with the rule's section.
func (w words) status(st *game.State) string {
	cur := w.seats[st.Current()].Name
	switch st.Phase() {
	case game.Setup:
		// §4: each player places twice, in snake order.
		n := 2 * st.Players()
		placed := 0
		for q := range st.Players() {
			_, settlements, _ := st.Pieces(q)
			placed += settlements
		}
		return w.p.Text("record.status_setup", map[string]any{"Player": cur, "K": placed + 1, "N": n})
	case game.Discarding:
		var owing []string
		for q := range st.Players() {
			if k := st.Owed(q); k > 0 {
				owing = append(owing, w.p.Text("record.owes", map[string]any{"Player": w.seats[q].Name, "N": k}))
			}
		}
		return w.p.Text("record.status_discard", map[string]any{"Players": w.p.List(owing)})
	case game.Over:
		if wnr := st.Winner(); wnr >= 0 {
			return w.p.Text("record.status_declared", map[string]any{"Player": w.seats[wnr].Name})
		}
		return w.p.Text("record.status_time", nil)
	}
	return w.p.Text("record.status_"+st.Phase().String(), map[string]any{"Player": cur, "Turn": st.Turn()})
}

// player is player i's part of the game for the audience.
func (w words) player(st *game.State, i int, s Seat, who Audience) Player {
	vp := st.VP(i)
	if who == Room {
		vp = st.PublicVP(i)
	}
	held, played := st.Held(i), st.Played(i)
	pl := Player{Name: s.Name, Color: s.Color, ColorTxt: s.ColorTxt, Current: st.Phase() != game.Over && st.Current() == i,
		VP: vp.Total(), Cards: st.Hand(i).Total(), Dev: held.Total(), Road: st.RoadLength(i), Owes: st.Owed(i),
		LongestRoad: st.LongestRoad() == i, LargestArmy: st.LargestArmy() == i, Played: w.deck(played)}
	b := vp.Breakdown()
	pl.Breakdown = sheet.Said(w.p, &b)
	if who == Judges {
		pl.Hand, pl.DevText = w.cards(st.Hand(i)), w.deck(held)
	}
	return pl
}

// cards says resource cards by resource: 木2・土1; "なし" for none.
func (w words) cards(c game.Cards) string {
	var parts []string
	for _, r := range game.Resources {
		if c[r] > 0 {
			parts = append(parts, w.count("resource."+r.String(), int(c[r])))
		}
	}
	return w.join(parts)
}

// count says k of the thing named by the message id: 木2.
func (w words) count(id string, k int) string {
	return w.p.Text("record.count", map[string]any{"Name": w.p.Text(id, nil), "N": k})
}

// join lists short items as the language does (木2・土1), "なし" for none.
func (w words) join(items []string) string {
	if items == nil {
		return w.p.Text("record.none", nil)
	}
	return strings.Join(items, w.p.Text("record.sep", nil))
}

// deck says development cards by kind: ソルジャー2・1ポイントカード1; "" for none.
func (w words) deck(d game.Deck) string {
	var parts []string
	for c := game.Soldier; c <= game.Point; c++ {
		if d[c] > 0 {
			parts = append(parts, w.count("card."+c.String(), int(d[c])))
		}
	}
	return strings.Join(parts, w.p.Text("record.sep", nil))
}

// rule says a rule of play in p's language.
func (w words) rule(v *referee.Violation) string {
	return problem.Violation(w.p, w.places.Violation(v))
}
