package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// RULINGS.md §12: the VP a table reports above 13 each add up to at most 9.
// Four players with 22 VP and a declarer is a typo, refused with a message
// that says why, and nothing is saved.
func TestImpossibleTableRefused(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(8)
	api := apiClient{t: t, env: env}
	var round roundJSON
	api.call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), nil, 201, &round)
	players := round.Tables[0].Players
	body := fmt.Sprintf(`{"scores":[{"player":%d,"vp":22},{"player":%d,"vp":22},{"player":%d,"vp":22},{"player":%d,"vp":22}],"declared":%d,"version":0}`,
		players[0].ID, players[1].ID, players[2].ID, players[3].ID, players[0].ID)
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID)
	for _, tt := range []struct{ lang, want string }{
		{"ja", "2点カードと1ポイントカードで卓全体に 9 点まで"},
		{"en", "at most 9 VP to the whole table"},
	} {
		rec := do(env.h, "PUT", path, body, "Authorization", "Bearer test-token", "Accept-Language", tt.lang)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tt.want) ||
			!strings.Contains(rec.Body.String(), `"code":"table-vp-impossible"`) || !strings.Contains(rec.Body.String(), players[0].Name) {
			t.Errorf("PUT %s (%s) = %d %s, want 422 table-vp-impossible saying %q and naming the players", path, tt.lang, rec.Code, rec.Body, tt.want)
		}
	}
	api.call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil, 200, &round)
	if round.Tables[0].Result != nil {
		t.Errorf("the refused sheet was saved: %+v", round.Tables[0].Result)
	}
}
