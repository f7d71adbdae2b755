package game

import (
	"fmt"
	"math/bits"

	"github.com/catanjudge/catanjudge/referee"
)

// Phase is where a game is: the initial placement, a turn's steps, or the end.
type Phase int8

// The phases.
const (
	// Setup is the snake placement of §4.
	Setup Phase = iota
	// BeforeRoll is the start of a turn: the dice are still to be rolled
	// (§6 ア); a development card may be played first (§9).
	BeforeRoll
	// Discarding follows a 7: players with 8 or more cards return half (§6 イ).
	Discarding
	// MovingRobber follows a 7 and its discards: the roller moves the robber (§6 イ).
	MovingRobber
	// Main is the rest of the turn: trade, build, buy, play, pass (§5).
	Main
	// Over is the end: a declaration (§11) or the time signal (§12).
	Over
)

var phaseNames = [...]string{"setup", "roll", "discard", "robber", "main", "over"}

// String returns the phase's name in the API.
func (p Phase) String() string { return phaseNames[p] }

// End says how a game ended.
type End int8

// The ends of a game.
const (
	NotEnded      End = iota
	ByDeclaration     // §11
	ByTime            // §12
)

var endNames = [...]string{"", "declaration", "time"}

// String returns the end's name in the API, "" while the game goes on.
func (e End) String() string { return endNames[e] }

// player is one colour's pieces and cards.
type player struct {
	hand   Cards
	cards  Deck // unplayed development cards, one-point cards included
	fresh  Deck // of those, the ones bought this turn (§8 エ)
	played Deck // played with effect; soldiers count for largest army (§10 イ)

	settlements uint64 // corners with this colour's settlement
	cities      uint64 // corners with this colour's city
	roads       edgeSet
	roadEnds    uint64 // corners touched by this colour's roads (§8 イ)
	// reach is the corners a new road may start from (§8 ア): own
	// buildings, and own road ends without an opponent's building.
	reach uint64
	road  int8  // the longest road (§10 ア)
	ports uint8 // bit 0: a 3:1 harbour; bit 1+r: the 2:1 harbour of r (§7 ウ)
}

// State is a game in progress: the board, the bank, the development deck,
// 3 or 4 players in play order with their pieces and cards, the turn and
// its phase. It holds no pointers or slices, so a copy is a snapshot and
// two states compare with ==. The zero State is not a game: use New.
type State struct {
	board  board
	names  [4]string
	n      int8
	winVP  int8
	keeps  bool // §10 ア: a tied holder keeps the longest road (ruleset holder-keeps)
	rests  bool // §6 ア: a single recipient takes what the bank has (ruleset single-takes-rest)
	desert bool // §6 イ: the robber may move to the desert (ruleset robber_on_desert)

	players [4]player
	bank    Cards
	deck    Deck

	owner   [numVertices]int8 // the colour on each corner, -1 when empty
	built   uint64            // corners with a building
	crowded uint64            // corners with a building or next to one: no settlement there (§4 ア)
	roads   edgeSet           // edges with a road
	roadOf  [numEdges]int8    // the colour on each edge, -1 when empty
	robber  int8              // the robber's hex; -1 off the board
	turn    int16             // 0 during §4, then 1 for the first player's first turn
	current int8
	phase   Phase
	placed  int8 // §4 placements made
	played  bool // a development card was played this turn (§9)
	owed    [4]int8
	longest int8 // the longest road's holder, -1 in the bank
	army    int8 // the largest army's holder, -1 in the bank
	winner  int8
	endedBy End
}

// New starts a game on board b under ruleset rs with players in play
// order: the bank full, the deck whole, the first player to place (§4).
// It returns an *Error for other than 3 or 4 players, an empty or repeated
// player id. The ruleset's policies are read as referee.Ruleset.Validate
// allows them; anything else is the rulebook's text (vacate, all or nothing).
func New(rs referee.Ruleset, b referee.Board, players []string) (*State, error) {
	if err := checkPlayers(players); err != nil {
		return nil, err
	}
	s := &State{
		board:   newBoard(b),
		n:       int8(len(players)),
		winVP:   int8(min(max(rs.WinVP, 1), 100)),
		keeps:   rs.LongestRoadTie == referee.LongestRoadHolderKeeps,
		rests:   rs.BankShortage == referee.BankShortageSingleTakesRest,
		desert:  rs.RobberOnDesert,
		deck:    FullDeck,
		longest: -1,
		army:    -1,
		winner:  -1,
	}
	copy(s.names[:], players)
	for r := range s.bank {
		s.bank[r] = bankStock
	}
	for v := range s.owner {
		s.owner[v] = -1
	}
	for e := range s.roadOf {
		s.roadOf[e] = -1
	}
	s.robber = s.board.robber
	return s, nil
}

// checkPlayers refuses other than 3 or 4 players in play order, an empty
// id, or one listed twice (§3 オ, カ).
func checkPlayers(players []string) error {
	if len(players) < 3 || len(players) > 4 {
		return broken("table-size", "§3 カ", fmt.Sprintf("%d players; a table has 3 or 4", len(players)),
			map[string]any{"Count": len(players)})
	}
	for i, p := range players {
		if p == "" {
			return broken("player-id-empty", "§3 カ", "a player id is empty", nil)
		}
		for _, q := range players[:i] {
			if p == q {
				return broken("duplicate-player", "§3 カ", fmt.Sprintf("player %s is listed twice", p), map[string]any{"Player": p})
			}
		}
	}
	return nil
}

// Players returns the number of players.
func (s *State) Players() int { return int(s.n) }

// Name returns the id of player p (0 is the first in play order).
func (s *State) Name(p int) string { return s.names[p] }

// PlayerIndex returns the place in play order of the player with id name.
func (s *State) PlayerIndex(name string) (int, bool) {
	for p := range int(s.n) {
		if s.names[p] == name {
			return p, true
		}
	}
	return -1, false
}

// Phase returns the phase of the game.
func (s *State) Phase() Phase { return s.phase }

// Turn returns the turn: 0 during the initial placement, then 1, 2, ...
func (s *State) Turn() int { return int(s.turn) }

// Current returns the player to act: the placer during §4, then the player
// whose turn it is.
func (s *State) Current() int { return int(s.current) }

// Bank returns the bank's resource cards.
func (s *State) Bank() Cards { return s.bank }

// DeckLeft returns the development cards still to be bought.
func (s *State) DeckLeft() int { return s.deck.Total() }

// LongestRoad returns the holder of the longest road card, or -1.
func (s *State) LongestRoad() int { return int(s.longest) }

// LargestArmy returns the holder of the largest army card, or -1.
func (s *State) LargestArmy() int { return int(s.army) }

// Winner returns the player who declared victory, or -1.
func (s *State) Winner() int { return int(s.winner) }

// EndedBy returns how the game ended.
func (s *State) EndedBy() End { return s.endedBy }

// Robber returns the robber's hex, and false when it is off the board.
func (s *State) Robber() (referee.Hex, bool) {
	if s.robber < 0 {
		return referee.Hex{}, false
	}
	return topo.hexes[s.robber], true
}

// Hand returns player p's resource cards.
func (s *State) Hand(p int) Cards { return s.players[p].hand }

// Held returns player p's unplayed development cards, one-point cards included.
func (s *State) Held(p int) Deck { return s.players[p].cards }

// Played returns the development cards player p played with effect.
func (s *State) Played(p int) Deck { return s.players[p].played }

// RoadLength returns the length of player p's longest road (§10 ア).
func (s *State) RoadLength(p int) int { return int(s.players[p].road) }

// Pieces returns the roads, settlements and cities player p has on the board.
func (s *State) Pieces(p int) (roads, settlements, cities int) {
	pl := &s.players[p]
	return pl.roads.count(), bits.OnesCount64(pl.settlements), bits.OnesCount64(pl.cities)
}

// VP is a player's victory points by where they come from (§11).
type VP struct {
	Settlements int // 1 each
	Cities      int // 2 each
	LongestRoad int // 2 for the card
	LargestArmy int // 2 for the card
	PointCards  int // 1 each, from purchase (§9 オ)
}

// Total returns the victory points.
func (v VP) Total() int {
	return v.Settlements + v.Cities + v.LongestRoad + v.LargestArmy + v.PointCards
}

// Breakdown is v as a score sheet writes it (§11): the settlements and
// cities standing, the 2-point cards held, the one-point cards shown.
func (v VP) Breakdown() referee.Breakdown {
	return referee.Breakdown{Settlements: v.Settlements, Cities: v.Cities / 2,
		LongestRoad: v.LongestRoad > 0, LargestArmy: v.LargestArmy > 0, PointCards: v.PointCards}
}

// VP returns player p's victory points, derived from the pieces and cards.
func (s *State) VP(p int) VP {
	pl := &s.players[p]
	v := VP{
		Settlements: bits.OnesCount64(pl.settlements),
		Cities:      2 * bits.OnesCount64(pl.cities),
		PointCards:  int(pl.cards[Point]),
	}
	if int(s.longest) == p {
		v.LongestRoad = 2
	}
	if int(s.army) == p {
		v.LargestArmy = 2
	}
	return v
}

// vp returns player p's total victory points without building the breakdown.
func (s *State) vp(p int) int {
	pl := &s.players[p]
	v := bits.OnesCount64(pl.settlements) + 2*bits.OnesCount64(pl.cities) + int(pl.cards[Point])
	if int(s.longest) == p {
		v += 2
	}
	if int(s.army) == p {
		v += 2
	}
	return v
}

// Owed returns the cards player p must still return after a 7 (§6 イ).
func (s *State) Owed(p int) int { return int(s.owed[p]) }

// CardPlayed reports whether a development card was played this turn (§9).
func (s *State) CardPlayed() bool { return s.played }

// Building returns the colour and kind on vertex v: owner -1 when empty.
func (s *State) Building(v referee.Vertex) (owner int, city bool) {
	i, ok := topo.vertexID[v]
	if !ok || s.owner[i] < 0 {
		return -1, false
	}
	return int(s.owner[i]), s.players[s.owner[i]].cities&(1<<i) != 0
}

// Road returns the colour of the road on edge e, or -1.
func (s *State) Road(e referee.Edge) int {
	i, ok := topo.edgeID[e]
	if !ok {
		return -1
	}
	return int(s.roadOf[i])
}
