package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// A judge archives a finished event off the console's list and the landing
// page ("show archived" lists it, and it comes back), and deletes a
// tournament made by mistake; one that started is refused with a reason,
// on the page and in the API.
func TestArchiveAndDeleteTournament(t *testing.T) {
	env := newConsoleEnv(t)
	create := func(name string) tournament.Tournament {
		tr, err := env.svc.CreateTournament(env.ctx, "setup", tournament.TournamentInput{Name: name, Rounds: 3})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	old, mistake := create("十月定例会"), create("間違えた大会")
	started, _ := env.seedTournament(4)
	if _, err := env.svc.PairNextRound(env.ctx, "setup", started.ID); err != nil {
		t.Fatal(err)
	}
	b := env.browser()
	b.login("山田")
	overview := func(id int64) string { return fmt.Sprintf("/judge/t/%d", id) }

	mustSee(t, "landing page", b.get("/"), http.StatusOK, "十月定例会")
	res := b.get(overview(old.ID))
	mustSee(t, "overview", res, http.StatusOK, `action="`+overview(old.ID)+`/archive"`, "アーカイブする")
	if strings.Contains(res.Body, "close-no-final") {
		t.Error("an event without a final is warned that its final has no result")
	}
	mustSee(t, "archive", b.post(overview(old.ID)+"/archive", nil), http.StatusSeeOther)
	for what, res := range map[string]response{"tournaments list": b.get("/judge"), "landing page": b.get("/")} {
		mustSee(t, what, res, http.StatusOK, "土曜カタン大会")
		if strings.Contains(res.Body, "十月定例会") {
			t.Errorf("%s lists the archived tournament", what)
		}
	}
	mustSee(t, "tournaments list", b.get("/judge"), http.StatusOK, `href="/judge?archived=1"`, "アーカイブした大会を表示",
		"<th scope=\"col\">状況</th>", "<td>第1回戦（全", "<td>受付中</td>")
	res = b.get("/judge?archived=1")
	mustSee(t, "archived list", res, http.StatusOK, "十月定例会", `href="/judge"`)
	if strings.Contains(res.Body, "土曜カタン大会") {
		t.Error("the archived list shows a tournament not archived")
	}
	mustSee(t, "archived overview", b.get(overview(old.ID)), http.StatusOK, "山田 さんが", "にアーカイブしました", `action="`+overview(old.ID)+`/unarchive"`)
	mustSee(t, "unarchive", b.post(overview(old.ID)+"/unarchive", nil), http.StatusSeeOther)
	mustSee(t, "tournaments list after unarchiving", b.get("/judge"), http.StatusOK, "十月定例会")

	// Delete: offered with a confirmation only before the first pairing.
	mustSee(t, "unstarted overview", b.get(overview(mistake.ID)), http.StatusOK,
		`action="`+overview(mistake.ID)+`/delete"`, `data-confirm="この大会を参加者ごと削除します。`)
	res = b.post(overview(mistake.ID)+"/delete", nil)
	if res.Status != http.StatusSeeOther || res.Location != "/judge" {
		t.Fatalf("delete = %d to %q, want 303 to /judge", res.Status, res.Location)
	}
	if res := b.get(overview(mistake.ID)); res.Status != http.StatusNotFound {
		t.Errorf("the deleted tournament's overview = %d, want 404", res.Status)
	}
	if strings.Contains(b.get("/judge").Body, "間違えた大会") {
		t.Error("the deleted tournament is still listed")
	}
	if strings.Contains(b.get(overview(started.ID)).Body, overview(started.ID)+"/delete") {
		t.Error("a started tournament's overview offers the deletion")
	}
	mustSee(t, "delete a started tournament", b.post(overview(started.ID)+"/delete", nil), http.StatusConflict,
		"第1回戦まで組み合わせ済みのため、この大会は削除できません", "アーカイブしてください")

	// The API.
	apiPath := func(id int64) string { return fmt.Sprintf("/api/v1/tournaments/%d", id) }
	auth := []string{"Authorization", "Bearer test-token"}
	rec := do(env.h, "POST", apiPath(started.ID)+"/archive", "", auth...)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"archived_at":"`) {
		t.Errorf("POST archive = %d %s, want 200 with archived_at", rec.Code, rec.Body)
	}
	rec = do(env.h, "GET", "/api/v1/tournaments", "")
	if !strings.Contains(rec.Body.String(), `"archived_at"`) {
		t.Errorf("the API's list does not say which tournament is archived: %s", rec.Body)
	}
	rec = do(env.h, "POST", apiPath(started.ID)+"/unarchive", "", auth...)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"archived_at"`) {
		t.Errorf("POST unarchive = %d %s, want 200 without archived_at", rec.Code, rec.Body)
	}
	rec = do(env.h, "DELETE", apiPath(started.ID), "", append(auth, "Accept-Language", "en")...)
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"tournament-started"`) || !strings.Contains(rec.Body.String(), "Archive it") {
		t.Errorf("DELETE a started tournament = %d %s, want 409 tournament-started", rec.Code, rec.Body)
	}
	if rec := do(env.h, "DELETE", apiPath(old.ID), ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("DELETE without a judge = %d, want 401", rec.Code)
	}
	if rec := do(env.h, "DELETE", apiPath(old.ID), "", auth...); rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Errorf("DELETE an unstarted tournament = %d %q, want 204", rec.Code, rec.Body)
	}
	if rec := do(env.h, "DELETE", apiPath(old.ID), "", auth...); rec.Code != http.StatusNotFound {
		t.Errorf("DELETE twice = %d, want 404", rec.Code)
	}
}
