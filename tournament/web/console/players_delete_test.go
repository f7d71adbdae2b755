package console_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The roster: 伊藤 美咲 / イトウ ミサキ imported when 伊藤 美咲 /
// いとう みさき is registered adds nobody; the same name read another way
// is shown as a warning before anything is imported.
func TestImportKatakanaRoster(t *testing.T) {
	env := webtest.New(t)
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "名簿大会", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: "伊藤 美咲", Kana: "いとう みさき"}); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/players/import", tr.ID)
	list := "氏名,フリガナ\r\n伊藤 美咲,イトウ ミサキ\r\n伊藤 美咲,いとう みさ\r\n"
	res := b.Upload(page, "名簿.csv", []byte(list))
	webtest.MustSee(t, "preview", res, http.StatusOK, "登録済み: 伊藤 美咲（いとう みさき）（追加しません）", `id="import-warnings"`,
		"登録済みの 伊藤 美咲（いとう みさき） と同じ名前で、読みが違います")
	m := hiddenData.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatalf("the preview carries no file to confirm")
	}
	if res := b.Post(page+"/confirm", url.Values{"data": {html.UnescapeString(m[1])}}); res.Status != http.StatusSeeOther {
		t.Fatalf("confirm = %d, want 303\n%s", res.Status, res.Body)
	}
	ps, err := env.Service.Players(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Name+"/"+p.Kana)
	}
	if want := "伊藤 美咲/いとう みさ,伊藤 美咲/いとう みさき"; strings.Join(got, ",") != want {
		t.Errorf("players after the import = %q, want %q: the katakana row is the registered player", got, want)
	}
}

// A mistaken registration is deleted: DELETE answers 204 for a player who
// never played, 409 (drop instead) for one who has; the console's player
// page offers the deletion only when it works, and it is audited.
func TestDeleteRegistration(t *testing.T) {
	p := webtest.NewPaired(t)
	cl := webtest.APIClient{T: t, Env: p.Env}
	var late, spare api.PlayerJSON
	base := fmt.Sprintf("/api/v1/tournaments/%d/players", p.Tournament.ID)
	cl.Call("POST", base, `{"name":"誤登録","kana":"ごとうろく"}`, 201, &late)
	cl.Call("POST", base, `{"name":"予備"}`, 201, &spare)

	rec := webtest.Do(p.Handler, "DELETE", fmt.Sprintf("%s/%d", base, late.ID), "", "Authorization", "Bearer test-token")
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Errorf("DELETE a player who never played = %d %q, want 204 without a body", rec.Code, rec.Body)
	}
	played := p.Round.Tables[0].Players[0]
	rec = webtest.Do(p.Handler, "DELETE", fmt.Sprintf("%s/%d", base, played), "", "Authorization", "Bearer test-token", "Accept-Language", "en")
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"player-in-pairing"`) || !strings.Contains(rec.Body.String(), "drop them instead") {
		t.Errorf("DELETE a player in round 1 = %d %s, want 409 player-in-pairing", rec.Code, rec.Body)
	}
	if rec := webtest.Do(p.Handler, "DELETE", fmt.Sprintf("%s/%d", base, late.ID), "", "Authorization", "Bearer test-token"); rec.Code != http.StatusNotFound {
		t.Errorf("DELETE a deleted player = %d, want 404", rec.Code)
	}
	if rec := webtest.Do(p.Handler, "DELETE", fmt.Sprintf("%s/%d", base, spare.ID), ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("DELETE without a judge = %d, want 401", rec.Code)
	}

	// The console: the spare's page offers the deletion, the seated player's says why not.
	page := fmt.Sprintf("/judge/t/%d/players/%d", p.Tournament.ID, spare.ID)
	webtest.MustSee(t, "spare's page", p.B.Get(page), http.StatusOK, `action="`+page+`/delete"`, "この登録を削除", "data-confirm")
	seated := fmt.Sprintf("/judge/t/%d/players/%d", p.Tournament.ID, played)
	res := p.B.Get(seated)
	webtest.MustSee(t, "seated player's page", res, http.StatusOK, "第1回戦の組み合わせに入っているため、登録を削除できません")
	if strings.Contains(res.Body, seated+"/delete") {
		t.Errorf("the seated player's page offers the deletion")
	}
	webtest.MustSee(t, "delete the seated player anyway", p.B.Post(seated+"/delete", nil), http.StatusConflict, "棄権にしてください")
	if res := p.B.Post(page+"/delete", nil); res.Status != http.StatusSeeOther {
		t.Fatalf("delete the spare = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "audit log", p.B.Get(fmt.Sprintf("/judge/t/%d/audit", p.Tournament.ID)), http.StatusOK, "山田 が 予備 の登録を削除しました。")
	if _, err := p.Service.GetPlayer(p.Ctx, p.Tournament.ID, spare.ID); err == nil {
		t.Errorf("the spare is still registered")
	}
}
