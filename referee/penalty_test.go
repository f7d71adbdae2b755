package referee_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

func TestLevelNames(t *testing.T) {
	tests := []struct {
		level  referee.Level
		ja, en string
	}{
		{referee.Caution, "注意", "Caution"},
		{referee.Warning, "警告", "Warning"},
		{referee.VPDeduction, "勝利点減点", "VP deduction"},
		{referee.GameLoss, "敗北", "Game loss"},
		{referee.Disqualification, "失格", "Disqualification"},
		{"reprimand", "reprimand", "reprimand"},
	}
	for _, tt := range tests {
		t.Run(string(tt.level), func(t *testing.T) {
			if got := tt.level.NameJA(); got != tt.ja {
				t.Errorf("Level(%q).NameJA() = %q, want %q", tt.level, got, tt.ja)
			}
			if got := tt.level.NameEN(); got != tt.en {
				t.Errorf("Level(%q).NameEN() = %q, want %q", tt.level, got, tt.en)
			}
		})
	}
	for _, l := range referee.Levels {
		if l.NameJA() == string(l) || l.NameEN() == string(l) {
			t.Errorf("level %q has no display name", l)
		}
	}
}

func TestSuggestLevel(t *testing.T) {
	const (
		c  = referee.Caution
		w  = referee.Warning
		vp = referee.VPDeduction
		gl = referee.GameLoss
		dq = referee.Disqualification
	)
	tests := []struct {
		offence string
		earlier []referee.Level
		want    referee.Level
	}{
		{"shamisen", nil, w},
		// docs/rules.md: the second warning for the same offence becomes the next level.
		{"shamisen", []referee.Level{w}, vp},
		{"shamisen", []referee.Level{w, vp}, gl},
		{"shamisen", []referee.Level{w, vp, gl}, dq},
		{"shamisen", []referee.Level{w, vp, gl, dq}, dq},
		// docs/rules.md: one above the highest level reached, even when the
		// judge gave less since (a warning after a VP deduction is a game loss).
		{"shamisen", []referee.Level{vp, c}, gl},
		{"shamisen", []referee.Level{vp, w}, gl},
		{"note-taking", []referee.Level{gl}, dq},
		// A second caution becomes a warning: cautions escalate too.
		{"card-handling", nil, c},
		{"card-handling", []referee.Level{c}, w},
		{"needless-talk", []referee.Level{c, c}, w},
		{"card-handling", []referee.Level{c, w}, vp},
		{"ignored-judge", nil, gl},
		{"ignored-judge", []referee.Level{gl}, dq},
		// Procedural errors with a fixed remedy never escalate.
		{"card-on-purchase-turn", []referee.Level{c, c}, c},
		{"void-dice-roll", []referee.Level{w, vp}, c},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s after %v", tt.offence, tt.earlier), func(t *testing.T) {
			got, err := referee.SuggestLevel(rulesPreset(), tt.offence, tt.earlier)
			if err != nil || got != tt.want {
				t.Errorf("SuggestLevel(%q, %v) = %q, %v, want %q", tt.offence, tt.earlier, got, err, tt.want)
			}
		})
	}
}

func TestEscalateLevel(t *testing.T) {
	preset := rulesPreset()
	fromCaution := rulesPreset()
	fromCaution.EscalateFrom = referee.Caution
	fromWarning := rulesPreset()
	fromWarning.EscalateFrom = referee.Warning
	short := rulesPreset()
	short.Ladder = []referee.Level{referee.Caution, referee.Warning, referee.GameLoss, referee.Disqualification}
	shamisen, _ := preset.Offence("shamisen")
	handling, _ := preset.Offence("card-handling")
	trade, _ := preset.Offence("same-resource-trade")
	tests := []struct {
		name    string
		rs      referee.Ruleset
		o       referee.Offence
		start   referee.Level
		earlier []referee.Level
		want    referee.Level
	}{
		{"a judge's higher start stands", preset, shamisen, referee.GameLoss, []referee.Level{referee.Warning}, referee.GameLoss},
		{"a judge's lower start still escalates", preset, shamisen, referee.Caution, []referee.Level{referee.Warning}, referee.VPDeduction},
		{"a judge's start on a first offence", preset, handling, referee.Warning, nil, referee.Warning},
		{"escalating from caution", fromCaution, handling, referee.Caution, []referee.Level{referee.Caution}, referee.Warning},
		{"the preset escalates from caution", preset, handling, referee.Caution, []referee.Level{referee.Caution}, referee.Warning},
		{"a ruleset escalating from warning repeats cautions", fromWarning, handling, referee.Caution, []referee.Level{referee.Caution, referee.Caution}, referee.Caution},
		{"the highest earlier level decides", preset, shamisen, referee.Warning, []referee.Level{referee.GameLoss, referee.Caution}, referee.Disqualification},
		{"a ladder without VP deduction", short, shamisen, referee.Warning, []referee.Level{referee.Warning}, referee.GameLoss},
		{"a fixed remedy keeps the judge's level", fromCaution, trade, referee.Warning, []referee.Level{referee.GameLoss}, referee.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.Escalate(tt.rs, tt.o, tt.start, tt.earlier)
			if err != nil || got != tt.want {
				t.Errorf("Escalate(%q, %q, %v) = %q, %v, want %q", tt.o.Code, tt.start, tt.earlier, got, err, tt.want)
			}
		})
	}
}

// Suggest says how it reached its level, for the penalty page: "2回目:
// 前回の最高 注意 → 警告".
func TestSuggestExplains(t *testing.T) {
	const (
		c  = referee.Caution
		w  = referee.Warning
		vp = referee.VPDeduction
		gl = referee.GameLoss
	)
	tests := []struct {
		offence string
		earlier []referee.Level
		want    referee.Suggestion
	}{
		{"needless-talk", nil, referee.Suggestion{Level: c, Start: c, Nth: 1, Why: referee.SuggestFirst}},
		{"needless-talk", []referee.Level{c}, referee.Suggestion{Level: w, Start: c, Nth: 2, Highest: c, Escalated: true, Why: referee.SuggestEscalated}},
		{"needless-talk", []referee.Level{c, w}, referee.Suggestion{Level: vp, Start: c, Nth: 3, Highest: w, Escalated: true, Why: referee.SuggestEscalated}},
		{"shamisen", []referee.Level{vp, w}, referee.Suggestion{Level: gl, Start: w, Nth: 3, Highest: vp, Escalated: true, Why: referee.SuggestEscalated}},
		{"ignored-judge", []referee.Level{c}, referee.Suggestion{Level: gl, Start: gl, Nth: 2, Highest: c, Why: referee.SuggestRepeat}},
		{"void-dice-roll", []referee.Level{c, c}, referee.Suggestion{Level: c, Start: c, Nth: 3, Highest: c, Why: referee.SuggestFixed}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s after %v", tt.offence, tt.earlier), func(t *testing.T) {
			got, err := referee.Suggest(rulesPreset(), tt.offence, tt.earlier)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Suggest(%q, %v) (-want +got):\n%s", tt.offence, tt.earlier, diff)
			}
		})
	}
}

func TestSuggestLevelErrors(t *testing.T) {
	short := rulesPreset()
	short.Ladder = []referee.Level{referee.Caution, referee.Warning, referee.GameLoss, referee.Disqualification}
	short.Penalties[0].Level = referee.VPDeduction // card-handling
	noFrom := rulesPreset()
	noFrom.EscalateFrom = ""
	tests := []struct {
		name    string
		rs      referee.Ruleset
		offence string
		earlier []referee.Level
		want    string
	}{
		{"unknown offence", rulesPreset(), "cheating", nil, `unknown offence "cheating"`},
		{"earlier level not on the ladder", rulesPreset(), "shamisen", []referee.Level{"reprimand"}, `penalty level "reprimand" is not on the ruleset's ladder`},
		{"default level not on the ladder", short, "card-handling", nil, `"vp_deduction" is not on the ruleset's ladder`},
		{"earlier level removed from the ladder", short, "shamisen", []referee.Level{referee.VPDeduction}, `"vp_deduction" is not on the ruleset's ladder`},
		{"escalate_from not on the ladder", noFrom, "shamisen", []referee.Level{referee.Warning}, "escalate_from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.SuggestLevel(tt.rs, tt.offence, tt.earlier)
			if err == nil {
				t.Fatalf("SuggestLevel(%q, %v) = %q, want an error", tt.offence, tt.earlier, got)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("SuggestLevel(%q, %v) error = %q, want it to mention %q", tt.offence, tt.earlier, err, tt.want)
			}
		})
	}
}

func TestPlaceWithPenalties(t *testing.T) {
	s := func(player string, l referee.Level) referee.Sanction {
		return referee.Sanction{Player: player, Level: l}
	}
	tests := []struct {
		name      string
		scores    []referee.Score
		declared  string
		sanctions []referee.Sanction
		want      []referee.Placing
	}{
		{
			name:      "caution and warning change nothing",
			scores:    rulesScores(10, 8, 8, 5),
			declared:  "p1",
			sanctions: []referee.Sanction{s("p1", referee.Caution), s("p2", referee.Warning), s("p4", referee.Warning)},
			want:      []referee.Placing{{"p1", 10, 1}, {"p2", 8, 2}, {"p3", 8, 2}, {"p4", 5, 4}},
		},
		{
			name:      "a VP deduction takes 2 off before placing",
			scores:    rulesScores(9, 8, 7, 5),
			sanctions: []referee.Sanction{s("p1", referee.VPDeduction)},
			want:      []referee.Placing{{"p2", 8, 1}, {"p1", 7, 2}, {"p3", 7, 2}, {"p4", 5, 4}},
		},
		{
			name:      "a VP deduction applies after the cap",
			scores:    rulesScores(12, 9, 7, 5),
			sanctions: []referee.Sanction{s("p1", referee.VPDeduction)},
			want:      []referee.Placing{{"p2", 9, 1}, {"p1", 8, 2}, {"p3", 7, 3}, {"p4", 5, 4}},
		},
		{
			name:      "VP deductions add up and stop at 0",
			scores:    rulesScores(9, 8, 7, 1),
			sanctions: []referee.Sanction{s("p2", referee.VPDeduction), s("p2", referee.VPDeduction), s("p4", referee.VPDeduction)},
			want:      []referee.Placing{{"p1", 9, 1}, {"p3", 7, 2}, {"p2", 4, 3}, {"p4", 0, 4}},
		},
		{
			name:      "a declared winner keeps 1st after a VP deduction",
			scores:    rulesScores(10, 9, 7, 1),
			declared:  "p1",
			sanctions: []referee.Sanction{s("p1", referee.VPDeduction)},
			want:      []referee.Placing{{"p1", 8, 1}, {"p2", 9, 2}, {"p3", 7, 3}, {"p4", 1, 4}},
		},
		{
			name:      "a game loss is last with 0 VP, behind players with 0 VP",
			scores:    rulesScores(9, 0, 7, 0),
			sanctions: []referee.Sanction{s("p1", referee.GameLoss)},
			want:      []referee.Placing{{"p3", 7, 1}, {"p2", 0, 2}, {"p4", 0, 2}, {"p1", 0, 4}},
		},
		{
			name:      "two game losses share last place",
			scores:    rulesScores(9, 8, 7, 6),
			sanctions: []referee.Sanction{s("p3", referee.GameLoss), s("p1", referee.GameLoss)},
			want:      []referee.Placing{{"p2", 8, 1}, {"p4", 6, 2}, {"p1", 0, 4}, {"p3", 0, 4}},
		},
		{
			name:      "a declared winner with a game loss is not 1st",
			scores:    rulesScores(10, 8, 8, 5),
			declared:  "p1",
			sanctions: []referee.Sanction{s("p1", referee.GameLoss)},
			want:      []referee.Placing{{"p2", 8, 1}, {"p3", 8, 1}, {"p4", 5, 3}, {"p1", 0, 4}},
		},
		{
			name:      "a disqualification loses the game",
			scores:    rulesScores(10, 8, 6),
			declared:  "p1",
			sanctions: []referee.Sanction{s("p1", referee.Caution), s("p1", referee.Disqualification)},
			want:      []referee.Placing{{"p2", 8, 1}, {"p3", 6, 2}, {"p1", 0, 3}},
		},
		{
			name:      "a game loss outweighs a VP deduction",
			scores:    rulesScores(9, 8, 7, 6),
			sanctions: []referee.Sanction{s("p4", referee.VPDeduction), s("p4", referee.GameLoss), s("p1", referee.VPDeduction)},
			want:      []referee.Placing{{"p2", 8, 1}, {"p1", 7, 2}, {"p3", 7, 2}, {"p4", 0, 4}},
		},
		{
			name:      "when every player loses the game they all share last place and nobody is 1st",
			scores:    rulesScores(9, 8, 7),
			sanctions: []referee.Sanction{s("p1", referee.GameLoss), s("p2", referee.GameLoss), s("p3", referee.Disqualification)},
			want:      []referee.Placing{{"p1", 0, 3}, {"p2", 0, 3}, {"p3", 0, 3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.PlaceWithPenalties(rulesPreset(), tt.scores, tt.declared, tt.sanctions)
			if err != nil {
				t.Fatalf("PlaceWithPenalties(%v, %q, %v) error = %v", tt.scores, tt.declared, tt.sanctions, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PlaceWithPenalties(%v, %q, %v) = %v, want %v (-want +got):\n%s", tt.scores, tt.declared, tt.sanctions, got, tt.want, diff)
			}
		})
	}
}

func TestPlaceWithPenaltiesErrors(t *testing.T) {
	tests := []struct {
		name      string
		scores    []referee.Score
		declared  string
		sanctions []referee.Sanction
		want      string
	}{
		{"penalty for a player not at the table", rulesScores(5, 4, 3), "", []referee.Sanction{{"x", referee.Warning}}, `penalty for "x", who is not at the table`},
		{"unknown level", rulesScores(5, 4, 3), "", []referee.Sanction{{"p1", "reprimand"}}, `unknown penalty level "reprimand" for "p1"`},
		{"a bad table", rulesScores(5, 4), "", nil, "table has 2 players"},
		{"a declared winner under 10 VP", rulesScores(9, 4, 3), "p1", []referee.Sanction{{"p1", referee.GameLoss}}, `"p1" has 9 VP`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.PlaceWithPenalties(rulesPreset(), tt.scores, tt.declared, tt.sanctions)
			if err == nil {
				t.Fatalf("PlaceWithPenalties(%v, %q, %v) = %v, want an error", tt.scores, tt.declared, tt.sanctions, got)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("PlaceWithPenalties(%v, %q, %v) error = %q, want it to mention %q", tt.scores, tt.declared, tt.sanctions, err, tt.want)
			}
		})
	}
}

// Penalised placings are still a competition ranking: the declared winner
// (unless they lost the game) first, players who lost the game last with
// 0 VP, everyone else by recorded VP.
func TestPlaceWithPenaltiesProperties(t *testing.T) {
	rs := rulesPreset()
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		scores := rulesScores(make([]int, 3+r.IntN(2))...)
		for i := range scores {
			scores[i].VP = r.IntN(14)
		}
		declared := ""
		if i := r.IntN(len(scores) + 1); i < len(scores) && scores[i].VP >= rs.WinVP {
			declared = scores[i].Player
		}
		var sanctions []referee.Sanction
		for range r.IntN(4) {
			sanctions = append(sanctions, referee.Sanction{Player: scores[r.IntN(len(scores))].Player, Level: referee.Levels[r.IntN(len(referee.Levels))]})
		}
		got, err := referee.PlaceWithPenalties(rs, scores, declared, sanctions)
		if err != nil {
			t.Fatalf("PlaceWithPenalties(%v, %q, %v) error = %v", scores, declared, sanctions, err)
		}
		lost := func(p string) bool {
			return slices.ContainsFunc(sanctions, func(s referee.Sanction) bool {
				return s.Player == p && (s.Level == referee.GameLoss || s.Level == referee.Disqualification)
			})
		}
		if lost(declared) {
			declared = ""
		}
		for _, p := range got {
			i := slices.IndexFunc(scores, func(s referee.Score) bool { return s.Player == p.Player })
			want := min(scores[i].VP, rs.VPCap)
			for _, s := range sanctions {
				if s.Player == p.Player && s.Level == referee.VPDeduction {
					want -= rs.DeductVP
				}
			}
			if want = max(want, 0); lost(p.Player) {
				want = 0
			}
			if p.VP != want {
				t.Fatalf("PlaceWithPenalties(%v, %q, %v) = %v: %q records %d VP, want %d", scores, declared, sanctions, got, p.Player, p.VP, want)
			}
			// A game loss is the table's last place, shared by every loser.
			if lost(p.Player) {
				if p.Place != len(scores) {
					t.Fatalf("PlaceWithPenalties(%v, %q, %v) = %v: %q lost the game but has place %d, want %d", scores, declared, sanctions, got, p.Player, p.Place, len(scores))
				}
				continue
			}
			ahead := 0
			for _, q := range got {
				switch {
				case lost(q.Player), p.Player == declared:
				case q.Player == declared, q.VP > p.VP:
					ahead++
				}
			}
			if p.Place != ahead+1 {
				t.Fatalf("PlaceWithPenalties(%v, %q, %v) = %v: %q has place %d with %d ahead", scores, declared, sanctions, got, p.Player, p.Place, ahead)
			}
		}
	}
}

// A repeat below the ruleset's EscalateFrom keeps its default level, and
// says so; a level off the ladder is refused by code.
func TestSuggestBelowEscalateFromAndCheckLevel(t *testing.T) {
	rs := rulesPreset()
	rs.EscalateFrom = referee.Warning
	got, err := referee.Suggest(rs, "needless-talk", []referee.Level{referee.Caution})
	if err != nil || got.Level != referee.Caution || got.Why != referee.SuggestBelow {
		t.Errorf("Suggest(a second caution, escalating from warnings) = %+v, %v, want a caution, below", got, err)
	}
	if err := referee.CheckLevel(rs, referee.Warning); err != nil {
		t.Errorf("CheckLevel(warning) = %v", err)
	}
	var v *referee.Violation
	if err := referee.CheckLevel(rs, "reprimand"); !errors.As(err, &v) || v.Code != "level-off-ladder" {
		t.Errorf("CheckLevel(reprimand) = %v, want the violation level-off-ladder", err)
	}
}
