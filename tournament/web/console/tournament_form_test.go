package console_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The overview's settings form carries the two-person rule (issue 27): a
// judge saving the form for another setting keeps it as it was, and the
// form's box turns it on and off.
func TestTournamentFormKeepsTheTwoPersonRule(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d", tr.ID)
	confirms := func() bool {
		t.Helper()
		got, err := env.Service.GetTournament(env.Ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.ConfirmResults
	}
	// save posts the settings form as the overview shows it, with the
	// venue changed and the box ticked or not.
	save := func(tick *bool) {
		t.Helper()
		form := formAt(t, b.Get(page).Body, page, 0)
		form.Set("venue", "秋葉原")
		form.Set("ruleset", tr.Ruleset.Name)
		form.Set("self_report", "off")
		if tick != nil {
			form.Del("confirm_results")
			if *tick {
				form.Set("confirm_results", "1")
			}
		}
		if res := b.Post(page, form); res.Status != http.StatusSeeOther {
			t.Fatalf("POST %s = %d\n%s", page, res.Status, res.Body)
		}
	}
	on, off := true, false
	save(&on)
	if !confirms() {
		t.Fatal("ticking the two-person rule's box left it off")
	}
	save(nil)
	if !confirms() {
		t.Error("saving the settings form for its venue turned the two-person rule off")
	}
	save(&off)
	if confirms() {
		t.Error("unticking the two-person rule's box left it on")
	}
}
