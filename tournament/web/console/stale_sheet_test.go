package console_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// overwriteToken finds the token the overwrite button of a page posts.
var overwriteToken = regexp.MustCompile(`name="overwrite" value="([0-9a-f]+)"`)

// Issue 24's lost correction on the score sheet, through the site: 山田
// saves table 1 (the second player 6); 佐藤 opens it; 山田 corrects the
// second player 6 → 7; 佐藤 changes only the third 8 → 9 and saves. The
// conflict's "your input" is the third player's 9 alone; taking it back
// keeps 山田's 7; saving stores both. On table 2 佐藤 changes the player
// 山田 corrected: taken back, the save asks first, naming the player and
// the three values, and stores nothing until confirmed. The JSON API's
// save over an old version stays a 409.
func TestStaleSheetKeepsTheOtherCorrection(t *testing.T) {
	p := webtest.NewPaired(t)
	sato := p.Browser()
	sato.Login("佐藤")
	for table := 1; table <= 2; table++ {
		ids := p.Round.Tables[table-1].Players
		save := func(version int, vp []int, reason string) {
			t.Helper()
			in := tournament.ResultInput{Declared: ids[0], Version: version, Reason: reason}
			for i, id := range ids {
				in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: vp[i]})
			}
			if _, err := p.Service.SaveResult(p.Ctx, "山田", p.Tournament.ID, 1, table, in); err != nil {
				t.Fatal(err)
			}
		}
		score := fmt.Sprintf("%s/tables/%d/score", p.URL, table)
		save(0, []int{10, 6, 8, 5}, "")
		opened := sato.Get(score).Body
		save(1, []int{10, 7, 8, 5}, "6点を7点に訂正")

		second, third := fmt.Sprintf("vp_%d", ids[1]), fmt.Sprintf("vp_%d", ids[2])
		typed := formAt(t, opened, score, 0, "reason", "数え直し", "action", "save")
		changed := third
		if table == 2 {
			changed = second
			typed.Set(second, "8")
		} else {
			typed.Set(third, "9")
		}
		res := sato.Post(score, typed)
		webtest.MustSee(t, fmt.Sprintf("table %d: the stale save", table), res, http.StatusConflict, "他のジャッジが先に更新しました", "あなたの入力（保存されていません）")
		mine := regexp.MustCompile(`(?s)<dl class="facts mine">(.*?)</dl>`).FindStringSubmatch(res.Body)
		if mine == nil {
			t.Fatalf("table %d: the conflict lists no input\n%s", table, res.Body)
		}
		want := map[int]string{1: p.Name(ids[2]) + "</dt><dd>9点", 2: p.Name(ids[1]) + "</dt><dd>8点"}[table]
		if !strings.Contains(mine[1], want) || strings.Count(mine[1], "<dt>") != 2 { // the line and the reason
			t.Errorf("table %d: your input lists %q, want %q and the reason alone", table, mine[1], want)
		}
		for _, id := range ids {
			if f := fmt.Sprintf("vp_%d", id); f != changed && strings.Contains(res.Body, `id="`+f+`-mine"`) {
				t.Errorf("table %d: the conflict marks %s as typed; 佐藤 never changed it", table, p.Name(id))
			}
		}
		if got := webtest.FieldValue(res.Body, second); got != "7" {
			t.Errorf("table %d: after the conflict the second player's field shows %q, want 山田's 7", table, got)
		}

		// Take the input back: a preview over version 2 from version 1.
		res = sato.Post(score, formAt(t, res.Body, score, 0))
		webtest.MustSee(t, fmt.Sprintf("table %d: my input back", table), res, http.StatusOK, `name="base" value="1"`, `name="version" value="2"`)
		wantSecond, wantThird := map[int]string{1: "7", 2: "8"}[table], map[int]string{1: "9", 2: "8"}[table]
		if got2, got3 := webtest.FieldValue(res.Body, second), webtest.FieldValue(res.Body, third); got2 != wantSecond || got3 != wantThird {
			t.Errorf("table %d: my input back shows %s and %s, want %s and %s", table, got2, got3, wantSecond, wantThird)
		}
		form := formAt(t, res.Body, score, 0, "action", "save")
		res = sato.Post(score, form)
		if table == 2 {
			// 佐藤's 8 would undo 山田's 7: asked first, nothing stored.
			webtest.MustSee(t, "table 2: the save over 山田's correction", res, http.StatusConflict, "他のジャッジが変えた欄を上書きしようとしています",
				"<th scope=\"row\">"+p.Name(ids[1])+"</th><td>6点</td><td>7点</td><td><strong>8点</strong></td>", "あなたの値で上書きして保存")
			if revs, _ := p.Service.Revisions(p.Ctx, p.Tournament.ID, 1, table); len(revs) != 2 {
				t.Fatalf("table 2 has %d revisions before the confirmation, want 2", len(revs))
			}
			m := overwriteToken.FindStringSubmatch(res.Body)
			if m == nil {
				t.Fatalf("no overwrite button\n%s", res.Body)
			}
			form = formAt(t, res.Body, score, 0)
			form.Set("overwrite", m[1])
			res = sato.Post(score, form)
		}
		if res.Status != http.StatusSeeOther {
			t.Fatalf("table %d: save = %d\n%s", table, res.Status, res.Body)
		}
		revs, err := p.Service.Revisions(p.Ctx, p.Tournament.ID, 1, table)
		if err != nil || len(revs) != 3 {
			t.Fatalf("table %d: revisions %v, %v; want 3", table, revs, err)
		}
		vp := map[int64]int{}
		for _, sc := range revs[2].Scores {
			vp[sc.PlayerID] = sc.VP
		}
		wantVP := map[int][2]int{1: {7, 9}, 2: {8, 8}}[table]
		if revs[2].Judge != "佐藤" || vp[ids[1]] != wantVP[0] || vp[ids[2]] != wantVP[1] {
			t.Errorf("table %d: version 3 by %s has %d and %d, want 佐藤's %v", table, revs[2].Judge, vp[ids[1]], vp[ids[2]], wantVP)
		}
	}

	// The JSON API: a save over version 1 once version 3 is saved is a 409.
	ids := p.Round.Tables[0].Players
	var scores []string
	for _, id := range ids {
		scores = append(scores, fmt.Sprintf(`{"player":%d,"vp":%d}`, id, 5))
	}
	body := fmt.Sprintf(`{"scores":[%s],"declared":null,"version":1,"reason":"古い版"}`, strings.Join(scores, ","))
	rec := webtest.Do(p.Handler, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", p.Tournament.ID), body, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"current_version":3`) {
		t.Errorf("PUT result over version 1 = %d %s, want 409 with current_version 3", rec.Code, rec.Body)
	}
}
