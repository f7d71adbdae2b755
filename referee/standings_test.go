package referee_test

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/catanjudge/catanjudge/referee"
)

func init() {
	// One -update flag rewrites every golden file in testdata; another test
	// file of the package may have defined it first.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata")
	}
}

// rulesGolden compares got with testdata/name, or rewrites the file under -update.
func rulesGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := gocmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// rulesGame builds a game from "player vp place" triples.
func rulesGame(args ...any) referee.Game {
	var g referee.Game
	for i := 0; i+2 < len(args); i += 3 {
		g.Placings = append(g.Placings, referee.Placing{Player: args[i].(string), VP: args[i+1].(int), Place: args[i+2].(int)})
	}
	return g
}

// rulesShares compares VP shares to a few ulps; exact ties are tested apart.
var rulesShares = cmpopts.EquateApprox(0, 1e-12)

func TestStandings(t *testing.T) {
	points := rulesPreset()
	points.StandingsOrder = []referee.StandingsKey{referee.KeyPoints, referee.KeyVP}
	generousBye := rulesPreset()
	generousBye.Bye = referee.Bye{VP: 5, Share: 0.25, Points: 2, Played: true}
	tests := []struct {
		name    string
		rs      referee.Ruleset
		games   []referee.Game
		byes    []string
		players []string
		want    []referee.Standing
	}{
		{
			// docs/rules.md: number of 1st places first, then total VP.
			name: "firsts before VP",
			rs:   rulesPreset(),
			games: []referee.Game{
				rulesGame("a", 10, 1, "b", 9, 2, "c", 5, 3, "d", 0, 4),
				rulesGame("c", 10, 1, "b", 9, 2, "d", 3, 3, "a", 0, 4),
			},
			players: []string{"a", "b", "c", "d"},
			want: []referee.Standing{
				{Rank: 1, Player: "c", Firsts: 1, VP: 15, Share: 5.0/24 + 10.0/22, Points: 6, Played: 2},
				{Rank: 2, Player: "a", Firsts: 1, VP: 10, Share: 10.0 / 24, Points: 5, Played: 2},
				{Rank: 3, Player: "b", Firsts: 0, VP: 18, Share: 9.0/24 + 9.0/22, Points: 6, Played: 2},
				{Rank: 4, Player: "d", Firsts: 0, VP: 3, Share: 3.0 / 22, Points: 3, Played: 2},
			},
		},
		{
			// docs/rules.md: then the VP share, own VP over the table's total.
			// Unlisted players are not ranked but count in table totals.
			name: "VP share after firsts and VP",
			rs:   rulesPreset(),
			games: []referee.Game{
				rulesGame("c", 10, 1, "a", 6, 2, "d", 4, 3, "x", 0, 4),
				rulesGame("e", 10, 1, "b", 6, 2, "f", 0, 3, "g", 0, 3),
			},
			players: []string{"a", "b"},
			want: []referee.Standing{
				{Rank: 1, Player: "b", VP: 6, Share: 6.0 / 16, Points: 3, Played: 1},
				{Rank: 2, Player: "a", VP: 6, Share: 6.0 / 20, Points: 3, Played: 1},
			},
		},
		{
			// docs/rules.md: players equal on every key share a standings rank.
			name:    "equal on every key share a rank",
			rs:      rulesPreset(),
			games:   []referee.Game{rulesGame("a", 10, 1, "c", 5, 2, "b", 5, 2, "d", 0, 4)},
			players: []string{"d", "c", "b", "a"},
			want: []referee.Standing{
				{Rank: 1, Player: "a", Firsts: 1, VP: 10, Share: 0.5, Points: 4, Played: 1},
				{Rank: 2, Player: "b", VP: 5, Share: 0.25, Points: 3, Played: 1},
				{Rank: 2, Player: "c", VP: 5, Share: 0.25, Points: 3, Played: 1},
				{Rank: 4, Player: "d", Points: 1, Played: 1},
			},
		},
		{
			// 1/10 + 2/10 equals 3/10 exactly, though not in float64.
			name: "shares are compared exactly",
			rs:   rulesPreset(),
			games: []referee.Game{
				rulesGame("c", 6, 1, "b", 3, 2, "a", 1, 3, "d", 0, 4),
				rulesGame("c", 5, 1, "d", 3, 2, "a", 2, 3, "b", 0, 4),
			},
			players: []string{"a", "b", "c", "d"},
			want: []referee.Standing{
				{Rank: 1, Player: "c", Firsts: 2, VP: 11, Share: 1.1, Points: 8, Played: 2},
				{Rank: 2, Player: "a", VP: 3, Share: 0.3, Points: 4, Played: 2},
				{Rank: 2, Player: "b", VP: 3, Share: 0.3, Points: 4, Played: 2},
				{Rank: 2, Player: "d", VP: 3, Share: 0.3, Points: 4, Played: 2},
			},
		},
		{
			// docs/rules.md: at a 3-player table the total is raised by the
			// average, as if a 4th player had scored it: 21 → 28.
			name:    "3-player table with the virtual 4th player",
			rs:      rulesPreset(),
			games:   []referee.Game{rulesGame("a", 10, 1, "b", 6, 2, "c", 5, 3)},
			players: []string{"a", "b", "c"},
			want: []referee.Standing{
				{Rank: 1, Player: "a", Firsts: 1, VP: 10, Share: 10.0 / 28, Points: 4, Played: 1},
				{Rank: 2, Player: "b", VP: 6, Share: 6.0 / 28, Points: 3, Played: 1},
				{Rank: 3, Player: "c", VP: 5, Share: 5.0 / 28, Points: 2, Played: 1},
			},
		},
		{
			name:    "a table without VP gives no share",
			rs:      rulesPreset(),
			games:   []referee.Game{rulesGame("a", 0, 1, "b", 0, 1, "c", 0, 1)},
			players: []string{"a", "b", "c"},
			want: []referee.Standing{
				{Rank: 1, Player: "a", Firsts: 1, Points: 4, Played: 1},
				{Rank: 1, Player: "b", Firsts: 1, Points: 4, Played: 1},
				{Rank: 1, Player: "c", Firsts: 1, Points: 4, Played: 1},
			},
		},
		{
			// docs/rules.md: shared places take the points of the place they
			// share; keys outside the ruleset's order do not separate players.
			name: "placement points with shared places",
			rs:   points,
			games: []referee.Game{
				rulesGame("a", 10, 1, "b", 8, 2, "c", 8, 2, "d", 5, 4),
				rulesGame("b", 9, 1, "c", 5, 2, "a", 3, 3),
			},
			players: []string{"a", "b", "c", "d"},
			want: []referee.Standing{
				{Rank: 1, Player: "b", Firsts: 1, VP: 17, Share: 8.0/31 + 27.0/68, Points: 7, Played: 2},
				{Rank: 2, Player: "a", Firsts: 1, VP: 13, Share: 10.0/31 + 9.0/68, Points: 6, Played: 2},
				{Rank: 2, Player: "c", VP: 13, Share: 8.0/31 + 15.0/68, Points: 6, Played: 2},
				{Rank: 4, Player: "d", VP: 5, Share: 5.0 / 31, Points: 1, Played: 1},
			},
		},
		{
			name:    "a bye under the preset credits nothing and is no game",
			rs:      rulesPreset(),
			games:   []referee.Game{rulesGame("a", 4, 1, "b", 2, 2, "c", 1, 3)},
			byes:    []string{"d"},
			players: []string{"a", "b", "c", "d"},
			want: []referee.Standing{
				{Rank: 1, Player: "a", Firsts: 1, VP: 4, Share: 12.0 / 28, Points: 4, Played: 1},
				{Rank: 2, Player: "b", VP: 2, Share: 6.0 / 28, Points: 3, Played: 1},
				{Rank: 3, Player: "c", VP: 1, Share: 3.0 / 28, Points: 2, Played: 1},
				{Rank: 4, Player: "d", Byes: 1},
			},
		},
		{
			name:    "byes credited as the ruleset says",
			rs:      generousBye,
			games:   []referee.Game{rulesGame("a", 4, 1, "b", 2, 2, "c", 1, 3)},
			byes:    []string{"d", "a", "d", "x"},
			players: []string{"a", "b", "c", "d"},
			want: []referee.Standing{
				{Rank: 1, Player: "a", Firsts: 1, VP: 9, Share: 12.0/28 + 0.25, Points: 6, Played: 2, Byes: 1},
				{Rank: 2, Player: "d", VP: 10, Share: 0.5, Points: 4, Played: 2, Byes: 2},
				{Rank: 3, Player: "b", VP: 2, Share: 6.0 / 28, Points: 3, Played: 1},
				{Rank: 4, Player: "c", VP: 1, Share: 3.0 / 28, Points: 2, Played: 1},
			},
		},
		{
			name:    "players without games appear, by player id",
			rs:      rulesPreset(),
			games:   []referee.Game{rulesGame("a", 10, 1, "b", 2, 2, "c", 1, 3)},
			players: []string{"z", "a", "y"},
			want: []referee.Standing{
				{Rank: 1, Player: "a", Firsts: 1, VP: 10, Share: 30.0 / 52, Points: 4, Played: 1},
				{Rank: 2, Player: "y"},
				{Rank: 2, Player: "z"},
			},
		},
		{
			name: "no players",
			rs:   rulesPreset(),
			want: []referee.Standing{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.Standings(tt.rs, tt.games, tt.byes, tt.players)
			if err != nil {
				t.Fatalf("Standings(%v, %v, %v) error = %v", tt.games, tt.byes, tt.players, err)
			}
			if diff := gocmp.Diff(tt.want, got, rulesShares); diff != "" {
				t.Errorf("Standings(%v, %v, %v) = %v, want %v (-want +got):\n%s", tt.games, tt.byes, tt.players, got, tt.want, diff)
			}
		})
	}
}

func TestStandingsErrors(t *testing.T) {
	unknownKey := rulesPreset()
	unknownKey.StandingsOrder = []referee.StandingsKey{referee.KeyFirsts, "wins"}
	ok := rulesGame("a", 10, 1, "b", 2, 2, "c", 1, 3)
	tests := []struct {
		name    string
		rs      referee.Ruleset
		games   []referee.Game
		players []string
		want    string
	}{
		{"a 2-player game", rulesPreset(), []referee.Game{ok, rulesGame("a", 1, 1, "b", 0, 2)}, nil, "game 2: table has 2 players, want 3 or 4"},
		{"a 5-player game", rulesPreset(), []referee.Game{rulesGame("a", 1, 1, "b", 0, 2, "c", 0, 2, "d", 0, 2, "e", 0, 2)}, nil, "table has 5 players"},
		{"a player twice in a game", rulesPreset(), []referee.Game{rulesGame("a", 1, 1, "b", 0, 2, "a", 0, 2)}, nil, `"a" is listed twice`},
		{"an empty player id in a game", rulesPreset(), []referee.Game{rulesGame("a", 1, 1, "", 0, 2, "c", 0, 2)}, nil, "empty player id"},
		{"VP above the cap", rulesPreset(), []referee.Game{rulesGame("a", 11, 1, "b", 0, 2, "c", 0, 2)}, nil, `"a" has 11 VP, want 0 to 10`},
		{"negative VP", rulesPreset(), []referee.Game{rulesGame("a", 1, 1, "b", -1, 2, "c", 0, 2)}, nil, `"b" has -1 VP`},
		{"place 0", rulesPreset(), []referee.Game{rulesGame("a", 1, 0, "b", 0, 2, "c", 0, 2)}, nil, `"a" has place 0, want 1 to 3`},
		{"place beyond the table", rulesPreset(), []referee.Game{rulesGame("a", 1, 1, "b", 0, 2, "c", 0, 4)}, nil, `"c" has place 4, want 1 to 3`},
		{"a player listed twice", rulesPreset(), []referee.Game{ok}, []string{"a", "b", "a"}, `player "a" is listed twice`},
		{"an empty player id", rulesPreset(), []referee.Game{ok}, []string{"a", ""}, "empty player id"},
		{"an unknown standings key", unknownKey, []referee.Game{ok}, []string{"a"}, `unknown key "wins"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.Standings(tt.rs, tt.games, nil, tt.players)
			if err == nil {
				t.Fatalf("Standings(%v, %v) = %v, want an error", tt.games, tt.players, got)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Standings(%v, %v) error = %q, want it to mention %q", tt.games, tt.players, err, tt.want)
			}
		})
	}
}

// rulesTournament plays rounds of random games among players: tables of 4
// and 3 as the count allows, one bye when 4s and 3s cannot seat everyone
// that round, VP drawn at random and placed with Place.
func rulesTournament(r *rand.Rand, rs referee.Ruleset, players []string, rounds int) ([]referee.Game, []string) {
	var games []referee.Game
	var byes []string
	for range rounds {
		order := slices.Clone(players)
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		if n := len(order); n == 5 || n < 3 {
			byes = append(byes, order[0])
			order = order[1:]
		}
		for len(order) > 0 {
			size := 4
			if len(order)%4 != 0 && len(order)%3 == 0 || len(order) == 3 || len(order) == 6 || len(order) == 9 {
				size = 3
			}
			table := order[:size]
			order = order[size:]
			scores := make([]referee.Score, size)
			declared := ""
			for i, p := range table {
				scores[i] = referee.Score{Player: p, VP: r.IntN(9)}
			}
			if r.IntN(3) > 0 {
				i := r.IntN(size)
				scores[i].VP = 10 + r.IntN(2)
				declared = scores[i].Player
			}
			placings, err := referee.Place(rs, scores, declared)
			if err != nil {
				panic(err)
			}
			games = append(games, referee.Game{Placings: placings})
		}
	}
	return games, byes
}

// Standings are a competition ranking that never puts a player below one
// they beat on the ruleset's keys, and the totals add up.
func TestStandingsProperties(t *testing.T) {
	orders := [][]referee.StandingsKey{
		{referee.KeyFirsts, referee.KeyVP, referee.KeyShare},
		{referee.KeyPoints, referee.KeyVP},
		{referee.KeyShare},
		{referee.KeyVP, referee.KeyFirsts},
	}
	r := rand.New(rand.NewPCG(5, 6))
	for iter := range 300 {
		rs := rulesPreset()
		rs.StandingsOrder = orders[iter%len(orders)]
		rs.Bye = referee.Bye{VP: r.IntN(4), Share: 0.125, Points: 1, Played: iter%2 == 0}
		players := make([]string, 3+r.IntN(14))
		for i := range players {
			players[i] = fmt.Sprintf("p%02d", i)
		}
		games, byes := rulesTournament(r, rs, players, 1+r.IntN(5))
		got, err := referee.Standings(rs, games, byes, players)
		if err != nil {
			t.Fatalf("Standings() error = %v", err)
		}
		if len(got) != len(players) {
			t.Fatalf("Standings() ranks %d players, want %d", len(got), len(players))
		}
		// Recount the totals the simple way.
		want := map[string]*referee.Standing{}
		for _, p := range players {
			want[p] = &referee.Standing{Player: p}
		}
		for _, g := range games {
			total := 0
			for _, p := range g.Placings {
				total += p.VP
			}
			for _, p := range g.Placings {
				w := want[p.Player]
				w.Played++
				w.VP += p.VP
				w.Points += rs.PlacementPoints[p.Place-1]
				if p.Place == 1 {
					w.Firsts++
				}
				if total > 0 {
					w.Share += float64(p.VP) / (float64(total) * 4 / float64(len(g.Placings)))
				}
			}
		}
		for _, p := range byes {
			w := want[p]
			w.Byes++
			w.VP += rs.Bye.VP
			w.Points += rs.Bye.Points
			w.Share += rs.Bye.Share
			if rs.Bye.Played {
				w.Played++
			}
		}
		better := func(a, b referee.Standing) int {
			for _, k := range rs.StandingsOrder {
				var c int
				switch k {
				case referee.KeyFirsts:
					c = cmp.Compare(a.Firsts, b.Firsts)
				case referee.KeyVP:
					c = cmp.Compare(a.VP, b.VP)
				case referee.KeyShare:
					c = cmp.Compare(a.Share, b.Share)
				case referee.KeyPoints:
					c = cmp.Compare(a.Points, b.Points)
				}
				if c != 0 {
					return c
				}
			}
			return 0
		}
		for k, s := range got {
			w := *want[s.Player]
			w.Rank = s.Rank
			if diff := gocmp.Diff(w, s, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Fatalf("Standings() line for %s (-want +got):\n%s", s.Player, diff)
			}
			ahead := 0
			for _, o := range got {
				if better(o, s) > 0 {
					ahead++
				}
			}
			if s.Rank != ahead+1 {
				t.Fatalf("Standings() = %v: %s has rank %d with %d players ahead", got, s.Player, s.Rank, ahead)
			}
			if k > 0 {
				prev := got[k-1]
				if c := better(prev, s); c < 0 || c == 0 && (prev.Rank != s.Rank || prev.Player > s.Player) {
					t.Fatalf("Standings() = %v: %s listed before %s", got, prev.Player, s.Player)
				}
			}
		}
	}
}

// rulesStandings builds standings lines from "player rank" pairs.
func rulesStandings(args ...any) []referee.Standing {
	var s []referee.Standing
	for i := 0; i+1 < len(args); i += 2 {
		s = append(s, referee.Standing{Player: args[i].(string), Rank: args[i+1].(int)})
	}
	return s
}

func TestCut(t *testing.T) {
	tests := []struct {
		name      string
		standings []referee.Standing
		n         int
		advancing []string // before the drawn players
		group     []string // the tied group at the cut line, sorted
	}{
		{"no tie at the cut line", rulesStandings("a", 1, "b", 2, "c", 2, "d", 4, "e", 5), 3, []string{"a", "b", "c"}, nil},
		{"everyone advances", rulesStandings("a", 1, "b", 1, "c", 1), 3, []string{"a", "b", "c"}, nil},
		{"a tie across the cut line", rulesStandings("a", 1, "b", 2, "c", 2, "d", 2, "e", 5), 3, []string{"a"}, []string{"b", "c", "d"}},
		{"a tie for 1st", rulesStandings("a", 1, "b", 1, "c", 1, "d", 4), 1, nil, []string{"a", "b", "c"}},
		{"unsorted standings", rulesStandings("e", 5, "d", 2, "a", 1, "c", 2, "b", 2), 2, []string{"a"}, []string{"b", "c", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			draws := map[string]bool{}
			for seed := range uint64(50) {
				advancing, draw, err := referee.Cut(tt.standings, tt.n, seed)
				if err != nil {
					t.Fatalf("Cut(%v, %d, %d) error = %v", tt.standings, tt.n, seed, err)
				}
				again, drawAgain, _ := referee.Cut(tt.standings, tt.n, seed)
				if !slices.Equal(advancing, again) || !slices.Equal(draw, drawAgain) {
					t.Fatalf("Cut(%v, %d, %d) = %v, %v then %v, %v, want the same draw", tt.standings, tt.n, seed, advancing, draw, again, drawAgain)
				}
				if sorted := slices.Sorted(slices.Values(draw)); !slices.Equal(sorted, tt.group) {
					t.Fatalf("Cut(%v, %d, %d) draw = %v, want an order of %v", tt.standings, tt.n, seed, draw, tt.group)
				}
				want := append(slices.Clone(tt.advancing), draw[:max(0, tt.n-len(tt.advancing))]...)
				if tt.group == nil {
					want = tt.advancing
				}
				if !slices.Equal(advancing, want) {
					t.Fatalf("Cut(%v, %d, %d) = %v, %v, want %v", tt.standings, tt.n, seed, advancing, draw, want)
				}
				draws[strings.Join(draw, ",")] = true
			}
			if tt.group != nil && len(draws) < 2 {
				t.Errorf("Cut(%v, %d) drew %v for 50 seeds, want the seed to change the draw", tt.standings, tt.n, draws)
			}
		})
	}
}

func TestCutErrors(t *testing.T) {
	tests := []struct {
		name      string
		standings []referee.Standing
		n         int
	}{
		{"cut of 0", rulesStandings("a", 1, "b", 2), 0},
		{"cut beyond the players", rulesStandings("a", 1, "b", 2), 3},
		{"no standings", nil, 1},
		{"a player twice", rulesStandings("a", 1, "b", 2, "a", 3), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			advancing, draw, err := referee.Cut(tt.standings, tt.n, 1)
			if err == nil {
				t.Fatalf("Cut(%v, %d) = %v, %v, want an error", tt.standings, tt.n, advancing, draw)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
		})
	}
}

// A small tournament from capsule rolls to the cut, against a golden file:
// any change to seating, placings, standings or the draw shows in review.
func TestStandingsGolden(t *testing.T) {
	rs := rulesPreset()
	players := []string{"ann", "ben", "cho", "dai", "eri", "fuu", "gen", "hana", "iku"}
	type table struct {
		scores    []referee.Score
		declared  string
		sanctions []referee.Sanction
	}
	sc := func(args ...any) []referee.Score {
		var s []referee.Score
		for i := 0; i+1 < len(args); i += 2 {
			s = append(s, referee.Score{Player: args[i].(string), VP: args[i+1].(int)})
		}
		return s
	}
	rounds := []struct {
		tables []table
		bye    string
	}{
		{tables: []table{
			{scores: sc("ann", 10, "ben", 7, "cho", 7), declared: "ann"},
			{scores: sc("dai", 8, "eri", 8, "fuu", 3)},
			{scores: sc("gen", 10, "hana", 11, "iku", 4), declared: "gen"},
		}},
		{tables: []table{
			{scores: sc("ann", 6, "dai", 10, "gen", 5, "hana", 9), declared: "dai", sanctions: []referee.Sanction{{"hana", referee.VPDeduction}}},
			{scores: sc("ben", 10, "cho", 2, "eri", 9, "fuu", 9), declared: "ben"},
		}, bye: "iku"},
		{tables: []table{
			{scores: sc("ann", 9, "eri", 9, "iku", 7, "cho", 10), declared: "cho", sanctions: []referee.Sanction{{"cho", referee.GameLoss}}},
			{scores: sc("ben", 8, "dai", 8, "fuu", 10, "gen", 6), declared: "fuu", sanctions: []referee.Sanction{{"gen", referee.Warning}}},
		}, bye: "hana"},
	}
	var out bytes.Buffer
	var games []referee.Game
	var byes []string
	for i, round := range rounds {
		fmt.Fprintf(&out, "round %d\n", i+1)
		for j, tb := range round.tables {
			ids := make([]string, len(tb.scores))
			for k, s := range tb.scores {
				ids[k] = s.Player
			}
			seed := uint64(100*(i+1) + j + 1)
			history, seats, err := referee.RollSeating(rs, ids, seed)
			if err != nil {
				t.Fatalf("RollSeating(%v, %d) error = %v", ids, seed, err)
			}
			fmt.Fprintf(&out, "  table %d seed %d rolls", j+1, seed)
			for _, round := range history {
				fmt.Fprint(&out, " |")
				for _, r := range round {
					fmt.Fprintf(&out, " %s %d+%d", r.Player, r.White, r.Blue)
				}
			}
			fmt.Fprint(&out, "\n    seats")
			for _, s := range seats {
				fmt.Fprintf(&out, " %d.%s(%s)", s.Order, s.Player, s.Color)
			}
			placings, err := referee.PlaceWithPenalties(rs, tb.scores, tb.declared, tb.sanctions)
			if err != nil {
				t.Fatalf("PlaceWithPenalties(%v, %q, %v) error = %v", tb.scores, tb.declared, tb.sanctions, err)
			}
			fmt.Fprintf(&out, "\n    declared %q sanctions %v placings", tb.declared, tb.sanctions)
			for _, p := range placings {
				fmt.Fprintf(&out, " %d.%s(%d)", p.Place, p.Player, p.VP)
			}
			fmt.Fprintln(&out)
			games = append(games, referee.Game{Placings: placings})
		}
		if round.bye != "" {
			fmt.Fprintf(&out, "  bye %s\n", round.bye)
			byes = append(byes, round.bye)
		}
	}
	points := rulesPreset()
	points.StandingsOrder = []referee.StandingsKey{referee.KeyPoints, referee.KeyVP}
	for _, rs := range []referee.Ruleset{rs, points} {
		standings, err := referee.Standings(rs, games, byes, players)
		if err != nil {
			t.Fatalf("Standings() error = %v", err)
		}
		fmt.Fprintf(&out, "standings %v\n", rs.StandingsOrder)
		fmt.Fprintf(&out, "%4s  %-6s %6s %3s %8s %6s %6s %4s\n", "rank", "player", "firsts", "vp", "share", "points", "played", "byes")
		for _, s := range standings {
			fmt.Fprintf(&out, "%4d  %-6s %6d %3d %8.5f %6d %6d %4d\n", s.Rank, s.Player, s.Firsts, s.VP, s.Share, s.Points, s.Played, s.Byes)
		}
		for _, n := range []int{1, 4} {
			advancing, draw, err := referee.Cut(standings, n, 2003)
			if err != nil {
				t.Fatalf("Cut(%d) error = %v", n, err)
			}
			fmt.Fprintf(&out, "cut %d seed 2003: advancing %v draw %v\n", n, advancing, draw)
		}
	}
	rulesGolden(t, "rules_standings.golden", out.Bytes())
}
