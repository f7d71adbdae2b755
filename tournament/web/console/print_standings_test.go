package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestPrintStandingsAfterRound: the standings page offers a print of the
// standings after a chosen round, on the printable layout (no console
// header or menu); after round 1 counts round 1 alone.
func TestPrintStandingsAfterRound(t *testing.T) {
	p := webtest.NewPaired(t)
	p.SaveAll(1)
	if _, err := p.Service.PairNextRound(p.Ctx, "setup", p.Tournament.ID); err != nil {
		t.Fatal(err)
	}
	p.SaveAll(2)
	base := fmt.Sprintf("/judge/t/%d/standings", p.Tournament.ID)
	webtest.MustSee(t, "standings page", p.B.Get(base), http.StatusOK,
		`<form method="get" action="`+base+`/print" class="row" id="print-standings">`,
		`<option value="2" selected>第2回戦終了時点</option>`)
	after1 := p.B.Get(base + "/print?after=1")
	webtest.MustSee(t, "print after round 1", after1, http.StatusOK, "<h1>第1回戦終了時点の順位表</h1>", `class="standings-print"`, `<body class="print">`)
	if strings.Contains(after1.Body, `class="tnav"`) || strings.Contains(after1.Body, `class="top"`) {
		t.Error("the printed standings carry the console's header or menu")
	}
	// Round 1 alone: the winners of round 1 have 10 VP, not 20.
	if !strings.Contains(after1.Body, `<td class="num">10</td>`) || strings.Contains(after1.Body, `<td class="num">20</td>`) {
		t.Errorf("the standings after round 1 do not count round 1 alone:\n%s", after1.Body)
	}
	all := p.B.Get(base + "/print")
	webtest.MustSee(t, "print after every round", all, http.StatusOK, "<h1>第2回戦終了時点の順位表</h1>", `<td class="num">20</td>`)
	webtest.MustSee(t, "a round not paired", p.B.Get(base+"/print?after=3"), http.StatusBadRequest)
}
