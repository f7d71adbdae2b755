package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// healthOf answers GET /healthz in lang: its status and JSON.
func healthOf(h http.Handler, lang string) (int, map[string]string) {
	rec := webtest.Serve(h, httptest.NewRequest(http.MethodGet, "/healthz?lang="+lang, nil), "")
	var body map[string]string
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	return rec.Code, body
}

// awaitHealth asks /healthz until it answers want (its answer is shared
// for a few seconds), or fails the test.
func awaitHealth(t *testing.T, h http.Handler, want int, code string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, body := healthOf(h, "ja")
		if got == want && body["code"] == code {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /healthz = %d %v, want %d with code %q", got, body, want, code)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Issue 24's full disk, on a real disk that runs full (a small tmpfs):
// /healthz says so (not "ok"); a save it refuses says so in the judge's
// language, with the sheet as typed, and leaves nothing half saved; no
// result the server acknowledged is lost; once space is freed the same
// sheet saves, and /healthz is ok again.
func TestDiskFull(t *testing.T) {
	dir := tournamenttest.SmallDisk(t, 48<<20)
	st := tournamenttest.OpenStore(t, dir)
	env := webtest.New(t, webtest.OnStore(st, st, nil))
	tr, _ := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	awaitHealth(t, env.Handler, http.StatusOK, "")
	table1 := r.Tables[0].Players
	sheet := func(version, top int) string {
		var scores []string
		for i, id := range table1 {
			scores = append(scores, fmt.Sprintf(`{"player":%d,"vp":%d}`, id, []int{top, 7, 5, 3}[i]))
		}
		return fmt.Sprintf(`{"scores":[%s],"declared":%d,"version":%d,"reason":"訂正%d"}`, strings.Join(scores, ","), table1[0], version, version)
	}
	put := func(version int) *httptest.ResponseRecorder {
		return webtest.Do(env.Handler, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID), sheet(version, 10), "Authorization", "Bearer test-token")
	}
	saved := 0
	for ; saved < 2; saved++ {
		if rec := put(saved); rec.Code != http.StatusOK {
			t.Fatalf("save %d before the disk is full = %d %s", saved+1, rec.Code, rec.Body)
		}
	}

	free := tournamenttest.FillDisk(t, dir)
	body := awaitHealth(t, env.Handler, http.StatusServiceUnavailable, "disk-full")
	if !strings.Contains(body["error"], "ディスクに空きがありません") {
		t.Errorf("/healthz with the disk full says %q, want the disk full in Japanese", body["error"])
	}

	// Table 1 through the API: corrections until the disk refuses one
	// (SQLite may fill the room its log already has first).
	var refused *httptest.ResponseRecorder
	for saved < 300 {
		rec := put(saved)
		if rec.Code != http.StatusOK {
			refused = rec
			break
		}
		saved++
	}
	t.Logf("%d revisions of table 1 were saved when one was refused", saved)
	if refused == nil || refused.Code != http.StatusInsufficientStorage || !strings.Contains(refused.Body.String(), `"code":"disk-full"`) ||
		!strings.Contains(jsonError(refused), "ディスクがいっぱい") {
		t.Fatalf("after %d saves the disk refused one with %v, want 507 disk-full in Japanese", saved, refused)
	}

	// Table 2 on the console: the sheet comes back as typed, with why.
	table2 := r.Tables[1].Players
	form := url.Values{"version": {"0"}, "declared": {webtest.Itoa(table2[0])}, "action": {"save"}}
	for i, id := range table2 {
		form.Set(fmt.Sprintf("vp_%d", id), fmt.Sprint([]int{10, 8, 6, 4}[i]))
	}
	score := fmt.Sprintf("/judge/t/%d/rounds/1/tables/2/score", tr.ID)
	res := b.Post(score, form)
	webtest.MustSee(t, "the score sheet with the disk full", res, http.StatusInsufficientStorage,
		"サーバーのディスクがいっぱいのため、保存できませんでした", "入力はこの画面に残っています")
	if got := webtest.FieldValue(res.Body, fmt.Sprintf("vp_%d", table2[1])); got != "8" {
		t.Errorf("the refused sheet shows %q for the second player, want the 8 typed", got)
	}
	if strings.Contains(res.Body, "サーバーでエラーが起きました") {
		t.Errorf("the refused sheet says a server error")
	}
	if rv, err := env.Service.RoundView(env.Ctx, tr.ID, 1); err != nil || rv.Tables[1].Result != nil {
		t.Fatalf("table 2 after the refused save: %v, %v; want no result", rv.Tables[1].Result, err)
	}

	// Space freed: the same sheet saves, and nothing acknowledged is lost.
	free()
	if res := b.Post(score, form); res.Status != http.StatusSeeOther {
		t.Fatalf("the same sheet once space is freed = %d\n%s", res.Status, res.Body)
	}
	revs, err := env.Service.Revisions(env.Ctx, tr.ID, 1, 1)
	if err != nil || len(revs) != saved {
		t.Fatalf("table 1 has %d revisions (%v), want the %d the server acknowledged", len(revs), err, saved)
	}
	awaitHealth(t, env.Handler, http.StatusOK, "")
	if _, err := env.Service.SaveResult(env.Ctx, "山田", tr.ID, 1, 1, tournament.ResultInput{Version: saved, Declared: table1[0], Reason: "空き",
		Scores: []tournament.Score{{PlayerID: table1[0], VP: 11}, {PlayerID: table1[1], VP: 7}, {PlayerID: table1[2], VP: 5}, {PlayerID: table1[3], VP: 3}}}); err != nil {
		t.Errorf("a correction of table 1 once space is freed: %v", err)
	}
}
