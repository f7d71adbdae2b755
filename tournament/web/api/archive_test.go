package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// A judge archives a finished event off the console's list and the landing
// page ("show archived" lists it, and it comes back), and deletes a
// tournament made by mistake; one that started is refused with a reason,
// on the page and in the API.
func TestArchiveAndDeleteTournament(t *testing.T) {
	env := webtest.New(t)
	create := func(name string) tournament.Tournament {
		tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: name, Rounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	old, mistake := create("十月定例会"), create("間違えた大会")
	started, _ := env.SeedTournament(4)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", started.ID); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	overview := func(id int64) string { return fmt.Sprintf("/judge/t/%d", id) }

	webtest.MustSee(t, "landing page", b.Get("/"), http.StatusOK, "十月定例会")
	res := b.Get(overview(old.ID))
	webtest.MustSee(t, "overview", res, http.StatusOK, `action="`+overview(old.ID)+`/archive"`, "アーカイブする")
	if strings.Contains(res.Body, "close-no-final") {
		t.Error("an event without a final is warned that its final has no result")
	}
	webtest.MustSee(t, "archive", b.Post(overview(old.ID)+"/archive", nil), http.StatusSeeOther)
	for what, res := range map[string]webtest.Response{"tournaments list": b.Get("/judge"), "landing page": b.Get("/")} {
		webtest.MustSee(t, what, res, http.StatusOK, "土曜カタン大会")
		if strings.Contains(res.Body, "十月定例会") {
			t.Errorf("%s lists the archived tournament", what)
		}
	}
	webtest.MustSee(t, "tournaments list", b.Get("/judge"), http.StatusOK, `href="/judge?archived=1"`, "アーカイブした大会を表示",
		"<th scope=\"col\">状況</th>", "<td>第1回戦（全", "<td>受付中</td>")
	res = b.Get("/judge?archived=1")
	webtest.MustSee(t, "archived list", res, http.StatusOK, "十月定例会", `href="/judge"`)
	if strings.Contains(res.Body, "土曜カタン大会") {
		t.Error("the archived list shows a tournament not archived")
	}
	webtest.MustSee(t, "archived overview", b.Get(overview(old.ID)), http.StatusOK, "山田 さんが", "にアーカイブしました", `action="`+overview(old.ID)+`/unarchive"`)
	webtest.MustSee(t, "unarchive", b.Post(overview(old.ID)+"/unarchive", nil), http.StatusSeeOther)
	webtest.MustSee(t, "tournaments list after unarchiving", b.Get("/judge"), http.StatusOK, "十月定例会")

	// Delete: offered with a confirmation only before the first pairing.
	webtest.MustSee(t, "unstarted overview", b.Get(overview(mistake.ID)), http.StatusOK,
		`action="`+overview(mistake.ID)+`/delete"`, `data-confirm="この大会を参加者ごと削除します。`)
	res = b.Post(overview(mistake.ID)+"/delete", nil)
	if res.Status != http.StatusSeeOther || res.Location != "/judge" {
		t.Fatalf("delete = %d to %q, want 303 to /judge", res.Status, res.Location)
	}
	if res := b.Get(overview(mistake.ID)); res.Status != http.StatusNotFound {
		t.Errorf("the deleted tournament's overview = %d, want 404", res.Status)
	}
	if strings.Contains(b.Get("/judge").Body, "間違えた大会") {
		t.Error("the deleted tournament is still listed")
	}
	if strings.Contains(b.Get(overview(started.ID)).Body, overview(started.ID)+"/delete") {
		t.Error("a started tournament's overview offers the deletion")
	}
	webtest.MustSee(t, "delete a started tournament", b.Post(overview(started.ID)+"/delete", nil), http.StatusConflict,
		"第1回戦まで組み合わせ済みのため、この大会は削除できません", "アーカイブしてください")

	// The API.
	apiPath := func(id int64) string { return fmt.Sprintf("/api/v1/tournaments/%d", id) }
	auth := []string{"Authorization", "Bearer test-token"}
	rec := webtest.Do(env.Handler, "POST", apiPath(started.ID)+"/archive", "", auth...)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"archived_at":"`) {
		t.Errorf("POST archive = %d %s, want 200 with archived_at", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "GET", "/api/v1/tournaments", "")
	if !strings.Contains(rec.Body.String(), `"archived_at"`) {
		t.Errorf("the API's list does not say which tournament is archived: %s", rec.Body)
	}
	rec = webtest.Do(env.Handler, "POST", apiPath(started.ID)+"/unarchive", "", auth...)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"archived_at"`) {
		t.Errorf("POST unarchive = %d %s, want 200 without archived_at", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "DELETE", apiPath(started.ID), "", append(auth, "Accept-Language", "en")...)
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"tournament-started"`) || !strings.Contains(rec.Body.String(), "Archive it") {
		t.Errorf("DELETE a started tournament = %d %s, want 409 tournament-started", rec.Code, rec.Body)
	}
	if rec := webtest.Do(env.Handler, "DELETE", apiPath(old.ID), ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("DELETE without a judge = %d, want 401", rec.Code)
	}
	if rec := webtest.Do(env.Handler, "DELETE", apiPath(old.ID), "", auth...); rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Errorf("DELETE an unstarted tournament = %d %q, want 204", rec.Code, rec.Body)
	}
	if rec := webtest.Do(env.Handler, "DELETE", apiPath(old.ID), "", auth...); rec.Code != http.StatusNotFound {
		t.Errorf("DELETE twice = %d, want 404", rec.Code)
	}
}
