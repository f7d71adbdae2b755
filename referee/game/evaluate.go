package game

import (
	"fmt"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// Evaluation is what a judge reads off a position rebuilt on the table:
// what it says after each step and its notes, and after the last step
// each player's pieces, longest road (with one longest trail to highlight
// on the board) and VP, and who holds each 2-point card and why (§10,
// §11). Its methods answer a judge's quick questions about the position:
// Produce, Discards, Robber, Rates and Declaration.
//
// Every "why" is an *Error used as a coded message: it refuses nothing, but
// carries the section, the stable code and the values a page needs to say
// the rule in the user's language, as the notes do (see Award.Why).
type Evaluation struct {
	After []Standing // after each step
	// Notes are what the rules forbid in the position as rebuilt: the
	// distance rule, an unconnected road or settlement, a city not on a
	// settlement, pieces or cards over the game's (§1, §4, §8), each with
	// its step.
	Notes       []*Error
	Players     []PlayerEvaluation // in the players' order
	LongestRoad Award              // §10 ア
	LargestArmy Award              // §10 イ

	rs  referee.Ruleset
	pos *position
}

// PlayerEvaluation is one player's part of a position after its last step.
type PlayerEvaluation struct {
	Player      string
	Roads       int // road pieces on the board
	Settlements int
	Cities      int
	Soldiers    int // soldiers played (§10 イ)
	PointCards  int // one-point cards (§9 オ)
	// Road is the longest road (§10 ア), and Trail one road of that length
	// as a trail: an opponent's settlement or city may be at either end,
	// never in the middle.
	Road  int
	Trail Trail
	VP    VP // uncapped (§11)
}

// Trail is a road as a trail on the board: its Edges in order and the
// Corners it passes, one more than the edges, so that edge i joins corners
// i and i+1. A corner may come twice (a loop), an edge never. An empty
// trail has neither.
type Trail struct {
	Edges   []referee.Edge
	Corners []referee.Vertex
}

// Award is who holds a 2-point card after the last step and the rule that
// put it there (§10).
type Award struct {
	Holder int // the holder's place in the players' order, -1 for the bank
	// Why is the rule: its Section and its Code, the values of its
	// message in Args (Args["Player"] a player's id, Args["Group"] a list
	// of ids) and the English message as its Error(). Why.Index is the step
	// whose change it was (the card taken, taken over, or decided on again
	// after a cut), or -1 where the position as it stands is the reason
	// (nobody has 5 roads or 3 soldiers, an equal length or army that does
	// not take the card, a tie that keeps it in the bank).
	//
	// The longest road's codes: longest-road-took, -took-over, -cut-to,
	// -cut-kept, -cut-tie, -cut-tie-kept, -cut-short, -lost (changes) and
	// longest-road-none, -equal-kept, -bank-tie (the position). The
	// largest army's: largest-army-took, -took-over (changes) and
	// largest-army-none, -equal-kept (the position).
	Why *Error
}

// Evaluate rebuilds the position from the steps (and refuses what a
// table cannot hold: see rebuild) and evaluates it after the last step: each
// player's pieces, longest road with a trail of that length, soldiers,
// one-point cards and VP, and the holders of the 2-point cards with the
// rule that decided each. rs gives the longest-road tie policy (§10 ア),
// and to the quick answers the robber's desert policy (§6 イ), the
// bank-shortage policy (§6 ア) and the VP to declare (§11).
func Evaluate(rs referee.Ruleset, players []string, steps []Step) (*Evaluation, error) {
	pos, after, notes, err := rebuild(rs, players, steps)
	if err != nil {
		return nil, err
	}
	if notes == nil {
		notes = []*Error{}
	}
	ev := &Evaluation{After: after, Notes: notes, rs: rs, pos: pos, Players: make([]PlayerEvaluation, len(players))}
	for q := range players {
		ev.Players[q] = pos.evaluate(q)
	}
	ev.LongestRoad = Award{Holder: int(pos.longest), Why: pos.longestReason()}
	ev.LargestArmy = Award{Holder: int(pos.army), Why: pos.armyReason()}
	return ev, nil
}

// evaluate returns colour q's part of the position.
func (pos *position) evaluate(q int) PlayerEvaluation {
	pe := PlayerEvaluation{
		Player: pos.names[q], Roads: pos.roads[q].count(), Settlements: pos.settlements[q], Cities: pos.cities[q],
		Soldiers: pos.soldiers[q], PointCards: pos.points[q], Road: int(pos.length[q]),
		// §11: settlement 1, city 2, each 2-point card 2, each one-point card 1.
		VP: VP{Settlements: pos.settlements[q], Cities: 2 * pos.cities[q], PointCards: pos.points[q]},
	}
	if int(pos.longest) == q {
		pe.VP.LongestRoad = 2
	}
	if int(pos.army) == q {
		pe.VP.LargestArmy = 2
	}
	var built, own uint64
	for v, o := range pos.owner {
		if o >= 0 {
			built |= 1 << v
		}
		if int(o) == q {
			own |= 1 << v
		}
	}
	edges, corners := longestTrailPath(pos.roads[q], built&^own)
	for _, e := range edges {
		pe.Trail.Edges = append(pe.Trail.Edges, topo.edges[e])
	}
	for _, v := range corners {
		pe.Trail.Corners = append(pe.Trail.Corners, topo.vertices[v])
	}
	return pe
}

// roadBest returns the longest road's length and the players who have it.
func (pos *position) roadBest() (int, []string) {
	best := int(slices.Max(pos.length))
	var tied []string
	for q, l := range pos.length {
		if int(l) == best {
			tied = append(tied, pos.names[q])
		}
	}
	return best, tied
}

// roadEvent says the change of §10 ア, ウ that decision d made, from the
// holder was, at the step being made.
func (pos *position) roadEvent(d roadDecision, was int8) *Error {
	best, tied := pos.roadBest()
	now := ""
	if pos.longest >= 0 {
		now = pos.names[pos.longest]
	}
	former := ""
	if was >= 0 {
		former = pos.names[was]
	}
	var e *Error
	switch d {
	case roadTook:
		e = note("longest-road-took", "§10 ア", fmt.Sprintf("%s has the single longest road, %d, of 5 or more, and takes the card", now, best),
			map[string]any{"Player": now, "Length": best})
	case roadTookOver:
		e = note("longest-road-took-over", "§10 ア", fmt.Sprintf("%s's road of %d is strictly longer than %s's %d, and takes the card", now, best, former, pos.length[was]),
			map[string]any{"Player": now, "Length": best, "Group": []string{former}, "Was": int(pos.length[was])})
	case roadLost:
		e = note("longest-road-lost", "§10 ウ", fmt.Sprintf("%s no longer has the longest road and %v share it (%d): the card returns to the bank", former, tied, best),
			map[string]any{"Player": former, "Group": tied, "Length": best})
	case roadCutTo:
		e = note("longest-road-cut-to", "§10 ア", fmt.Sprintf("%s's road was cut: the card goes to %s, with the single longest road (%d)", former, now, best),
			map[string]any{"Player": now, "Group": []string{former}, "Length": best})
	case roadCutKept:
		e = note("longest-road-cut-kept", "§10 ア", fmt.Sprintf("%s's road was cut but is still the single longest (%d): %s keeps the card", now, best, now),
			map[string]any{"Player": now, "Length": best})
	case roadCutTie:
		e = note("longest-road-cut-tie", "§10 ア", fmt.Sprintf("%s's road was cut and %v share the longest road (%d): the card returns to the bank", former, tied, best),
			map[string]any{"Player": former, "Group": tied, "Length": best})
	case roadCutTieKept:
		others := slices.DeleteFunc(tied, func(n string) bool { return n == now })
		e = note("longest-road-cut-tie-kept", "§10 ア", fmt.Sprintf("%s's road was cut and %v have as long a road (%d): under holder-keeps %s keeps the card", now, others, best, now),
			map[string]any{"Player": now, "Group": others, "Length": best})
	default:
		e = note("longest-road-cut-short", "§10 ア", fmt.Sprintf("%s's road was cut and nobody has a road of 5 or more (the longest is %d): the card returns to the bank", former, best),
			map[string]any{"Player": former, "Need": roadNeed, "Length": best})
	}
	e.Index = pos.at
	return e
}

// longestReason says why the longest road card is where it is after the last
// step: the last change that decided it, unless the position as it stands
// says more (§10 ア).
func (pos *position) longestReason() *Error {
	best, tied := pos.roadBest()
	last := pos.roadWhy
	same := func(codes []string, group []string) bool {
		return last != nil && slices.Contains(codes, last.Code) && last.Args["Length"] == best &&
			slices.Equal(last.Args["Group"].([]string), group)
	}
	h := int(pos.longest)
	switch {
	case h >= 0 && len(tied) > 1:
		holder := pos.names[h]
		others := slices.DeleteFunc(slices.Clone(tied), func(n string) bool { return n == holder })
		if same([]string{"longest-road-cut-tie-kept"}, others) {
			return last
		}
		// §10 ア: an equal length does not take the card.
		return note("longest-road-equal-kept", "§10 ア", fmt.Sprintf("%v have a road as long as %s's (%d): an equal length does not take the card", others, holder, best),
			map[string]any{"Player": holder, "Group": others, "Length": best})
	case h < 0 && best < roadNeed:
		if last != nil && last.Code == "longest-road-cut-short" {
			return last
		}
		return note("longest-road-none", "§10 ア", fmt.Sprintf("nobody has a road of 5 or more (the longest is %d): the card is in the bank", best),
			map[string]any{"Need": roadNeed, "Length": best})
	case h < 0:
		if same([]string{"longest-road-cut-tie", "longest-road-lost"}, tied) {
			return last
		}
		// §10 ア: the card stays in the bank until one has the single longest road.
		return note("longest-road-bank-tie", "§10 ア", fmt.Sprintf("%v share the longest road (%d): nobody has the single longest, and the card stays in the bank", tied, best),
			map[string]any{"Group": tied, "Length": best})
	}
	return last
}

// armyEvent says the change of §10 イ that gave the card to the player
// who just played a soldier, from the holder was.
func (pos *position) armyEvent(was int8) *Error {
	now := pos.names[pos.army]
	k := pos.soldiers[pos.army]
	var e *Error
	if was < 0 {
		e = note("largest-army-took", "§10 イ", fmt.Sprintf("%s is the first to play %d soldiers, and takes the card", now, k),
			map[string]any{"Player": now, "Soldiers": k})
	} else {
		e = note("largest-army-took-over", "§10 イ", fmt.Sprintf("%s has played %d soldiers, strictly more than %s's %d, and takes the card", now, k, pos.names[was], pos.soldiers[was]),
			map[string]any{"Player": now, "Soldiers": k, "Group": []string{pos.names[was]}, "Was": pos.soldiers[was]})
	}
	e.Index = pos.at
	return e
}

// armyReason says why the largest army card is where it is (§10 イ).
func (pos *position) armyReason() *Error {
	most := slices.Max(pos.soldiers)
	h := int(pos.army)
	if h < 0 {
		return note("largest-army-none", "§10 イ", fmt.Sprintf("nobody has played 3 soldiers (the most is %d): the card is in the bank", most),
			map[string]any{"Need": armyNeed, "Soldiers": most})
	}
	var others []string
	for q, k := range pos.soldiers {
		if q != h && k == pos.soldiers[h] {
			others = append(others, pos.names[q])
		}
	}
	if len(others) > 0 {
		// §10 イ: only a strictly larger army takes the card.
		return note("largest-army-equal-kept", "§10 イ", fmt.Sprintf("%s played as many soldiers as %s (%d): an equal army does not take the card", strings.Join(others, ", "), pos.names[h], pos.soldiers[h]),
			map[string]any{"Player": pos.names[h], "Group": others, "Soldiers": pos.soldiers[h]})
	}
	return pos.armyWhy
}

// Piece is a piece on the board of an evaluated position: a settlement or
// a city on a corner, or a road on an edge, with its owner's place in the
// players' order.
type Piece struct {
	Player int
	City   bool
	Vertex referee.Vertex // a settlement or a city
	Edge   referee.Edge   // a road
	Road   bool
}

// Pieces returns the pieces on the board after the last step, for a page
// to draw: the buildings in referee.LandVertices order, then the roads in
// referee.LandEdges order.
func (ev *Evaluation) Pieces() []Piece {
	pos := ev.pos
	var out []Piece
	for v, o := range pos.owner {
		if o >= 0 {
			out = append(out, Piece{Player: int(o), City: pos.city&(1<<v) != 0, Vertex: topo.vertices[v]})
		}
	}
	for e, o := range pos.roadOf {
		if o >= 0 {
			out = append(out, Piece{Player: int(o), Edge: topo.edges[e], Road: true})
		}
	}
	return out
}
