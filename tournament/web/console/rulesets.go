package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// rulesetsPage is the view model of the console's one ruleset page: the
// server's rulesets side by side, one row per setting, each value said in
// words from the ruleset's data, then every setting as the ruleset file
// names it. Each setting says who applies it: the tournament software, or
// (the in-game settings) the rules engine when it checks play. Reached from
// a tournament (/judge/t/:id/ruleset), the page puts the tournament's own
// copy of its ruleset first and shows its penalty catalogue.
type rulesetsPage struct {
	render.Page
	Copy     *rulesetHead // the tournament's copy; nil at /judge/rulesets
	Rulesets []rulesetHead
	Rows     []rulesetRow
	Keys     []rulesetRow // every setting, as the ruleset file names it
	Offences []offenceOption
}

type rulesetHead struct {
	Name, Version, Description string
	Copy                       bool // the tournament's copy
}

type rulesetRow struct {
	Key     string // names the row
	Fields  string // the settings it shows, as the ruleset file names them
	Label   string
	Values  []string // by ruleset, in Rulesets order
	Differs bool     // the rulesets do not all agree
	InGame  bool     // the rules engine applies it to play; the score sheets do not read it
}

// ShowRulesets compares the server's rulesets.
func (s *Pages) ShowRulesets(c *gin.Context) (render.Result, error) {
	vm := s.newRulesetsPage(c, nil, s.rulesets.All())
	var err error
	if vm.Page, err = s.hallPage(c, "page.rulesets", nil); err != nil {
		return render.Result{}, err
	}
	return render.Show("rulesets", vm), nil
}

// ShowTournamentRuleset shows the copy of its ruleset a tournament runs
// under, beside the server's rulesets, with its penalty catalogue.
func (s *Pages) ShowTournamentRuleset(c *gin.Context) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		return render.Result{}, err
	}
	rs := t.Ruleset
	vm := s.newRulesetsPage(c, &rs, s.rulesets.All())
	vm.Page = s.pages.Page(c, "page.ruleset", map[string]any{"Name": rs.Name})
	vm.Nav = nav
	vm.Offences = s.offenceOptions(s.i18n.Lang(c), rs)
	return render.Show("rulesets", vm), nil
}

// newRulesetsPage sets rulesets side by side, after own (a tournament's
// copy) when not nil.
func (s *Pages) newRulesetsPage(c *gin.Context, own *referee.Ruleset, rulesets []referee.Ruleset) rulesetsPage {
	lang := s.i18n.Lang(c)
	var vm rulesetsPage
	all := rulesets
	if own != nil {
		all = append([]referee.Ruleset{*own}, rulesets...)
	}
	for i, rs := range all {
		vm.Rulesets = append(vm.Rulesets, rulesetHead{Name: rs.Name, Version: rs.Version, Description: rs.Description, Copy: own != nil && i == 0})
	}
	if own != nil {
		vm.Copy = &vm.Rulesets[0]
	}
	differs := func(row *rulesetRow) {
		for _, v := range row.Values {
			row.Differs = row.Differs || v != row.Values[0]
		}
	}
	for _, setting := range s.rulesetSettings(lang) {
		if setting.fields == nil {
			setting.fields = []string{setting.key}
		}
		row := rulesetRow{Key: setting.key, Fields: strings.Join(setting.fields, " · "), Label: s.i18n.Text(lang, "rulesets.row."+setting.key, nil),
			InGame: !slices.ContainsFunc(setting.fields, func(f string) bool { return !slices.Contains(referee.InGameSettings, f) })}
		for _, rs := range all {
			row.Values = append(row.Values, setting.say(rs.WithDefaults()))
		}
		differs(&row)
		vm.Rows = append(vm.Rows, row)
	}
	// Every setting by its key, in the ruleset file's order; a setting only
	// some rulesets have (a spiral's corners) is blank for the others.
	index := map[string]int{}
	for i, rs := range all {
		for _, st := range export.RulesetSettings(rs.WithDefaults(), lang) {
			j, ok := index[st.Key]
			if !ok {
				j = len(vm.Keys)
				index[st.Key] = j
				vm.Keys = append(vm.Keys, rulesetRow{Key: st.Key, Fields: st.Key, Label: st.Label, Values: make([]string, len(all)),
					InGame: slices.Contains(referee.InGameSettings, st.Key)})
			}
			vm.Keys[j].Values[i] = fmt.Sprint(st.Value)
		}
	}
	for i := range vm.Keys {
		differs(&vm.Keys[i])
	}
	return vm
}

// rulesetSetting says one setting of a ruleset in words.
type rulesetSetting struct {
	key    string
	fields []string // the ruleset file's settings it says; key when nil
	say    func(referee.Ruleset) string
}

// rulesetSettings lists the settings the rulesets page compares, in the
// order a judge meets them at a table.
func (s *Pages) rulesetSettings(lang string) []rulesetSetting {
	text := func(id string, data map[string]any) string { return s.i18n.Text(lang, id, data) }
	return []rulesetSetting{
		{"board.method", nil, func(rs referee.Ruleset) string { return text("rulesets.board."+string(rs.Board.Method), nil) }},
		{"board.corners", nil, func(rs referee.Ruleset) string { return s.cornersText(lang, rs) }},
		{"board.chips", nil, func(rs referee.Ruleset) string {
			if rs.Board.Method != referee.SpiralBoard {
				return text("rulesets.chips_shuffled", nil)
			}
			var parts []string
			for i, n := range rs.Board.Chips {
				parts = append(parts, string(rune('A'+i))+strconv.Itoa(n))
			}
			return strings.Join(parts, " ")
		}},
		{"dango", nil, func(rs referee.Ruleset) string { return text("rulesets.dango."+string(rs.Dango), nil) }},
		{"time", []string{"game_minutes", "time.placement_seconds_per_settlement"}, func(rs referee.Ruleset) string {
			if rs.Timing.PlacementSeconds == 0 {
				return text("rulesets.time_play", map[string]any{"Minutes": rs.GameMinutes})
			}
			tm := rs.Timing
			return text("rulesets.time_phases", map[string]any{
				"Pace": s.durationText(lang, tm.PlacementSeconds), "Four": s.durationText(lang, tm.PlacementFor(4)),
				"Three": s.durationText(lang, tm.PlacementFor(3)), "Minutes": rs.GameMinutes,
			})
		}},
		{"time.final_turn_seconds", []string{"time.final_turn_seconds", "time.end_notice_minutes"}, func(rs referee.Ruleset) string {
			if rs.Timing.FinalTurnSeconds == 0 {
				return text("rulesets.turn_limit_none", nil)
			}
			return text("rulesets.turn_limit", map[string]any{"Turn": s.durationText(lang, rs.Timing.FinalTurnSeconds), "Notice": rs.Timing.EndNoticeMinutes})
		}},
		{"vp", []string{"win_vp", "vp_cap"}, func(rs referee.Ruleset) string {
			return text("rulesets.vp", map[string]any{"Win": rs.WinVP, "Cap": rs.VPCap})
		}},
		{"longest_road_tie", nil, func(rs referee.Ruleset) string { return text("rulesets.longest."+string(rs.LongestRoadTie), nil) }},
		{"bank_shortage", nil, func(rs referee.Ruleset) string { return text("rulesets.bank."+string(rs.BankShortage), nil) }},
		{"robber_on_desert", nil, func(rs referee.Ruleset) string {
			return text("rulesets.robber."+strconv.FormatBool(rs.RobberOnDesert), nil)
		}},
		{"require_breakdown", nil, func(rs referee.Ruleset) string {
			return text("rulesets.breakdown."+strconv.FormatBool(rs.RequireBreakdown), nil)
		}},
		{"standings_order", nil, func(rs referee.Ruleset) string {
			var keys []string
			for _, k := range rs.StandingsOrder {
				keys = append(keys, text("standings.key_"+string(k), nil))
			}
			return strings.Join(keys, " → ")
		}},
		{"event.rounds", nil, func(rs referee.Ruleset) string { return s.roundFormatsText(lang, rs.Event.Rounds) }},
		{"event.final", []string{"event.final", "event.cut"}, func(rs referee.Ruleset) string {
			if rs.Event.Final != referee.TopCut {
				return text("rulesets.final."+string(rs.Event.Final), nil)
			}
			stages := rs.Event.Stages()
			if len(stages) == 1 {
				return text("rulesets.final.cut", map[string]any{"N": stages[0].Players})
			}
			parts := []string{text("rulesets.final.stage_first", map[string]any{"N": stages[0].Players})}
			for _, st := range stages[:len(stages)-1] {
				parts = append(parts, text("rulesets.final.stage_next", map[string]any{"Tables": st.Tables, "Each": st.Advance}))
			}
			return strings.Join(parts, " → ") + " → " + text("rulesets.final.stage_last", nil)
		}},
		{"event.final_ties", nil, func(rs referee.Ruleset) string { return text("rulesets.final_ties."+string(rs.Event.FinalTies), nil) }},
		{"disqualification", nil, func(rs referee.Ruleset) string { return text("dq.effect."+string(rs.Disqualification), nil) }},
		// Late entries, substitutes and no-shows (late.go).
		{"late_entry", []string{"late_entry.join", "late_entry.missed"}, func(rs referee.Ruleset) string {
			rs = rs.WithDefaults()
			return text("late.join."+string(rs.LateEntry.Join), nil) + " / " + text("late.missed."+string(rs.LateEntry.Missed), nil)
		}},
		{"substitutes", []string{"substitutes.count", "substitutes.place", "substitutes.vp"}, func(rs referee.Ruleset) string {
			sb := rs.WithDefaults().Substitutes
			return text("late.sub_count."+string(sb.Count), map[string]any{"Place": sb.Place, "VP": sb.VP})
		}},
		{"no_show", nil, func(rs referee.Ruleset) string { return text("late.missed."+string(rs.WithDefaults().NoShow), nil) }},
		{"event.schedule_priority", nil, func(rs referee.Ruleset) string {
			return text("rulesets.schedule_priority."+string(rs.Event.SchedulePriority), nil)
		}},
		{"penalties", []string{"penalties", "ladder"}, func(rs referee.Ruleset) string {
			var ladder []string
			for _, l := range rs.Ladder {
				name := l.NameJA()
				if lang == "en" {
					name = l.NameEN()
				}
				ladder = append(ladder, name)
			}
			return text("rulesets.penalties", map[string]any{"N": len(rs.Penalties), "Ladder": strings.Join(ladder, " → ")})
		}},
	}
}

// cornersText says which corner each number of the die names, for a
// spiral board: "1 北西 · 2 北東 · ...".
func (s *Pages) cornersText(lang string, rs referee.Ruleset) string {
	if rs.Board.Method != referee.SpiralBoard {
		return s.i18n.Text(lang, "rulesets.none", nil)
	}
	var parts []string
	for i, c := range rs.Board.Corners {
		parts = append(parts, fmt.Sprintf("%d %s", i+1, s.i18n.Text(lang, "rulesets.corner."+string(c), nil)))
	}
	return strings.Join(parts, " · ")
}

// roundFormatsText says how each round is drawn: each run of one format
// from its first round, the last format for every round after.
func (s *Pages) roundFormatsText(lang string, rounds []referee.RoundFormat) string {
	var parts []string
	for i := 0; i < len(rounds); {
		j := i
		for j+1 < len(rounds) && rounds[j+1] == rounds[i] {
			j++
		}
		format := s.i18n.Text(lang, "rulesets.round."+string(rounds[i]), nil)
		switch {
		case j == len(rounds)-1:
			parts = append(parts, s.i18n.Text(lang, "rulesets.rounds_from", map[string]any{"N": i + 1, "Format": format}))
		case i == j:
			parts = append(parts, s.i18n.Text(lang, "rulesets.rounds_one", map[string]any{"N": i + 1, "Format": format}))
		default:
			parts = append(parts, s.i18n.Text(lang, "rulesets.rounds_span", map[string]any{"N": i + 1, "M": j + 1, "Format": format}))
		}
		i = j + 1
	}
	return strings.Join(parts, " · ")
}

// durationText says a number of seconds in minutes and seconds.
func (s *Pages) durationText(lang string, sec int) string {
	switch {
	case sec%60 == 0:
		return s.i18n.Text(lang, "duration.minutes", map[string]any{"M": sec / 60})
	case sec < 60:
		return s.i18n.Text(lang, "duration.seconds", map[string]any{"S": sec})
	}
	return s.i18n.Text(lang, "duration.minutes_seconds", map[string]any{"M": sec / 60, "S": sec % 60})
}
