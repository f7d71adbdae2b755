package referee_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// rulesPreset is the built-in preset proshop-2003; TestPlacePresetMatchesFile
// keeps it equal to config/rulesets/proshop-2003.json.
func rulesPreset() referee.Ruleset {
	return referee.Ruleset{
		Name:           "proshop-2003",
		Version:        "2003.3",
		GameMinutes:    7,
		VPCap:          10,
		WinVP:          10,
		Dango:          referee.DangoConnected,
		LongestRoadTie: referee.LongestRoadVacate,
		BankShortage:   referee.BankShortageAllOrNothing,
		RobberOnDesert: true,
		Colors:         []referee.Color{referee.Red, referee.Blue, referee.Yellow, referee.Green},
		Layout: referee.Layout{
			Terrain: [19]referee.Terrain{
				"mountains", "pasture", "forest",
				"fields", "hills", "pasture", "hills",
				"fields", "forest", "desert", "forest", "mountains",
				"forest", "mountains", "fields", "pasture",
				"hills", "fields", "pasture",
			},
			Harbors: [9]referee.HarborKind{"generic", "wool", "generic", "generic", "brick", "lumber", "generic", "grain", "ore"},
		},
		StandingsOrder:  []referee.StandingsKey{referee.KeyFirsts, referee.KeyVP, referee.KeyShare},
		PlacementPoints: []int{4, 3, 2, 1},
		Ladder:          slices.Clone(referee.Levels),
		EscalateFrom:    referee.Caution,
		DeductVP:        2,
		Penalties: []referee.Offence{
			{Code: "card-handling", Section: "§13", NameJA: "カードの出し入れを本人が行った", NameEN: "Handled own cards in or out", Level: referee.Caution, Escalates: true},
			{Code: "slow-negotiation", Section: "§13", NameJA: "不成立の交渉を引き延ばした", NameEN: "Dragged out a failed negotiation", Level: referee.Caution, Escalates: true},
			{Code: "needless-talk", Section: "§13", NameJA: "不必要な発言", NameEN: "Needless talk", Level: referee.Caution, Escalates: true},
			{Code: "shamisen", Section: "§13", NameJA: "三味線（惑わす発言）", NameEN: "Bluffing chatter (shamisen)", Level: referee.Warning, Escalates: true},
			{Code: "note-taking", Section: "§13", NameJA: "メモを取った", NameEN: "Took notes", Level: referee.Warning, Escalates: true},
			{Code: "bank-counting", Section: "§13", NameJA: "場のカードの枚数を数えた", NameEN: "Counted the bank's cards", Level: referee.Warning, Escalates: true},
			{Code: "hidden-hand", Section: "§13", NameJA: "手札を見えない位置に置いた", NameEN: "Kept hand cards out of sight", Level: referee.Caution, Escalates: true},
			{Code: "unsporting-conduct", Section: "§14", NameJA: "非紳士的行為", NameEN: "Unsporting conduct", Level: referee.Warning, Escalates: true},
			{Code: "ignored-judge", Section: "§14", NameJA: "ジャッジの判断に従わない", NameEN: "Ignored the judge's decision", Level: referee.GameLoss, Escalates: true},
			{Code: "illegal-declaration", Section: "§11", NameJA: "不正な勝利宣言（手番外・10点未満）", NameEN: "Declared victory out of turn or under 10 VP", Level: referee.Warning, Escalates: true},
			{Code: "card-on-purchase-turn", Section: "§8 エ", NameJA: "購入した手番にチャンスカードを使用", NameEN: "Played a development card on its purchase turn", Level: referee.Caution, Remedy: "card-void"},
			{Code: "second-card-in-turn", Section: "§9", NameJA: "1手番に2枚目のチャンスカードを使用", NameEN: "Played a second development card in one turn", Level: referee.Caution, Remedy: "card-void"},
			{Code: "same-resource-trade", Section: "§7 ア", NameJA: "同じ資源を求める交渉", NameEN: "Offered and asked for the same resource", Level: referee.Caution, Remedy: "trade-void"},
			{Code: "late-resource-claim", Section: "§6 ア", NameJA: "手番終了後の資源の取り忘れ請求", NameEN: "Claimed forgotten resources after the turn", Level: referee.Caution, Remedy: "no-card"},
			{Code: "void-dice-roll", Section: "§6 ア", NameJA: "無効なダイス（傾き・飛び出し・フタ外れ）", NameEN: "Void dice roll (tilted, out of the capsule, lid off)", Level: referee.Caution, Remedy: "re-roll"},
			{Code: "act-after-signal", Section: "§12", NameJA: "終了の合図後の行動", NameEN: "Acted after the time signal", Level: referee.Caution, Remedy: "action-void"},
		},
	}
}

// The tests run on the shop's preset, so keep the copy above in step with the file.
func TestPlacePresetMatchesFile(t *testing.T) {
	data, err := os.ReadFile("../config/rulesets/proshop-2003.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Name            string                       `json:"name"`
		Version         string                       `json:"version"`
		GameMinutes     int                          `json:"game_minutes"`
		VPCap           int                          `json:"vp_cap"`
		WinVP           int                          `json:"win_vp"`
		Dango           referee.DangoPolicy          `json:"dango"`
		LongestRoadTie  referee.LongestRoadTiePolicy `json:"longest_road_tie"`
		BankShortage    referee.BankShortagePolicy   `json:"bank_shortage"`
		RobberOnDesert  bool                         `json:"robber_on_desert"`
		Colors          []referee.Color              `json:"colors"`
		Layout          referee.Layout               `json:"layout"`
		StandingsOrder  []referee.StandingsKey       `json:"standings_order"`
		PlacementPoints []int                        `json:"placement_points"`
		Bye             referee.Bye                  `json:"bye"`
		Ladder          []referee.Level              `json:"ladder"`
		EscalateFrom    referee.Level                `json:"escalate_from"`
		DeductVP        int                          `json:"deduct_vp"`
		Penalties       []struct {
			Code      string        `json:"code"`
			Section   string        `json:"section"`
			NameJA    string        `json:"name_ja"`
			NameEN    string        `json:"name_en"`
			Level     referee.Level `json:"level"`
			Remedy    string        `json:"remedy"`
			Escalates bool          `json:"escalates"`
		} `json:"penalties"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	file := referee.Ruleset{
		Name: f.Name, Version: f.Version, GameMinutes: f.GameMinutes, VPCap: f.VPCap, WinVP: f.WinVP,
		Dango: f.Dango, LongestRoadTie: f.LongestRoadTie, BankShortage: f.BankShortage, RobberOnDesert: f.RobberOnDesert,
		Colors: f.Colors, Layout: f.Layout, StandingsOrder: f.StandingsOrder, PlacementPoints: f.PlacementPoints,
		Bye: f.Bye, Ladder: f.Ladder, EscalateFrom: f.EscalateFrom, DeductVP: f.DeductVP,
	}
	for _, o := range f.Penalties {
		file.Penalties = append(file.Penalties, referee.Offence(o))
	}
	if diff := cmp.Diff(file, rulesPreset()); diff != "" {
		t.Errorf("rulesPreset() differs from proshop-2003.json (-file +preset):\n%s", diff)
	}
	if err := rulesPreset().Validate(); err != nil {
		t.Errorf("rulesPreset().Validate() = %v, want nil", err)
	}
}

// rulesScores builds a table p1, p2, ... with the given VP.
func rulesScores(vps ...int) []referee.Score {
	s := make([]referee.Score, len(vps))
	for i, vp := range vps {
		s[i] = referee.Score{Player: fmt.Sprintf("p%d", i+1), VP: vp}
	}
	return s
}

// rulesCheckError reports an error that does not wrap ErrInvalid, is not a
// *Violation the user interface can translate, or breaks the house style
// for messages.
func rulesCheckError(err error) error {
	if !errors.Is(err, referee.ErrInvalid) {
		return fmt.Errorf("error %q does not wrap ErrInvalid", err)
	}
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code == "" {
		return fmt.Errorf("error %q is not a *Violation with a code", err)
	}
	msg := err.Error()
	if strings.HasSuffix(msg, ".") || strings.ToLower(msg[:1]) != msg[:1] {
		return fmt.Errorf("error %q: want a lower-case message without a final period", msg)
	}
	return nil
}

func TestPlace(t *testing.T) {
	tests := []struct {
		name     string
		scores   []referee.Score
		declared string
		want     []referee.Placing
	}{
		{
			// docs/rules.md §12: 10, 8, 8, 5 with a declaration → 1st, 2nd, 2nd, 4th.
			name:     "rulings example with a declaration",
			scores:   rulesScores(10, 8, 8, 5),
			declared: "p1",
			want:     []referee.Placing{{"p1", 10, 1}, {"p2", 8, 2}, {"p3", 8, 2}, {"p4", 5, 4}},
		},
		{
			// docs/rules.md §12: without a declaration 9, 9, 7, 6 → 1st, 1st, 3rd, 4th.
			name:   "rulings example when time ended the game",
			scores: rulesScores(9, 9, 7, 6),
			want:   []referee.Placing{{"p1", 9, 1}, {"p2", 9, 1}, {"p3", 7, 3}, {"p4", 6, 4}},
		},
		{
			name:     "VP are recorded capped at 10",
			scores:   rulesScores(12, 11, 3, 2),
			declared: "p1",
			want:     []referee.Placing{{"p1", 10, 1}, {"p2", 10, 2}, {"p3", 3, 3}, {"p4", 2, 4}},
		},
		{
			name:     "a player with 10 VP outside their turn is placed behind the declared winner",
			scores:   rulesScores(10, 10, 10, 4),
			declared: "p2",
			want:     []referee.Placing{{"p2", 10, 1}, {"p1", 10, 2}, {"p3", 10, 2}, {"p4", 4, 4}},
		},
		{
			name:   "capped VP tie without a declaration",
			scores: rulesScores(13, 10, 2, 0),
			want:   []referee.Placing{{"p1", 10, 1}, {"p2", 10, 1}, {"p3", 2, 3}, {"p4", 0, 4}},
		},
		{
			name:   "all equal share 1st",
			scores: rulesScores(5, 5, 5, 5),
			want:   []referee.Placing{{"p1", 5, 1}, {"p2", 5, 1}, {"p3", 5, 1}, {"p4", 5, 1}},
		},
		{
			name:   "three-way tie below the top",
			scores: rulesScores(3, 7, 3, 3),
			want:   []referee.Placing{{"p2", 7, 1}, {"p1", 3, 2}, {"p3", 3, 2}, {"p4", 3, 2}},
		},
		{
			name:     "3-player table",
			scores:   rulesScores(4, 10, 4),
			declared: "p2",
			want:     []referee.Placing{{"p2", 10, 1}, {"p1", 4, 2}, {"p3", 4, 2}},
		},
		{
			name:   "by place, then in input order",
			scores: []referee.Score{{"d", 5}, {"a", 9}, {"c", 8}, {"b", 8}},
			want:   []referee.Placing{{"a", 9, 1}, {"c", 8, 2}, {"b", 8, 2}, {"d", 5, 4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.Place(rulesPreset(), tt.scores, tt.declared)
			if err != nil {
				t.Fatalf("Place(%v, %q) error = %v", tt.scores, tt.declared, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Place(%v, %q) = %v, want %v (-want +got):\n%s", tt.scores, tt.declared, got, tt.want, diff)
			}
		})
	}
}

func TestPlaceErrors(t *testing.T) {
	tests := []struct {
		name     string
		scores   []referee.Score
		declared string
		want     string // part of the message
	}{
		{"two players", rulesScores(5, 4), "", "table has 2 players"},
		{"five players", rulesScores(5, 4, 3, 2, 1), "", "table has 5 players"},
		{"no players", nil, "", "table has 0 players"},
		{"duplicate player", []referee.Score{{"a", 1}, {"b", 2}, {"a", 3}}, "", `"a" is listed twice`},
		{"empty player id", []referee.Score{{"a", 1}, {"", 2}, {"c", 3}}, "", "empty player id"},
		{"negative VP", rulesScores(5, -1, 3), "", `"p2" has negative VP -1`},
		{"declared winner not at the table", rulesScores(10, 4, 3), "x", `declared winner "x" is not at the table`},
		{"declared winner under 10 VP", rulesScores(9, 4, 3), "p1", `declared winner "p1" has 9 VP`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.Place(rulesPreset(), tt.scores, tt.declared)
			if err == nil {
				t.Fatalf("Place(%v, %q) = %v, want an error", tt.scores, tt.declared, got)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Place(%v, %q) error = %q, want it to mention %q", tt.scores, tt.declared, err, tt.want)
			}
		})
	}
}

// rulesCheckPlacings reports how placings fail to be the placings of scores
// (no penalties): every player once, VP capped, the declared winner alone
// 1st, every other place 1 + the players strictly ahead, sorted by place
// then input order.
func rulesCheckPlacings(rs referee.Ruleset, scores []referee.Score, declared string, got []referee.Placing) error {
	if len(got) != len(scores) {
		return fmt.Errorf("%d placings for %d players", len(got), len(scores))
	}
	input := func(p string) int {
		return slices.IndexFunc(scores, func(s referee.Score) bool { return s.Player == p })
	}
	for k, p := range got {
		i := input(p.Player)
		if i < 0 || slices.ContainsFunc(got[:k], func(q referee.Placing) bool { return q.Player == p.Player }) {
			return fmt.Errorf("player %q unknown or placed twice", p.Player)
		}
		if want := min(scores[i].VP, rs.VPCap); p.VP != want {
			return fmt.Errorf("%q records %d VP, want %d", p.Player, p.VP, want)
		}
		ahead := 0
		for _, q := range got {
			switch {
			case p.Player == declared:
			case q.Player == declared:
				ahead++
			case q.VP > p.VP:
				ahead++
			}
		}
		if p.Place != ahead+1 {
			return fmt.Errorf("%q has place %d with %d players ahead", p.Player, p.Place, ahead)
		}
		if k > 0 {
			prev := got[k-1]
			if prev.Place > p.Place || prev.Place == p.Place && input(prev.Player) > i {
				return fmt.Errorf("%q listed after %q: want order by place, then input order", p.Player, prev.Player)
			}
		}
	}
	return nil
}

func TestPlaceProperties(t *testing.T) {
	rs := rulesPreset()
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		scores := rulesScores(make([]int, 3+r.IntN(2))...)
		for i := range scores {
			scores[i].VP = r.IntN(14)
		}
		declared := ""
		if i := r.IntN(len(scores) + 1); i < len(scores) && scores[i].VP >= rs.WinVP {
			declared = scores[i].Player
		}
		got, err := referee.Place(rs, scores, declared)
		if err != nil {
			t.Fatalf("Place(%v, %q) error = %v", scores, declared, err)
		}
		if err := rulesCheckPlacings(rs, scores, declared, got); err != nil {
			t.Fatalf("Place(%v, %q) = %v: %v", scores, declared, got, err)
		}
	}
}

func FuzzPlace(f *testing.F) {
	f.Add(true, 10, 8, 8, 5, uint8(0), "p4")
	f.Add(true, 9, 9, 7, 6, uint8(4), "p4")
	f.Add(false, 11, 3, -1, 0, uint8(1), "")
	f.Add(true, 1, 2, 3, 4, uint8(5), "p1")
	f.Fuzz(func(t *testing.T, four bool, a, b, c, d int, decl uint8, id4 string) {
		rs := rulesPreset()
		scores := []referee.Score{{"p1", a}, {"p2", b}, {"p3", c}}
		if four {
			scores = append(scores, referee.Score{Player: id4, VP: d})
		}
		declared := ""
		switch i := int(decl % 6); {
		case i < len(scores):
			declared = scores[i].Player
		case i == 5:
			declared = "nobody"
		}
		wantErr := declared == "nobody" || four && (id4 == "" || slices.Contains([]string{"p1", "p2", "p3"}, id4))
		extra := 0
		for _, s := range scores {
			wantErr = wantErr || s.VP < 0 || s.VP > referee.MaxVP || s.Player == declared && s.VP < rs.WinVP
			extra += max(s.VP-13, 0)
		}
		// docs/rules.md §12: the VP above 13 of a table's players add up to at most 9.
		wantErr = wantErr || extra > 9
		got, err := referee.Place(rs, scores, declared)
		if err != nil {
			if !wantErr {
				t.Fatalf("Place(%v, %q) error = %v, want placings", scores, declared, err)
			}
			if err := rulesCheckError(err); err != nil {
				t.Fatal(err)
			}
			return
		}
		if wantErr {
			t.Fatalf("Place(%v, %q) = %v, want an error", scores, declared, got)
		}
		if err := rulesCheckPlacings(rs, scores, declared, got); err != nil {
			t.Fatalf("Place(%v, %q) = %v: %v", scores, declared, got, err)
		}
	})
}

// A score sheet above what the pieces allow is a typo, not a capped 10.
func TestPlaceRefusesImpossibleVP(t *testing.T) {
	rs := rulesPreset()
	scores := []referee.Score{{Player: "a", VP: 80}, {Player: "b", VP: 7}, {Player: "c", VP: 6}}
	_, err := referee.Place(rs, scores, "")
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "vp-impossible" {
		t.Errorf("Place(%v) error = %v, want a vp-impossible violation", scores, err)
	}
	scores[0].VP = referee.MaxVP
	got, err := referee.Place(rs, scores, "a")
	if err != nil || got[0].VP != rs.VPCap {
		t.Errorf("Place(%v) = %v, %v; want %d VP recorded as %d", scores, got, err, referee.MaxVP, rs.VPCap)
	}
}

// docs/rules.md §12: a player's buildings give at most 13 VP, and the cards at
// most 9 VP to the whole table, so the VP a table reports above 13 each add
// up to at most 9. The table: four players with 22 VP and a declarer.
func TestPlaceRefusesImpossibleTable(t *testing.T) {
	rs := rulesPreset()
	tests := []struct {
		name   string
		vp     []int
		wantOK bool
	}{
		{"four at 22", []int{22, 22, 22, 22}, false},
		{"one at 22 holds every card", []int{22, 13, 13, 13}, true},
		{"one card point too many", []int{22, 14, 5, 5}, false},
		{"cards shared out", []int{16, 16, 16, 13}, true},
		{"shared out one too many", []int{17, 16, 16, 13}, false},
		{"three players", []int{18, 18, 3}, false},
		{"nothing above buildings", []int{13, 13, 13, 13}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var scores []referee.Score
			for i, vp := range tt.vp {
				scores = append(scores, referee.Score{Player: fmt.Sprintf("p%d", i+1), VP: vp})
			}
			got, err := referee.Place(rs, scores, "p1")
			if tt.wantOK {
				if err != nil {
					t.Errorf("Place(%v) error = %v, want placings", tt.vp, err)
				}
				return
			}
			var v *referee.Violation
			if !errors.As(err, &v) || v.Code != "table-vp-impossible" || !errors.Is(err, referee.ErrInvalid) {
				t.Fatalf("Place(%v) = %v, %v; want a table-vp-impossible violation", tt.vp, got, err)
			}
			if v.Args["Max"] != 9 || v.Args["Buildings"] != 13 {
				t.Errorf("violation args = %v, want Max 9 and Buildings 13", v.Args)
			}
		})
	}
}
