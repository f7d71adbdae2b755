package console_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

func TestFormsKeepValuesOnValidationError(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	b.Login("山田")

	res := b.Post("/judge/tournaments", url.Values{"name": {""}, "venue": {"秋葉原店"}, "rounds": {"三"}, "game_minutes": {"7"}})
	webtest.MustSee(t, "create tournament without a name", res, http.StatusUnprocessableEntity,
		`<p class="field-error" id="name-error">入力してください。</p>`,
		`<p class="field-error" id="rounds-error">半角の整数で入力してください。</p>`,
		`aria-describedby="name-error"`)
	for id, want := range map[string]string{"venue": "秋葉原店", "rounds": "三", "game_minutes": "7"} {
		if got := webtest.FieldValue(res.Body, id); got != want {
			t.Errorf("after the refused form, %s = %q, want %q kept", id, got, want)
		}
	}
	// Full-width digits from a Japanese keyboard are numbers.
	res = b.Post("/judge/tournaments", url.Values{"name": {"冬の大会"}, "rounds": {"４"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("create tournament with rounds ４ = %d, want 303\n%s", res.Status, res.Body)
	}
	tid := strings.TrimPrefix(res.Location, "/judge/t/")
	webtest.MustSee(t, "the new tournament", b.Get(res.Location), http.StatusOK, "大会を作成しました。", "冬の大会")

	res = b.Post("/judge/t/"+tid+"/players", url.Values{"name": {"  "}, "kana": {"すずき"}})
	webtest.MustSee(t, "register a player without a name", res, http.StatusUnprocessableEntity, `id="name-error"`)
	if got := webtest.FieldValue(res.Body, "kana"); got != "すずき" {
		t.Errorf("kana after the refused form = %q, want kept", got)
	}
}

func TestSwapNeedsAReason(t *testing.T) {
	p := webtest.NewPaired(t)
	a, b := p.Round.Tables[0].Players[0], p.Round.Tables[1].Players[0]
	res := p.B.Post(p.URL+"/swap", url.Values{"a": {webtest.Itoa(a)}, "b": {webtest.Itoa(b)}, "reason": {""}})
	webtest.MustSee(t, "swap without a reason", res, http.StatusUnprocessableEntity, `id="swap_reason-error"`,
		fmt.Sprintf(`<option value="%d" selected>`, a), fmt.Sprintf(`<option value="%d" selected>`, b))
	res = p.B.Post(p.URL+"/swap", url.Values{"a": {webtest.Itoa(a)}, "b": {webtest.Itoa(b)}, "reason": {"親子のため"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("swap with a reason = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "round after the swap", p.B.Get(p.URL), http.StatusOK, "入れ替えました。", "親子のため")
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := rv.Round
	if got := r.Tables[0].Players; !contains(got, b) || contains(got, a) {
		t.Errorf("table 1 after swapping %d and %d = %v", a, b, got)
	}
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func TestPairAndRepairFromTheConsole(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	b := env.Browser()
	b.Login("山田")
	res := b.Post(fmt.Sprintf("/judge/t/%d/rounds", tr.ID), nil)
	if want := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID); res.Status != http.StatusSeeOther || res.Location != want {
		t.Fatalf("pair round 1 = %d to %q, want 303 to %s\n%s", res.Status, res.Location, want, res.Body)
	}
	webtest.MustSee(t, "round 1", b.Get(res.Location), http.StatusOK, "組み合わせを作りました。", "1卓", "2卓", "第1回戦を組み直す")
	// A late entry shows as missing from the pairing until it is re-paired.
	late, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: "遅刻", Kana: "ちこく"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.CheckIn(env.Ctx, "setup", late.TournamentID, late.ID, true); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "round 1 with a late entry", b.Get(res.Location), http.StatusOK, "組み合わせに入っていない参加者", "遅刻")
	webtest.MustSee(t, "players with a late entry", b.Get(fmt.Sprintf("/judge/t/%d/players", tr.ID)), http.StatusOK, "第1回戦から途中参加")
	if res := b.Post(res.Location+"/repair", nil); res.Status != http.StatusSeeOther {
		t.Fatalf("re-pair = %d, want 303\n%s", res.Status, res.Body)
	}
	// Pairing round 2 before round 1 has results is refused, with a page.
	res = b.Post(fmt.Sprintf("/judge/t/%d/rounds", tr.ID), nil)
	webtest.MustSee(t, "pair round 2 early", res, http.StatusConflict, "<h1>")
}

func TestPlayerNamesAreEscaped(t *testing.T) {
	env := webtest.New(t)
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: `<b>大会</b>`, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	evil := `<script>alert("x")</script>`
	var ids []int64
	for i, name := range []string{evil, "井上", "上田", "江藤"} {
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: name, Kana: `"><img src=x>` + strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Service.CheckIn(env.Ctx, "setup", p.TournamentID, p.ID, true); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.RecordPenalty(env.Ctx, "setup", tr.ID, tournament.PenaltyInput{PlayerID: ids[0], Round: 1, Offence: "note-taking", Note: evil}); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login(`<i>判</i>`)
	base := fmt.Sprintf("/judge/t/%d", tr.ID)
	for _, path := range []string{
		"/judge", base, base + "/players", fmt.Sprintf("%s/players/%d", base, ids[1]), base + "/rounds/1",
		base + "/rounds/1/tables/1", base + "/rounds/1/tables/1/score", base + "/penalties", base + "/standings", base + "/audit",
	} {
		res := b.Get(path)
		if res.Status != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", path, res.Status)
			continue
		}
		for _, raw := range []string{"<script>alert", "<img src=x>", "<b>大会", "<i>判"} {
			if strings.Contains(res.Body, raw) {
				t.Errorf("GET %s shows %q unescaped", path, raw)
			}
		}
	}
	webtest.MustSee(t, "players", b.Get(base+"/players"), http.StatusOK, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;")
}

func TestScoreSheet(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	score := p.URL + "/tables/1/score"
	webtest.MustSee(t, "empty score sheet", p.B.Get(score), http.StatusOK, "成績表の入力", `name="version" value="0"`)

	form := url.Values{"version": {"0"}, "action": {"save"}}
	vps := []int{8, 7, 7, 5}
	for i, id := range table.Players {
		form.Set(fmt.Sprintf("vp_%d", id), strconv.Itoa(vps[i]))
	}
	winner := table.Players[0]
	form.Set("declared", webtest.Itoa(winner))

	// A declaration with 8 VP breaks §11: the message sits at the declared
	// winner's field and every value typed stays.
	res := p.B.Post(score, form)
	webtest.MustSee(t, "declared winner with 8 VP", res, http.StatusUnprocessableEntity,
		`<p class="field-error" id="declared-error">`, "10点以上が必要です（§11）",
		fmt.Sprintf(`<input type="radio" name="declared" value="%d" checked>`, winner))
	for i, id := range table.Players {
		if got := webtest.FieldValue(res.Body, fmt.Sprintf("vp_%d", id)); got != strconv.Itoa(vps[i]) {
			t.Errorf("VP of player %d after the refused sheet = %q, want %d kept", id, got, vps[i])
		}
	}
	if rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1); err != nil || rv.Tables[0].Result != nil {
		t.Fatalf("a refused sheet was saved (err %v)", err)
	}
	// The preview refuses it in the same place.
	pv := cloneValues(form)
	pv.Set("action", "preview")
	res = p.B.Post(score, pv)
	webtest.MustSee(t, "preview of a declared winner with 8 VP", res, http.StatusUnprocessableEntity,
		`<p class="field-error" id="declared-error">`, "10点以上が必要です（§11）")
	if strings.Contains(res.Body, "保存前の順位") {
		t.Errorf("the refused preview shows placings")
	}

	// A missing VP stays next to its field.
	bad := cloneValues(form)
	bad.Set(fmt.Sprintf("vp_%d", table.Players[2]), "")
	webtest.MustSee(t, "sheet with a missing VP", p.B.Post(score, bad), http.StatusUnprocessableEntity,
		fmt.Sprintf(`id="vp_%d-error"`, table.Players[2]))

	// Preview shows the placings and saves nothing.
	form.Set(fmt.Sprintf("vp_%d", winner), "10")
	form.Set("action", "preview")
	res = p.B.Post(score, form)
	webtest.MustSee(t, "preview", res, http.StatusOK, "保存前の順位", `<td class="place">1位</td>`, `<td class="place">2位</td>`)
	if rv, _ := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1); rv.Tables[0].Result != nil {
		t.Fatalf("preview saved the sheet")
	}

	form.Set("action", "save")
	res = p.B.Post(score, form)
	if res.Status != http.StatusSeeOther || res.Location != score {
		t.Fatalf("save = %d to %q, want 303 back to the sheet\n%s", res.Status, res.Location, res.Body)
	}
	res = p.B.Get(score)
	webtest.MustSee(t, "saved sheet", res, http.StatusOK, "成績表を保存しました。", "版1・山田", `name="version" value="1"`, "訂正の理由")

	// A second judge saves a correction; the first, still on version 0, is
	// refused with what changed.
	other := p.Browser()
	other.Login("佐藤")
	corr := cloneValues(form)
	corr.Set("version", "1")
	corr.Set("reason", "数え直し")
	corr.Set(fmt.Sprintf("vp_%d", table.Players[1]), "9")
	if res := other.Post(score, corr); res.Status != http.StatusSeeOther {
		t.Fatalf("correction = %d, want 303\n%s", res.Status, res.Body)
	}
	stale := cloneValues(form)
	stale.Set(fmt.Sprintf("vp_%d", table.Players[3]), "6")
	res = p.B.Post(score, stale)
	webtest.MustSee(t, "stale sheet", res, http.StatusConflict, "他のジャッジが先に更新しました", "佐藤", "版2",
		fmt.Sprintf("%s の勝利点9点", p.Name(table.Players[1])), `name="version" value="2"`)
	// The sheet starts from what is saved now (issue 10: it used to keep the
	// stale values, so a second Save undid the other judge's correction);
	// the typed 6 is kept beside its field and in the form that takes it back.
	saved := form.Get(fmt.Sprintf("vp_%d", table.Players[3]))
	if got := webtest.FieldValue(res.Body, fmt.Sprintf("vp_%d", table.Players[3])); got != saved {
		t.Errorf("VP field after the conflict = %q, want the saved %s", got, saved)
	}
	if got := webtest.FieldValue(res.Body, fmt.Sprintf("vp_%d", table.Players[1])); got != "9" {
		t.Errorf("VP field of the other judge's correction after the conflict = %q, want their 9", got)
	}
	webtest.MustSee(t, "stale sheet", res, http.StatusConflict, fmt.Sprintf(`id="vp_%d-mine">あなたの入力: 6`, table.Players[3]),
		fmt.Sprintf(`<input type="hidden" name="vp_%d" value="6">`, table.Players[3]))
	// Saving knowingly over version 2 is a correction: it needs a reason.
	stale.Set("version", "2")
	webtest.MustSee(t, "correction without a reason", p.B.Post(score, stale), http.StatusUnprocessableEntity, `id="reason-error"`)
	stale.Set("reason", "佐藤さんと確認")
	if res := p.B.Post(score, stale); res.Status != http.StatusSeeOther {
		t.Fatalf("correction with a reason = %d, want 303\n%s", res.Status, res.Body)
	}
	revs, err := p.Service.Revisions(p.Ctx, p.Tournament.ID, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 3 || revs[2].Judge != "山田" || revs[1].Judge != "佐藤" {
		t.Errorf("revisions = %d, want 3 by 山田, 佐藤, 山田", len(revs))
	}
}

// The preview places the sheet as saving will: a game loss given in the
// game puts the player last with 0 VP before anything is saved.
func TestScorePreviewCountsPenalties(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	loser := table.Players[0]
	if _, err := p.Service.RecordPenalty(p.Ctx, "setup", p.Tournament.ID, tournament.PenaltyInput{PlayerID: loser, Round: 1, Offence: "ignored-judge"}); err != nil {
		t.Fatal(err)
	}
	form := url.Values{"version": {"0"}, "action": {"preview"}, "declared": {"time"}}
	for i, id := range table.Players {
		form.Set(fmt.Sprintf("vp_%d", id), strconv.Itoa(9-i))
	}
	p.TimeUp(p.Tournament.ID, 1)
	res := p.B.Post(p.URL+"/tables/1/score", form)
	webtest.MustSee(t, "preview with a game loss", res, http.StatusOK, "保存前の順位")
	preview := res.Body[strings.Index(res.Body, "保存前の順位"):]
	want := fmt.Sprintf(`<td class="place">%d位</td>
    <td><span class="name">%s</span></td>
    <td class="num">0</td>`, len(table.Players), p.Name(loser))
	if !strings.Contains(preview, want) {
		t.Errorf("the preview does not place %s last with 0 VP after a game loss\n%s", p.Name(loser), preview)
	}
	if rv, _ := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1); rv.Tables[0].Result != nil {
		t.Fatalf("preview saved the sheet")
	}
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

func TestSeatingTieFlow(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	seat := p.URL + "/tables/1/seating"
	first := url.Values{"round_0": {"1"}}
	// Players 0 and 1 tie on 7; 2 and 3 are settled.
	rolls := [][2]int{{3, 4}, {5, 2}, {6, 6}, {1, 1}}
	for i, id := range table.Players {
		first.Set(fmt.Sprintf("r0_%d_w", id), strconv.Itoa(rolls[i][0]))
		first.Set(fmt.Sprintf("r0_%d_b", id), strconv.Itoa(rolls[i][1]))
	}
	res := p.B.Post(seat, first)
	tied := []int64{table.Players[0], table.Players[1]}
	webtest.MustSee(t, "tied rolls", res, http.StatusOK, "同点です。次の人だけ振り直してください", `name="round_1"`,
		fmt.Sprintf(`id="r1_%d_w"`, tied[0]), fmt.Sprintf(`id="r1_%d_w"`, tied[1]),
		fmt.Sprintf(`name="r0_%d_w" value="3"`, tied[0]))
	for _, id := range table.Players[2:] {
		if strings.Contains(res.Body, fmt.Sprintf(`id="r1_%d_w"`, id)) {
			t.Errorf("player %d, not tied, is asked to re-roll", id)
		}
	}
	// The re-roll goes with the first rolls, as the page carries them.
	again := cloneValues(first)
	again.Set("round_1", "1")
	again.Set(fmt.Sprintf("r1_%d_w", tied[0]), "2")
	again.Set(fmt.Sprintf("r1_%d_b", tied[0]), "9")
	again.Set(fmt.Sprintf("r1_%d_w", tied[1]), "6")
	again.Set(fmt.Sprintf("r1_%d_b", tied[1]), "6")
	webtest.MustSee(t, "re-roll with a 9", p.B.Post(seat, again), http.StatusUnprocessableEntity,
		fmt.Sprintf(`id="r1_%d_b-error"`, tied[0]), "1〜6の範囲")
	again.Set(fmt.Sprintf("r1_%d_b", tied[0]), "1")
	if res := p.B.Post(seat, again); res.Status != http.StatusSeeOther {
		t.Fatalf("re-roll = %d, want 303\n%s", res.Status, res.Body)
	}
	res = p.B.Get(p.URL + "/tables/1")
	webtest.MustSee(t, "seated table", res, http.StatusOK, "手番と色を記録しました。", `class="seat red"`, "振り直し 1回目")
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	// §3 オ: 12 first, then the tie 7/7 settled by 12 over 3, then 2.
	want := []int64{table.Players[2], tied[1], tied[0], table.Players[3]}
	for i, sv := range rv.Tables[0].Players {
		if sv.PlayerID != want[i] || sv.Seat != i+1 {
			t.Errorf("seat %d = player %d (order %d), want player %d", i+1, sv.PlayerID, sv.Seat, want[i])
		}
	}
	// Rolling for the other table is one button.
	if res := p.B.Post(p.URL+"/tables/2/seating", url.Values{"auto": {"1"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("auto seating = %d, want 303\n%s", res.Status, res.Body)
	}
}

func TestBoardAndDeal(t *testing.T) {
	p := webtest.NewPaired(t)
	tableURL := p.URL + "/tables/1"
	webtest.MustSee(t, "board with a 7", p.B.Post(tableURL+"/board", url.Values{"white": {"7"}, "blue": {"2"}}),
		http.StatusUnprocessableEntity, `id="white-error"`)
	if res := p.B.Post(tableURL+"/board", url.Values{"white": {"3"}, "blue": {"2"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("set board = %d, want 303\n%s", res.Status, res.Body)
	}
	res := p.B.Get(tableURL)
	webtest.MustSee(t, "table with a board", res, http.StatusOK, `<svg class="board"`, "白 3", `fill="#c40000"`, "3:1", `class="robber"`)
	if n := strings.Count(res.Body, "<polygon "); n != 19 {
		t.Errorf("board draws %d hexes, want 19", n)
	}
	if n := strings.Count(res.Body, `<g class="harbor">`); n != 9 {
		t.Errorf("board draws %d harbours, want 9", n)
	}
	checkDealLabels(t, res.Body)
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	board := *rv.Tables[0].Board
	chips := board.Chips()

	// Three reds in a line: the dango rule (§3 ウ) calls for a redeal.
	clumped := clumpReds(t, board, chips)
	res = p.B.Post(tableURL+"/deal", webtest.DealValues(clumped))
	webtest.MustSee(t, "clumped deal", res, http.StatusUnprocessableEntity, "配り直しが必要です", `stroke="#d00000"`)
	// The board and the refused deal are two drawings on one page.
	if n := strings.Count(res.Body, `<svg class="board"`); n != 2 {
		t.Errorf("clumped deal: %d boards drawn, want the board and the deal", n)
	}
	checkIDs(t, "clumped deal", res.Body)
	// A chip left out: the refusal names the hex as the entry does, by
	// terrain and place, never by coordinates, and marks its input.
	missing := chips[0]
	left := p.B.Post(tableURL+"/deal", webtest.DealValues(chips[1:]))
	field := fmt.Sprintf("chip_%d_%d", missing.Hex.Q, missing.Hex.R)
	if left.Status != http.StatusUnprocessableEntity || strings.Contains(left.Body, missing.Hex.String()) ||
		!regexp.MustCompile(`id="deal-error">[^<]*段目・左から`).MatchString(left.Body) ||
		!regexp.MustCompile(`id="`+field+`" name="`+field+`"[^>]*aria-invalid="true" aria-describedby="deal-error"`).MatchString(left.Body) {
		t.Errorf("a deal without the chip on %v = %d, want the hex named by its place and its input marked:\n%s", missing.Hex, left.Status, left.Body)
	}
	for _, ch := range clumped[:3] {
		if got := webtest.FieldValue(res.Body, fmt.Sprintf("chip_%d_%d", ch.Hex.Q, ch.Hex.R)); got != strconv.Itoa(ch.Number) {
			t.Errorf("chip on %v after the refused deal = %q, want %d kept", ch.Hex, got, ch.Number)
		}
	}
	// The console's own deal passes as a physical one.
	if res := p.B.Post(tableURL+"/deal", webtest.DealValues(chips)); res.Status != http.StatusSeeOther {
		t.Fatalf("valid deal = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "hand-dealt board", p.B.Get(tableURL), http.StatusOK, "卓で配った配置をジャッジが入力しました")
}

// dealLabel is a chip input's label: its field and its text.
var dealLabel = regexp.MustCompile(`<label for="(chip_-?\d+_-?\d+)">(.*?)</label>`)

// checkDealLabels checks that the chip entry names each hex as a judge
// would, by its terrain and its place on the board as drawn (row from the
// top, place from the left, or the centre), never by coordinates.
func checkDealLabels(t *testing.T, body string) {
	t.Helper()
	labels := map[string]string{}
	for _, m := range dealLabel.FindAllStringSubmatch(body, -1) {
		labels[m[1]] = html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(m[2], ""))
	}
	if len(labels) != 19 {
		t.Fatalf("the chip entry has %d labelled hexes, want 19", len(labels))
	}
	want := map[string]string{
		"chip_0_-2": "（1段目・左から1）", "chip_2_-2": "（1段目・左から3）", "chip_-2_0": "（3段目・左から1）",
		"chip_0_0": "（中央）", "chip_2_0": "（3段目・左から5）", "chip_-2_2": "（5段目・左から1）",
	}
	for field, place := range want {
		if !strings.HasSuffix(labels[field], place) {
			t.Errorf("the label of %s says %q, want a terrain and %s", field, labels[field], place)
		}
	}
	for field, l := range labels {
		if strings.ContainsAny(l, "(,") || strings.HasPrefix(l, "（") {
			t.Errorf("the label of %s says %q: coordinates, or no terrain", field, l)
		}
	}
}

// clumpReds rearranges a valid deal so that three red chips lie in a row
// of connected hexes, the clumped ones first.
func clumpReds(t *testing.T, b referee.Board, chips []referee.Chip) []referee.Chip {
	t.Helper()
	num := map[referee.Hex]int{}
	for _, ch := range chips {
		num[ch.Hex] = ch.Number
	}
	red := func(n int) bool { return n == 6 || n == 8 }
	for _, mid := range referee.LandHexes() {
		if _, ok := num[mid]; !ok {
			continue
		}
		var ends []referee.Hex
		// The six hexes sharing a side with mid, in Hex.Compare order.
		for _, d := range [][2]int{{0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}} {
			if n := (referee.Hex{Q: mid.Q + d[0], R: mid.R + d[1]}); num[n] != 0 {
				ends = append(ends, n)
			}
		}
		if len(ends) < 2 {
			continue
		}
		target := []referee.Hex{ends[0], mid, ends[1]}
		for _, h := range target {
			if red(num[h]) {
				continue
			}
			for o, n := range num {
				if red(n) && o != target[0] && o != target[1] && o != target[2] {
					num[h], num[o] = num[o], num[h]
					break
				}
			}
		}
		out := make([]referee.Chip, 0, len(chips))
		for _, h := range target {
			out = append(out, referee.Chip{Hex: h, Number: num[h]})
		}
		for _, ch := range chips {
			if ch.Hex != target[0] && ch.Hex != target[1] && ch.Hex != target[2] {
				out = append(out, referee.Chip{Hex: ch.Hex, Number: num[ch.Hex]})
			}
		}
		return out
	}
	t.Fatal("no three connected hexes with chips")
	return nil
}

func TestPenalties(t *testing.T) {
	p := webtest.NewPaired(t)
	page := fmt.Sprintf("/judge/t/%d/penalties", p.Tournament.ID)
	player := webtest.Itoa(p.Players[0].ID)
	webtest.MustSee(t, "penalties page", p.B.Get(page), http.StatusOK, "§13", "メモを取った", "警告")
	webtest.MustSee(t, "penalty without a player", p.B.Post(page, url.Values{"offence": {"note-taking"}, "note": {"机の下で"}, "action": {"record"}}),
		http.StatusUnprocessableEntity, `id="player-error"`, "机の下で")
	rec := url.Values{"player": {player}, "round": {"1"}, "offence": {"note-taking"}, "note": {"メモ帳"}, "action": {"suggest"}}
	webtest.MustSee(t, "suggest a first warning", p.B.Post(page, rec), http.StatusOK, "推奨レベル: 警告")
	rec.Set("action", "record")
	rec.Set("level", "")
	if res := p.B.Post(page, rec); res.Status != http.StatusSeeOther {
		t.Fatalf("record = %d, want 303\n%s", res.Status, res.Body)
	}
	rec.Set("action", "suggest")
	webtest.MustSee(t, "suggest after a warning", p.B.Post(page, rec), http.StatusOK, "推奨レベル: 勝利点減点（2回目: 前回の最高 警告 → 勝利点減点）")
	// Cautions escalate too (docs/rules.md, Penalties), and the page says how.
	talk := url.Values{"player": {player}, "round": {"1"}, "offence": {"needless-talk"}, "action": {"record"}}
	if res := p.B.Post(page, talk); res.Status != http.StatusSeeOther {
		t.Fatalf("record a caution = %d, want 303\n%s", res.Status, res.Body)
	}
	talk.Set("action", "suggest")
	webtest.MustSee(t, "suggest after a caution", p.B.Post(page, talk), http.StatusOK, "推奨レベル: 警告（2回目: 前回の最高 注意 → 警告）")

	pens, err := p.Service.Penalties(p.Ctx, p.Tournament.ID)
	if err != nil || len(pens) != 2 {
		t.Fatalf("penalties = %v, %v; want two", pens, err)
	}
	if pens[0].Level != referee.Warning || pens[0].Table == 0 || pens[0].Judge != "山田" {
		t.Errorf("recorded penalty = %+v, want a warning at the player's table by 山田", pens[0])
	}
	revoke := fmt.Sprintf("%s/%d/revoke", page, pens[0].ID)
	webtest.MustSee(t, "revoke without a reason", p.B.Post(revoke, url.Values{"reason": {""}}), http.StatusUnprocessableEntity,
		fmt.Sprintf(`id="revoke-%d-error"`, pens[0].ID))
	if res := p.B.Post(revoke, url.Values{"reason": {"見間違い"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("revoke = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "penalties after revoking", p.B.Get(page), http.StatusOK, "取消済み", "見間違い")
	webtest.MustSee(t, "audit log", p.B.Get(fmt.Sprintf("/judge/t/%d/audit", p.Tournament.ID)), http.StatusOK, "のペナルティを取り消しました", "理由: 見間違い", "山田")
	webtest.MustSee(t, "standings", p.B.Get(fmt.Sprintf("/judge/t/%d/standings", p.Tournament.ID)), http.StatusOK, "順位の決め方: 1位の回数")
}

func TestPagesInEnglish(t *testing.T) {
	p := webtest.NewPaired(t)
	p.B.Get("/lang/en?next=/judge")
	webtest.MustSee(t, "round in English", p.B.Get(p.URL), http.StatusOK, "Round 1", "Table 1", "Swap two players")
	webtest.MustSee(t, "table in English", p.B.Get(p.URL+"/tables/1"), http.StatusOK, "Roll for me", "Play order and colours")
}

func TestUnknownThingsAreNotFound(t *testing.T) {
	p := webtest.NewPaired(t)
	for _, path := range []string{
		"/judge/t/999", "/judge/t/abc", p.URL + "0", p.URL + "/tables/9", p.URL + "/tables/9/score",
		fmt.Sprintf("/judge/t/%d/players/999999", p.Tournament.ID),
	} {
		webtest.MustSee(t, "GET "+path, p.B.Get(path), http.StatusNotFound, "エラー")
	}
	// A player of another tournament is not reachable through this one.
	other, err := p.Service.CreateTournament(p.Ctx, "setup", tournament.TournamentInput{Name: "別大会", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "player through another tournament", p.B.Get(fmt.Sprintf("/judge/t/%d/players/%d", other.ID, p.Players[0].ID)), http.StatusNotFound)
}

// Issue 15: the score sheet takes each player's breakdown. A total that
// does not add up is refused with the message by the VP field, every
// typed value kept; two longest roads are said by both players' fields;
// the live check (static/forms.js posts part=preview) shows the counted VP;
// a sheet that adds up is saved with its breakdowns, shown on the sheet,
// the revisions and the round page.
func TestScoreSheetBreakdown(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	score := p.URL + "/tables/1/score"
	// The sheet opens with the VP alone, and a link to the breakdown.
	res := p.B.Get(score)
	webtest.MustSee(t, "empty sheet", res, http.StatusOK, `id="show-breakdown"`, score+"?breakdown=1")
	if strings.Contains(res.Body, "settlements_") {
		t.Errorf("the sheet opens with the breakdown's fields")
	}
	res = p.B.Get(score + "?breakdown=1")
	webtest.MustSee(t, "sheet with the breakdown", res, http.StatusOK, "内訳（§11）", fmt.Sprintf(`name="settlements_%d"`, table.Players[0]),
		fmt.Sprintf(`name="longest_road_%d"`, table.Players[3]), `data-live="live-preview"`)

	a, b := table.Players[0], table.Players[1]
	form := url.Values{"version": {"0"}, "action": {"save"}, "declared": {webtest.Itoa(a)}}
	set := func(id int64, vp, s, c string, lr bool, pc string) {
		form.Set(fmt.Sprintf("vp_%d", id), vp)
		form.Set(fmt.Sprintf("settlements_%d", id), s)
		form.Set(fmt.Sprintf("cities_%d", id), c)
		form.Set(fmt.Sprintf("point_cards_%d", id), pc)
		form.Del(fmt.Sprintf("longest_road_%d", id))
		if lr {
			form.Set(fmt.Sprintf("longest_road_%d", id), "1")
		}
	}
	set(a, "11", "2", "2", true, "2") // counts 10
	set(b, "", "3", "1", false, "")   // counts 5
	set(table.Players[2], "6", "", "", false, "")
	set(table.Players[3], "4", "", "", false, "")
	res = p.B.Post(score, form)
	webtest.MustSee(t, "a total that does not add up", res, http.StatusUnprocessableEntity,
		fmt.Sprintf(`<p class="field-error" id="vp_%d-error">「%s」の勝利点は11点と書かれていますが、内訳からは10点です（§11）`, a, p.Name(a)),
		fmt.Sprintf(`<output id="total-%d" data-live>10</output>`, a), fmt.Sprintf(`<output id="total-%d" data-live>5</output>`, b))
	if got := webtest.FieldValue(res.Body, fmt.Sprintf("vp_%d", a)); got != "11" {
		t.Errorf("VP after the refusal = %q, want 11 kept", got)
	}
	if !strings.Contains(res.Body, fmt.Sprintf(`id="vp_%d" name="vp_%d" type="number" inputmode="numeric" min="0" max="99" value="11" class="vp" autofocus aria-invalid="true"`, a, a)) {
		t.Errorf("the VP field is not marked invalid:\n%s", res.Body)
	}
	if rv, _ := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1); rv.Tables[0].Result != nil {
		t.Fatalf("a refused sheet was saved")
	}

	// Two longest roads: said by both players' breakdowns.
	set(a, "10", "2", "2", true, "2")
	set(b, "", "3", "1", true, "")
	res = p.B.Post(score, form)
	webtest.MustSee(t, "two longest roads", res, http.StatusUnprocessableEntity,
		fmt.Sprintf(`id="problems-%d" data-live><p class="field-error">`, a), fmt.Sprintf(`id="problems-%d" data-live><p class="field-error">`, b),
		"ロンゲストロードは1枚です（§10 ア）", fmt.Sprintf(`id="longest_road_%d" value="1" checked aria-invalid="true"`, b))

	// The live check while typing: the counts, and nothing is an error
	// for a row not typed yet.
	live := cloneValues(form)
	live.Set("part", "preview")
	live.Del("declared")
	set(b, "", "3", "1", false, "")
	live.Set(fmt.Sprintf("settlements_%d", b), "4")
	live.Del(fmt.Sprintf("longest_road_%d", b))
	live.Set(fmt.Sprintf("vp_%d", table.Players[3]), "")
	res = p.B.Post(score, live)
	webtest.MustSee(t, "live check", res, http.StatusOK, fmt.Sprintf(`<output id="total-%d" data-live>6</output>`, b))
	if strings.Contains(res.Body, `class="field-error"`) {
		t.Errorf("the live check of a sheet being typed shows errors:\n%s", res.Body)
	}
	live.Set(fmt.Sprintf("vp_%d", table.Players[3]), "4")
	live.Set(fmt.Sprintf("vp_%d", a), "9")
	webtest.MustSee(t, "live check of a mistyped total", p.B.Post(score, live), http.StatusOK,
		fmt.Sprintf(`<p class="field-error" id="vp_%d-error">「%s」の勝利点は9点と書かれていますが、内訳からは10点です`, a, p.Name(a)))

	res = p.B.Post(score, form)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("save = %d, want 303\n%s", res.Status, res.Body)
	}
	res = p.B.Get(score)
	webtest.MustSee(t, "saved sheet", res, http.StatusOK, "家2・街2・ロンゲストロード・1ポイント×2", "家3・街1",
		fmt.Sprintf(`id="cities_%d" type="number" inputmode="numeric" min="0" max="4" value="1"`, b))
	webtest.MustSee(t, "round page", p.B.Get(p.URL), http.StatusOK, "（家2・街2・ロンゲストロード・1ポイント×2）")
}

// Issue 15: a ruling saved at a table shows on the table's page with the
// engine's answer in the judge's language, in the audit log, and prints.
func TestRulingOnTablePage(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	a, b := webtest.Itoa(table.Players[0]), webtest.Itoa(table.Players[1])
	if _, _, err := p.Service.SaveRuling(p.Ctx, "山田", p.Tournament.ID, 1, 1, tournament.RulingInput{Note: "道が切られた", Steps: []game.Step{
		{Do: "settlement", Player: a, At: "N(0,0)"},
		{Do: "road", Player: a, Edge: []string{"N(0,0)", "S(1,-1)"}}, {Do: "road", Player: a, Edge: []string{"S(1,-1)", "N(1,0)"}},
		{Do: "road", Player: a, Edge: []string{"N(1,0)", "S(2,-1)"}}, {Do: "road", Player: a, Edge: []string{"S(2,-1)", "N(2,0)"}},
		{Do: "road", Player: a, Edge: []string{"N(2,0)", "S(3,-1)"}},
		{Do: "settlement", Player: b, At: "S(1,-1)"},
	}}); err != nil {
		t.Fatal(err)
	}
	page := p.URL + "/tables/1"
	res := p.B.Get(page)
	webtest.MustSee(t, "table page", res, http.StatusOK, "この卓の裁定", "道が切られた", "山田（",
		"場（だれも持たない） — ", "§10", p.Name(table.Players[0]), "手順7: ", page+"/ruling", page+"/rulings/print")
	// The engine's note on step 7 names the corner as the ruling view
	// does, by the land around it, not by its coordinates.
	if m := regexp.MustCompile(`手順7: [^<]*`).FindString(res.Body); m == "" || strings.Contains(m, "S(1,-1)") || !strings.Contains(m, "の角") {
		t.Errorf("the saved ruling's step 7 reads %q, want the corner named by its land", m)
	}
	webtest.MustSee(t, "printed rulings", p.B.Get(page+"/rulings/print"), http.StatusOK, "裁定 — 第1回戦 1卓", "道が切られた", "data-print")
	webtest.MustSee(t, "audit log", p.B.Get(fmt.Sprintf("/judge/t/%d/audit", p.Tournament.ID)), http.StatusOK, "山田 が第1回戦 1卓で裁定を記録しました。")
}

// Issue 15: the ruling view without its script: the board drawn by the
// server with every corner and edge to tap, steps added by name, the
// answer with the longest road's trail, a step off the board refused in
// place, and the ruling saved to the table's page.
func TestRulingView(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	a, b := webtest.Itoa(table.Players[0]), webtest.Itoa(table.Players[1])
	view := p.URL + "/tables/1/ruling"
	res := p.B.Get(view)
	webtest.MustSee(t, "ruling view", res, http.StatusOK, "裁定 — 第1回戦 1卓", `data-at="N(0,0)"`, `data-edge="N(0,0) S(1,-1)"`,
		"この卓の盤面は記録されていません", `name="steps" value="[]"`, "ロンゲストロード（§10 ア）")
	if n := strings.Count(res.Body, `class="hit corner"`); n != 54 {
		t.Errorf("the view has %d corners to tap, want 54", n)
	}
	if n := strings.Count(res.Body, `class="hit edge"`); n != 72 {
		t.Errorf("the view has %d edges to tap, want 72", n)
	}
	steps := "[]"
	add := func(player, do, typed string) webtest.Response {
		t.Helper()
		res := p.B.Post(view, url.Values{"steps": {steps}, "player": {player}, "do": {do}, "typed": {typed}, "action": {"add"}})
		m := regexp.MustCompile(`name="steps" value="([^"]*)"`).FindStringSubmatch(res.Body)
		if m == nil {
			t.Fatalf("no steps in the answer:\n%s", res.Body)
		}
		steps = html.UnescapeString(m[1])
		return res
	}
	add(a, "settlement", "N(0,0)")
	for _, e := range []string{"N(0,0) S(1,-1)", "S(1,-1) N(1,0)", "N(1,0) S(2,-1)", "S(2,-1) N(2,0)"} {
		add(a, "road", e)
	}
	res = add(a, "settlement", "N(2,0) S(3,-1)") // an edge in settlement mode is a road
	webtest.MustSee(t, "five roads", res, http.StatusOK, `class="trail"`, p.Name(table.Players[0])+" — ", "§10",
		`<g class="road" data-piece="N(2,0) S(3,-1)">`)
	if !strings.Contains(res.Body, `<dd id="answer-longest-road">`+p.Name(table.Players[0])) {
		t.Errorf("the longest road is not %s's after five roads:\n%s", p.Name(table.Players[0]), res.Body)
	}
	res = add(b, "settlement", "s(1, -1)")
	webtest.MustSee(t, "the cut", res, http.StatusOK, `<dd id="answer-longest-road">場（だれも持たない） — `, `id="answer-notes"`)
	// Issue 25: a settlement is a house and a city a larger two-storey
	// house, each with its owner's seat number: never a disc a road's end
	// looks like, never colour alone.
	res = add(a, "city", "N(0,0)")
	for what, re := range map[string]string{
		"settlement": `<g class="building settlement" data-piece="S\(1,-1\)"[^>]*><title>[^<]+</title>\s*<polygon points="-10,10 10,10 10,-2 0,-12 -10,-2"[^>]*/>\s*<text[^>]*>[1-4]</text>`,
		"city":       `<g class="building city" data-piece="N\(0,0\)"[^>]*><title>[^<]+</title>\s*<polygon points="-16,12 16,12 16,-3 3,-3 3,-9 -6.5,-19 -16,-9"[^>]*/>\s*<text[^>]*>[1-4]</text>`,
	} {
		if !regexp.MustCompile(re).MatchString(res.Body) {
			t.Errorf("the %s is not drawn as its own shape with its seat number:\n%s", what, res.Body)
		}
	}
	if strings.Contains(res.Body, `<circle cx=`) && regexp.MustCompile(`class="building[^"]*"[^>]*>(<title>[^<]*</title>)?\s*<circle`).MatchString(res.Body) {
		t.Errorf("a building is drawn as a disc")
	}
	// A corner off the board is refused next to the board, the steps kept.
	before := steps
	res = p.B.Post(view, url.Values{"steps": {steps}, "player": {a}, "do": {"settlement"}, "typed": {"N(7,7)"}, "action": {"add"}})
	webtest.MustSee(t, "off the board", res, http.StatusUnprocessableEntity, `id="ruling-error"`)
	if m := regexp.MustCompile(`name="steps" value="([^"]*)"`).FindStringSubmatch(res.Body); m == nil || html.UnescapeString(m[1]) != before {
		t.Errorf("the refused step changed the steps")
	}
	// The live part alone, for the script.
	res = p.B.Post(view, url.Values{"steps": {steps}, "player": {a}, "action": {"quick"}, "live": {"1"}, "roll": {"8"}, "roller": {b},
		"hand_" + a: {"9"}, "hand_" + b: {"3"}, "declarer": {a}, "shown": {"0"}})
	webtest.MustSee(t, "live part", res, http.StatusOK, `id="ruling-board-live"`, `id="ruling-answer-live"`, `id="answer-discards"`, `id="answer-rates"`,
		`id="answer-declaration"`, "無効", `id="answer-robber"`)
	if strings.Contains(res.Body, "<html") {
		t.Errorf("the live part is a whole page")
	}
	// Saved: the table's page shows it.
	res = p.B.Post(view, url.Values{"steps": {steps}, "player": {a}, "action": {"save"}, "note": {"切断の裁定"}})
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, p.URL+"/tables/1#ruling-") {
		t.Fatalf("save = %d to %q, want 303 to the table's ruling\n%s", res.Status, res.Location, res.Body)
	}
	webtest.MustSee(t, "table page", p.B.Get(p.URL+"/tables/1"), http.StatusOK, "切断の裁定", "裁定を記録しました。")
}

// Issue 12: the ruling view names hexes, corners and sides as the board is
// read (drawing.Places: 「丘陵・牧草地・砂漠の角」, 「山地（1段目・左から1）」),
// never by the coordinates the rules engine and the API use: the tap
// targets, the steps, the engine's refusals, the robber's hexes and where
// it may go.
func TestRulingViewNamesPlaces(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	a, b := webtest.Itoa(table.Players[0]), webtest.Itoa(table.Players[1])
	view := p.URL + "/tables/1/ruling"
	res := p.B.Get(view)
	// N(0,0) is the corner of three land hexes, the desert in the centre one of them.
	corner := regexp.MustCompile(`data-at="N\(0,0\)"[^>]*><title>([^<]*)</title>`).FindStringSubmatch(res.Body)
	if corner == nil || !strings.HasSuffix(corner[1], "の角") || strings.Count(corner[1], "・") != 2 || !strings.Contains(corner[1], "砂漠") {
		t.Errorf("corner N(0,0) is titled %q, want it named by its three hexes, the desert among them", corner)
	}
	// A side on the coast is a side of its hex, named by its place.
	if !regexp.MustCompile(`data-edge="(?:S\(1,-3\) N\(0,-2\)|N\(0,-2\) S\(1,-3\))"[^>]*><title>[^<]*（1段目・左から1）の右上の辺</title>`).MatchString(res.Body) {
		t.Errorf("the coast's side S(1,-3)-N(0,-2) is not named as the upper right side of row 1, no. 1")
	}
	if n := strings.Count(res.Body, `<option value="(`); n != 19 {
		t.Errorf("the robber can be put on %d hexes, want 19", n)
	}
	steps, _ := json.Marshal([]map[string]any{{"do": "settlement", "player": a, "at": "N(0,0)"}})
	res = p.B.Post(view, url.Values{"steps": {string(steps)}, "player": {b}, "do": {"settlement"}, "typed": {"S(0,-1)"}, "action": {"add"},
		"roll": {"8"}, "roller": {b}, "hand_" + a: {"3"}, "robber_at": {"(0,0)"}})
	webtest.MustSee(t, "distance rule", res, http.StatusOK, corner[1]+"に家", "の角は家・街の隣の頂点です",
		`<option value="(0,0)" selected>砂漠（中央）</option>`)
	robber := regexp.MustCompile(`(?s)<ul id="answer-robber">(.*?)</ul>`).FindStringSubmatch(res.Body)
	if robber == nil || !strings.Contains(robber[1], "段目・左から") || regexp.MustCompile(`\(-?\d,-?\d\)`).MatchString(robber[1]) {
		t.Errorf("where the robber may go is not named by place:\n%v", robber)
	}
	for _, coords := range []string{">N(0,0)<", "S(0,-1)は", "N(0,0)に家"} {
		if strings.Contains(res.Body, coords) {
			t.Errorf("the view still says %q", coords)
		}
	}
}
