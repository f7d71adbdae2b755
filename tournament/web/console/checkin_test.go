package console_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestCheckInBySearch is the desk's morning: search a player by reading
// (katakana finds hiragana), check them in from the search, back to the
// same search; the list part a script swaps in; a bulk check-in of the
// ticked players and of everyone the search shows.
func TestCheckInBySearch(t *testing.T) {
	env := webtest.New(t)
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "受付の朝", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, n := range []string{"田中 一郎/たなか いちろう", "田中 花子/たなか はなこ", "佐藤 健/さとう けん", "鈴木 舞/すずき まい"} {
		name, kana, _ := strings.Cut(n, "/")
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: name, Kana: kana})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = p.ID
	}
	b := env.Browser()
	b.Login("山田")
	players := fmt.Sprintf("/judge/t/%d/players", tr.ID)

	res := b.Get(players + "?q=" + url.QueryEscape("タナカ"))
	webtest.MustSee(t, "search タナカ", res, http.StatusOK, `value="タナカ" autocomplete="off" maxlength="60" autofocus`, "「タナカ」に一致: 2人",
		fmt.Sprintf(`id="p%d"`, ids["田中 一郎"]), fmt.Sprintf(`id="p%d"`, ids["田中 花子"]), "表示中の未受付の全員（2人）を受付")
	if strings.Contains(res.Body, fmt.Sprintf(`id="p%d"`, ids["佐藤 健"])) {
		t.Error("the search for タナカ lists 佐藤")
	}
	webtest.MustSee(t, "search with no match", b.Get(players+"?q=xyz"), http.StatusOK, `id="no-match"`)

	// Check in from the search: back to the same search, at its box.
	res = b.Post(fmt.Sprintf("%s/%d/checkin", players, ids["田中 花子"]), url.Values{"in": {"1"}, "q": {"タナカ"}})
	if want := players + "?q=" + url.QueryEscape("タナカ") + "#q"; res.Status != http.StatusSeeOther || res.Location != want {
		t.Fatalf("check-in from the search = %d to %q, want 303 to %q", res.Status, res.Location, want)
	}
	// The same from the script: the list alone, saying who.
	res = b.Post(fmt.Sprintf("%s/%d/checkin", players, ids["田中 一郎"]), url.Values{"in": {"1"}, "q": {"たなか"}, "part": {"list"}})
	webtest.MustSee(t, "check-in part", res, http.StatusOK, `<p class="flash" role="status" id="list-done">田中 一郎 を受付しました。</p>`, "「たなか」に一致: 2人")
	if strings.Contains(res.Body, "<html") || strings.Contains(res.Body, `id="q"`) {
		t.Error("the check-in part is more than the list")
	}
	// The search box's own part, as the script asks while the judge types.
	webtest.MustSee(t, "search part", b.Get(players+"?part=list&q=suzuki"), http.StatusOK, `id="no-match"`)

	// Bulk: nothing ticked is refused with a message; two ticked are checked in.
	webtest.MustSee(t, "bulk with nothing ticked", b.Post(players+"/checkin", url.Values{}), http.StatusUnprocessableEntity, "受付する参加者が選ばれていません")
	webtest.MustSee(t, "bulk with a bad id", b.Post(players+"/checkin", url.Values{"ids": {"x"}}), http.StatusBadRequest)
	res = b.Post(players+"/checkin", url.Values{"ids": {webtest.Itoa(ids["佐藤 健"])}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("bulk check-in = %d\n%s", res.Status, res.Body)
	}
	res = b.Post(players+"/checkin", url.Values{"all": {"1"}, "q": {"すずき"}, "part": {"list"}})
	webtest.MustSee(t, "bulk of everyone shown", res, http.StatusOK, "1人を受付しました。")
	ps, err := env.Service.Players(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !p.CheckedIn {
			t.Errorf("%s is not checked in", p.Name)
		}
	}
	webtest.MustSee(t, "players after", b.Get(players), http.StatusOK, "受付済み 4 / 4人")
}

// TestImportCheckInOption: the import page says imported players arrive
// unchecked, and its confirmation can check them all in.
func TestImportCheckInOption(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(1)
	b := env.Browser()
	b.Login("山田")
	page := "/judge/t/" + webtest.Itoa(tr.ID) + "/players/import"
	webtest.MustSee(t, "import page", b.Get(page), http.StatusOK, "取り込んだ参加者は未受付で登録されます")
	res := b.Upload(page, "list.csv", []byte("氏名,よみがな\n上田,うえだ\n江藤,えとう\n"))
	webtest.MustSee(t, "preview", res, http.StatusOK, `<input type="checkbox" id="check_in" name="check_in" value="1"`, "取り込む全員を受付済みにする")
	m := hiddenData.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatal("no confirmation")
	}
	res = b.Post(page+"/confirm", url.Values{"data": {html.UnescapeString(m[1])}, "check_in": {"1"}})
	// The import goes to the players, the new players' cards waiting there.
	webtest.MustSee(t, "players after", b.Get(res.Location), http.StatusOK, "名簿を取り込み、全員を受付済みにしました。", "受付済み 3 / 3人", "未印刷のカード 2枚")
	webtest.MustSee(t, "the new players' cards", b.Get("/judge/t/"+webtest.Itoa(tr.ID)+"/players/cards"), http.StatusOK, "参加者カード", "上田", "江藤")
}
