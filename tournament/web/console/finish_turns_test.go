package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Issue 24, defect 5: under proshop-2003, whose final tables have no turn
// limit, the final's round page offers no turn page, and the turn page
// says there is none rather than promising one after the game time.
func TestNoTurnLimitPromisedWithoutOne(t *testing.T) {
	env := webtest.New(t)
	tr, _, _ := makeFinal(t, env)
	b := env.Browser()
	b.Login("山田")
	turns := fmt.Sprintf("/judge/t/%d/rounds/2/tables/1/turns", tr.ID)
	if res := b.Get(fmt.Sprintf("/judge/t/%d/rounds/2", tr.ID)); strings.Contains(res.Body, `href="`+turns+`"`) {
		t.Errorf("the final's round page under proshop-2003 links the turn page")
	}
	res := b.Get(turns)
	webtest.MustSee(t, "the turn page under proshop-2003", res, http.StatusOK, `id="no-turn-limit"`, "手番の制限時間がありません")
	if strings.Contains(res.Body, "手番ごとの制限時間が始まります") {
		t.Errorf("the turn page under proshop-2003 promises a turn limit\n%s", res.Body)
	}
}
