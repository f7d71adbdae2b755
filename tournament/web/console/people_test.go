package console_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// newEvent creates a tournament through the service.
func newEvent(e *webtest.Env, name, date string) tournament.Tournament {
	e.TB.Helper()
	tr, err := e.Service.CreateTournament(e.Ctx, "setup", tournament.TournamentInput{Name: name, Date: date, Rounds: 2})
	if err != nil {
		e.TB.Fatal(err)
	}
	return tr
}

// register adds a player through the service.
func register(e *webtest.Env, tid int64, in tournament.PlayerInput) tournament.Player {
	e.TB.Helper()
	p, err := e.Service.AddPlayer(e.Ctx, "setup", tid, in)
	if err != nil {
		e.TB.Fatal(err)
	}
	return p
}

// Registering a returning player on the console: the same name read
// another way is asked about, with the candidate's events; chosen, the
// player is linked, and their person's page lists both events. A new
// person chosen is a new entry; the member number typed is kept.
func TestConsoleRegistersReturningPlayer(t *testing.T) {
	env := webtest.New(t)
	oct := newEvent(env, "10月定例会", "2025-10-18")
	sato := register(env, oct.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	nov := newEvent(env, "11月定例会", "2025-11-15")
	b := env.Browser()
	b.Login("山田")
	players := fmt.Sprintf("/judge/t/%d/players", nov.ID)
	form := url.Values{"name": {"佐藤 太郎"}, "kana": {"さとう　たろ"}, "member": {"０１２"}}
	res := b.Post(players, form)
	webtest.MustSee(t, "the question", res, http.StatusOK, `id="candidates"`, "「佐藤 太郎」は、次の登録者と同じ人ですか？",
		fmt.Sprintf(`name="person" value="%d"`, sato.PersonID), "名前が同じ（よみがなが違う・なし）", "1大会", "最後: 10月定例会（2025-10-18）",
		`name="person" value="new"`, `value="さとう　たろ"`, `value="０１２"`)
	if ps, _ := env.Service.Players(env.Ctx, nov.ID); len(ps) != 0 {
		t.Fatalf("the question registered %d players, want none yet", len(ps))
	}
	form.Set("person", fmt.Sprint(sato.PersonID))
	if res := b.Post(players, form); res.Status != http.StatusSeeOther {
		t.Fatalf("POST with the person chosen = %d, want 303\n%s", res.Status, res.Body)
	}
	ps, err := env.Service.Players(env.Ctx, nov.ID)
	if err != nil || len(ps) != 1 || ps[0].PersonID != sato.PersonID {
		t.Fatalf("November's players = %+v, %v; want 佐藤 linked to person %d", ps, err, sato.PersonID)
	}
	webtest.MustSee(t, "the player's page", b.Get(fmt.Sprintf("%s/%d", players, ps[0].ID)), http.StatusOK,
		"登録者: 佐藤 太郎（2大会に参加）", fmt.Sprintf(`href="/judge/people/%d"`, sato.PersonID))
	webtest.MustSee(t, "the person's page", b.Get(fmt.Sprintf("/judge/people/%d", sato.PersonID)), http.StatusOK,
		"参加した大会（2）", "11月定例会", "10月定例会", `value="012"`)
	// Someone else of the same name: a new entry.
	other := url.Values{"name": {"佐藤 太郎"}, "kana": {"さとう じろう"}, "person": {"new"}}
	nov2 := newEvent(env, "11月交流会", "2025-11-16")
	if res := b.Post(fmt.Sprintf("/judge/t/%d/players", nov2.ID), other); res.Status != http.StatusSeeOther {
		t.Fatalf("POST a new person = %d, want 303\n%s", res.Status, res.Body)
	}
	if ps, _ := env.Service.Players(env.Ctx, nov2.ID); len(ps) != 1 || ps[0].PersonID == sato.PersonID {
		t.Errorf("the new person = %+v, want a new entry", ps)
	}
	// A member number of someone else is refused next to its field.
	res = b.Post(fmt.Sprintf("/judge/t/%d/players", nov2.ID), url.Values{"name": {"別人"}, "member": {"012"}, "person": {"new"}})
	webtest.MustSee(t, "a member number taken", res, http.StatusUnprocessableEntity, `id="member-error"`, "会員番号 012 は登録者「佐藤 太郎」の番号です。", `value="別人"`)
}

// The registry on the console: searched by reading however it is typed,
// edited with a refusal next to its field, merged (refused for two
// players of one event, with why), archived off the list and back, each
// change in the registry's history.
func TestConsoleRegistry(t *testing.T) {
	env := webtest.New(t)
	oct := newEvent(env, "10月定例会", "2025-10-18")
	nov := newEvent(env, "11月定例会", "2025-11-15")
	a := register(env, oct.ID, tournament.PlayerInput{Name: "伊藤 美咲", Kana: "いとう みさき"})
	b2 := register(env, nov.ID, tournament.PlayerInput{Name: "伊藤美咲", Person: tournament.PersonChoice{New: true}})
	c := register(env, nov.ID, tournament.PlayerInput{Name: "伊東 美咲", Kana: "いとう みさき"})
	b := env.Browser()
	b.Login("山田")
	webtest.MustSee(t, "search in katakana", b.Get("/judge/people?q="+url.QueryEscape("イトウ")), http.StatusOK, "伊藤 美咲", "伊東 美咲", "登録者（2人）")
	person := fmt.Sprintf("/judge/people/%d", a.PersonID)
	webtest.MustSee(t, "the person's page", b.Get(person), http.StatusOK, `id="alike"`, "伊藤美咲", "伊東 美咲", "この登録を統合")
	res := b.Post(person, url.Values{"name": {"伊藤 美咲"}, "kana": {"いとう みさき"}, "member": {"会員"}})
	webtest.MustSee(t, "a member number refused", res, http.StatusUnprocessableEntity, `id="member-error"`, "会員番号「会員」は使えません", `value="会員"`)
	// c played November as b2 did: refused, nothing changed.
	if res := b.Post(person+"/merge", url.Values{"other": {fmt.Sprint(b2.PersonID)}}); res.Status != http.StatusSeeOther {
		t.Fatalf("merge = %d, want 303\n%s", res.Status, res.Body)
	}
	res = b.Post(person+"/merge", url.Values{"other": {fmt.Sprint(c.PersonID)}})
	// Issue 25: each named by their label, the reading and the person no.
	webtest.MustSee(t, "a merge refused", res, http.StatusConflict, `id="merge-error"`,
		fmt.Sprintf("「伊藤 美咲（いとう みさき・%d）」と「伊東 美咲（いとう みさき・%d）」はどちらも「11月定例会」に参加しているため、同じ人として統合できません", a.PersonID, c.PersonID))
	// Now that a is b2 too, c cannot be merged with a: the page says why
	// and offers no button for c.
	page := b.Get(person)
	webtest.MustSee(t, "the impossible candidate", page, http.StatusOK, `class="hint refusal"`, "同じ人として統合できません")
	if strings.Contains(page.Body, fmt.Sprintf(`name="other" value="%d"`, c.PersonID)) {
		t.Errorf("the person page offers to merge %d, who played November too", c.PersonID)
	}
	webtest.MustSee(t, "after the merge", b.Get(person), http.StatusOK, "参加した大会（2）", fmt.Sprintf("山田 が登録者「伊藤美咲」（番号 %d）を「伊藤 美咲」（番号 %d）に統合しました。", b2.PersonID, a.PersonID))
	if res := b.Post(person+"/archive", nil); res.Status != http.StatusSeeOther {
		t.Fatalf("archive = %d, want 303", res.Status)
	}
	list := b.Get("/judge/people")
	webtest.MustSee(t, "the list after the archive", list, http.StatusOK, "登録者（1人）", "伊東 美咲", "山田 が登録者「伊藤 美咲」をアーカイブしました。")
	if strings.Contains(list.Body, `href="`+person+`">伊藤 美咲`) {
		t.Errorf("the archived person is listed:\n%s", list.Body)
	}
	webtest.MustSee(t, "the archived list", b.Get("/judge/people?archived=1"), http.StatusOK, "アーカイブした登録者（1人）", "伊藤 美咲")
	if res := b.Post(person+"/unarchive", nil); res.Status != http.StatusSeeOther {
		t.Fatalf("unarchive = %d, want 303", res.Status)
	}
	webtest.MustSee(t, "the list after taking back", b.Get("/judge/people"), http.StatusOK, "登録者（2人）")
}

// The JSON API: a player registered with a member number or a person
// answers their person; the registry lists member numbers (judges only),
// merges with the refusal as a 409, and archives.
func TestPeopleAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	oct := newEvent(env, "10月定例会", "2025-10-18")
	sato := register(env, oct.ID, tournament.PlayerInput{Name: "佐藤", Kana: "さとう", Member: "A-1"})
	nov := newEvent(env, "11月定例会", "2025-11-15")
	var added struct {
		ID     int64  `json:"id"`
		Person int64  `json:"person"`
		Code   string `json:"code"`
	}
	cl.Call(http.MethodPost, fmt.Sprintf("/api/v1/tournaments/%d/players", nov.ID), `{"name":"さとう","member":"ａ－１"}`, http.StatusCreated, &added)
	if added.Person != sato.PersonID || added.Code == "" {
		t.Errorf("POST players with a member number = %+v, want person %d and a code", added, sato.PersonID)
	}
	cl.Call(http.MethodPost, fmt.Sprintf("/api/v1/tournaments/%d/players", nov.ID), `{"name":"佐藤","kana":"さとう"}`, http.StatusCreated, &added)
	if added.Person == sato.PersonID {
		t.Errorf("POST players of the same name as someone in the event = person %d, want a new person", added.Person)
	}
	var list struct {
		People []struct {
			ID     int64  `json:"id"`
			Member string `json:"member"`
			Events int    `json:"events"`
			Last   struct {
				Tournament int64 `json:"tournament"`
			} `json:"last"`
		} `json:"people"`
		Total int `json:"total"`
	}
	cl.Call(http.MethodGet, "/api/v1/people?q="+url.QueryEscape("サトウ"), "", http.StatusOK, &list)
	if list.Total != 2 || list.People[0].Member != "A-1" || list.People[0].Events != 2 || list.People[0].Last.Tournament != nov.ID {
		t.Errorf("GET /api/v1/people?q=サトウ = %+v, want both, A-1 with 2 events, November last", list)
	}
	merge := fmt.Sprintf("/api/v1/people/%d/merge", sato.PersonID)
	res := webtest.Do(env.Handler, http.MethodPost, merge, fmt.Sprintf(`{"person":%d}`, added.Person), "Authorization", "Bearer test-token")
	var refused struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(res.Body.Bytes(), &refused); err != nil || res.Code != http.StatusConflict || !strings.Contains(refused.Error, "11月定例会") {
		t.Errorf("POST merge of two players of November = %d %s, want 409 naming the event", res.Code, res.Body)
	}
	var p struct {
		Archived bool `json:"archived"`
	}
	cl.Call(http.MethodPost, fmt.Sprintf("/api/v1/people/%d/archive", sato.PersonID), "", http.StatusOK, &p)
	if !p.Archived {
		t.Errorf("POST archive = %+v, want archived", p)
	}
	if res := webtest.Do(env.Handler, http.MethodGet, "/api/v1/people", ""); res.Code != http.StatusUnauthorized {
		t.Errorf("anonymous GET /api/v1/people = %d, want 401: it lists member numbers", res.Code)
	}
}

// A player's page in an event and their person's page are public, as the
// kiosk's names are, and never show a member number; a player of another
// tournament is not found through this one.
func TestPlayerAndPersonPages(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(4)
	if _, err := env.Service.EditPerson(env.Ctx, "setup", ps[0].PersonID, tournament.PersonInput{Name: ps[0].Name, Kana: ps[0].Kana, Member: "SECRET-77"}); err != nil {
		t.Fatal(err)
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	cl := webtest.APIClient{T: t, Env: env}
	cl.Save(tr.ID, 1, 1, 0, []int{10, 7, 5, 3}, 0, "")
	anon := env.Browser()
	me := r.Tables[0].Players[0]
	p, _ := env.Service.GetPlayer(env.Ctx, tr.ID, me)
	page := fmt.Sprintf("/kiosk/%d/players/%d", tr.ID, me)
	res := anon.Get(page)
	webtest.MustSee(t, "the player's page", res, http.StatusOK, p.Name, "第1回戦", "1卓", "1位", "10点", "現在1位", "第1回戦終了時点の順位: 1位",
		fmt.Sprintf(`href="/people/%d"`, p.PersonID))
	person := anon.Get(fmt.Sprintf("/people/%d", ps[0].PersonID))
	webtest.MustSee(t, "the person's page", person, http.StatusOK, "これまでの戦績（1大会）", "土曜カタン大会", "開催中")
	for _, r := range []webtest.Response{res, person, anon.Get(fmt.Sprintf("/kiosk/%d/players/%d", tr.ID, ps[0].ID))} {
		if strings.Contains(r.Body, "SECRET-77") {
			t.Errorf("a public page shows the member number:\n%s", r.Body)
		}
	}
	other := newEvent(env, "別大会", "")
	webtest.MustSee(t, "a player through another tournament", anon.Get(fmt.Sprintf("/kiosk/%d/players/%d", other.ID, me)), http.StatusNotFound)
	webtest.MustSee(t, "a person who is not", anon.Get("/people/99999"), http.StatusNotFound)
	webtest.MustSee(t, "a page past the last", anon.Get(fmt.Sprintf("/people/%d?page=2", ps[0].PersonID)), http.StatusNotFound)
	webtest.MustSee(t, "the kiosk links the name", anon.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK, `href="`+page+`"`)
}

// The results: a page saying when they come until the tournament is
// closed, then the standings and every table, linked from the landing page
// and the kiosk.
func TestResultsPage(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(7)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	anon := env.Browser()
	results := fmt.Sprintf("/results/%d", tr.ID)
	webtest.MustSee(t, "results before the close", anon.Get(results), http.StatusOK, `id="not-published"`, "ジャッジが大会を終了したあとに公開されます")
	cl := webtest.APIClient{T: t, Env: env}
	cl.Save(tr.ID, 1, 1, 0, []int{10, 7, 5, 3}, 0, "")
	env.TimeUp(tr.ID, 1)
	cl.Save(tr.ID, 1, 2, 0, []int{8, 6, 4}, -1, "")
	if _, err := env.Service.CloseTournament(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	winner, _ := env.Service.GetPlayer(env.Ctx, tr.ID, r.Tables[0].Players[0])
	res := anon.Get(results)
	webtest.MustSee(t, "results", res, http.StatusOK, "大会結果", "最終順位", "優勝", winner.Name, "第1回戦", "1卓", "2卓", "勝利宣言",
		fmt.Sprintf(`href="/kiosk/%d/players/%d"`, tr.ID, winner.ID), "順位の決め方")
	webtest.MustSee(t, "the landing page", anon.Get("/"), http.StatusOK, `href="`+results+`"`)
	webtest.MustSee(t, "the kiosk", anon.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK, `id="results-link" href="`+results+`"`)
	webtest.MustSee(t, "a tournament that is not", anon.Get("/results/999"), http.StatusNotFound)
}

// The import's preview shows each line's person and lets the judge choose
// another; the confirmation links as chosen.
func TestImportChoosesPeople(t *testing.T) {
	env := webtest.New(t)
	oct := newEvent(env, "10月定例会", "2025-10-18")
	sato := register(env, oct.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	ito := register(env, oct.ID, tournament.PlayerInput{Name: "伊藤", Kana: "いとう"})
	nov := newEvent(env, "11月定例会", "2025-11-15")
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/players/import", nov.ID)
	res := b.Upload(page, "list.csv", []byte("氏名,よみがな,会員番号\n佐藤 太郎,サトウ タロウ,\n伊藤,いとう じゅん,\n新人,しんじん,x-9\n"))
	webtest.MustSee(t, "preview", res, http.StatusOK, `id="person_2"`, fmt.Sprintf(`<option value="%d" selected>佐藤 太郎`, sato.PersonID),
		`id="person_3"`, fmt.Sprintf(`<option value="%d">伊藤`, ito.PersonID), `<option value="new" selected>新しい登録者`, `form="import-confirm"`)
	m := hiddenData.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatal("no confirmation")
	}
	confirm := url.Values{"data": {html.UnescapeString(m[1])}, "person_2": {fmt.Sprint(sato.PersonID)}, "person_3": {fmt.Sprint(ito.PersonID)}, "person_4": {"new"}}
	if res := b.Post(page+"/confirm", confirm); res.Status != http.StatusSeeOther {
		t.Fatalf("confirm = %d, want 303\n%s", res.Status, res.Body)
	}
	got := map[string]int64{}
	ps, _ := env.Service.Players(env.Ctx, nov.ID)
	for _, p := range ps {
		got[p.Name] = p.PersonID
	}
	if got["佐藤 太郎"] != sato.PersonID || got["伊藤"] != ito.PersonID || got["新人"] == 0 {
		t.Errorf("imported = %v, want 佐藤 %d, 伊藤 %d as chosen, 新人 new", got, sato.PersonID, ito.PersonID)
	}
	if p, _ := env.Service.GetPerson(env.Ctx, got["新人"]); p.Member != "X-9" {
		t.Errorf("新人's member number = %q, want X-9 from the file", p.Member)
	}
	// Chosen twice: the preview again, saying why, nothing imported.
	dec := newEvent(env, "12月定例会", "2025-12-20")
	page = fmt.Sprintf("/judge/t/%d/players/import", dec.ID)
	res = b.Upload(page, "list.csv", []byte("氏名,よみがな\n佐藤 太郎,さとう たろう\n伊藤,いとう\n"))
	m = hiddenData.FindStringSubmatch(res.Body)
	confirm = url.Values{"data": {html.UnescapeString(m[1])}, "person_2": {fmt.Sprint(sato.PersonID)}, "person_3": {fmt.Sprint(sato.PersonID)}}
	webtest.MustSee(t, "a person chosen twice", b.Post(page+"/confirm", confirm), http.StatusUnprocessableEntity, `id="confirm-error"`,
		"「佐藤 太郎」はこの大会にすでに参加者として登録されています", `id="person_2"`)
	if ps, _ := env.Service.Players(env.Ctx, dec.ID); len(ps) != 0 {
		t.Errorf("the refused import registered %d players", len(ps))
	}
}
