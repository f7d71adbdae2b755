package web

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/export"
)

type rulesetSummary struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type levelJSON struct {
	ID     string `json:"id"`
	NameJA string `json:"name_ja"`
	NameEN string `json:"name_en"`
}

type rulesetJSON struct {
	config.RulesetFile
	Levels []levelJSON `json:"levels"`
	// InGame names the settings only the in-game rules apply, which the
	// tournament software records but does not read (config.InGameSettings).
	InGame []string `json:"in_game_settings"`
}

func (s *Server) listRulesets(c *gin.Context) (int, any, error) {
	all := s.deps.Rulesets.All()
	out := make([]rulesetSummary, len(all))
	for i, rs := range all {
		out[i] = rulesetSummary{Name: rs.Name, Version: rs.Version}
	}
	return http.StatusOK, gin.H{"rulesets": out, "default": s.deps.DefaultRuleset}, nil
}

func (s *Server) showRuleset(c *gin.Context) (int, any, error) {
	rs, err := s.ruleset(c.Param("name"))
	if err != nil {
		return 0, nil, err
	}
	out := rulesetJSON{RulesetFile: config.FileOf(rs), InGame: config.InGameSettings}
	for _, l := range rs.Ladder {
		out.Levels = append(out.Levels, levelJSON{ID: string(l), NameJA: l.NameJA(), NameEN: l.NameEN()})
	}
	return http.StatusOK, out, nil
}

// ruleset returns the named ruleset, or the default one for "".
func (s *Server) ruleset(name string) (referee.Ruleset, error) {
	if name == "" {
		name = s.deps.DefaultRuleset
	}
	rs, ok := s.deps.Rulesets.Get(name)
	if !ok {
		return referee.Ruleset{}, &notFound{id: "error.ruleset", data: map[string]any{"Name": name}}
	}
	return rs, nil
}

// rulesetPage is the view model of /judge/t/:id/ruleset: every setting of
// the ruleset the tournament runs under, and whether the tournament
// software applies it now or it belongs to the in-game rules.
type rulesetPage struct {
	page
	Name, Version string
	Lines         []rulesetLine
	Offences      []offenceOption
}

type rulesetLine struct {
	Label, Key, Value string
	InGame            bool // recorded, not applied: the in-game rules engine will
}

// showRuleset shows the tournament's copy of its ruleset.
func (s *Server) showTournamentRuleset(c *gin.Context) {
	t, nav, err := s.loadTournament(c, "overview")
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	rs := t.Ruleset
	vm := rulesetPage{page: s.newPage(c, "page.ruleset", map[string]any{"Name": rs.Name}), Name: rs.Name, Version: rs.Version}
	vm.Nav = nav
	for _, st := range export.RulesetSettings(rs, lang) {
		vm.Lines = append(vm.Lines, rulesetLine{Label: st.Label, Key: st.Key, Value: fmt.Sprint(st.Value), InGame: slices.Contains(config.InGameSettings, st.Key)})
	}
	vm.Offences = s.offenceOptions(lang, rs)
	s.render(c, http.StatusOK, "ruleset", vm)
}
