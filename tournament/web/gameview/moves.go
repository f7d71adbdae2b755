package gameview

import (
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
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
		return t("road_building", map[string]any{"Edges": strings.Join(roads, "、")})
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

// tile says a land hex of the board.
func (w words) tile(h referee.Hex) string { return Tile(w.p, w.board, h) }

// Tile says land hex h of board b as players name it, in p's language:
// its terrain and number (森林4), or the desert.
func Tile(p i18n.Printer, b referee.Board, h referee.Hex) string {
	t, ok := b.TileAt(h)
	if !ok {
		return h.String()
	}
	s := p.Text("terrain."+string(t.Terrain), nil)
	if t.Number != 0 {
		s = p.Text("record.tile", map[string]any{"Terrain": s, "N": t.Number})
	}
	return s
}

// hex says the hex a robber goes to.
func (w words) hex(h *referee.Hex) string {
	if h == nil {
		return ""
	}
	return w.tile(*h)
}

// corner says a corner by the hexes around it: 丘陵6・森林4・畑9の角.
func (w words) corner(name string) string {
	v, ok := game.ParseVertex(name)
	if !ok || len(v.Hexes()) == 0 {
		return name
	}
	var hexes []string
	for _, h := range v.Hexes() {
		hexes = append(hexes, w.tile(h))
	}
	return w.p.Text("record.corner", map[string]any{"Hexes": strings.Join(hexes, w.p.Text("record.corner_sep", nil))})
}

// edge says an edge by the hexes on either side: 丘陵6と森林4の間, or
// 森林4の海沿い on the coast.
func (w words) edge(ends []string) string {
	if len(ends) != 2 {
		return strings.Join(ends, " ")
	}
	a, ok1 := game.ParseVertex(ends[0])
	b, ok2 := game.ParseVertex(ends[1])
	if !ok1 || !ok2 {
		return strings.Join(ends, " ")
	}
	e, err := referee.NewEdge(a, b)
	if err != nil {
		return strings.Join(ends, " ")
	}
	switch hs := e.Hexes(); len(hs) {
	case 2:
		return w.p.Text("record.edge", map[string]any{"A": w.tile(hs[0]), "B": w.tile(hs[1])})
	case 1:
		return w.p.Text("record.edge_coast", map[string]any{"A": w.tile(hs[0])})
	}
	return e.String()
}
