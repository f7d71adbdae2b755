package game

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// The quick answers a judge asks of a position: what a roll produces, who
// discards on a 7, where the robber may go and whom it may rob, a player's
// trade rates, and whether a declaration stands. Each is a pure function of
// the position and the inputs the judge enters, and carries the rule's
// section; each "why" is a coded message like Award.Why. Bad input is an
// *Error naming what is wrong, as for a game record.

// Rolled is a roll a judge asks about (§6 ア).
type Rolled struct {
	Sum int // the two dice, 2 to 12
	// Robber is the hex the robber stands on, nil when it is off the land.
	Robber *referee.Hex
	Bank   Bank
}

// Bank is what the judge knows of the bank's resource cards when a roll
// is paid (§6 ア). Held is what it holds of each resource counted; Short
// names resources not counted that it cannot pay in full. A resource in
// neither is paid in full. The zero Bank pays everything.
type Bank struct {
	Held  map[Resource]int
	Short []Resource
}

// Production is what a roll produces (§6 ア), or, on a 7, that nothing is
// produced (§6 イ).
type Production struct {
	Section string // §6 ア, or §6 イ on a 7
	Sum     int
	Got     []Cards // each player's cards from the roll, in the players' order
	// Yields are the buildings on the corners of the hexes with the number
	// rolled, hex by hex (in referee.LandHexes order), corner by corner.
	Yields []Yield
	// Shortfalls are the resources the bank cannot pay in full, in the
	// order of Resources.
	Shortfalls []Shortfall
	// Why says the rules that take cards away: a 7 (produce-seven), the
	// robber's hex (produce-robber), and each shortfall's rule.
	Why []*Error
}

// Yield is one building's due from a hex with the number rolled.
type Yield struct {
	Player   int
	Vertex   referee.Vertex
	City     bool
	Hex      referee.Hex
	Resource Resource
	Cards    int  // §6 ア: a settlement 1, a city 2
	Robbed   bool // §6 ア: the robber stands on the hex, so nothing
	Short    bool // §6 ア: the bank cannot pay this resource in full (see Shortfalls)
}

// Shortfall is a resource the bank cannot pay in full, and what the
// ruleset's bank-shortage policy does then (§6 ア).
type Shortfall struct {
	Resource Resource
	Demand   int // the cards of the resource the roll demands
	Held     int // what the bank holds, -1 when not counted
	// Taker is the single player to receive the resource, who takes what
	// the bank has left under the single-takes-rest policy (Got counts
	// them when the bank was counted); -1 when nobody gets any.
	Taker int
	Why   *Error
}

// Produce answers what roll produces for each player on board b (§6): a
// settlement on a corner of a hex with the number 1 card, a city 2, none
// from the hex under the robber, nothing at all on a 7; a resource the
// bank cannot pay in full follows the ruleset's bank-shortage policy. A
// sum off 2..12, a robber off the land, a bank count off 0..19 or a
// resource both counted and short is an *Error.
func (ev *Evaluation) Produce(b referee.Board, roll Rolled) (*Production, error) {
	if roll.Sum < 2 || roll.Sum > 12 {
		return nil, broken("roll-sum", "§6 ア", fmt.Sprintf("two dice roll 2 to 12, not %d", roll.Sum), map[string]any{"Sum": roll.Sum})
	}
	robber, err := hexAt(roll.Robber, "§6 ア")
	if err != nil {
		return nil, err
	}
	held, err := roll.Bank.held()
	if err != nil {
		return nil, err
	}
	pos := ev.pos
	out := &Production{Section: "§6 ア", Sum: roll.Sum, Got: make([]Cards, len(pos.names)), Yields: []Yield{}, Shortfalls: []Shortfall{}, Why: []*Error{}}
	if roll.Sum == 7 {
		out.Section = "§6 イ"
		out.Why = append(out.Why, note("produce-seven", "§6 イ", "on a 7 nobody produces", nil))
		return out, nil
	}
	bd := newBoard(b)
	var due [4]Cards
	var demand [numResources]int
	var takers [numResources]uint8
	for h := range numHexes {
		if int(bd.number[h]) != roll.Sum {
			continue
		}
		r := bd.resource[h]
		robbed := h == robber
		if robbed {
			// §6 ア: nothing from the hex under the robber.
			out.Why = append(out.Why, note("produce-robber", "§6 ア", fmt.Sprintf("the robber on %v: it produces nothing", topo.hexes[h]),
				map[string]any{"Hex": topo.hexes[h].String(), "Resource": r.String(), "Number": roll.Sum}))
		}
		for _, v := range topo.hexVertices[h] {
			o := pos.owner[v]
			if o < 0 {
				continue
			}
			city := pos.city&(1<<v) != 0
			// §6 ア: a settlement gets 1 card, a city 2.
			k := 1
			if city {
				k = 2
			}
			out.Yields = append(out.Yields, Yield{Player: int(o), Vertex: topo.vertices[v], City: city, Hex: topo.hexes[h], Resource: r, Cards: k, Robbed: robbed})
			if !robbed {
				due[o][r] += int8(k)
				demand[r] += k
				takers[r] |= 1 << o
			}
		}
	}
	rests := ev.rs.BankShortage == referee.BankShortageSingleTakesRest
	for _, r := range Resources {
		if demand[r] == 0 {
			continue
		}
		if held[r] == plenty || (held[r] >= 0 && demand[r] <= held[r]) {
			for q := range pos.names {
				out.Got[q][r] += due[q][r]
			}
			continue
		}
		sf := Shortfall{Resource: r, Demand: demand[r], Held: max(held[r], -1), Taker: -1}
		if rests && bits.OnesCount8(takers[r]) == 1 {
			// §6 ア, ruleset single-takes-rest: one recipient takes what is left.
			sf.Taker = bits.TrailingZeros8(takers[r])
			if held[r] >= 0 {
				out.Got[sf.Taker][r] += int8(held[r])
			}
			sf.Why = note("bank-short-rest", "§6 ア", fmt.Sprintf("the bank cannot pay the %d %s the roll demands: %s, the only one to receive it, takes what is left", demand[r], r, pos.names[sf.Taker]),
				map[string]any{"Resource": r.String(), "Demand": demand[r], "Player": pos.names[sf.Taker]})
		} else {
			// §6 ア ruling: all or nothing per resource; the others are paid.
			sf.Why = note("bank-short-nobody", "§6 ア", fmt.Sprintf("the bank cannot pay the %d %s the roll demands: nobody gets %s", demand[r], r, r),
				map[string]any{"Resource": r.String(), "Demand": demand[r]})
		}
		out.Shortfalls = append(out.Shortfalls, sf)
		out.Why = append(out.Why, sf.Why)
		for i := range out.Yields {
			if y := &out.Yields[i]; y.Resource == r && !y.Robbed {
				y.Short = true
			}
		}
	}
	return out, nil
}

// plenty and short mark, in Bank.held, a resource not counted that the
// bank can pay in full, and one it cannot.
const (
	plenty = -1
	short  = -2
)

// held returns what the bank holds of each resource: the count, plenty or
// short. It refuses a count off 0..19, an unknown resource, or one both
// counted and short.
func (bk Bank) held() ([numResources]int, error) {
	var out [numResources]int
	for r := range out {
		out[r] = plenty
	}
	// Sorted, so that of several bad counts the same one is named every time.
	for _, r := range slices.Sorted(maps.Keys(bk.Held)) {
		k := bk.Held[r]
		switch {
		case r < 0 || r >= numResources:
			return out, broken("unknown-resource", "§6 ア", fmt.Sprintf("unknown resource %d", r), map[string]any{"Resource": fmt.Sprint(int(r))})
		case k < 0 || k > bankStock:
			return out, broken("card-count", "§6 ア", fmt.Sprintf("%d %s: a count is 0 to 19", k, r), map[string]any{"Resource": r.String(), "Count": k})
		}
		out[r] = k
	}
	for _, r := range bk.Short {
		switch {
		case r < 0 || r >= numResources:
			return out, broken("unknown-resource", "§6 ア", fmt.Sprintf("unknown resource %d", r), map[string]any{"Resource": fmt.Sprint(int(r))})
		case out[r] >= 0:
			return out, broken("bank-counted-and-short", "§6 ア", fmt.Sprintf("%s is both counted and said to be short", r), map[string]any{"Resource": r.String()})
		}
		out[r] = short
	}
	return out, nil
}

// hexAt returns the id of the land hex h, or -1 for nil.
func hexAt(h *referee.Hex, section string) (int, error) {
	if h == nil {
		return -1, nil
	}
	i, ok := topo.hexID[*h]
	if !ok {
		return -1, broken("hex-off-board", section, fmt.Sprintf("%v is not a land hex", *h), map[string]any{"Hex": h.String()})
	}
	return i, nil
}

// maxHand is the most resource cards a hand can hold: all 95 (§1).
const maxHand = numResources * bankStock

// DiscardDue is what a player returns on a 7 (§6 イ).
type DiscardDue struct {
	Player  int
	Hand    int // the cards the player says they hold
	Returns int // half, rounded down, from 8 cards up; else 0
	Why     *Error
}

// Discards answers who returns how many cards on a 7, from the hand sizes
// the players state, by player id (§6 イ: each player with 8 cards or more
// returns half, rounded down). The answer is in the players' order, for
// the players given. An id not at the table or a hand off 0..95 is an *Error.
func (ev *Evaluation) Discards(hands map[string]int) ([]DiscardDue, error) {
	sizes, err := ev.hands(hands, "§6 イ")
	if err != nil {
		return nil, err
	}
	out := []DiscardDue{}
	for q, n := range sizes {
		if n < 0 {
			continue
		}
		d := DiscardDue{Player: q, Hand: n}
		name := ev.pos.names[q]
		if n >= 8 {
			d.Returns = n / 2
			d.Why = note("discard-half", "§6 イ", fmt.Sprintf("%s holds %d cards, 8 or more: returns %d, half rounded down", name, n, d.Returns),
				map[string]any{"Player": name, "Count": n, "Returns": d.Returns})
		} else {
			d.Why = note("discard-none", "§6 イ", fmt.Sprintf("%s holds %d cards, fewer than 8: returns none", name, n),
				map[string]any{"Player": name, "Count": n})
		}
		out = append(out, d)
	}
	return out, nil
}

// hands returns the hand sizes by player, -1 where not given.
func (ev *Evaluation) hands(hands map[string]int, section string) ([]int, error) {
	out := make([]int, len(ev.pos.names))
	for q := range out {
		out[q] = -1
	}
	for _, name := range slices.Sorted(maps.Keys(hands)) {
		q := slices.Index(ev.pos.names, name)
		if q < 0 {
			return nil, broken("unknown-player", section, fmt.Sprintf("%s is not at the table", name), map[string]any{"Player": name})
		}
		n := hands[name]
		if n < 0 || n > maxHand {
			return nil, broken("hand-size", section, fmt.Sprintf("%s holds %d cards; a hand holds 0 to %d", name, n, maxHand),
				map[string]any{"Player": name, "Count": n, "Max": maxHand})
		}
		out[q] = n
	}
	return out, nil
}

// RobberHex is one land hex as a place for the robber (§6 イ, §9 ア).
type RobberHex struct {
	Hex     referee.Hex
	Allowed bool
	// Rob are the players the roller may rob there: a building on a
	// corner of the hex and at least one card (a player whose hand is not
	// given counts as holding one); never the roller. When Allowed and
	// Rob is empty, nobody is robbed.
	Rob []int
	// Spared are the players with a building there who may not be robbed,
	// each with why (rob-roller, rob-no-card).
	Spared []Spared
	// Why is the rule that keeps the robber off the hex (robber-same-hex,
	// robber-desert), or, on an allowed hex where nobody may be robbed,
	// rob-nobody; nil otherwise.
	Why *Error
}

// Spared is a player on a hex the robber goes to who is not robbed.
type Spared struct {
	Player int
	Why    *Error
}

// RobberMoves is where the robber may go and whom it may rob there.
type RobberMoves struct {
	Section string      // §6 イ (a soldier moves it the same way, §9 ア)
	Hexes   []RobberHex // every land hex, in referee.LandHexes order
}

// Robber answers where the player roller may move the robber on board b
// and whom they may rob on each hex (§6 イ; a soldier the same, §9 ア):
// another land hex than from, where it stands (nil when it is off the
// land); the desert only where the ruleset allows it; a player with a
// building on the hex and a card, by the hand sizes given (see Discards),
// never the roller. An unknown roller or player, a hex off the land or a
// hand off 0..95 is an *Error.
func (ev *Evaluation) Robber(b referee.Board, from *referee.Hex, roller string, hands map[string]int) (*RobberMoves, error) {
	at, err := hexAt(from, "§6 イ")
	if err != nil {
		return nil, err
	}
	p := slices.Index(ev.pos.names, roller)
	if p < 0 {
		return nil, broken("unknown-player", "§6 イ", fmt.Sprintf("%s is not at the table", roller), map[string]any{"Player": roller})
	}
	sizes, err := ev.hands(hands, "§6 イ")
	if err != nil {
		return nil, err
	}
	bd := newBoard(b)
	out := &RobberMoves{Section: "§6 イ", Hexes: make([]RobberHex, numHexes)}
	for h := range numHexes {
		rh := RobberHex{Hex: topo.hexes[h], Rob: []int{}, Spared: []Spared{}}
		name := topo.hexes[h].String()
		switch {
		case h == at:
			// §6 イ: to a land hex other than the one it is on.
			rh.Why = note("robber-same-hex", "§6 イ", fmt.Sprintf("the robber is already on %s", name), map[string]any{"Hex": name})
		case h == int(bd.desert) && !ev.rs.RobberOnDesert:
			// §6 イ: the desert only where the ruleset allows it (robber_on_desert).
			rh.Why = note("robber-desert", "§6 イ", "this ruleset keeps the robber off the desert", map[string]any{"Hex": name})
		default:
			rh.Allowed = true
		}
		var there uint8
		for _, v := range topo.hexVertices[h] {
			if o := ev.pos.owner[v]; o >= 0 {
				there |= 1 << o
			}
		}
		for q, player := range ev.pos.names {
			switch {
			case there&(1<<q) == 0 || !rh.Allowed:
			case q == p:
				// §6 イ: the roller robs another player.
				rh.Spared = append(rh.Spared, Spared{q, note("rob-roller", "§6 イ", fmt.Sprintf("%s moves the robber and does not rob themselves", player),
					map[string]any{"Player": player})})
			case sizes[q] == 0:
				// §6 イ: a player with a card.
				rh.Spared = append(rh.Spared, Spared{q, note("rob-no-card", "§6 イ", fmt.Sprintf("%s holds no card to be taken", player),
					map[string]any{"Player": player})})
			default:
				rh.Rob = append(rh.Rob, q)
			}
		}
		if rh.Allowed && len(rh.Rob) == 0 {
			// §6 イ: when no other player with a card has a building there, nobody is robbed.
			rh.Why = note("rob-nobody", "§6 イ", fmt.Sprintf("no other player with a card has a building on %s: nobody is robbed", name),
				map[string]any{"Hex": name})
		}
		out.Hexes[h] = rh
	}
	return out, nil
}

// Rates is what a player pays the bank for one card of their choice, by
// resource (§7 イ, ウ).
type Rates struct {
	Player int
	// Rates are by resource, in the order of Resources: the best rate the
	// player owns for it. A worse rate the player owns, 4:1 always, is
	// still a legal trade (§7 イ ruling).
	Rates [numResources]Rate
	// Harbors are the harbours the player reaches: a settlement or city on
	// either corner of the harbour's edge (§7 ウ).
	Harbors []HarborUse
}

// Rate is a trade with the bank: Give cards of Resource for one.
type Rate struct {
	Resource Resource
	Give     int    // 4, 3 or 2
	Section  string // §7 イ for 4:1, §7 ウ for a harbour
	Why      *Error // rate-bank, rate-generic or rate-harbor
}

// HarborUse is a harbour a player's building stands at.
type HarborUse struct {
	Kind   referee.HarborKind
	Edge   referee.Edge
	Vertex referee.Vertex // the corner of the player's settlement or city
}

// Rates answers the trade rates player has with the bank on board b: 4:1
// (§7 イ), 3:1 with a building at a 3:1 harbour, 2:1 in a harbour's
// resource with a building at that harbour (§7 ウ). An unknown player is
// an *Error.
func (ev *Evaluation) Rates(b referee.Board, player string) (*Rates, error) {
	p := slices.Index(ev.pos.names, player)
	if p < 0 {
		return nil, broken("unknown-player", "§7 ウ", fmt.Sprintf("%s is not at the table", player), map[string]any{"Player": player})
	}
	out := &Rates{Player: p, Harbors: []HarborUse{}}
	var generic *HarborUse
	var special [numResources]*HarborUse
	for _, hb := range b.Harbors {
		for _, v := range [2]referee.Vertex{hb.Edge.A, hb.Edge.B} {
			if i, ok := topo.vertexID[v]; ok && int(ev.pos.owner[i]) == p {
				out.Harbors = append(out.Harbors, HarborUse{Kind: hb.Kind, Edge: hb.Edge, Vertex: v})
			}
		}
	}
	for i := range out.Harbors {
		hu := &out.Harbors[i]
		if r, ok := ParseResource(string(hu.Kind)); ok {
			if special[r] == nil {
				special[r] = hu
			}
		} else if generic == nil && hu.Kind == referee.GenericHarbor {
			generic = hu
		}
	}
	for _, r := range Resources {
		rate := Rate{Resource: r, Give: 4, Section: "§7 イ"}
		switch {
		case special[r] != nil:
			rate.Give, rate.Section = 2, "§7 ウ"
			rate.Why = note("rate-harbor", "§7 ウ", fmt.Sprintf("2 %s for 1 at the %s harbour by %v", r, r, special[r].Vertex),
				map[string]any{"Player": player, "Resource": r.String(), "Vertex": special[r].Vertex.String()})
		case generic != nil:
			rate.Give, rate.Section = 3, "§7 ウ"
			rate.Why = note("rate-generic", "§7 ウ", fmt.Sprintf("3 %s for 1 at the 3:1 harbour by %v", r, generic.Vertex),
				map[string]any{"Player": player, "Resource": r.String(), "Vertex": generic.Vertex.String()})
		default:
			rate.Why = note("rate-bank", "§7 イ", fmt.Sprintf("4 %s for 1 with the bank", r),
				map[string]any{"Player": player, "Resource": r.String()})
		}
		out.Rates[r] = rate
	}
	return out, nil
}

// Declaration is whether a player may declare victory now (§11).
type Declaration struct {
	Section string // §11
	Player  int
	Valid   bool
	VP      VP  // counted with the one-point cards shown
	Need    int // the ruleset's VP to declare
	// Why are what the declaration lacks (declare-not-own-turn,
	// declare-short), or, when it stands, declare-valid.
	Why []*Error
}

// Declaration answers whether player may declare victory when it is
// current's turn, showing shown one-point cards (§11: on one's own turn,
// with the ruleset's VP or more, every one-point card shown; §9 オ). The VP
// are the position's, with the one-point cards shown in place of the
// position's; shown -1 takes the position's. An unknown player or shown
// off -1..5 is an *Error.
func (ev *Evaluation) Declaration(player, current string, shown int) (*Declaration, error) {
	p := slices.Index(ev.pos.names, player)
	if p < 0 {
		return nil, broken("unknown-player", "§11", fmt.Sprintf("%s is not at the table", player), map[string]any{"Player": player})
	}
	if !slices.Contains(ev.pos.names, current) {
		return nil, broken("unknown-player", "§11", fmt.Sprintf("%s is not at the table", current), map[string]any{"Player": current})
	}
	if shown < -1 || shown > int(FullDeck[Point]) {
		return nil, broken("shown-point-cards", "§9 オ", fmt.Sprintf("%d one-point cards shown; the game has %d", shown, FullDeck[Point]),
			map[string]any{"Player": player, "Count": shown, "Max": int(FullDeck[Point])})
	}
	vp := ev.Players[p].VP
	if shown >= 0 {
		vp.PointCards = shown
	}
	shown = vp.PointCards
	d := &Declaration{Section: "§11", Player: p, VP: vp, Need: min(max(ev.rs.WinVP, 1), 100), Why: []*Error{}}
	if current != player {
		// §11: only on one's own turn.
		d.Why = append(d.Why, note("declare-not-own-turn", "§11", fmt.Sprintf("%s may declare only on their own turn; it is %s's", player, current),
			map[string]any{"Player": player, "Group": []string{current}}))
	}
	if total := vp.Total(); total < d.Need {
		// §11: 10 VP or more (the ruleset's win_vp), the one-point cards shown.
		d.Why = append(d.Why, note("declare-short", "§11", fmt.Sprintf("%s has %d VP with %d one-point cards shown; %d more are needed for %d", player, total, shown, d.Need-total, d.Need),
			map[string]any{"Player": player, "VP": total, "Shown": shown, "Missing": d.Need - total, "Need": d.Need}))
	}
	if len(d.Why) == 0 {
		d.Valid = true
		d.Why = append(d.Why, note("declare-valid", "§11", fmt.Sprintf("%s may declare: %d VP on their own turn, with %d one-point cards shown", player, vp.Total(), shown),
			map[string]any{"Player": player, "VP": vp.Total(), "Shown": shown, "Need": d.Need}))
	}
	return d, nil
}
