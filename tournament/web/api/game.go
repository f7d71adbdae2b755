package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// The game's referee API (referee/game): a position a judge rebuilds on the
// table, and a whole game record checked move by move. Stateless, like the
// rest of the referee API; the work of one request is bounded by the body
// size (MaxBody), game.MaxSteps and game.MaxMoves.

// stepJSON is a step of a position as the API takes it, and writes it back
// (a ruling's steps) with only the fields it has.
type stepJSON struct {
	Do     string   `json:"do"`
	Player string   `json:"player,omitempty"`
	At     string   `json:"at,omitempty"`
	Edge   []string `json:"edge,omitempty"`
}

// gameSteps are the steps of a position as the rules engine takes them.
func gameSteps(steps []stepJSON) []game.Step {
	out := make([]game.Step, len(steps))
	for i, st := range steps {
		out[i] = game.Step{Do: st.Do, Player: st.Player, At: st.At, Edge: st.Edge}
	}
	return out
}

type PositionRequest struct {
	Ruleset string     `json:"ruleset"`
	Players []string   `json:"players"`
	Steps   []stepJSON `json:"steps"`
}

type afterJSON struct {
	Roads       map[string]int `json:"roads"`
	Soldiers    map[string]int `json:"soldiers"`
	LongestRoad *string        `json:"longest_road"`
	LargestArmy *string        `json:"largest_army"`
	VP          map[string]int `json:"vp"`
}

type noteJSON struct {
	Step    int    `json:"step"`
	Code    string `json:"code"`
	Section string `json:"section"`
	Message string `json:"message"`
}

// evaluationJSON is game.Evaluate's answer after the last step: each
// player's longest road with one longest trail (its corners in order), and
// the holder of each 2-point card with the rule that put it there.
type evaluationJSON struct {
	Players     []playerEvaluationJSON `json:"players"`
	LongestRoad awardJSON              `json:"longest_road"`
	LargestArmy awardJSON              `json:"largest_army"`
}

type playerEvaluationJSON struct {
	Player      string   `json:"player"`
	Road        int      `json:"road"`
	Trail       []string `json:"trail"`
	Roads       int      `json:"roads"`
	Settlements int      `json:"settlements"`
	Cities      int      `json:"cities"`
	Soldiers    int      `json:"soldiers"`
	PointCards  int      `json:"point_cards"`
	VP          int      `json:"vp"`
	VPBreakdown vpJSON   `json:"vp_breakdown"`
}

type awardJSON struct {
	Holder  *string `json:"holder"`
	Code    string  `json:"code"`
	Section string  `json:"section"`
	Step    *int    `json:"step"`
	Message string  `json:"message"`
}

type PositionResponse struct {
	After      []afterJSON    `json:"after"`
	Notes      []noteJSON     `json:"notes"`
	Evaluation evaluationJSON `json:"evaluation"`
}

// RebuildPosition answers POST /api/v1/referee/position.
func (s *Handlers) RebuildPosition(c *gin.Context) (int, any, error) {
	var req PositionRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	rs, err := s.ruleset(req.Ruleset)
	if err != nil {
		return 0, nil, err
	}
	ev, err := game.Evaluate(rs, req.Players, gameSteps(req.Steps))
	if err != nil {
		return 0, nil, err
	}
	lang := s.i18n.Lang(c)
	out := PositionResponse{After: make([]afterJSON, len(ev.After)), Notes: []noteJSON{}, Evaluation: s.evaluationToJSON(lang, ev)}
	for i, st := range ev.After {
		a := afterJSON{Roads: map[string]int{}, Soldiers: map[string]int{}, VP: map[string]int{},
			LongestRoad: playerAt(req.Players, st.LongestRoad), LargestArmy: playerAt(req.Players, st.LargestArmy)}
		for p, name := range req.Players {
			a.Roads[name], a.Soldiers[name], a.VP[name] = st.Roads[p], st.Soldiers[p], st.VP[p]
		}
		out.After[i] = a
	}
	for _, n := range ev.Notes {
		out.Notes = append(out.Notes, noteJSON{Step: n.Index, Code: n.Code, Section: n.Section, Message: problem.Violation(s.i18n.In(lang), n.Violation)})
	}
	return http.StatusOK, out, nil
}

// evaluationToJSON writes an evaluation, its reasons in lang.
func (s *Handlers) evaluationToJSON(lang string, ev *game.Evaluation) evaluationJSON {
	award := func(a game.Award, players []game.PlayerEvaluation) awardJSON {
		out := awardJSON{Code: a.Why.Code, Section: a.Why.Section, Message: problem.Violation(s.i18n.In(lang), a.Why.Violation)}
		if a.Holder >= 0 {
			out.Holder = &players[a.Holder].Player
		}
		if a.Why.Index >= 0 {
			out.Step = &a.Why.Index
		}
		return out
	}
	return evaluationJSON{Players: playersToJSON(ev), LongestRoad: award(ev.LongestRoad, ev.Players), LargestArmy: award(ev.LargestArmy, ev.Players)}
}

// playersToJSON writes each player's part of an evaluation: the longest
// road with the corners of one longest trail, the pieces and the VP.
func playersToJSON(ev *game.Evaluation) []playerEvaluationJSON {
	out := make([]playerEvaluationJSON, len(ev.Players))
	for i, p := range ev.Players {
		pj := playerEvaluationJSON{Player: p.Player, Road: p.Road, Trail: []string{}, Roads: p.Roads, Settlements: p.Settlements,
			Cities: p.Cities, Soldiers: p.Soldiers, PointCards: p.PointCards, VP: p.VP.Total(),
			VPBreakdown: vpToJSON(p.VP)}
		for _, v := range p.Trail.Corners {
			pj.Trail = append(pj.Trail, v.String())
		}
		out[i] = pj
	}
	return out
}

func vpToJSON(vp game.VP) vpJSON {
	return vpJSON{Settlements: vp.Settlements, Cities: vp.Cities, LongestRoad: vp.LongestRoad, LargestArmy: vp.LargestArmy, PointCards: vp.PointCards}
}

// playerAt returns the id of player i, or nil for -1 (nobody, the bank).
func playerAt(players []string, i int) *string {
	if i < 0 {
		return nil
	}
	return &players[i]
}

// GameHexJSON is a land hex as the board API writes it.
type GameHexJSON struct {
	Q       int    `json:"q"`
	R       int    `json:"r"`
	Terrain string `json:"terrain"`
	Number  int    `json:"number"`
	Robber  bool   `json:"robber"`
}

// GameHarborJSON is a harbour as the board API writes it, read strictly:
// its edge is exactly two corners.
type GameHarborJSON struct {
	Vertices []string `json:"vertices"`
	Kind     string   `json:"kind"`
}

type GameBoardJSON struct {
	White   int              `json:"white"`
	Blue    int              `json:"blue"`
	Corner  int              `json:"corner"`
	Seed    *uint64          `json:"seed"`
	Hexes   []GameHexJSON    `json:"hexes"`
	Harbors []GameHarborJSON `json:"harbors"`
}

type MoveJSON struct {
	Do         string         `json:"do"`
	Player     string         `json:"player"`
	Settlement string         `json:"settlement"`
	City       string         `json:"city"`
	Road       []string       `json:"road"`
	Roads      [][]string     `json:"roads"`
	Dice       []int          `json:"dice"`
	Cards      map[string]int `json:"cards"`
	Give       map[string]int `json:"give"`
	Get        map[string]int `json:"get"`
	Take       map[string]int `json:"take"`
	Hex        *HexJSON       `json:"hex"`
	Rob        *string        `json:"rob"`
	Took       *string        `json:"took"`
	With       string         `json:"with"`
	Card       string         `json:"card"`
	Dev        string         `json:"dev"`
	Resource   string         `json:"resource"`
}

type gameRequest struct {
	Ruleset string        `json:"ruleset"`
	Board   GameBoardJSON `json:"board"`
	Players []string      `json:"players"`
	Moves   []MoveJSON    `json:"moves"`
}

type moveErrorJSON struct {
	Move    int    `json:"move"`
	Code    string `json:"code"`
	Section string `json:"section"`
	Message string `json:"message"`
}

type VoidJSON struct {
	Move    int    `json:"move"`
	Code    string `json:"code"`
	Section string `json:"section"`
}

type vpJSON struct {
	Settlements int `json:"settlements"`
	Cities      int `json:"cities"`
	LongestRoad int `json:"longest_road"`
	LargestArmy int `json:"largest_army"`
	PointCards  int `json:"point_cards"`
}

type gamePlayerJSON struct {
	Player      string         `json:"player"`
	Hand        map[string]int `json:"hand"`
	Cards       int            `json:"cards"`
	Soldiers    int            `json:"soldiers"`
	Road        int            `json:"road"`
	VP          int            `json:"vp"`
	VPBreakdown vpJSON         `json:"vp_breakdown"`
}

type GameStateJSON struct {
	Turn        int              `json:"turn"`
	Current     string           `json:"current"`
	Phase       string           `json:"phase"`
	Bank        map[string]int   `json:"bank"`
	Deck        int              `json:"deck"`
	LongestRoad *string          `json:"longest_road"`
	LargestArmy *string          `json:"largest_army"`
	Winner      *string          `json:"winner"`
	EndedBy     *string          `json:"ended_by"`
	Players     []gamePlayerJSON `json:"players"`
}

type gameResponse struct {
	Valid   bool           `json:"valid"`
	Applied int            `json:"applied"`
	Error   *moveErrorJSON `json:"error"`
	Voided  []VoidJSON     `json:"voided"`
	State   GameStateJSON  `json:"state"`
}

// CheckGame answers POST /api/v1/referee/game: 200 whenever the record
// could be read, saying whether every move stands.
func (s *Handlers) CheckGame(c *gin.Context) (int, any, error) {
	var req gameRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	rs, err := s.ruleset(req.Ruleset)
	if err != nil {
		return 0, nil, err
	}
	board, err := boardSpec(req.Board).Board(rs)
	if err != nil {
		return 0, nil, err
	}
	moves := make([]game.MoveSpec, len(req.Moves))
	for i, m := range req.Moves {
		moves[i] = m.spec()
	}
	rep, err := game.Check(rs, board, req.Players, moves)
	if err != nil {
		return 0, nil, err
	}
	out := gameResponse{Valid: rep.Err == nil, Applied: rep.Applied, Voided: []VoidJSON{}, State: GameStateToJSON(rep.State)}
	if e := rep.Err; e != nil {
		out.Error = &moveErrorJSON{Move: e.Index, Code: e.Code, Section: e.Section, Message: problem.Violation(s.i18n.In(s.i18n.Lang(c)), e.Violation)}
	}
	for _, v := range rep.Voided {
		out.Voided = append(out.Voided, VoidJSON{Move: v.Index, Code: v.Code, Section: v.Section})
	}
	return http.StatusOK, out, nil
}

func boardSpec(b GameBoardJSON) game.BoardSpec {
	spec := game.BoardSpec{White: b.White, Blue: b.Blue, Corner: b.Corner, Seed: b.Seed}
	if b.Hexes != nil {
		spec.Tiles = make([]referee.Tile, len(b.Hexes))
		for i, h := range b.Hexes {
			spec.Tiles[i] = referee.Tile{Hex: referee.Hex{Q: h.Q, R: h.R}, Terrain: referee.Terrain(h.Terrain), Number: h.Number}
			if h.Robber {
				spec.Robbers = append(spec.Robbers, spec.Tiles[i].Hex)
			}
		}
	}
	if b.Harbors != nil {
		spec.Harbors = make([]game.HarborSpec, len(b.Harbors))
		for i, h := range b.Harbors {
			spec.Harbors[i] = game.HarborSpec{Vertices: h.Vertices, Kind: h.Kind}
		}
	}
	return spec
}

func (m MoveJSON) spec() game.MoveSpec {
	spec := game.MoveSpec{
		Do: m.Do, Player: m.Player, Settlement: m.Settlement, City: m.City, Road: m.Road, Roads: m.Roads, Dice: m.Dice,
		Cards: m.Cards, Give: m.Give, Get: m.Get, Take: m.Take, With: m.With, Card: m.Card, Dev: m.Dev, Resource: m.Resource,
	}
	if m.Hex != nil {
		spec.Hex = &referee.Hex{Q: m.Hex.Q, R: m.Hex.R}
	}
	if m.Rob != nil {
		spec.Rob = *m.Rob
	}
	if m.Took != nil {
		spec.Took = *m.Took
	}
	return spec
}

func GameStateToJSON(g *game.State) GameStateJSON {
	out := GameStateJSON{
		Turn: g.Turn(), Current: g.Name(g.Current()), Phase: g.Phase().String(), Bank: cardsJSON(g.Bank()), Deck: g.DeckLeft(),
		Players: make([]gamePlayerJSON, g.Players()),
	}
	names := make([]string, g.Players())
	for p := range names {
		names[p] = g.Name(p)
	}
	out.LongestRoad, out.LargestArmy, out.Winner = playerAt(names, g.LongestRoad()), playerAt(names, g.LargestArmy()), playerAt(names, g.Winner())
	if e := g.EndedBy(); e != game.NotEnded {
		how := e.String()
		out.EndedBy = &how
	}
	for p := range out.Players {
		vp := g.VP(p)
		out.Players[p] = gamePlayerJSON{
			Player: names[p], Hand: cardsJSON(g.Hand(p)), Cards: g.Held(p).Total(), Soldiers: int(g.Played(p)[game.Soldier]),
			Road: g.RoadLength(p), VP: vp.Total(),
			VPBreakdown: vpToJSON(vp),
		}
	}
	return out
}

// cardsJSON writes resource cards by name, every resource present.
func cardsJSON(c game.Cards) map[string]int {
	out := make(map[string]int, len(c))
	for _, r := range game.Resources {
		out[r.String()] = int(c[r])
	}
	return out
}
