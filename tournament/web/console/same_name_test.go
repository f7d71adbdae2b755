package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestSameNamePlayersShowTheirReading: two players called 田中 are told
// apart by their reading in the swap and move lists, the keep-apart
// choices and the penalty form and list.
func TestSameNamePlayersShowTheirReading(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(6)
	var tanaka []tournament.Player
	for _, kana := range []string{"たなか いちろう", "たなか じろう"} {
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: "田中", Kana: kana, CheckedIn: true})
		if err != nil {
			t.Fatal(err)
		}
		tanaka = append(tanaka, p)
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.RecordPenalty(env.Ctx, "setup", tr.ID, tournament.PenaltyInput{PlayerID: tanaka[1].ID, Round: 1, Offence: "note-taking"}); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	base := fmt.Sprintf("/judge/t/%d", tr.ID)
	for _, pg := range []struct{ what, path string }{
		{"round page", base + "/rounds/1"},
		{"penalties page", base + "/penalties"},
		{"player page", fmt.Sprintf("%s/players/%d", base, tanaka[0].ID)},
	} {
		res := b.Get(pg.path)
		for _, p := range tanaka {
			if pg.what == "player page" && p.ID == tanaka[0].ID {
				continue
			}
			webtest.MustSee(t, pg.what, res, http.StatusOK, fmt.Sprintf("田中（%s）", p.Kana))
		}
	}
	webtest.MustSee(t, "penalties list", b.Get(base+"/penalties"), http.StatusOK, `<td class="name">田中<br><span class="kana">たなか じろう</span></td>`)
	webtest.MustSee(t, "round page in English", b.Get(base+"/rounds/1", "Accept-Language", "en"), http.StatusOK, "田中 (たなか じろう)")
}

// sameNameEnv is a site with an event of 8 players, two of them 佐藤 太郎
// and two 田中 一郎 with other readings, the four at table 1 of round 1,
// not seated yet; it returns the four and their labels.
func sameNameEnv(t *testing.T) (*webtest.Env, tournament.Tournament, []int64, []string) {
	t.Helper()
	env := webtest.New(t)
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "同名大会", Rounds: 3, SelfReport: tournament.SelfReportApprove})
	if err != nil {
		t.Fatal(err)
	}
	same := []tournament.PlayerInput{
		{Name: "佐藤 太郎", Kana: "さとう たろう"}, {Name: "佐藤 太郎", Kana: "さどう たろう"},
		{Name: "田中 一郎", Kana: "たなか いちろう"}, {Name: "田中 一郎", Kana: "たなか かずお"},
		{Name: "青木 聡", Kana: "あおき さとし"}, {Name: "井上 陽子", Kana: "いのうえ ようこ"},
		{Name: "鈴木 花子", Kana: "すずき はなこ"}, {Name: "高橋 健", Kana: "たかはし けん"},
	}
	var ids []int64
	for _, in := range same {
		in.CheckedIn = true
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Bring the four of one name to table 1.
	at1 := r.Tables[0].Players
	for _, id := range ids[:4] {
		if slices.Contains(at1, id) {
			continue
		}
		i := slices.IndexFunc(at1, func(o int64) bool { return !slices.Contains(ids[:4], o) })
		if _, err := env.Service.SwapPlayers(env.Ctx, "setup", tr.ID, 1, at1[i], id, "同名の確認"); err != nil {
			t.Fatal(err)
		}
		at1[i] = id
	}
	labels := []string{"佐藤 太郎（さとう たろう）", "佐藤 太郎（さどう たろう）", "田中 一郎（たなか いちろう）", "田中 一郎（たなか かずお）"}
	return env, tr, ids[:4], labels
}

// beside are what may follow a name of two players on a page: the label's
// reading, or the reading shown beside the name in a list of players.
var beside = []string{"（", `<br><span class="kana">`, `</a> <span class="k-kana">`}

// rawRecord is the audit log's record of a change as stored, which names
// players as the change did, not as the pages do.
var rawRecord = regexp.MustCompile(`(?s)<details><summary>記録の詳細</summary>.*?</details>`)

// mustTellApart fails unless the page shows each of labels and never
// names a player of one name without what tells them apart.
func mustTellApart(t *testing.T, what string, res webtest.Response, labels []string) {
	t.Helper()
	if res.Status != http.StatusOK {
		t.Fatalf("%s: status %d, want %d\n%s", what, res.Status, http.StatusOK, res.Body)
	}
	res.Body = rawRecord.ReplaceAllString(res.Body, "")
	for _, l := range labels {
		if !strings.Contains(res.Body, l) {
			t.Errorf("%s: does not show %q", what, l)
		}
	}
	for _, name := range []string{"佐藤 太郎", "田中 一郎"} {
		for rest := res.Body; ; {
			i := strings.Index(rest, name)
			if i < 0 {
				break
			}
			rest = rest[i+len(name):]
			if !slices.ContainsFunc(beside, func(b string) bool { return strings.HasPrefix(rest, b) }) {
				t.Errorf("%s: shows %s without its reading: …%s…", what, name, res.Body[max(0, len(res.Body)-len(rest)-len(name)-80):len(res.Body)-len(rest)+40])
			}
		}
	}
}

// TestSameNamePagesTellPlayersApart: an event with two 佐藤 太郎 and two
// 田中 一郎 at one table; every page that names them, the players' phone
// report and its confirmation first, tells each from the other.
func TestSameNamePagesTellPlayersApart(t *testing.T) {
	env, tr, ids, labels := sameNameEnv(t)
	j := env.Browser()
	j.Login("山田")
	base := fmt.Sprintf("/judge/t/%d", tr.ID)
	// The two 佐藤 tie on 7 with the capsule dice: the console asks the
	// two of them, told apart, to roll again, and lists the rolls by label.
	rv, err := env.Service.RoundView(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	rolls := map[int64][2]int{ids[0]: {3, 4}, ids[1]: {5, 2}, ids[2]: {6, 6}, ids[3]: {1, 1}}
	first := url.Values{"round_0": {"1"}}
	for _, p := range rv.Tables[0].Players {
		first.Set(fmt.Sprintf("r0_%d_w", p.PlayerID), fmt.Sprint(rolls[p.PlayerID][0]))
		first.Set(fmt.Sprintf("r0_%d_b", p.PlayerID), fmt.Sprint(rolls[p.PlayerID][1]))
	}
	tie := j.Post(base+"/rounds/1/tables/1/seating", first)
	mustTellApart(t, "the tie of the two 佐藤", tie, labels)
	if !regexp.MustCompile(`振り直してください: 佐藤 太郎（さ[とど]う たろう）・佐藤 太郎（さ[とど]う たろう）`).MatchString(tie.Body) {
		t.Errorf("the tie does not name the two 佐藤 apart:\n%s", tie.Body)
	}
	first.Set("round_1", "1")
	first.Set(fmt.Sprintf("r1_%d_w", ids[0]), "6")
	first.Set(fmt.Sprintf("r1_%d_b", ids[0]), "6")
	first.Set(fmt.Sprintf("r1_%d_w", ids[1]), "1")
	first.Set(fmt.Sprintf("r1_%d_b", ids[1]), "2")
	if res := j.Post(base+"/rounds/1/tables/1/seating", first); res.Status != http.StatusSeeOther {
		t.Fatalf("re-roll = %d, want 303\n%s", res.Status, res.Body)
	}
	if _, err := env.Service.SetBoard(env.Ctx, "setup", tr.ID, 1, 1, tournament.BoardInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	codes := map[int64]string{}
	for _, id := range ids {
		p, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		codes[id] = p.Code
	}
	if rv, err = env.Service.RoundView(env.Ctx, tr.ID, 1); err != nil {
		t.Fatal(err)
	}
	var seated []int64
	for _, p := range rv.Tables[0].Players {
		seated = append(seated, p.PlayerID)
	}
	phone := env.Browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	mustTellApart(t, "the phone's report form", phone.Get(table), labels)
	reportOf(t, env, tr.ID, 1, seated, codes)
	mustTellApart(t, "the phone's confirmation", phone.Get(table), labels)

	for _, pg := range []struct{ what, path string }{
		{"the console's table page", base + "/rounds/1/tables/1"},
		{"the round page with a report", base + "/rounds/1"},
		{"the score sheet", base + "/rounds/1/tables/1/score"},
		{"the ruling view", base + "/rounds/1/tables/1/ruling"},
		{"the record page", base + "/rounds/1/tables/1/game"},
		{"the kiosk", fmt.Sprintf("/kiosk/%d", tr.ID)},
		{"the projector", fmt.Sprintf("/kiosk/%d?view=projector", tr.ID)},
	} {
		mustTellApart(t, pg.what, j.Get(pg.path), labels)
	}

	for n, tv := range rv.Tables {
		var players []int64
		for _, p := range tv.Players {
			players = append(players, p.PlayerID)
		}
		in := tableOf(players)
		if _, err := env.Service.SaveResult(env.Ctx, "山田", tr.ID, 1, n+1, tournament.ResultInput{Scores: in.Scores, Declared: in.Declared}); err != nil {
			t.Fatal(err)
		}
	}
	for _, pg := range []struct{ what, path string }{
		{"the round page with results", base + "/rounds/1"},
		{"the score sheet with a result", base + "/rounds/1/tables/1/score"},
		{"the kiosk's standings", fmt.Sprintf("/kiosk/%d?tab=standings", tr.ID)},
		{"the projector's standings", fmt.Sprintf("/kiosk/%d?view=projector", tr.ID)},
		{"the audit log", base + "/audit"},
	} {
		mustTellApart(t, pg.what, j.Get(pg.path), labels)
	}
	if _, err := env.Service.CloseTournament(env.Ctx, "山田", tr.ID); err != nil {
		t.Fatal(err)
	}
	mustTellApart(t, "the results", j.Get(fmt.Sprintf("/results/%d", tr.ID)), labels)
}
