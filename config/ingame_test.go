package config_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
)

// TestInGameSettingsAreFileKeys: the referee names its in-game settings as
// a ruleset file does, so the API's in_game_settings and the rulesets page
// point at settings a file really has.
func TestInGameSettingsAreFileKeys(t *testing.T) {
	keys := map[string]bool{}
	ft := reflect.TypeFor[config.RulesetFile]()
	for i := range ft.NumField() {
		name, _, _ := strings.Cut(ft.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	if len(referee.InGameSettings) == 0 {
		t.Fatal("referee.InGameSettings is empty")
	}
	for _, k := range referee.InGameSettings {
		if !keys[k] {
			t.Errorf("in-game setting %q is not a key of the ruleset file", k)
		}
	}
}
