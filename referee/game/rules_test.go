package game

import (
	"math/bits"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// ruleCase is one rule checked on the fixture game: the set-up, the moves
// (all but the last must be played), and what the last one must do.
type ruleCase struct {
	name    string // the rule, with its section
	ruleset func(*referee.Ruleset)
	setup   func(t *testing.T, s *State)
	moves   []MoveSpec
	code    string // the last move's rule code and section; "" when it is played
	section string
	void    bool // the last move stands with no effect (§8 エ, §9)
	check   func(t *testing.T, s *State)
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := preset()
			if tc.ruleset != nil {
				tc.ruleset(&rs)
			}
			s := started(t, rs)
			if tc.setup != nil {
				tc.setup(t, s)
			}
			if err := checkInvariants(s); err != nil {
				t.Fatalf("the set-up breaks an invariant: %v", err)
			}
			play(t, s, tc.moves[:len(tc.moves)-1]...)
			before := *s
			last := tc.moves[len(tc.moves)-1]
			code, section, void := codeOf(try(s, last))
			if code != tc.code || (tc.code != "" && section != tc.section) || void != tc.void {
				t.Fatalf("%+v = %q (%s, void %v), want %q (%s, void %v)", last, code, section, void, tc.code, tc.section, tc.void)
			}
			if code != "" && *s != before {
				t.Errorf("%+v was refused or voided but changed the game", last)
			}
			if err := checkInvariants(s); err != nil {
				t.Errorf("after %+v: %v", last, err)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

// handIs fails unless player p holds exactly c.
func handIs(t *testing.T, s *State, p int, c Cards) {
	t.Helper()
	if got := s.Hand(p); got != c {
		t.Errorf("%s holds %v, want %v", s.Name(p), got, c)
	}
}

// The fixture's hands after §4: each took the second settlement's resources.
var (
	redStart    = Cards{Ore: 1}   // S(0,-3): mountains (0,-2)
	blueStart   = Cards{Ore: 1}   // N(2,1): mountains (2,0)
	yellowStart = Cards{Grain: 1} // S(-1,2): fields (-1,2)
	greenStart  = Cards{Grain: 1} // S(-2,-1): fields (-2,0)
)

func TestInitialPlacement(t *testing.T) {
	rs := preset()
	fresh := func(t *testing.T) *State {
		s, err := New(rs, testBoard(t, rs), []string{"R", "B", "Y", "G"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Run("§4 ア, イ: snake order, then the first player rolls", func(t *testing.T) {
		s := fresh(t)
		for i, spec := range startPlacement {
			if want := []int{0, 1, 2, 3, 3, 2, 1, 0}[i]; s.Current() != want || s.Phase() != Setup {
				t.Fatalf("placement %d: current %d in %v, want %d in setup", i, s.Current(), s.Phase(), want)
			}
			play(t, s, spec)
		}
		if s.Current() != red || s.Phase() != BeforeRoll || s.Turn() != 1 {
			t.Errorf("after §4: current %d, phase %v, turn %d; want R to roll on turn 1", s.Current(), s.Phase(), s.Turn())
		}
	})
	t.Run("§4 ウ: resources from the second settlement only", func(t *testing.T) {
		s := started(t, rs)
		for p, want := range []Cards{redStart, blueStart, yellowStart, greenStart} {
			handIs(t, s, p, want)
		}
	})
	t.Run("§4 ウ: the desert gives nothing", func(t *testing.T) {
		s := fresh(t)
		play(t, s, startPlacement[:7]...)
		// N(0,0) touches hills (0,-1), pasture (1,-1) and the desert (0,0).
		play(t, s, MoveSpec{Do: "place", Settlement: "N(0,0)", Road: road("N(0,0)", "S(1,-1)")})
		handIs(t, s, red, Cards{Brick: 1, Wool: 1})
	})
	refused := []struct {
		name, code, section string
		moves               []MoveSpec
	}{
		// §4 ア's example: no settlement on a corner next to one (the light blue corners).
		{"§4 ア: the distance rule", "distance-rule", "§4 ア", []MoveSpec{
			{Do: "place", Settlement: "N(0,0)", Road: road("N(0,0)", "S(1,-1)")},
			{Do: "place", Settlement: "S(1,-1)", Road: road("S(1,-1)", "N(1,0)")}}},
		{"§4 ア: a corner already taken", "corner-taken", "§4 ア", []MoveSpec{
			{Do: "place", Settlement: "N(0,0)", Road: road("N(0,0)", "S(1,-1)")},
			{Do: "place", Settlement: "N(0,0)", Road: road("N(0,0)", "S(0,-1)")}}},
		{"§4 ア: the road goes out from the settlement", "road-not-at-settlement", "§4 ア", []MoveSpec{
			{Do: "place", Settlement: "N(0,0)", Road: road("S(1,-1)", "N(1,0)")}}},
		{"§4: placement comes before the dice", "placement-first", "§4", []MoveSpec{roll(3, 4)}},
		{"§4: only the placer places", "not-your-turn", "§4", []MoveSpec{
			{Do: "place", Player: "B", Settlement: "N(0,0)", Road: road("N(0,0)", "S(1,-1)")}}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			s := fresh(t)
			play(t, s, tc.moves[:len(tc.moves)-1]...)
			if code, section, _ := codeOf(try(s, tc.moves[len(tc.moves)-1])); code != tc.code || section != tc.section {
				t.Errorf("last move = %q (%s), want %q (%s)", code, section, tc.code, tc.section)
			}
		})
	}
	t.Run("§4: the placement is over", func(t *testing.T) {
		s := started(t, rs)
		if code, _, _ := codeOf(try(s, MoveSpec{Do: "place", Settlement: "N(0,0)", Road: road("N(0,0)", "S(1,-1)")})); code != "placement-over" {
			t.Errorf("a ninth placement = %q, want placement-over", code)
		}
	})
}

func TestTurnOrder(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "§5: trade and build after production", setup: func(t *testing.T, s *State) { give(t, s, red, roadCost) },
			moves: []MoveSpec{{Do: "build", Road: road("S(1,-3)", "N(0,-1)")}}, code: "roll-first", section: "§5"},
		{name: "§5: pass after production", moves: []MoveSpec{end}, code: "roll-first", section: "§5"},
		{name: "§6 ア: one roll a turn", moves: []MoveSpec{roll(1, 2), roll(3, 4)}, code: "already-rolled", section: "§6 ア"},
		{name: "§5: only the current player rolls", moves: []MoveSpec{{Do: "roll", Player: "B", Dice: []int{1, 2}}},
			code: "not-your-turn", section: "§6 ア"},
		{name: "§5: the turn passes in play order", moves: []MoveSpec{roll(1, 2), end, roll(1, 2), end, roll(1, 2), end, roll(1, 2), end},
			check: func(t *testing.T, s *State) {
				if s.Current() != red || s.Turn() != 5 || s.Phase() != BeforeRoll {
					t.Errorf("after 4 turns: current %d, turn %d, phase %v; want R, 5, roll", s.Current(), s.Turn(), s.Phase())
				}
			}},
		{name: "§6 ア: a die from 1 to 6", moves: []MoveSpec{roll(0, 7)}, code: "die-out-of-range", section: "§6 ア"},
	})
}

func TestProduction(t *testing.T) {
	// Roll 10: mountains (0,-2) pays R's S(1,-3) and S(0,-3); hills (2,-1) pays B's S(3,-2).
	ten := roll(4, 6)
	cityAt := func(p int, v string) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			i := vid(t, v)
			s.players[p].settlements &^= 1 << i
			s.players[p].cities |= 1 << i
		}
	}
	drain := func(r Resource, left int8) func(t *testing.T, s *State) {
		// The bank's cards go to G, so that it holds only left.
		return func(t *testing.T, s *State) {
			var c Cards
			c[r] = s.bank[r] - left
			give(t, s, green, c)
		}
	}
	runCases(t, []ruleCase{
		{name: "§6 ア: a settlement takes 1", moves: []MoveSpec{ten}, check: func(t *testing.T, s *State) {
			handIs(t, s, red, Cards{Ore: 3})
			handIs(t, s, blue, Cards{Ore: 1, Brick: 1})
			handIs(t, s, yellow, yellowStart)
		}},
		{name: "§6 ア: a city takes 2", setup: cityAt(red, "S(1,-3)"), moves: []MoveSpec{ten}, check: func(t *testing.T, s *State) {
			handIs(t, s, red, Cards{Ore: 4})
		}},
		{name: "§6 ア: nothing from the robber's hex", setup: func(t *testing.T, s *State) { s.robber = int8(topo.hexID[referee.Hex{Q: 0, R: -2}]) },
			moves: []MoveSpec{ten}, check: func(t *testing.T, s *State) {
				handIs(t, s, red, redStart)
				handIs(t, s, blue, Cards{Ore: 1, Brick: 1})
			}},
		{name: "§6 ア ruling: all or nothing per resource", setup: drain(Ore, 1), moves: []MoveSpec{ten}, check: func(t *testing.T, s *State) {
			handIs(t, s, red, redStart) // 2 ore due, 1 in the bank: none
			handIs(t, s, blue, Cards{Ore: 1, Brick: 1})
		}},
		{name: "§6 ア: the bank with just enough pays", setup: drain(Ore, 2), moves: []MoveSpec{ten}, check: func(t *testing.T, s *State) {
			handIs(t, s, red, Cards{Ore: 3})
		}},
		{name: "§6 ア, single-takes-rest: one recipient takes what is left",
			ruleset: func(rs *referee.Ruleset) { rs.BankShortage = referee.BankShortageSingleTakesRest },
			setup:   drain(Ore, 1), moves: []MoveSpec{ten}, check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Ore: 2})
			}},
		{name: "§6 ア, single-takes-rest: two recipients get nothing",
			ruleset: func(rs *referee.Ruleset) { rs.BankShortage = referee.BankShortageSingleTakesRest },
			setup: func(t *testing.T, s *State) {
				// Roll 8: mountains (2,0) pays B's N(2,1) and R's N(1,1).
				lay(t, s, red, "S(1,0)", "N(1,1)*")
				drain(Ore, 1)(t, s)
			}, moves: []MoveSpec{roll(2, 6)}, check: func(t *testing.T, s *State) {
				handIs(t, s, red, redStart)
				handIs(t, s, blue, blueStart)
			}},
	})
}

func TestSeven(t *testing.T) {
	// R holds 8 cards and B 9: each returns 4; Y with 7 returns none.
	crowd := func(t *testing.T, s *State) {
		give(t, s, red, Cards{Brick: 3, Lumber: 4})
		give(t, s, blue, Cards{Wool: 8})
		give(t, s, yellow, Cards{Grain: 6})
	}
	seven := roll(3, 4)
	discards := []MoveSpec{
		{Do: "discard", Cards: map[string]int{"brick": 3, "lumber": 1}},
		{Do: "discard", Player: "B", Cards: map[string]int{"wool": 4}},
	}
	// Hills (2,-1) holds B's S(3,-2); mountains (0,-2) only R's own buildings.
	atBlue := &referee.Hex{Q: 2, R: -1}
	runCases(t, []ruleCase{
		{name: "§6 イ: 8 or more cards return half, rounded down", setup: crowd, moves: []MoveSpec{seven}, check: func(t *testing.T, s *State) {
			if s.Phase() != Discarding || s.Owed(red) != 4 || s.Owed(blue) != 4 || s.Owed(yellow) != 0 {
				t.Errorf("after a 7: phase %v, owed %d %d %d; want discard, 4 4 0", s.Phase(), s.Owed(red), s.Owed(blue), s.Owed(yellow))
			}
		}},
		{name: "§6 イ: nobody produces on a 7", moves: []MoveSpec{seven}, check: func(t *testing.T, s *State) {
			handIs(t, s, red, redStart)
			if s.Phase() != MovingRobber {
				t.Errorf("a 7 with no hand of 8 goes to %v, want the robber", s.Phase())
			}
		}},
		{name: "§6 イ: half, not more", setup: crowd, moves: []MoveSpec{seven, {Do: "discard", Cards: map[string]int{"brick": 3, "lumber": 2}}},
			code: "discard-count", section: "§6 イ"},
		{name: "§6 イ: 7 cards return none", setup: crowd, moves: []MoveSpec{seven, {Do: "discard", Player: "Y", Cards: map[string]int{"grain": 3}}},
			code: "no-discard-due", section: "§6 イ"},
		{name: "§6 イ: cards one holds", setup: crowd, moves: []MoveSpec{seven, {Do: "discard", Cards: map[string]int{"ore": 4}}},
			code: "short-of-cards", section: "§6 イ"},
		{name: "§6 イ: the discards come first", setup: crowd, moves: []MoveSpec{seven, {Do: "robber", Hex: atBlue, Rob: "B", Took: "wool"}},
			code: "discard-first", section: "§6 イ"},
		{name: "§6 イ: then the robber", setup: crowd, moves: append(append([]MoveSpec{seven}, discards...), end),
			code: "robber-first", section: "§6 イ"},
		{name: "§6 イ: the robber moves and robs", setup: crowd, moves: append(append([]MoveSpec{seven}, discards...),
			MoveSpec{Do: "robber", Hex: atBlue, Rob: "B", Took: "wool"}), check: func(t *testing.T, s *State) {
			handIs(t, s, red, Cards{Lumber: 3, Ore: 1, Wool: 1})
			handIs(t, s, blue, Cards{Ore: 1, Wool: 3})
			if h, _ := s.Robber(); h != *atBlue || s.Phase() != Main {
				t.Errorf("robber on %v in %v, want %v in main", h, s.Phase(), *atBlue)
			}
		}},
		{name: "§6 イ: to another hex", moves: []MoveSpec{seven, {Do: "robber", Hex: &referee.Hex{}}},
			code: "robber-same-hex", section: "§6 イ"},
		{name: "§6 イ: the desert, when the ruleset allows it",
			setup: func(t *testing.T, s *State) { s.robber = int8(topo.hexID[referee.Hex{Q: 0, R: -2}]) },
			moves: []MoveSpec{seven, {Do: "robber", Hex: &referee.Hex{}}}},
		{name: "§6 イ: not the desert when the ruleset keeps the robber off it",
			ruleset: func(rs *referee.Ruleset) { rs.RobberOnDesert = false },
			moves:   []MoveSpec{seven, {Do: "robber", Hex: &referee.Hex{}}}, code: "robber-desert", section: "§6 イ"},
		{name: "§6 イ: a player with a building there and a card must be robbed",
			moves: []MoveSpec{seven, {Do: "robber", Hex: atBlue}}, code: "rob-required", section: "§6 イ"},
		{name: "§6 イ: nobody to rob: no building of another there",
			moves: []MoveSpec{seven, {Do: "robber", Hex: &referee.Hex{Q: 0, R: -2}}}},
		{name: "§6 イ: nobody to rob: no card",
			setup: func(t *testing.T, s *State) { s.bank.add(s.players[blue].hand); s.players[blue].hand = Cards{} },
			moves: []MoveSpec{seven, {Do: "robber", Hex: atBlue}}},
		{name: "§6 イ: only a player with a building there", moves: []MoveSpec{seven, {Do: "robber", Hex: atBlue, Rob: "Y", Took: "grain"}},
			code: "rob-not-eligible", section: "§6 イ"},
		{name: "§6 イ: not oneself", moves: []MoveSpec{seven, {Do: "robber", Hex: &referee.Hex{Q: 0, R: -2}, Rob: "R", Took: "ore"}},
			code: "rob-not-eligible", section: "§6 イ"},
		{name: "§6 イ: the card taken is one the player holds", moves: []MoveSpec{seven, {Do: "robber", Hex: atBlue, Rob: "B", Took: "wool"}},
			code: "took-not-held", section: "§6 イ"},
		{name: "§6 イ: a robbery names the card", moves: []MoveSpec{seven, {Do: "robber", Hex: atBlue, Rob: "B"}},
			code: "rob-took", section: "§6 イ"},
		{name: "§6 イ: only after a 7", moves: []MoveSpec{roll(1, 2), {Do: "robber", Hex: atBlue, Rob: "B", Took: "ore"}},
			code: "no-robber-move", section: "§6 イ"},
	})
}

func TestTrade(t *testing.T) {
	stock := func(t *testing.T, s *State) {
		give(t, s, red, Cards{Lumber: 4, Brick: 6})
		give(t, s, yellow, Cards{Wool: 2, Brick: 2})
	}
	rolled := []MoveSpec{roll(6, 6)} // 12: fields (-1,-1), nobody there
	with := func(m MoveSpec) []MoveSpec { return append(append([]MoveSpec{}, rolled...), m) }
	runCases(t, []ruleCase{
		{name: "§7 ア: a trade with a player", setup: stock,
			moves: with(MoveSpec{Do: "trade", With: "Y", Give: map[string]int{"lumber": 1, "ore": 1}, Get: map[string]int{"wool": 2}}),
			check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Lumber: 3, Brick: 6, Wool: 2})
				handIs(t, s, yellow, Cards{Grain: 1, Brick: 2, Lumber: 1, Ore: 1})
			}},
		// §7 ア's own example: "one lumber for two lumber".
		{name: "§7 ア: not the same resource on both sides", setup: stock,
			moves: with(MoveSpec{Do: "trade", With: "Y", Give: map[string]int{"lumber": 1}, Get: map[string]int{"lumber": 2}}),
			code:  "trade-same-resource", section: "§7 ア"},
		{name: "§7 ア: giving for nothing is not a trade", setup: stock,
			moves: with(MoveSpec{Do: "trade", With: "Y", Give: map[string]int{"lumber": 1}, Get: map[string]int{}}),
			code:  "trade-one-sided", section: "§7 ア"},
		// The base game's example: on Peter's turn, Beth cannot trade with Cooper.
		{name: "§7: only the current player trades", setup: stock,
			moves: with(MoveSpec{Do: "trade", Player: "B", With: "Y", Give: map[string]int{"ore": 1}, Get: map[string]int{"wool": 1}}),
			code:  "not-your-turn", section: "§7 ア"},
		{name: "§7 ア: with another player", setup: stock,
			moves: with(MoveSpec{Do: "trade", With: "R", Give: map[string]int{"ore": 1}, Get: map[string]int{"wool": 1}}),
			code:  "trade-self", section: "§7 ア"},
		{name: "§7 ア: the other player's cards", setup: stock,
			moves: with(MoveSpec{Do: "trade", With: "Y", Give: map[string]int{"lumber": 1}, Get: map[string]int{"wool": 3}}),
			code:  "short-of-cards", section: "§7 ア"},
		// Every fixture player settled on a harbour; R's is taken away here.
		{name: "§7 イ: 4 identical cards for 1", setup: func(t *testing.T, s *State) { stock(t, s); s.players[red].ports = 0 },
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"lumber": 4}, Get: map[string]int{"grain": 1}}),
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Brick: 6, Ore: 1, Grain: 1}) }},
		{name: "§7 イ: not 3 without a harbour", setup: func(t *testing.T, s *State) { stock(t, s); s.players[red].ports = 0 },
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 3}, Get: map[string]int{"grain": 1}}),
			code:  "bank-rate", section: "§7 ウ"},
		// R's S(0,-3) is on the first harbour site, a 3:1 harbour in the preset.
		{name: "§7 ウ: 3 for 1 at a 3:1 harbour", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 3}, Get: map[string]int{"grain": 1}}),
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Lumber: 4, Brick: 3, Ore: 1, Grain: 1}) }},
		// Ruling on "a player uses the best rate they own": it is the
		// player's right, not a duty. A harbour's owner who trades 4:1 made
		// a legal, wasteful trade, and the record of it stands.
		{name: "§7 イ ruling: a harbour's owner may still trade 4:1", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"lumber": 4}, Get: map[string]int{"grain": 1}}),
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Brick: 6, Ore: 1, Grain: 1}) }},
		{name: "§7 イ, ウ: one move may hold trades at two rates", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 3, "lumber": 4}, Get: map[string]int{"grain": 2}}),
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Brick: 3, Ore: 1, Grain: 2}) }},
		{name: "§7 イ, ウ: and trades at two rates of one resource", setup: func(t *testing.T, s *State) { stock(t, s); give(t, s, red, Cards{Brick: 1}) },
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 7}, Get: map[string]int{"grain": 2}}),
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Lumber: 4, Ore: 1, Grain: 2}) }},
		{name: "§7 ウ: a count no trades add up to", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 5}, Get: map[string]int{"grain": 1}}),
			code:  "bank-rate", section: "§7 ウ"},
		{name: "§7 イ: not more cards than the trades buy", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"lumber": 4}, Get: map[string]int{"grain": 2}}),
			code:  "bank-rate-total", section: "§7 イ"},
		{name: "§7 ウ: several resources at once", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 6}, Get: map[string]int{"grain": 1, "wool": 1}})},
		{name: "§7 イ: as many cards as the rate buys", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 6}, Get: map[string]int{"grain": 1}}),
			code:  "bank-rate-total", section: "§7 イ"},
		{name: "§7 イ: not the same resource", setup: stock,
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 3}, Get: map[string]int{"brick": 1}}),
			code:  "trade-same-resource", section: "§7 イ"},
		{name: "§7 イ: what the bank holds", setup: func(t *testing.T, s *State) { stock(t, s); give(t, s, green, Cards{Grain: s.bank[Grain]}) },
			moves: with(MoveSpec{Do: "bank", Give: map[string]int{"brick": 3}, Get: map[string]int{"grain": 1}}),
			code:  "bank-short", section: "§7 イ"},
	})
}

// Every harbour of the board serves a building on either corner of its
// edge, at its rate (§7 ウ), whatever the referee's sites are.
func TestHarbourRates(t *testing.T) {
	rs := preset()
	b := testBoard(t, rs)
	for i, hb := range b.Harbors {
		for _, corner := range []referee.Vertex{hb.Edge.A, hb.Edge.B} {
			s, err := New(rs, b, []string{"R", "B", "Y"})
			if err != nil {
				t.Fatal(err)
			}
			s.placeSettlement(red, topo.vertexID[corner])
			for _, r := range Resources {
				// A 3:1 harbour serves every resource; a 2:1 harbour only its own.
				want := int8(4)
				switch hb.Kind {
				case referee.GenericHarbor:
					want = 3
				case referee.HarborKind(r.String()):
					want = 2
				}
				if got := s.rate(red, r); got != want {
					t.Errorf("harbour %d (%s) at %v: rate for %v = %d, want %d", i, hb.Kind, corner, r, got, want)
				}
			}
		}
	}
}

// What k identical cards buy from the bank is every count of trades they
// split into at the rates owned (§7 イ, ウ), counted here by enumerating
// the trades; and it is a run of numbers, as bankTrade's message says.
func TestTradeUnits(t *testing.T) {
	for _, rates := range []uint8{1 << 4, 1<<4 | 1<<3, 1<<4 | 1<<2, 1<<4 | 1<<3 | 1<<2} {
		for k := int8(0); k <= bankStock; k++ {
			var want uint64
			for fours := 0; 4*fours <= int(k); fours++ {
				for threes := 0; 4*fours+3*threes <= int(k); threes++ {
					twos := int(k) - 4*fours - 3*threes
					if twos%2 != 0 || (threes > 0 && rates&(1<<3) == 0) || (twos > 0 && rates&(1<<2) == 0) {
						continue
					}
					want |= 1 << (fours + threes + twos/2)
				}
			}
			got := tradeUnits(k, rates)
			if got != want {
				t.Errorf("tradeUnits(%d, %b) = %b, want %b", k, rates, got, want)
			}
			if run := got >> bits.TrailingZeros64(got); got != 0 && run&(run+1) != 0 {
				t.Errorf("tradeUnits(%d, %b) = %b, not a run of numbers", k, rates, got)
			}
		}
	}
}

func TestBuilding(t *testing.T) {
	// 12: fields (-1,-1), where nobody has a building yet.
	rolled := func(ms ...MoveSpec) []MoveSpec { return append([]MoveSpec{roll(6, 6)}, ms...) }
	rich := func(t *testing.T, s *State) {
		give(t, s, red, Cards{Brick: 4, Lumber: 4, Wool: 2, Grain: 4, Ore: 3})
	}
	pieces := func(p, roads, settlements, cities int) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			if r, se, c := s.Pieces(p); r != roads || se != settlements || c != cities {
				t.Errorf("%s has %d roads, %d settlements, %d cities; want %d, %d, %d", s.Name(p), r, se, c, roads, settlements, cities)
			}
		}
	}
	runCases(t, []ruleCase{
		{name: "§8 ア: a road costs lumber and brick", setup: rich,
			moves: rolled(MoveSpec{Do: "build", Road: road("S(1,-3)", "N(0,-1)")}),
			check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Brick: 3, Lumber: 3, Wool: 2, Grain: 4, Ore: 4})
				pieces(red, 3, 2, 0)(t, s)
			}},
		{name: "§8 ア: without the cards", moves: rolled(MoveSpec{Do: "build", Road: road("S(1,-3)", "N(0,-1)")}),
			code: "short-of-cards", section: "§8 ア"},
		{name: "§8 ア: a road touches the player's pieces", setup: rich,
			moves: rolled(MoveSpec{Do: "build", Road: road("N(0,0)", "S(1,-1)")}), code: "road-unconnected", section: "§8 ア"},
		{name: "§8 ア: from the end of the player's road", setup: rich,
			moves: rolled(MoveSpec{Do: "build", Road: road("N(-1,-1)", "S(0,-2)")}, MoveSpec{Do: "build", Road: road("S(0,-2)", "N(-1,0)")})},
		{name: "§8 ア: not through an opponent's building",
			setup: func(t *testing.T, s *State) {
				rich(t, s)
				lay(t, s, red, "N(-1,-1)", "S(0,-2)")
				lay(t, s, blue, "N(0,-1)", "S(0,-2)*")
			},
			moves: rolled(MoveSpec{Do: "build", Road: road("S(0,-2)", "N(-1,0)")}), code: "road-unconnected", section: "§8 ア"},
		{name: "§8 ア: an edge already taken", setup: rich,
			moves: rolled(MoveSpec{Do: "build", Road: road("S(1,-3)", "N(0,-2)")}), code: "edge-taken", section: "§8 ア"},
		{name: "§8 ア: 15 roads", setup: func(t *testing.T, s *State) { rich(t, s); redNetwork(t, s, 15, false) },
			moves: rolled(MoveSpec{Do: "build", Road: road("N(0,-1)", "S(0,-2)")}), code: "no-pieces", section: "§8 ア"},
		{name: "§8 イ: a settlement on the player's road", setup: func(t *testing.T, s *State) { rich(t, s); lay(t, s, red, "N(-1,-1)", "S(0,-2)") },
			moves: rolled(MoveSpec{Do: "build", Settlement: "S(0,-2)"}), check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Brick: 3, Lumber: 3, Wool: 1, Grain: 3, Ore: 4})
				pieces(red, 3, 3, 0)(t, s)
			}},
		// The base game's example (Olivia): corner A breaks the distance
		// rule, corner C has no road of hers.
		{name: "§8 イ: the distance rule", setup: rich, moves: rolled(MoveSpec{Do: "build", Settlement: "N(-1,-1)"}),
			code: "distance-rule", section: "§8 イ"},
		{name: "§8 イ: a corner the player's road reaches", setup: rich, moves: rolled(MoveSpec{Do: "build", Settlement: "N(0,0)"}),
			code: "settlement-unconnected", section: "§8 イ"},
		{name: "§8 イ: 5 settlements", setup: func(t *testing.T, s *State) { rich(t, s); redNetwork(t, s, 15, true) },
			moves: rolled(MoveSpec{Do: "build", Settlement: "N(0,0)"}), code: "no-pieces", section: "§8 イ"},
		{name: "§8 ウ: a city replaces the player's settlement", setup: rich, moves: rolled(MoveSpec{Do: "build", City: "S(1,-3)"}),
			check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Brick: 4, Lumber: 4, Wool: 2, Grain: 2, Ore: 1})
				pieces(red, 2, 1, 1)(t, s)
				if got := s.VP(red).Total(); got != 3 {
					t.Errorf("R has %d VP with a settlement and a city, want 3", got)
				}
			}},
		{name: "§8 ウ: not an opponent's settlement", setup: rich, moves: rolled(MoveSpec{Do: "build", City: "S(3,-2)"}),
			code: "city-not-on-settlement", section: "§8 ウ"},
		{name: "§8 ウ: not an empty corner", setup: rich, moves: rolled(MoveSpec{Do: "build", City: "N(0,0)"}),
			code: "city-not-on-settlement", section: "§8 ウ"},
		{name: "§8 ウ: 4 cities", setup: func(t *testing.T, s *State) {
			rich(t, s)
			redNetwork(t, s, 15, true)
			for _, v := range []string{"S(1,-3)", "S(0,-3)", "N(-1,0)", "N(-2,1)"} {
				s.players[red].settlements &^= 1 << vid(t, v)
				s.players[red].cities |= 1 << vid(t, v)
			}
		}, moves: rolled(MoveSpec{Do: "build", City: "S(2,-3)"}), code: "no-pieces", section: "§8 ウ"},
		{name: "§8 ウ: a city frees a settlement piece", setup: func(t *testing.T, s *State) {
			rich(t, s)
			give(t, s, red, Cards{Brick: 1, Lumber: 1, Wool: 1, Grain: 1})
			redNetwork(t, s, 15, true)
		}, moves: rolled(MoveSpec{Do: "build", City: "S(2,-3)"}, MoveSpec{Do: "build", Settlement: "N(0,0)"}),
			check: pieces(red, 15, 5, 1)},
		{name: "§8: one thing per build", setup: rich, moves: rolled(MoveSpec{Do: "build", City: "S(1,-3)", Settlement: "S(0,-2)"}),
			code: "build-one", section: "§8"},
	})
}

func TestDevelopmentCards(t *testing.T) {
	buyer := func(t *testing.T, s *State) { give(t, s, red, Cards{Wool: 3, Grain: 3, Ore: 2}) }
	// own gives R an unplayed card bought on an earlier turn.
	own := func(cs ...Card) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			for _, c := range cs {
				s.deck[c]--
				s.players[red].cards[c]++
			}
		}
	}
	both := func(fs ...func(t *testing.T, s *State)) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			for _, f := range fs {
				f(t, s)
			}
		}
	}
	buy := func(c string) MoveSpec { return MoveSpec{Do: "buy", Card: c} }
	soldier := MoveSpec{Do: "play", Dev: "soldier", Hex: &referee.Hex{Q: 2, R: -1}, Rob: "B", Took: "ore"}
	// soldierAt moves the robber where nobody else has a building.
	soldierAt := func(q, r int) MoveSpec { return MoveSpec{Do: "play", Dev: "soldier", Hex: &referee.Hex{Q: q, R: r}} }
	monopoly := MoveSpec{Do: "play", Dev: "monopoly", Resource: "grain"}
	harvest := MoveSpec{Do: "play", Dev: "harvest", Take: map[string]int{"brick": 1, "wool": 1}}
	held := func(c Card, n int8) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			if got := s.Held(red)[c]; got != n {
				t.Errorf("R holds %d unplayed %v cards, want %d", got, c, n)
			}
		}
	}
	runCases(t, []ruleCase{
		{name: "§8 エ: a card costs wool, grain and ore; the card drawn is given", setup: buyer,
			moves: []MoveSpec{roll(6, 6), buy("soldier")}, check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Wool: 2, Grain: 2, Ore: 2})
				held(Soldier, 1)(t, s)
				if s.DeckLeft() != 24 {
					t.Errorf("deck holds %d, want 24", s.DeckLeft())
				}
			}},
		{name: "§8 エ: any number a turn", setup: buyer, moves: []MoveSpec{roll(6, 6), buy("soldier"), buy("monopoly")}},
		{name: "§8 エ: a card still in the deck", setup: both(buyer, func(t *testing.T, s *State) {
			s.deck[Monopoly] = 0
			s.players[green].cards[Monopoly] = 2
		}), moves: []MoveSpec{roll(6, 6), buy("monopoly")}, code: "card-not-in-deck", section: "§8 エ"},
		{name: "§8 エ: not from an empty deck", setup: both(buyer, func(t *testing.T, s *State) {
			s.players[green].cards, s.deck = s.deck, Deck{}
		}), moves: []MoveSpec{roll(6, 6), buy("soldier")}, code: "deck-empty", section: "§8 エ"},
		{name: "§8 エ ruling: a card played on its purchase turn stands with no effect", setup: buyer,
			moves: []MoveSpec{roll(6, 6), buy("soldier"), soldier}, code: "card-on-purchase-turn", section: "§8 エ", void: true,
			check: held(Soldier, 1)},
		{name: "§8 エ ruling: it does not use up the turn's card", setup: both(buyer, own(Monopoly)),
			moves: []MoveSpec{roll(6, 6), buy("soldier"), soldier, monopoly}, check: func(t *testing.T, s *State) {
				held(Soldier, 1)(t, s)
				held(Monopoly, 0)(t, s)
				handIs(t, s, red, Cards{Wool: 2, Grain: 4, Ore: 2})
			}},
		{name: "§8 エ ruling: and it is played on a later turn", setup: buyer,
			moves: []MoveSpec{roll(6, 6), buy("soldier"), soldier, end, roll(6, 6), end, roll(6, 6), end, roll(6, 6), end, soldier},
			check: func(t *testing.T, s *State) {
				if s.Played(red)[Soldier] != 1 {
					t.Errorf("R played %d soldiers, want 1", s.Played(red)[Soldier])
				}
			}},
		{name: "§8 エ: an old card of the kind bought is played to effect", setup: both(buyer, own(Soldier)),
			moves: []MoveSpec{roll(6, 6), buy("soldier"), soldier}, check: held(Soldier, 1)},
		{name: "§9 ruling: a second card in one turn stands with no effect", setup: own(Monopoly, Harvest),
			moves: []MoveSpec{monopoly, harvest}, code: "second-card", section: "§9", void: true, check: held(Harvest, 1)},
		{name: "§9: one card a turn, any turn", setup: own(Monopoly, Harvest),
			moves: []MoveSpec{monopoly, roll(6, 6), end, roll(6, 6), end, roll(6, 6), end, roll(6, 6), end, harvest}},
		{name: "§9: a card before the roll", setup: own(Soldier), moves: []MoveSpec{soldier, roll(6, 6)},
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Ore: 2}) }},
		{name: "§9: a card one does not hold", moves: []MoveSpec{soldier}, code: "no-such-card", section: "§9 ア"},
		{name: "§9: not while a 7 waits for the robber", setup: own(Soldier), moves: []MoveSpec{roll(3, 4), soldier},
			code: "robber-first", section: "§6 イ"},
		{name: "§9 ア: a soldier moves the robber; nobody discards", setup: both(own(Soldier), func(t *testing.T, s *State) {
			give(t, s, blue, Cards{Wool: 9})
		}), moves: []MoveSpec{soldier}, check: func(t *testing.T, s *State) {
			handIs(t, s, blue, Cards{Wool: 9})
			if s.Phase() != BeforeRoll || s.Owed(blue) != 0 {
				t.Errorf("after a soldier: phase %v, B owes %d; want roll, 0", s.Phase(), s.Owed(blue))
			}
		}},
		{name: "§9 ア: a soldier's robbery as on a 7", setup: own(Soldier),
			moves: []MoveSpec{{Do: "play", Dev: "soldier", Hex: &referee.Hex{Q: 2, R: -1}}}, code: "rob-required", section: "§9 ア"},
		{name: "§10 イ: 3 soldiers take the largest army", setup: own(Soldier, Soldier, Soldier),
			moves: []MoveSpec{soldierAt(0, -2), roll(6, 6), end, roll(6, 6), end, roll(6, 6), end, roll(6, 6), end,
				soldierAt(-1, -1), roll(6, 6), end, roll(6, 6), end, roll(6, 6), end, roll(6, 6), end, soldierAt(0, -2)},
			check: func(t *testing.T, s *State) {
				if s.LargestArmy() != red || s.VP(red).LargestArmy != 2 {
					t.Errorf("largest army: %d, want R", s.LargestArmy())
				}
			}},
		{name: "§8 エ ruling: a voided soldier does not count for largest army",
			setup: both(buyer, func(t *testing.T, s *State) {
				s.deck[Soldier] -= 2
				s.players[red].played[Soldier] = 2
			}), moves: []MoveSpec{roll(6, 6), buy("soldier"), soldier}, code: "card-on-purchase-turn", section: "§8 エ", void: true,
			check: func(t *testing.T, s *State) {
				if s.LargestArmy() != -1 {
					t.Errorf("largest army held by %d after a voided third soldier, want nobody", s.LargestArmy())
				}
			}},
		{name: "§9 イ: road building: two roads for free", setup: own(RoadBuilding),
			moves: []MoveSpec{{Do: "play", Dev: "road_building", Roads: [][]string{road("N(-1,-1)", "S(0,-2)"), road("S(0,-2)", "N(-1,0)")}}},
			check: func(t *testing.T, s *State) {
				handIs(t, s, red, redStart)
				if r, _, _ := s.Pieces(red); r != 4 {
					t.Errorf("R has %d roads, want 4", r)
				}
			}},
		{name: "§9 イ: both roads or neither", setup: own(RoadBuilding),
			moves: []MoveSpec{{Do: "play", Dev: "road_building", Roads: [][]string{road("N(-1,-1)", "S(0,-2)"), road("N(0,0)", "S(1,-1)")}}},
			code:  "road-unconnected", section: "§9 イ"},
		{name: "§9 イ: within the roads left", setup: both(own(RoadBuilding), func(t *testing.T, s *State) { redNetwork(t, s, 14, false) }),
			moves: []MoveSpec{{Do: "play", Dev: "road_building", Roads: [][]string{road("N(0,-1)", "S(0,-2)"), road("S(0,-1)", "N(-1,1)")}}},
			code:  "road-building-count", section: "§9 イ"},
		{name: "§9 イ: the last road left", setup: both(own(RoadBuilding), func(t *testing.T, s *State) { redNetwork(t, s, 14, false) }),
			moves: []MoveSpec{{Do: "play", Dev: "road_building", Roads: [][]string{road("N(0,-1)", "S(0,-2)")}}}},
		{name: "§9 ウ: harvest: two resources from the bank", setup: own(Harvest), moves: []MoveSpec{harvest},
			check: func(t *testing.T, s *State) { handIs(t, s, red, Cards{Ore: 1, Brick: 1, Wool: 1}) }},
		{name: "§9 ウ: harvest takes two", setup: own(Harvest),
			moves: []MoveSpec{{Do: "play", Dev: "harvest", Take: map[string]int{"brick": 3}}}, code: "harvest-count", section: "§9 ウ"},
		{name: "§9 エ: monopoly: every player hands over the resource", setup: own(Monopoly), moves: []MoveSpec{monopoly},
			check: func(t *testing.T, s *State) {
				handIs(t, s, red, Cards{Ore: 1, Grain: 2})
				handIs(t, s, yellow, Cards{})
				handIs(t, s, blue, blueStart)
			}},
		{name: "§9 オ: a one-point card counts from its purchase", setup: buyer, moves: []MoveSpec{roll(6, 6), buy("point")},
			check: func(t *testing.T, s *State) {
				if v := s.VP(red); v.PointCards != 1 || v.Total() != 3 {
					t.Errorf("R's VP = %+v, want 2 settlements and 1 one-point card", v)
				}
			}},
		{name: "§9 オ: a one-point card is not played", setup: own(Point), moves: []MoveSpec{{Do: "play", Dev: "point"}},
			code: "point-card-not-played", section: "§9 オ"},
	})
}

func TestVictory(t *testing.T) {
	// vp makes R's buildings cities and gives R one-point cards; with a
	// third settlement, 2 cities and 5 cards are 10 VP.
	vp := func(points int8, cities ...string) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			lay(t, s, red, "N(-1,-1)", "S(0,-2)*")
			for _, v := range cities {
				s.players[red].settlements &^= 1 << vid(t, v)
				s.players[red].cities |= 1 << vid(t, v)
			}
			s.deck[Point] -= points
			s.players[red].cards[Point] += points
		}
	}
	runCases(t, []ruleCase{
		{name: "§11: 10 VP to declare", setup: vp(4, "S(1,-3)", "S(0,-3)"), moves: []MoveSpec{{Do: "declare"}},
			code: "winner-under-win-vp", section: "§11"},
		{name: "§11: a declaration with 10 VP ends the game, also before the roll", setup: vp(5, "S(1,-3)", "S(0,-3)"),
			moves: []MoveSpec{{Do: "declare"}}, check: func(t *testing.T, s *State) {
				if s.Phase() != Over || s.Winner() != red || s.EndedBy() != ByDeclaration {
					t.Errorf("after the declaration: phase %v, winner %d, ended by %v", s.Phase(), s.Winner(), s.EndedBy())
				}
			}},
		{name: "§11: only on one's own turn", setup: vp(5, "S(1,-3)", "S(0,-3)"),
			moves: []MoveSpec{roll(1, 1), end, {Do: "declare", Player: "R"}}, code: "not-your-turn", section: "§11"},
		{name: "§11: nothing after the declaration", setup: vp(5, "S(1,-3)", "S(0,-3)"),
			moves: []MoveSpec{{Do: "declare"}, roll(1, 1)}, code: "game-over", section: "§11"},
		// The base game's example: Jhinuk has 2 settlements, the longest
		// road, 2 cities and 2 victory point cards, and declares with 10.
		{name: "§11: the base game's example", setup: func(t *testing.T, s *State) {
			lay(t, s, red, "N(-1,-1)", "S(0,-2)", "N(-1,0)*", "S(-1,-1)", "N(-2,1)*")
			for _, v := range []string{"N(-1,0)", "N(-2,1)"} {
				s.players[red].settlements &^= 1 << vid(t, v)
				s.players[red].cities |= 1 << vid(t, v)
			}
			s.deck[Point] -= 2
			s.players[red].cards[Point] += 2
		}, moves: []MoveSpec{{Do: "declare"}}, check: func(t *testing.T, s *State) {
			if v := s.VP(red); v != (VP{Settlements: 2, Cities: 4, LongestRoad: 2, PointCards: 2}) || s.Winner() != red {
				t.Errorf("VP = %+v, winner %d", v, s.Winner())
			}
		}},
		{name: "§12: the time signal ends the game at once, mid-turn",
			setup: func(t *testing.T, s *State) { give(t, s, blue, Cards{Wool: 9}) },
			moves: []MoveSpec{roll(3, 4), {Do: "time_up"}}, check: func(t *testing.T, s *State) {
				if s.Phase() != Over || s.Winner() != -1 || s.EndedBy() != ByTime {
					t.Errorf("after the time signal: phase %v, winner %d, ended by %v", s.Phase(), s.Winner(), s.EndedBy())
				}
			}},
		{name: "§12: nothing after the time signal", moves: []MoveSpec{{Do: "time_up"}, roll(1, 1)}, code: "game-over", section: "§12"},
	})
}

func TestDecode(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "§5: an unknown move", moves: []MoveSpec{{Do: "pass"}}, code: "unknown-action", section: "§5"},
		{name: "§5: a player not at the table", moves: []MoveSpec{{Do: "roll", Player: "Z", Dice: []int{1, 2}}}, code: "unknown-player", section: "§6 ア"},
		{name: "§6 ア: two dice", moves: []MoveSpec{{Do: "roll", Dice: []int{1}}}, code: "dice-count", section: "§6 ア"},
		{name: "a field the move needs", moves: []MoveSpec{{Do: "roll"}}, code: "move-field-missing", section: "§6 ア"},
		{name: "a field the move does not take", moves: []MoveSpec{{Do: "roll", Dice: []int{1, 2}, Card: "soldier"}}, code: "move-field-extra", section: "§6 ア"},
		{name: "§3 ア: a corner off the land", moves: []MoveSpec{roll(1, 1), {Do: "build", Settlement: "N(5,5)"}}, code: "vertex-off-board", section: "§8 イ"},
		{name: "§3 ア: a corner's name", moves: []MoveSpec{roll(1, 1), {Do: "build", Settlement: "X(0,0)"}}, code: "vertex-off-board", section: "§8 イ"},
		{name: "§3 ア: an edge's ends", moves: []MoveSpec{roll(1, 1), {Do: "build", Road: road("N(0,0)", "N(1,0)")}}, code: "edge-not-adjacent", section: "§8 ア"},
		{name: "§3 ア: a sea edge", moves: []MoveSpec{roll(1, 1), {Do: "build", Road: road("S(0,-3)", "N(0,-3)")}}, code: "vertex-off-board", section: "§8 ア"},
		{name: "§1: a resource's name", moves: []MoveSpec{roll(1, 1), {Do: "bank", Give: map[string]int{"wood": 4}, Get: map[string]int{"ore": 1}}},
			code: "unknown-resource", section: "§7 イ"},
		{name: "§1: a count", moves: []MoveSpec{roll(1, 1), {Do: "bank", Give: map[string]int{"brick": -4}, Get: map[string]int{"ore": 1}}},
			code: "card-count", section: "§7 イ"},
		{name: "§9: a card's name", moves: []MoveSpec{{Do: "play", Dev: "knight"}}, code: "unknown-card", section: "§9"},
		{name: "§6 イ: a hex off the land", moves: []MoveSpec{roll(3, 4), {Do: "robber", Hex: &referee.Hex{Q: 3}}}, code: "hex-off-board", section: "§6 イ"},
	})
}
