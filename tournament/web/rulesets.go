package web

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
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
	// InGame names the in-game settings, which the rules engine applies to
	// play through the referee API and the tournament's score sheets do not
	// read (config.InGameSettings).
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
