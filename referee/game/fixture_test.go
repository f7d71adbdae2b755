package game

import (
	"errors"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// testBoard is the preset's layout unturned with the base game's beginner
// numbers, given hex by hex so that every production is known, and the
// harbours on the referee's sites.
func testBoard(t testing.TB, rs referee.Ruleset) referee.Board {
	t.Helper()
	numbers := []int{10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11}
	var tiles []referee.Tile
	for i, h := range referee.LandHexes() {
		tiles = append(tiles, referee.Tile{Hex: h, Terrain: rs.Layout.Terrain[i], Number: numbers[i]})
	}
	var harbors []referee.Harbor
	for i, e := range referee.HarborSites() {
		harbors = append(harbors, referee.Harbor{Kind: rs.Layout.Harbors[i], Edge: e})
	}
	b, err := BoardFrom(rs, tiles, harbors)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// startPlacement is a §4 placement of R, B, Y, G on coastal corners, away
// from the middle of the board the tests build on.
var startPlacement = []MoveSpec{
	{Do: "place", Settlement: "S(1,-3)", Road: []string{"S(1,-3)", "N(0,-2)"}},
	{Do: "place", Settlement: "S(3,-2)", Road: []string{"S(3,-2)", "N(2,-1)"}},
	{Do: "place", Settlement: "N(1,2)", Road: []string{"N(1,2)", "S(1,1)"}},
	{Do: "place", Settlement: "N(-3,2)", Road: []string{"N(-3,2)", "S(-2,1)"}},
	{Do: "place", Settlement: "S(-2,-1)", Road: []string{"S(-2,-1)", "N(-3,1)"}},
	{Do: "place", Settlement: "S(-1,2)", Road: []string{"S(-1,2)", "N(-1,3)"}},
	{Do: "place", Settlement: "N(2,1)", Road: []string{"N(2,1)", "S(3,-1)"}},
	{Do: "place", Settlement: "S(0,-3)", Road: []string{"S(0,-3)", "N(-1,-1)"}},
}

// Players of the fixture, in play order.
const (
	red = iota
	blue
	yellow
	green
)

// started returns a 4-player game on testBoard after startPlacement, red
// to roll.
func started(t testing.TB, rs referee.Ruleset) *State {
	t.Helper()
	s, err := New(rs, testBoard(t, rs), []string{"R", "B", "Y", "G"})
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, startPlacement...)
	return s
}

// play plays moves that must all be played (or voided, §8 エ, §9).
func play(t testing.TB, s *State, moves ...MoveSpec) {
	t.Helper()
	for i, spec := range moves {
		if code, _, void := codeOf(try(s, spec)); code != "" && !void {
			t.Fatalf("move %d %+v: %s", i, spec, code)
		}
	}
}

// redNetwork gives R roads up to 15 beyond its two of §4: a chain west
// from N(-1,-1), a ring round hex (1,-2) from S(1,-3), and a tail from
// S(1,-2) to S(0,-1); with settlements, R's 5 stand on S(1,-3), S(0,-3),
// N(-1,0), N(-2,1) and S(2,-3), and N(0,0) is left free of the distance rule.
func redNetwork(t testing.TB, s *State, roads int, settlements bool) {
	t.Helper()
	west := []string{"N(-1,-1)", "S(0,-2)", "N(-1,0)", "S(-1,-1)", "N(-2,1)", "S(-2,0)"}
	ring := []string{"S(1,-3)", "N(0,-1)", "S(1,-2)", "N(1,-1)", "S(2,-3)", "N(1,-2)", "S(1,-3)"}
	tail := []string{"S(1,-2)", "N(0,0)", "S(0,-1)"}
	if settlements {
		west[2], west[4], ring[4] = "N(-1,0)*", "N(-2,1)*", "S(2,-3)*"
	}
	lay(t, s, red, west...)
	lay(t, s, red, ring...)
	lay(t, s, red, tail[:roads-13+1]...)
}

// try decodes and plays one move.
func try(s *State, spec MoveSpec) error {
	m, err := s.Decode(spec)
	if err != nil {
		return err
	}
	return s.Apply(m)
}

// codeOf returns the rule code and section of err, or "" for nil.
func codeOf(err error) (code, section string, void bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Code, e.Section, e.Void
	}
	if err != nil {
		return "not an *Error: " + err.Error(), "", false
	}
	return "", "", false
}

// give hands player p cards from the bank, as production would.
func give(t testing.TB, s *State, p int, c Cards) {
	t.Helper()
	if !s.bank.covers(c) {
		t.Fatalf("the bank cannot give %v", c)
	}
	s.bank.take(c)
	s.players[p].hand.add(c)
}

// vid and eid name corners and edges in tests.
func vid(t testing.TB, name string) int {
	t.Helper()
	i, err := vertexNamed(name, "")
	if err != nil {
		t.Fatal(err)
	}
	return int(i)
}

func eid(t testing.TB, a, b string) int {
	t.Helper()
	i, err := edgeNamed([]string{a, b}, "")
	if err != nil {
		t.Fatal(err)
	}
	return int(i)
}

// lay puts colour p's roads along the corners named, one after the other,
// and settlements on the corners marked with a trailing "*", as if built
// (no cost, no connection check), through the engine's own updates.
func lay(t testing.TB, s *State, p int, corners ...string) {
	t.Helper()
	var prev string
	for _, c := range corners {
		name, settle := c, false
		if n := len(c); c[n-1] == '*' {
			name, settle = c[:n-1], true
		}
		if prev != "" {
			s.placeRoad(p, eid(t, prev, name))
		}
		if settle {
			s.placeSettlement(p, vid(t, name))
		}
		prev = name
	}
}

func road(a, b string) []string { return []string{a, b} }

var (
	roll = func(a, b int) MoveSpec { return MoveSpec{Do: "roll", Dice: []int{a, b}} }
	end  = MoveSpec{Do: "end_turn"}
)
