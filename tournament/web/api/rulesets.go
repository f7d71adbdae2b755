package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

type rulesetSummary struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type LevelJSON struct {
	ID     string `json:"id"`
	NameJA string `json:"name_ja"`
	NameEN string `json:"name_en"`
}

type rulesetJSON struct {
	config.RulesetFile
	Levels []LevelJSON `json:"levels"`
	// InGame names the in-game settings, which the rules engine applies to
	// play through the referee API and the tournament's score sheets do not
	// read (referee.InGameSettings).
	InGame []string `json:"in_game_settings"`
}

func (s *Handlers) ListRulesets(c *gin.Context) (int, any, error) {
	all := s.rulesets.All()
	out := make([]rulesetSummary, len(all))
	for i, rs := range all {
		out[i] = rulesetSummary{Name: rs.Name, Version: rs.Version}
	}
	return http.StatusOK, gin.H{"rulesets": out, "default": s.defaultRuleset}, nil
}

func (s *Handlers) ShowRuleset(c *gin.Context) (int, any, error) {
	rs, err := s.ruleset(c.Param("name"))
	if err != nil {
		return 0, nil, err
	}
	out := rulesetJSON{RulesetFile: config.FileOf(rs), InGame: referee.InGameSettings}
	for _, l := range rs.Ladder {
		out.Levels = append(out.Levels, LevelJSON{ID: string(l), NameJA: l.NameJA(), NameEN: l.NameEN()})
	}
	return http.StatusOK, out, nil
}

// ruleset returns the named ruleset, or the default one for "".
func (s *Handlers) ruleset(name string) (referee.Ruleset, error) {
	if name == "" {
		name = s.defaultRuleset
	}
	rs, ok := s.rulesets.Get(name)
	if !ok {
		return referee.Ruleset{}, &problem.NotFound{ID: "error.ruleset", Data: map[string]any{"Name": name}}
	}
	return rs, nil
}
