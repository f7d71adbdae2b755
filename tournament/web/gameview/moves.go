package gameview

import (
	"reflect"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// move says a move of the record in words, without who made it: where
// each piece went by the hexes around it (丘陵6・森林4・畑9の角), the dice,
// the cards. A move as the room sees it has no card drawn or taken.
func (w words) move(m game.MoveSpec) string {
	t := func(id string, data map[string]any) string { return w.p.Text("record.move."+id, data) }
	switch m.Do {
	case "place":
		return t("place", map[string]any{"Corner": w.corner(m.Settlement), "Edge": w.edge(m.Road)})
	case "roll":
		if len(m.Dice) == 2 {
			return t("roll", map[string]any{"White": m.Dice[0], "Blue": m.Dice[1], "Sum": m.Dice[0] + m.Dice[1]})
		}
	case "discard":
		return t("discard", map[string]any{"Player": w.name(m.Player), "Cards": w.counts(m.Cards)})
	case "robber":
		return w.robbery(t("robber", map[string]any{"Hex": w.hex(m.Hex)}), m)
	case "trade":
		return t("trade", map[string]any{"With": w.name(m.With), "Give": w.counts(m.Give), "Get": w.counts(m.Get)})
	case "bank":
		return t("bank", map[string]any{"Give": w.counts(m.Give), "Get": w.counts(m.Get)})
	case "build":
		switch {
		case m.Road != nil:
			return t("road", map[string]any{"Edge": w.edge(m.Road)})
		case m.City != "":
			return t("city", map[string]any{"Corner": w.corner(m.City)})
		}
		return t("settlement", map[string]any{"Corner": w.corner(m.Settlement)})
	case "buy":
		card := ""
		if m.Card != "" {
			card = w.p.Text("card."+m.Card, nil)
		}
		return t("buy", map[string]any{"Card": card})
	case "play":
		return w.play(t, m)
	case "declare", "end_turn", "time_up":
		return t(m.Do, nil)
	}
	return m.Do
}

// play says the play of a development card.
func (w words) play(t func(string, map[string]any) string, m game.MoveSpec) string {
	switch m.Dev {
	case "soldier":
		return w.robbery(t("soldier", map[string]any{"Hex": w.hex(m.Hex)}), m)
	case "road_building":
		var roads []string
		for _, r := range m.Roads {
			roads = append(roads, w.edge(r))
		}
		return t("road_building", map[string]any{"Edges": w.p.List(roads)})
	case "harvest":
		return t("harvest", map[string]any{"Cards": w.counts(m.Take)})
	case "monopoly":
		return t("monopoly", map[string]any{"Resource": w.p.Text("resource."+m.Resource, nil)})
	}
	return m.Dev
}

// robbery adds to moved (the robber's move) whom it robbed, and what,
// when the move says so.
func (w words) robbery(moved string, m game.MoveSpec) string {
	if m.Rob == "" {
		return moved
	}
	took := ""
	if m.Took != "" {
		took = w.p.Text("resource."+m.Took, nil)
	}
	return moved + w.p.Text("record.move.rob", map[string]any{"Player": w.name(m.Rob), "Took": took})
}

// counts says resource cards given by name: 木2・土1.
func (w words) counts(c map[string]int) string {
	var parts []string
	for _, r := range game.Resources {
		if k := c[r.String()]; k > 0 {
			parts = append(parts, w.count("resource."+r.String(), k))
		}
	}
	return w.join(parts)
}

// hex says the hex a robber goes to.
func (w words) hex(h *referee.Hex) string {
	if h == nil {
		return ""
	}
	return w.places.Hex(*h)
}

// corner says a corner as the board is read (drawing.Places).
func (w words) corner(name string) string { return w.places.Name(name) }

// edge says an edge, given by its two corners, as the board is read.
func (w words) edge(ends []string) string {
	if len(ends) != 2 {
		return strings.Join(ends, " ")
	}
	return w.places.Name(ends[0] + "-" + ends[1])
}

// MoveText says move m of game g as the record page writes it: who made
// it, when the game still has it as its move number (an undone move's
// number may have been recorded again), and the move in words, for the
// judges. seats are g's players in play order.
func MoveText(p i18n.Printer, g tournament.Game, seats []Seat, number int, m game.MoveSpec) string {
	w := words{p: p, places: drawing.NewPlaces(p, &g.Board), seats: seats}
	text := w.move(m)
	if i := number - 1; m.Do != "time_up" && i >= 0 && i < len(g.Moves) && i < len(g.Played.Movers) &&
		reflect.DeepEqual(g.Moves[i].Move, m) && g.Played.Movers[i] < len(seats) {
		text = seats[g.Played.Movers[i]].Name + " " + text
	}
	return text
}
