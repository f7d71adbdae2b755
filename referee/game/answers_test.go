package game

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// On testBoard: hills (0,-1) and fields (-1,2) have the 6s, mountains
// (2,0) and forest (-2,1) the 8s; the desert is (0,0).
var (
	hills6     = referee.Hex{Q: 0, R: -1}
	mountains8 = referee.Hex{Q: 2, R: 0}
	forest8    = referee.Hex{Q: -2, R: 1}
	desert     = referee.Hex{Q: 0, R: 0}
)

func city(p, at string) []Step { return []Step{{Do: "city", Player: p, At: at}} }

func evaluated(t *testing.T, rs referee.Ruleset, st ...[]Step) *Evaluation {
	t.Helper()
	ev, err := Evaluate(rs, tablePlayers, steps(st...))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestProduce(t *testing.T) {
	rs, rests := preset(), preset()
	rests.BankShortage = referee.BankShortageSingleTakesRest
	b := testBoard(t, rs)
	for _, c := range []struct {
		h       referee.Hex
		terrain referee.Terrain
		number  int
	}{{hills6, referee.Hills, 6}, {mountains8, referee.Mountains, 8}, {forest8, referee.Forest, 8}, {desert, referee.Desert, 0}} {
		if i, _ := HexID(c.h); b.Tiles[i].Terrain != c.terrain || b.Tiles[i].Number != c.number {
			t.Fatalf("testBoard has %v on %v, want %s %d", b.Tiles[i], c.h, c.terrain, c.number)
		}
	}
	// R a settlement and B a city on the 6 of hills; R a settlement on
	// the 8 of mountains, Y a city there and a settlement on the 8 of forest.
	table := steps(settle("R", "N(0,-1)"), settle("B", "N(0,0)"), city("B", "N(0,0)"),
		settle("R", "N(2,0)"), settle("Y", "N(2,1)"), city("Y", "N(2,1)"), settle("Y", "N(-2,1)"))
	alone := steps(settle("Y", "N(2,1)"), city("Y", "N(2,1)"), settle("R", "N(-2,1)"))
	robber := func(h referee.Hex) *referee.Hex { return &h }
	tests := []struct {
		name      string
		rs        referee.Ruleset
		table     []Step
		roll      Rolled
		got       map[string]Cards
		short     []Shortfall // Why left out
		why       []string
		robbed    int // yields marked robbed
		shortMark int // yields marked short
	}{
		{"§6 ア: a settlement 1 card, a city 2", rs, table, Rolled{Sum: 6, Robber: robber(desert)},
			map[string]Cards{"R": {Brick: 1}, "B": {Brick: 2}}, nil, nil, 0, 0},
		{"§6 ア: nothing from the hex under the robber", rs, table, Rolled{Sum: 6, Robber: robber(hills6)},
			map[string]Cards{}, nil, []string{"produce-robber"}, 2, 0},
		{"§6 ア: a robber elsewhere takes nothing", rs, table, Rolled{Sum: 8, Robber: robber(hills6)},
			map[string]Cards{"R": {Ore: 1}, "Y": {Ore: 2, Lumber: 1}}, nil, nil, 0, 0},
		{"§6 ア: no robber on the land", rs, table, Rolled{Sum: 6},
			map[string]Cards{"R": {Brick: 1}, "B": {Brick: 2}}, nil, nil, 0, 0},
		{"§6 イ: on a 7 nobody produces", rs, table, Rolled{Sum: 7, Robber: robber(desert)},
			map[string]Cards{}, nil, []string{"produce-seven"}, 0, 0},
		{"§6 ア: a roll no building stands on", rs, table, Rolled{Sum: 12, Robber: robber(desert)},
			map[string]Cards{}, nil, nil, 0, 0},
		{"§6 ア: a bank that holds enough pays in full", rs, table, Rolled{Sum: 8, Bank: Bank{Held: map[Resource]int{Ore: 3, Lumber: 1}}},
			map[string]Cards{"R": {Ore: 1}, "Y": {Ore: 2, Lumber: 1}}, nil, nil, 0, 0},
		{"§6 ア ruling: a short bank pays nobody that resource, the others in full", rs, table,
			Rolled{Sum: 8, Bank: Bank{Held: map[Resource]int{Ore: 2, Lumber: 5}}},
			map[string]Cards{"Y": {Lumber: 1}}, []Shortfall{{Resource: Ore, Demand: 3, Held: 2, Taker: -1}}, []string{"bank-short-nobody"}, 0, 2},
		{"§6 ア ruling: a bank said to be short, not counted", rs, table, Rolled{Sum: 8, Bank: Bank{Short: []Resource{Lumber}}},
			map[string]Cards{"R": {Ore: 1}, "Y": {Ore: 2}}, []Shortfall{{Resource: Lumber, Demand: 1, Held: -1, Taker: -1}}, []string{"bank-short-nobody"}, 0, 1},
		{"§6 ア, single-takes-rest: several recipients get nothing", rests, table, Rolled{Sum: 8, Bank: Bank{Held: map[Resource]int{Ore: 1}}},
			map[string]Cards{"Y": {Lumber: 1}}, []Shortfall{{Resource: Ore, Demand: 3, Held: 1, Taker: -1}}, []string{"bank-short-nobody"}, 0, 2},
		{"§6 ア, single-takes-rest: the only recipient takes what is left", rests, alone, Rolled{Sum: 8, Bank: Bank{Held: map[Resource]int{Ore: 1}}},
			map[string]Cards{"Y": {Ore: 1}, "R": {Lumber: 1}}, []Shortfall{{Resource: Ore, Demand: 2, Held: 1, Taker: yellow}}, []string{"bank-short-rest"}, 0, 1},
		{"§6 ア, single-takes-rest: what is left, not counted", rests, alone, Rolled{Sum: 8, Bank: Bank{Short: []Resource{Ore}}},
			map[string]Cards{"R": {Lumber: 1}}, []Shortfall{{Resource: Ore, Demand: 2, Held: -1, Taker: yellow}}, []string{"bank-short-rest"}, 0, 1},
		{"§6 ア: the rest policy does nothing while the bank holds enough", rests, alone, Rolled{Sum: 8, Bank: Bank{Held: map[Resource]int{Ore: 2}}},
			map[string]Cards{"Y": {Ore: 2}, "R": {Lumber: 1}}, nil, nil, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := evaluated(t, tc.rs, tc.table)
			got, err := ev.Produce(b, tc.roll)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]Cards, len(tablePlayers))
			for name, c := range tc.got {
				want[slices.Index(tablePlayers, name)] = c
			}
			if diff := cmp.Diff(want, got.Got); diff != "" {
				t.Errorf("cards got (-want +got):\n%s", diff)
			}
			var short []Shortfall
			for _, sf := range got.Shortfalls {
				if sf.Why == nil || sf.Why.Section != "§6 ア" {
					t.Errorf("shortfall %+v without its rule", sf)
				}
				sf.Why = nil
				short = append(short, sf)
			}
			if diff := cmp.Diff(tc.short, short); diff != "" {
				t.Errorf("shortfalls (-want +got):\n%s", diff)
			}
			var why []string
			for _, w := range got.Why {
				why = append(why, w.Code)
			}
			if !slices.Equal(why, tc.why) {
				t.Errorf("why = %v, want %v", why, tc.why)
			}
			robbed, marked := 0, 0
			for _, y := range got.Yields {
				if y.Robbed {
					robbed++
				}
				if y.Short {
					marked++
				}
			}
			if robbed != tc.robbed || marked != tc.shortMark {
				t.Errorf("yields %+v: %d robbed and %d short, want %d and %d", got.Yields, robbed, marked, tc.robbed, tc.shortMark)
			}
			if wantSec := map[bool]string{true: "§6 イ", false: "§6 ア"}[tc.roll.Sum == 7]; got.Section != wantSec {
				t.Errorf("section %s, want %s", got.Section, wantSec)
			}
		})
	}
}

func TestProduceRefuses(t *testing.T) {
	ev := evaluated(t, preset(), nil)
	b := testBoard(t, preset())
	off := referee.Hex{Q: 3, R: 3}
	tests := []struct {
		name string
		roll Rolled
		code string
	}{
		{"§6 ア: a sum of 1", Rolled{Sum: 1}, "roll-sum"},
		{"§6 ア: a sum of 13", Rolled{Sum: 13}, "roll-sum"},
		{"a robber off the land", Rolled{Sum: 6, Robber: &off}, "hex-off-board"},
		{"§1: a bank of 20", Rolled{Sum: 6, Bank: Bank{Held: map[Resource]int{Ore: 20}}}, "card-count"},
		{"a bank of -1", Rolled{Sum: 6, Bank: Bank{Held: map[Resource]int{Ore: -1}}}, "card-count"},
		{"a resource counted and short", Rolled{Sum: 6, Bank: Bank{Held: map[Resource]int{Ore: 2}, Short: []Resource{Ore}}}, "bank-counted-and-short"},
		{"an unknown resource counted", Rolled{Sum: 6, Bank: Bank{Held: map[Resource]int{9: 2}}}, "unknown-resource"},
		{"an unknown resource short", Rolled{Sum: 6, Bank: Bank{Short: []Resource{NoResource}}}, "unknown-resource"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ev.Produce(b, tc.roll)
			if code, _, _ := codeOf(err); code != tc.code {
				t.Errorf("Produce(%+v) = %v, want %s", tc.roll, err, tc.code)
			}
		})
	}
}

// terrainOf is what each terrain produces, written out again for the
// independent count.
var terrainOf = map[referee.Terrain]Resource{referee.Hills: Brick, referee.Forest: Lumber, referee.Mountains: Ore, referee.Fields: Grain, referee.Pasture: Wool}

// On random tables, boards, rolls, robbers and banks, what Produce pays
// agrees with a count from the board's tiles and the steps (§6 ア), and,
// where the bank was counted, with what the game engine pays.
func TestProduceAgainstCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 6))
	for i := range trials(400, 60) {
		rs := preset()
		if rng.IntN(2) == 0 {
			rs.BankShortage = referee.BankShortageSingleTakesRest
		}
		players := tablePlayers[:3+rng.IntN(2)]
		st := randomSteps(rng, players)
		ev, err := Evaluate(rs, players, st)
		if err != nil {
			t.Fatal(err)
		}
		b := newBoardOf(t, rs, 1+rng.IntN(6), 1+rng.IntN(6), rng.Uint64())
		roll := Rolled{Sum: 2 + rng.IntN(11)}
		if rng.IntN(4) > 0 {
			h := referee.LandHexes()[rng.IntN(numHexes)]
			roll.Robber = &h
		}
		counted := rng.IntN(2) == 0
		if counted {
			roll.Bank.Held = map[Resource]int{}
			for _, r := range Resources {
				roll.Bank.Held[r] = rng.IntN(bankStock + 1)
			}
		} else {
			for _, r := range Resources {
				if rng.IntN(4) == 0 {
					roll.Bank.Short = append(roll.Bank.Short, r)
				}
			}
		}
		got, err := ev.Produce(b, roll)
		if err != nil {
			t.Fatal(err)
		}
		want := countProduction(rs, b, players, st, roll)
		if !slices.Equal(got.Got, want) {
			t.Fatalf("position %d, roll %+v: Produce pays %v, the count %v", i, roll, got.Got, want)
		}
		if counted {
			if engine := engineProduction(t, rs, b, players, st, roll); !slices.Equal(got.Got, engine) {
				t.Fatalf("position %d, roll %+v: Produce pays %v, the game engine %v", i, roll, got.Got, engine)
			}
		}
	}
}

// buildings replays the steps' settlements and cities, by corner name.
func buildings(players []string, st []Step) map[referee.Vertex][2]int {
	out := map[referee.Vertex][2]int{} // owner, cards per roll
	for _, s := range st {
		v, _ := ParseVertex(s.At)
		switch s.Do {
		case "settlement":
			out[v] = [2]int{slices.Index(players, s.Player), 1}
		case "city":
			out[v] = [2]int{slices.Index(players, s.Player), 2}
		}
	}
	return out
}

// countProduction counts a roll's production from the tiles: every
// building on a corner of a hex with the number, none under the robber,
// then the bank policy per resource.
func countProduction(rs referee.Ruleset, b referee.Board, players []string, st []Step, roll Rolled) []Cards {
	got := make([]Cards, len(players))
	if roll.Sum == 7 {
		return got
	}
	at := buildings(players, st)
	due := make([]Cards, len(players))
	var demand [numResources]int
	for _, tile := range b.Tiles {
		if tile.Number != roll.Sum || (roll.Robber != nil && *roll.Robber == tile.Hex) {
			continue
		}
		r := terrainOf[tile.Terrain]
		for _, v := range tile.Hex.Vertices() {
			if b, ok := at[v]; ok {
				due[b[0]][r] += int8(b[1])
				demand[r] += b[1]
			}
		}
	}
	for _, r := range Resources {
		held, isHeld := roll.Bank.Held[r]
		short := slices.Contains(roll.Bank.Short, r) || (isHeld && held < demand[r])
		var takers []int
		for q := range players {
			if due[q][r] > 0 {
				takers = append(takers, q)
			}
		}
		switch {
		case !short:
			for q := range players {
				got[q][r] += due[q][r]
			}
		case rs.BankShortage == referee.BankShortageSingleTakesRest && len(takers) == 1 && isHeld:
			got[takers[0]][r] += int8(held)
		}
	}
	return got
}

// engineProduction pays the roll through the game engine's own production,
// on a state with the same buildings, robber and bank.
func engineProduction(t *testing.T, rs referee.Ruleset, b referee.Board, players []string, st []Step, roll Rolled) []Cards {
	s, err := New(rs, b, players)
	if err != nil {
		t.Fatal(err)
	}
	for v, bl := range buildings(players, st) {
		i, _ := VertexID(v)
		s.owner[i] = int8(bl[0])
		s.built |= 1 << i
		if bl[1] == 2 {
			s.players[bl[0]].cities |= 1 << i
		} else {
			s.players[bl[0]].settlements |= 1 << i
		}
	}
	s.robber = -1
	if roll.Robber != nil {
		h, _ := HexID(*roll.Robber)
		s.robber = int8(h)
	}
	for _, r := range Resources {
		s.bank[r] = int8(roll.Bank.Held[r])
	}
	got := make([]Cards, len(players))
	if roll.Sum != 7 {
		s.produce(roll.Sum)
		for q := range players {
			got[q] = s.players[q].hand
		}
	}
	return got
}

func TestDiscards(t *testing.T) {
	ev := evaluated(t, preset(), nil)
	got, err := ev.Discards(map[string]int{"G": 95, "R": 7, "B": 8, "Y": 9})
	if err != nil {
		t.Fatal(err)
	}
	type due struct {
		player, hand, returns int
		code                  string
	}
	var dues []due
	for _, d := range got {
		if d.Why.Section != "§6 イ" {
			t.Errorf("discard %+v cites %s, want §6 イ", d, d.Why.Section)
		}
		dues = append(dues, due{d.Player, d.Hand, d.Returns, d.Why.Code})
	}
	// §6 イ: 8 cards or more return half, rounded down.
	want := []due{{red, 7, 0, "discard-none"}, {blue, 8, 4, "discard-half"}, {yellow, 9, 4, "discard-half"}, {green, 95, 47, "discard-half"}}
	if diff := cmp.Diff(want, dues, cmp.AllowUnexported(due{})); diff != "" {
		t.Errorf("Discards (-want +got):\n%s", diff)
	}
	if got, err := ev.Discards(map[string]int{"B": 0}); err != nil || len(got) != 1 || got[0].Player != blue {
		t.Errorf("Discards(B only) = %+v, %v; want B's alone", got, err)
	}
	for _, tc := range []struct {
		hands map[string]int
		code  string
	}{
		{map[string]int{"Z": 3}, "unknown-player"},
		{map[string]int{"R": -1}, "hand-size"},
		{map[string]int{"R": 96}, "hand-size"},
	} {
		if _, err := ev.Discards(tc.hands); !hasCode(err, tc.code) {
			t.Errorf("Discards(%v) = %v, want %s", tc.hands, err, tc.code)
		}
	}
}

func hasCode(err error, code string) bool {
	c, _, _ := codeOf(err)
	return c == code
}

func TestRobber(t *testing.T) {
	rs, noDesert := preset(), preset()
	noDesert.RobberOnDesert = false
	b := testBoard(t, rs)
	// R and B on the 6 of hills, R on the 8 of mountains; B's city on the desert.
	table := steps(settle("R", "N(0,-1)"), settle("B", "N(0,0)"), settle("R", "N(2,0)"), settle("B", "N(-1,1)"), city("B", "N(-1,1)"))
	ev := evaluated(t, rs, table)
	evOff := evaluated(t, noDesert, table)
	tests := []struct {
		name   string
		ev     *Evaluation
		from   *referee.Hex
		roller string
		hands  map[string]int
		hex    referee.Hex
		// allowed, rob, spared (player:code), why code
		allowed bool
		rob     []int
		spared  []string
		why     string
	}{
		{"§6 イ: not where it stands", ev, &desert, "Y", nil, desert, false, []int{}, []string{}, "robber-same-hex"},
		{"§6 イ: the desert, where the ruleset allows it", ev, &hills6, "Y", nil, desert, true, []int{blue}, []string{}, ""},
		{"§6 イ: not the desert under robber_on_desert false", evOff, &hills6, "Y", nil, desert, false, []int{}, []string{}, "robber-desert"},
		{"§6 イ: anyone with a building there and a card", ev, &desert, "Y", map[string]int{"R": 1, "B": 3}, hills6, true, []int{red, blue}, []string{}, ""},
		{"§6 イ: a hand not given counts as holding a card", ev, &desert, "Y", map[string]int{"R": 2}, hills6, true, []int{red, blue}, []string{}, ""},
		{"§6 イ: never the roller", ev, &desert, "R", nil, hills6, true, []int{blue}, []string{"R:rob-roller"}, ""},
		{"§6 イ: nobody without a card", ev, &desert, "Y", map[string]int{"B": 0}, hills6, true, []int{red}, []string{"B:rob-no-card"}, ""},
		{"§6 イ: nobody to rob", ev, &desert, "R", map[string]int{"B": 0}, hills6, true, []int{}, []string{"R:rob-roller", "B:rob-no-card"}, "rob-nobody"},
		{"§6 イ: an empty hex", ev, &desert, "Y", nil, forest8, true, []int{}, []string{}, "rob-nobody"},
		{"§6 イ: from off the land, anywhere", ev, nil, "Y", nil, mountains8, true, []int{red}, []string{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.ev.Robber(b, tc.from, tc.roller, tc.hands)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Hexes) != numHexes || got.Section != "§6 イ" {
				t.Fatalf("Robber answers %d hexes citing %s, want 19 citing §6 イ", len(got.Hexes), got.Section)
			}
			i, _ := HexID(tc.hex)
			rh := got.Hexes[i]
			var spared []string
			for _, s := range rh.Spared {
				spared = append(spared, tablePlayers[s.Player]+":"+s.Why.Code)
			}
			why := ""
			if rh.Why != nil {
				why = rh.Why.Code
			}
			if rh.Hex != tc.hex || rh.Allowed != tc.allowed || !slices.Equal(rh.Rob, tc.rob) || !slices.Equal(spared, tc.spared) || why != tc.why {
				t.Errorf("on %v: allowed %v, rob %v, spared %v, why %q; want %v, %v, %v, %q", rh.Hex, rh.Allowed, rh.Rob, spared, why, tc.allowed, tc.rob, tc.spared, tc.why)
			}
		})
	}
	off := referee.Hex{Q: 5, R: 0}
	for _, tc := range []struct {
		name   string
		from   *referee.Hex
		roller string
		hands  map[string]int
		code   string
	}{
		{"a robber off the land", &off, "R", nil, "hex-off-board"},
		{"a roller not at the table", nil, "Z", nil, "unknown-player"},
		{"a hand of someone not at the table", nil, "R", map[string]int{"Z": 1}, "unknown-player"},
		{"a hand of 96", nil, "R", map[string]int{"B": 96}, "hand-size"},
	} {
		if _, err := ev.Robber(b, tc.from, tc.roller, tc.hands); !hasCode(err, tc.code) {
			t.Errorf("%s: Robber = %v, want %s", tc.name, err, tc.code)
		}
	}
}

func TestRates(t *testing.T) {
	rs := preset()
	b := testBoard(t, rs)
	site := func(kind referee.HarborKind, end int) string {
		for _, h := range b.Harbors {
			if h.Kind == kind {
				return [2]referee.Vertex{h.Edge.A, h.Edge.B}[end].String()
			}
		}
		t.Fatalf("testBoard has no %s harbour", kind)
		return ""
	}
	tests := []struct {
		name  string
		table []Step
		rates [numResources]int
		why   [numResources]string
		ports int
	}{
		{"§7 イ: 4:1 with the bank", settle("R", "N(0,0)"), [5]int{4, 4, 4, 4, 4},
			[5]string{"rate-bank", "rate-bank", "rate-bank", "rate-bank", "rate-bank"}, 0},
		{"§7 ウ: 3:1 at a 3:1 harbour", settle("R", site(referee.GenericHarbor, 0)), [5]int{3, 3, 3, 3, 3},
			[5]string{"rate-generic", "rate-generic", "rate-generic", "rate-generic", "rate-generic"}, 1},
		{"§7 ウ: from either corner of the harbour's edge", settle("R", site(referee.GenericHarbor, 1)), [5]int{3, 3, 3, 3, 3},
			[5]string{"rate-generic", "rate-generic", "rate-generic", "rate-generic", "rate-generic"}, 1},
		{"§7 ウ: a city too, 2:1 in its resource", steps(settle("R", site(referee.WoolHarbor, 1)), city("R", site(referee.WoolHarbor, 1))), [5]int{4, 4, 4, 4, 2},
			[5]string{"rate-bank", "rate-bank", "rate-bank", "rate-bank", "rate-harbor"}, 1},
		{"§7 ウ: the best rate for each resource", steps(settle("R", site(referee.WoolHarbor, 0)), settle("R", site(referee.GenericHarbor, 0))), [5]int{3, 3, 3, 3, 2},
			[5]string{"rate-generic", "rate-generic", "rate-generic", "rate-generic", "rate-harbor"}, 2},
		{"§7 ウ: another player's harbour is not R's", settle("B", site(referee.OreHarbor, 0)), [5]int{4, 4, 4, 4, 4},
			[5]string{"rate-bank", "rate-bank", "rate-bank", "rate-bank", "rate-bank"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evaluated(t, rs, tc.table).Rates(b, "R")
			if err != nil {
				t.Fatal(err)
			}
			var rates [numResources]int
			var why [numResources]string
			for r, rate := range got.Rates {
				rates[r], why[r] = rate.Give, rate.Why.Code
				if want := map[bool]string{true: "§7 イ", false: "§7 ウ"}[rate.Give == 4]; rate.Section != want || rate.Why.Section != want || rate.Resource != Resource(r) {
					t.Errorf("%s rate %+v: want section %s", Resource(r), rate, want)
				}
			}
			if rates != tc.rates || why != tc.why || len(got.Harbors) != tc.ports {
				t.Errorf("Rates = %v %v with harbours %+v, want %v %v with %d", rates, why, got.Harbors, tc.rates, tc.why, tc.ports)
			}
		})
	}
	if _, err := evaluated(t, rs, nil).Rates(b, "Z"); !hasCode(err, "unknown-player") {
		t.Errorf("Rates(Z) = %v, want unknown-player", err)
	}
}

func TestDeclaration(t *testing.T) {
	// R: 2 settlements, 2 cities and the largest army: 8 VP, and a one-point card.
	table := steps(settle("R", mid[0]), settle("R", mid[2]), settle("R", mid[4]), city("R", mid[4]), settle("R", mid[6]), city("R", mid[6]),
		times(3, []Step{{Do: "soldier", Player: "R"}}), []Step{{Do: "point_card", Player: "R"}})
	ev := evaluated(t, preset(), table)
	tests := []struct {
		name            string
		player, current string
		shown           int
		valid           bool
		vp              int
		why             []string
	}{
		{"§11: 10 VP on one's own turn, with the cards shown", "R", "R", 2, true, 10, []string{"declare-valid"}},
		{"§11: more than 10", "R", "R", 5, true, 13, []string{"declare-valid"}},
		{"§11, §9 オ: the one-point cards not shown do not count", "R", "R", 0, false, 8, []string{"declare-short"}},
		{"§11: the position's one-point cards", "R", "R", -1, false, 9, []string{"declare-short"}},
		{"§11: not on another's turn", "R", "B", 2, false, 10, []string{"declare-not-own-turn"}},
		{"§11: neither", "B", "R", 0, false, 0, []string{"declare-not-own-turn", "declare-short"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ev.Declaration(tc.player, tc.current, tc.shown)
			if err != nil {
				t.Fatal(err)
			}
			var why []string
			for _, w := range d.Why {
				why = append(why, w.Code)
				if w.Section != "§11" {
					t.Errorf("%s cites %s, want §11", w.Code, w.Section)
				}
			}
			if d.Valid != tc.valid || d.VP.Total() != tc.vp || d.Need != 10 || !slices.Equal(why, tc.why) || d.Section != "§11" {
				t.Errorf("Declaration(%s, %s, %d) = valid %v, %d VP of %d, %v; want %v, %d VP, %v", tc.player, tc.current, tc.shown, d.Valid, d.VP.Total(), d.Need, why, tc.valid, tc.vp, tc.why)
			}
		})
	}
	short, _ := ev.Declaration("R", "R", 1)
	if want := map[string]any{"Player": "R", "VP": 9, "Shown": 1, "Missing": 1, "Need": 10}; !cmp.Equal(short.Why[0].Args, want) {
		t.Errorf("declare-short names %v, want %v", short.Why[0].Args, want)
	}
	for _, tc := range []struct {
		player, current string
		shown           int
		code            string
	}{{"Z", "R", 0, "unknown-player"}, {"R", "Z", 0, "unknown-player"}, {"R", "R", 6, "shown-point-cards"}, {"R", "R", -2, "shown-point-cards"}} {
		if _, err := ev.Declaration(tc.player, tc.current, tc.shown); !hasCode(err, tc.code) {
			t.Errorf("Declaration(%s, %s, %d) = %v, want %s", tc.player, tc.current, tc.shown, err, tc.code)
		}
	}
}

// FuzzEvaluate rebuilds a position from steps read from data and asks
// every quick answer with inputs read from the same bytes. Evaluate either
// refuses with an *Error or answers with valid trails, reasons for both
// cards and VP that agree with its standings; no answer panics, a refusal
// is an *Error, and a roll never pays more than its buildings are due.
func FuzzEvaluate(f *testing.F) {
	f.Add(byte(0), []byte{2, 0, 10, 2, 0, 11, 2, 0, 12, 2, 0, 13, 2, 0, 14, 0, 1, 9, 3, 2, 0})
	f.Add(byte(1), []byte{0, 0, 5, 1, 0, 5, 0, 1, 30, 5, 0, 5, 6, 0, 3, 4, 3, 0})
	f.Add(byte(2), []byte{2, 1, 40, 2, 1, 41, 2, 1, 42, 2, 1, 43, 2, 1, 44, 2, 1, 45, 0, 2, 30, 3, 0, 0, 3, 0, 0, 3, 0, 0})
	rs, b := preset(), newBoardOf(f, preset(), 3, 5, 42)
	f.Fuzz(func(t *testing.T, n byte, data []byte) {
		players := tablePlayers[:3+int(n%2)]
		var st []Step
		for i := 0; i+2 < len(data) && len(st) < 200; i += 3 {
			p, at := players[int(data[i+1])%len(players)], int(data[i+2])
			v, e := topo.vertices[at%numVertices].String(), topo.edges[at%numEdges]
			switch data[i] % 7 {
			case 0:
				st = append(st, Step{Do: "settlement", Player: p, At: v})
			case 1:
				st = append(st, Step{Do: "city", Player: p, At: v})
			case 2:
				st = append(st, Step{Do: "road", Player: p, Edge: []string{e.A.String(), e.B.String()}})
			case 3:
				st = append(st, Step{Do: "soldier", Player: p})
			case 4:
				st = append(st, Step{Do: "point_card", Player: p})
			case 5:
				st = append(st, Step{Do: "remove", At: v})
			case 6:
				st = append(st, Step{Do: "remove", Edge: []string{e.A.String(), e.B.String()}})
			}
		}
		ev, err := Evaluate(rs, players, st)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Evaluate refused with %T %v, want an *Error", err, err)
			}
			return
		}
		checkEvaluation(t, ev, "the position", false)
		byte := func(i int) int {
			if len(data) == 0 {
				return 0
			}
			return int(data[i%len(data)])
		}
		robber := referee.LandHexes()[byte(1)%numHexes]
		roll := Rolled{Sum: 2 + byte(2)%11, Robber: &robber, Bank: Bank{Held: map[Resource]int{Ore: byte(3) % 20}, Short: []Resource{[4]Resource{Brick, Lumber, Grain, Wool}[byte(4)%4]}}}
		prod, err := ev.Produce(b, roll)
		if err != nil {
			t.Fatalf("Produce(%+v) = %v", roll, err)
		}
		var due [4]Cards
		for _, y := range prod.Yields {
			if !y.Robbed {
				due[y.Player][y.Resource] += int8(y.Cards)
			}
		}
		for q, got := range prod.Got {
			for r, k := range got {
				if k < 0 || k > due[q][r] {
					t.Fatalf("roll %+v pays %s %d %s, due %d", roll, players[q], k, Resource(r), due[q][r])
				}
			}
		}
		hands := map[string]int{players[0]: byte(5) % 100, players[1]: byte(6) % 96}
		if _, err := ev.Discards(hands); err != nil && !hasCode(err, "hand-size") {
			t.Fatalf("Discards(%v) = %v", hands, err)
		}
		if hands[players[0]] > maxHand {
			delete(hands, players[0])
		}
		moves, err := ev.Robber(b, &robber, players[byte(7)%len(players)], hands)
		if err != nil {
			t.Fatalf("Robber = %v", err)
		}
		for _, rh := range moves.Hexes {
			if slices.Contains(rh.Rob, byte(7)%len(players)) || (!rh.Allowed && len(rh.Rob) > 0) {
				t.Fatalf("the robber on %v robs %v (allowed %v)", rh.Hex, rh.Rob, rh.Allowed)
			}
		}
		for _, p := range players {
			if _, err := ev.Rates(b, p); err != nil {
				t.Fatalf("Rates(%s) = %v", p, err)
			}
		}
		d, err := ev.Declaration(players[0], players[byte(8)%len(players)], byte(9)%7-1)
		if err != nil || d.Valid != (d.VP.Total() >= 10 && players[byte(8)%len(players)] == players[0]) {
			t.Fatalf("Declaration = %+v, %v", d, err)
		}
	})
}
