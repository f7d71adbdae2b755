package console_test

import (
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Issue 25: a message that names a judge names the API token as such,
// in both languages: 「APIトークンが 21:25 に終了しました」, never 「api さん」.
func TestMessagesNameTheAPITokenAsSuch(t *testing.T) {
	tr, err := i18n.New(templates.Locales, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(templates.Locales, "locales/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, name := range files {
		lang := strings.TrimSuffix(name[strings.LastIndex(name[:len(name)-len(".toml")], ".")+1:], ".toml")
		var texts map[string]string
		if _, err := toml.DecodeFS(templates.Locales, name, &texts); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for key, s := range texts {
			if !strings.Contains(s, ".Judge") {
				continue
			}
			named++
			got := tr.Text(lang, key, map[string]any{"Judge": tournament.APIActor, "At": "21:25", "Version": 2, "N": 1})
			if strings.Contains(got, "api") || strings.Contains(got, "APIトークン さん") {
				t.Errorf("%s %s names the API token as a person: %q", name, key, got)
			}
		}
	}
	if named < 40 {
		t.Errorf("read %d messages naming a judge, want every locale's", named)
	}
	if got := tr.Text("ja", "rule.tournament-finished", map[string]any{"Judge": tournament.APIActor, "At": "21:25"}); !strings.HasPrefix(got, "この大会は APIトークンが 21:25 に終了しました") {
		t.Errorf("rule.tournament-finished by the API token = %q", got)
	}
	if got := tr.Text("ja", "rule.tournament-finished", map[string]any{"Judge": "山田", "At": "21:25"}); !strings.HasPrefix(got, "この大会は 山田 さんが 21:25 に終了しました") {
		t.Errorf("rule.tournament-finished by 山田 = %q", got)
	}
}

// Issue 25: a reading is stored as it was typed and shown in hiragana on
// every page, so that lists never mix ヤマダ ユウト and やまもと だいすけ.
func TestReadingsShowInHiragana(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(7)
	p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: "山田 勇人", Kana: "ヤマダ ユウト", CheckedIn: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := env.Service.GetPlayer(env.Ctx, tr.ID, p.ID); err != nil || got.Kana != "ヤマダ ユウト" {
		t.Fatalf("the reading is stored as %q (%v), want as typed", got.Kana, err)
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	base := fmt.Sprintf("/judge/t/%d", tr.ID)
	for _, path := range []string{
		base + "/players",
		base + "/rounds/1",
		base + "/rounds/1/print/names",
		base + "/standings",
		base + "/penalties",
		fmt.Sprintf("/kiosk/%d", tr.ID),
	} {
		res := b.Get(path)
		webtest.MustSee(t, path, res, http.StatusOK, "やまだ ゆうと")
		if strings.Contains(res.Body, "ヤマダ ユウト") {
			t.Errorf("%s shows the reading in katakana", path)
		}
	}
}

// Issue 25: each line of the audit log says what changed in words: a
// score sheet's VP by player label, a correction's old and new values and
// its reason; the raw record stays behind 「記録の詳細」.
func TestAuditLogSaysWhatChanged(t *testing.T) {
	p := webtest.NewPaired(t)
	p.SaveAll(1)
	tb := p.Round.Tables[0]
	in := tournament.ResultInput{Declared: tb.Players[0], Version: 1, Reason: "数え直し"}
	for i, id := range tb.Players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 5, 3}[i]})
	}
	if _, err := p.Service.SaveResult(p.Ctx, "佐藤", p.Tournament.ID, 1, tb.Number, in); err != nil {
		t.Fatal(err)
	}
	audit := fmt.Sprintf("/judge/t/%d/audit", p.Tournament.ID)
	first, second := p.Name(tb.Players[0]), p.Name(tb.Players[1])
	webtest.MustSee(t, "audit log", p.B.Get(audit), http.StatusOK,
		`<span class="change">`+first+` 10点、`+second+` 7点`,
		"勝利宣言: "+first,
		`佐藤 が第1回戦 1卓の成績を訂正しました（版2）。`,
		`<span class="change">`+second+` の勝利点 7 → 8点、理由: 数え直し</span>`,
		`<summary>記録の詳細</summary>`)
	webtest.MustSee(t, "audit log in English", p.B.Get(audit, "Accept-Language", "en"), http.StatusOK,
		`<span class="change">`+second+` 7 → 8 VP, reason: 数え直し</span>`)
}
