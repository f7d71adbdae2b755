package console_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// latin finds English words in a message.
var latin = regexp.MustCompile(`[A-Za-z]{2,}`)

// A conflict (another judge's change came first, or what is recorded no
// longer allows the change) reaches the judge in the request's language:
// no English fragment of the log in the Japanese console.
func TestConflictMessagesInTheRequestLanguage(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	players := r.Tables[0].Players
	pen, err := env.Service.RecordPenalty(env.Ctx, "setup", tr.ID, tournament.PenaltyInput{PlayerID: players[0], Round: 1, Offence: "needless-talk"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.RevokePenalty(env.Ctx, "山田", pen.TournamentID, pen.ID, "人違い"); err != nil {
		t.Fatal(err)
	}
	var scores []string
	for i, id := range players {
		scores = append(scores, fmt.Sprintf(`{"player":%d,"vp":%d}`, id, 9-i))
	}
	sheet := fmt.Sprintf(`{"scores":[%s]}`, strings.Join(scores, ","))
	result := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID)
	env.TimeUp(tr.ID, 1)
	if rec := webtest.Do(env.Handler, "PUT", result, sheet, "Authorization", "Bearer test-token"); rec.Code != 200 {
		t.Fatalf("first save = %d %s", rec.Code, rec.Body)
	}
	pair := fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID)
	revoke := fmt.Sprintf("/api/v1/tournaments/%d/penalties/%d/revoke", tr.ID, pen.ID)
	first := players[0]
	name := map[int64]string{}
	for _, p := range mustPlayers(t, env, tr.ID) {
		name[p.ID] = p.Name
	}
	tests := []struct {
		name, method, target, body, lang string
		want                             []string
	}{
		{"results missing, ja", "POST", pair, "", "ja", []string{"第1回戦 2卓の結果がまだ入力されていません。"}},
		{"results missing, en", "POST", pair, "", "en", []string{"Round 1 table 2 has no result yet."}},
		{"revoked twice, ja", "POST", revoke, `{"reason":"再"}`, "ja", []string{"このペナルティはもう取り消されています"}},
		{"stale result, ja", "PUT", result, sheet, "ja", []string{"他のジャッジが先に更新しました", name[first] + " の勝利点9点を追加", "終了のしかた 未記録 → 時間切れで終了"}},
		{"stale result, en", "PUT", result, sheet, "en", []string{name[first] + " 9 VP added", "ended not recorded → Ended by time"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := webtest.Do(env.Handler, tt.method, tt.target, tt.body, "Authorization", "Bearer test-token", "Accept-Language", tt.lang)
			var body struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if rec.Code != 409 {
				t.Errorf("%s %s = %d %q, want 409", tt.method, tt.target, rec.Code, body.Error)
			}
			for _, w := range tt.want {
				if !strings.Contains(body.Error, w) {
					t.Errorf("%s %s (%s) = %q, want it to say %q", tt.method, tt.target, tt.lang, body.Error, w)
				}
			}
			if tt.lang == "ja" {
				// The judge who saved is the API token, named as such
				// (issue 25): never 「api さん」.
				if strings.Contains(body.Error, "api") {
					t.Errorf("%s %s (ja) = %q names the API token as a person", tt.method, tt.target, body.Error)
				}
				if words := latin.FindAllString(strings.ReplaceAll(body.Error, "APIトークン", ""), -1); len(words) > 0 {
					t.Errorf("%s %s (ja) = %q, which has English %q", tt.method, tt.target, body.Error, words)
				}
			}
		})
	}
}

func mustPlayers(t *testing.T, env *webtest.Env, tid int64) []tournament.Player {
	t.Helper()
	ps, err := env.Service.Players(env.Ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}
