package pairing_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

func TestSizes(t *testing.T) {
	tests := []struct {
		n      int
		tables []int
		byes   int
	}{
		{3, []int{3}, 0},
		{4, []int{4}, 0},
		{5, []int{4}, 1},
		{6, []int{3, 3}, 0},
		{7, []int{4, 3}, 0},
		{8, []int{4, 4}, 0},
		{9, []int{3, 3, 3}, 0},
		{10, []int{4, 3, 3}, 0},
		{11, []int{4, 4, 3}, 0},
		{12, []int{4, 4, 4}, 0},
		{13, []int{4, 3, 3, 3}, 0},
		{14, []int{4, 4, 3, 3}, 0},
		{17, []int{4, 4, 3, 3, 3}, 0},
		{33, []int{4, 4, 4, 4, 4, 4, 3, 3, 3}, 0},
	}
	for _, tt := range tests {
		tables, byes, err := pairing.Sizes(tt.n)
		if err != nil || !slices.Equal(tables, tt.tables) || byes != tt.byes {
			t.Errorf("Sizes(%d) = %v, %d, %v; want %v, %d", tt.n, tables, byes, err, tt.tables, tt.byes)
		}
	}
	for n := 6; n <= 400; n++ {
		tables, byes, err := pairing.Sizes(n)
		sum, threes := 0, 0
		for _, s := range tables {
			sum += s
			if s == 3 {
				threes++
			}
		}
		if err != nil || byes != 0 || sum != n || threes > 3 || len(tables) != (n+3)/4 {
			t.Errorf("Sizes(%d) = %v, %d, %v; want ceil(n/4) tables, at most 3 of them 3-player", n, tables, byes, err)
		}
	}
	for _, n := range []int{-1, 0, 1, 2} {
		if _, _, err := pairing.Sizes(n); !isViolation(err, "pairing-too-few-players") {
			t.Errorf("Sizes(%d) error = %v, want the violation pairing-too-few-players", n, err)
		}
	}
}

func TestInvalidRequests(t *testing.T) {
	twelve := players(12)
	with := func(ps []pairing.Player, edit func([]pairing.Player)) []pairing.Player {
		ps = slices.Clone(ps)
		edit(ps)
		return ps
	}
	tests := []struct {
		name string
		req  pairing.Request
		code string // the *referee.Violation's code, for the judge's language
	}{
		{"two players", pairing.Request{Players: players(2)}, "pairing-too-few-players"},
		{"no players", pairing.Request{}, "pairing-too-few-players"},
		{"empty id", pairing.Request{Players: with(twelve, func(ps []pairing.Player) { ps[3].ID = "" })}, "player-id-empty"},
		{"duplicate id", pairing.Request{Players: with(twelve, func(ps []pairing.Player) { ps[3].ID = ps[4].ID })}, "duplicate-player"},
		{"negative standing", pairing.Request{Players: with(twelve, func(ps []pairing.Player) { ps[0].Standing = -1 })}, "standing-out-of-range"},
		{"fixed table past the last", pairing.Request{Players: with(twelve, func(ps []pairing.Player) { ps[0].FixedTable = 4 })}, "fixed-table-beyond-round"},
		{"negative fixed table", pairing.Request{Players: with(twelve, func(ps []pairing.Player) { ps[0].FixedTable = -1 })}, "fixed-table-beyond-round"},
		{"five fixed to one table", pairing.Request{Players: with(twelve, func(ps []pairing.Player) {
			for i := range 5 {
				ps[i].FixedTable = 2
			}
		})}, "fixed-table-over-four"},
		{"four fixed to a table of three", pairing.Request{Players: with(players(9), func(ps []pairing.Player) {
			for i := range 4 {
				ps[i].FixedTable = 1
			}
		})}, "fixed-tables-over-fours"},
		{"kept apart from themselves", pairing.Request{Players: twelve, KeepApart: [][2]string{{"p001", "p001"}}}, "keep-apart-self"},
		{"kept apart but fixed together", pairing.Request{
			Players:   with(twelve, func(ps []pairing.Player) { ps[0].FixedTable, ps[1].FixedTable = 2, 2 }),
			KeepApart: [][2]string{{"p000", "p001"}},
		}, "keep-apart-fixed-together"},
		{"keep-apart impossible at one table", pairing.Request{Players: players(4), KeepApart: [][2]string{{"p000", "p003"}}}, "pairing-constraints"},
		{"keep-apart impossible for three pairs of six", pairing.Request{Players: players(6), KeepApart: [][2]string{
			{"p000", "p001"}, {"p000", "p002"}, {"p001", "p002"}, {"p003", "p004"}, {"p003", "p005"}, {"p004", "p005"},
		}}, "pairing-constraints"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, pair := range map[string]func(pairing.Request) (pairing.Round, error){"Random": pairing.Random, "Swiss": pairing.Swiss} {
				if _, err := pair(tt.req); !isViolation(err, tt.code) {
					t.Errorf("%s error = %v, want the violation %s", name, err, tt.code)
				}
			}
			if _, err := pairing.DrawSchedule(tt.req, 3); !isViolation(err, tt.code) {
				t.Errorf("DrawSchedule error = %v, want the violation %s", err, tt.code)
			}
		})
	}
	for _, rounds := range []int{0, -1, 101} {
		if _, err := pairing.DrawSchedule(pairing.Request{Players: twelve}, rounds); !isViolation(err, "schedule-rounds-out-of-range") {
			t.Errorf("DrawSchedule(12 players, %d rounds) error = %v, want the violation schedule-rounds-out-of-range", rounds, err)
		}
	}
}

// isViolation reports whether err is a *referee.Violation of code that
// also matches referee.ErrInvalid, as every refusal of bad input is.
func isViolation(err error, code string) bool {
	var v *referee.Violation
	return errors.Is(err, referee.ErrInvalid) && errors.As(err, &v) && v.Code == code
}

func TestDeterministic(t *testing.T) {
	e := newEvent(23, 5)
	e.keepApart = [][2]string{{"p001", "p002"}}
	e.players[4].FixedTable = 2
	e.runSwiss(t, 2, 10)
	req := e.request(99)
	first, err := pairing.Swiss(req)
	if err != nil {
		t.Fatal(err)
	}
	// The same request in another order gives the same round.
	again := req
	again.Players = slices.Clone(req.Players)
	slices.Reverse(again.Players)
	second, err := pairing.Swiss(again)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("Swiss differs on the same request (-first +second):\n%s", diff)
	}
	if first.Seed != 99 {
		t.Errorf("Seed = %d, want 99", first.Seed)
	}
	// Another seed re-pairs: round 1 draws differ for some seed.
	base, _ := pairing.Random(pairing.Request{Players: players(20), Seed: 1})
	differs := false
	for seed := uint64(2); seed < 6 && !differs; seed++ {
		r, _ := pairing.Random(pairing.Request{Players: players(20), Seed: seed})
		differs = !cmp.Equal(base.Tables, r.Tables)
	}
	if !differs {
		t.Error("Random gives the same tables for seeds 1 to 5, want a re-pair to differ")
	}
	s1, _ := pairing.DrawSchedule(pairing.Request{Players: players(14), Seed: 3}, 4)
	s2, _ := pairing.DrawSchedule(pairing.Request{Players: players(14), Seed: 3}, 4)
	if diff := cmp.Diff(s1, s2); diff != "" {
		t.Errorf("DrawSchedule differs on the same request (-first +second):\n%s", diff)
	}
}

func TestSwissKeepsLeadersTogether(t *testing.T) {
	// 16 players ranked 1..16 with no history: the top four share table 1.
	ps := players(16)
	for i := range ps {
		ps[i].Standing = i + 1
	}
	r, err := pairing.Swiss(pairing.Request{Players: ps, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"p000", "p001", "p002", "p003"}, {"p004", "p005", "p006", "p007"},
		{"p008", "p009", "p010", "p011"}, {"p012", "p013", "p014", "p015"},
	}
	if diff := cmp.Diff(want, r.Tables); diff != "" {
		t.Errorf("Swiss by standing (-want +got):\n%s", diff)
	}
	// When the leaders have all met, the repeat gives way and standings
	// stay as close as they can.
	history := [][]string{{"p000", "p001", "p002", "p003"}}
	r, err = pairing.Swiss(pairing.Request{Players: ps, History: history, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Repeats != 0 {
		t.Errorf("Repeats = %d, want 0 in %v", r.Repeats, r.Tables)
	}
	if top := r.Tables[0]; !slices.Contains(top, "p000") || slices.ContainsFunc(top, func(id string) bool { return id > "p007" }) {
		t.Errorf("table 1 = %v, want the leader with players ranked 2 to 8", top)
	}
}

func TestByeGoesToFewestByesThenLowest(t *testing.T) {
	ps := players(5)
	for i := range ps {
		ps[i].Standing = i + 1
	}
	r, err := pairing.Swiss(pairing.Request{Players: ps, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Byes, []string{"p004"}) {
		t.Errorf("Byes = %v, want the lowest ranked, p004", r.Byes)
	}
	r, err = pairing.Swiss(pairing.Request{Players: ps, History: [][]string{{"p004"}, {"p003"}}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Byes, []string{"p002"}) {
		t.Errorf("Byes = %v, want p002, the lowest ranked without a bye", r.Byes)
	}
	// Five rounds of five players: everybody gets exactly one bye.
	e := newEvent(5, 1)
	e.runSwiss(t, 5, 1)
	_, byes := exposure(e.history)
	for _, p := range e.players {
		if byes[p.ID] != 1 {
			t.Errorf("player %s had %d byes in 5 rounds, want 1", p.ID, byes[p.ID])
		}
	}
}

func TestFixedTablesAndKeepApart(t *testing.T) {
	for _, n := range []int{7, 13, 21, 40} {
		e := newEvent(n, uint64(n))
		e.players[0].FixedTable = 1
		e.players[n-1].FixedTable = 1
		e.players[2].FixedTable = (n + 3) / 4 // the last table
		e.keepApart = [][2]string{{"p001", "p003"}, {"p003", "p004"}, {"p000", "p005"}}
		// runSwiss checks the constraints every round.
		e.runSwiss(t, 3, 3)
		s, err := pairing.DrawSchedule(e.request(4), 3)
		if err != nil {
			t.Fatalf("DrawSchedule(%d players): %v", n, err)
		}
		req := e.request(4)
		for _, r := range s.Rounds {
			checkRound(t, req, r)
			req.History = append(req.History, r.Tables...)
			for _, b := range r.Byes {
				req.History = append(req.History, []string{b})
			}
		}
	}
}

func TestDropsAndLateEntries(t *testing.T) {
	e := newEvent(22, 9)
	e.runSwiss(t, 2, 1)
	e.drop("p003")
	e.drop("p017")
	e.enter("late1")
	e.enter("late2")
	e.enter("late3")
	// 23 players: History still names the dropped players, which is fine.
	rounds := e.runSwiss(t, 3, 20)
	seated := map[string]bool{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			for _, id := range tb {
				seated[id] = true
			}
		}
	}
	for _, id := range []string{"p003", "p017"} {
		if seated[id] {
			t.Errorf("dropped player %s was seated", id)
		}
	}
	for _, id := range []string{"late1", "late2", "late3"} {
		if !seated[id] {
			t.Errorf("late entry %s was not seated", id)
		}
	}
	for i, r := range rounds {
		if r.Repeats != 0 {
			t.Errorf("round %d after drops and entries: %d repeats, want 0", i+3, r.Repeats)
		}
	}
}

func TestAmend(t *testing.T) {
	ps := players(7) // 4 + 3
	ps[6].FixedTable = 2
	req := pairing.Request{Players: ps, History: [][]string{{"p000", "p001", "p002", "p003"}, {"p004", "p005", "p006"}}, KeepApart: [][2]string{{"p000", "p004"}}, Seed: 4}
	r := pairing.Round{Tables: [][]string{{"p000", "p002", "p003", "p005"}, {"p001", "p004", "p006"}}, Seed: 4}

	t.Run("swap", func(t *testing.T) {
		c := pairing.Change{A: "p002", B: "p001", Reason: "player asked to sit near the door"}
		got, err := pairing.Amend(req, r, c)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]string{{"p000", "p001", "p003", "p005"}, {"p002", "p004", "p006"}}
		if diff := cmp.Diff(want, got.Tables); diff != "" {
			t.Errorf("tables (-want +got):\n%s", diff)
		}
		if got.Repeats != repeats(req.History, got.Tables) {
			t.Errorf("Repeats = %d, want %d", got.Repeats, repeats(req.History, got.Tables))
		}
		if diff := cmp.Diff([]pairing.Change{c}, got.Changes); diff != "" {
			t.Errorf("Changes (-want +got):\n%s", diff)
		}
		if len(r.Changes) != 0 || r.Tables[0][1] != "p002" {
			t.Error("Amend changed its input round")
		}
		again, err := pairing.Amend(req, got, pairing.Change{A: "p002", B: "p001", Reason: "undo"})
		if err != nil || len(again.Changes) != 2 {
			t.Errorf("a second change: %v, %d changes recorded, want 2", err, len(again.Changes))
		}
	})
	t.Run("move to a 3-player table", func(t *testing.T) {
		got, err := pairing.Amend(req, r, pairing.Change{A: "p002", Table: 2, Reason: "broken chair"})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]string{{"p000", "p003", "p005"}, {"p001", "p002", "p004", "p006"}}
		if diff := cmp.Diff(want, got.Tables); diff != "" {
			t.Errorf("tables (-want +got):\n%s", diff)
		}
	})
	t.Run("swap with a bye", func(t *testing.T) {
		req5 := pairing.Request{Players: players(5)}
		r5 := pairing.Round{Tables: [][]string{{"p000", "p001", "p002", "p003"}}, Byes: []string{"p004"}}
		got, err := pairing.Amend(req5, r5, pairing.Change{A: "p004", B: "p001", Reason: "p001 arrived late"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Byes, []string{"p001"}) || !slices.Contains(got.Tables[0], "p004") {
			t.Errorf("tables %v, byes %v; want p004 seated and p001 on the bye", got.Tables, got.Byes)
		}
	})
	for _, tt := range []struct {
		name string
		c    pairing.Change
		code string
	}{
		{"no reason", pairing.Change{A: "p002", B: "p003"}, "amend-reason-missing"},
		{"unknown player", pairing.Change{A: "p002", B: "zed", Reason: "x"}, "amend-not-in-round"},
		{"swap with themselves", pairing.Change{A: "p002", B: "p002", Reason: "x"}, "amend-swap-self"},
		{"a table of five", pairing.Change{A: "p001", Table: 1, Reason: "x"}, "pairing-table-size"},
		{"a table that does not exist", pairing.Change{A: "p001", Table: 3, Reason: "x"}, "amend-no-table"},
		{"keep-apart together", pairing.Change{A: "p002", B: "p004", Reason: "x"}, "pairing-keep-apart-together"},
		{"fixed player moved", pairing.Change{A: "p006", B: "p003", Reason: "x"}, "pairing-off-fixed-table"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := pairing.Amend(req, r, tt.c); !isViolation(err, tt.code) {
				t.Errorf("Amend(%+v) error = %v, want the violation %s", tt.c, err, tt.code)
			}
		})
	}
}
