package console_test

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// formAt returns what the n-th form of body (from 0) posting to action
// submits as it stands, as a browser would: its inputs' values, checked
// boxes and radios only, and the named submit button given.
func formAt(t *testing.T, body, action string, n int, button ...string) url.Values {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(node *html.Node, key string) (string, bool) {
		for _, a := range node.Attr {
			if a.Key == key {
				return a.Val, true
			}
		}
		return "", false
	}
	var forms []*html.Node
	var walk func(*html.Node)
	walk = func(node *html.Node) {
		if node.Type == html.ElementNode && node.Data == "form" {
			if a, _ := attr(node, "action"); a == action {
				forms = append(forms, node)
			}
		}
		for c := node.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if n >= len(forms) {
		t.Fatalf("the page has %d forms posting to %s, want a form %d:\n%s", len(forms), action, n, body)
	}
	out := url.Values{}
	walk = func(node *html.Node) {
		if node.Type == html.ElementNode && node.Data == "input" {
			name, _ := attr(node, "name")
			typ, _ := attr(node, "type")
			value, _ := attr(node, "value")
			_, checked := attr(node, "checked")
			if name != "" && (typ != "checkbox" && typ != "radio" || checked) {
				out.Add(name, value)
			}
		}
		for c := node.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(forms[n])
	for i := 0; i+1 < len(button); i += 2 {
		out.Set(button[i], button[i+1])
	}
	return out
}

// Two judges on one table's page: each form carries the version it shows,
// so the second judge's seating, board or deal never replaces the first's
// silently. The page then shows what is recorded, who recorded it, and
// what the second judge typed, with a button to replace it knowingly.
func TestStaleTableForms(t *testing.T) {
	p := webtest.NewPaired(t)
	other := p.Browser()
	other.Login("佐藤")
	tableURL := p.URL + "/tables/1"
	pageA, pageB := p.B.Get(tableURL).Body, other.Get(tableURL).Body
	seat := tableURL + "/seating"

	// 山田 lets the console roll; 佐藤, on the page from before, types rolls.
	if res := p.B.Post(seat, formAt(t, pageA, seat, 1)); res.Status != http.StatusSeeOther {
		t.Fatalf("auto seating = %d, want 303\n%s", res.Status, res.Body)
	}
	rolls := formAt(t, pageB, seat, 0)
	for i, id := range p.Round.Tables[0].Players {
		rolls.Set(fmt.Sprintf("r0_%d_w", id), fmt.Sprint(i+1))
		rolls.Set(fmt.Sprintf("r0_%d_b", id), "6")
	}
	res := other.Post(seat, rolls)
	webtest.MustSee(t, "a stale seating", res, http.StatusConflict, "手番と色は 山田 さんが", "（版1）", "あなたの入力（保存されていません）", "自分の入力で置き換える")
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st := rv.Tables[0].Table.Seating; st == nil || !st.Auto || st.Judge != "山田" {
		t.Fatalf("the seating after the refused one = %+v, want 山田's", st)
	}
	// Replacing it is a second, deliberate press, over version 1.
	again := formAt(t, res.Body, seat, 0)
	if again.Get("version") != "1" {
		t.Errorf("the replace form carries version %q, want 1", again.Get("version"))
	}
	if res := other.Post(seat, again); res.Status != http.StatusSeeOther {
		t.Fatalf("replace with the typed rolls = %d, want 303\n%s", res.Status, res.Body)
	}
	if rv, _ = p.Service.RoundView(p.Ctx, p.Tournament.ID, 1); rv.Tables[0].Table.Seating.Judge != "佐藤" || rv.Tables[0].Table.Seating.Version != 2 {
		t.Errorf("after the replacement the seating is %+v, want 佐藤's version 2", rv.Tables[0].Table.Seating)
	}

	// The board and the deal.
	board := tableURL + "/board"
	pageA, pageB = p.B.Get(tableURL).Body, other.Get(tableURL).Body
	if res := p.B.Post(board, formAt(t, pageA, board, 0, "white", "3", "blue", "2")); res.Status != http.StatusSeeOther {
		t.Fatalf("set board = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "a stale board", other.Post(board, formAt(t, pageB, board, 0, "white", "5", "blue", "5")), http.StatusConflict,
		"盤面は 山田 さんが", "（版1）", "白 5")
	rv, _ = p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if roll := rv.Tables[0].Table.Board.Roll; roll != (referee.CapsuleRoll{White: 3, Blue: 2}) {
		t.Errorf("the board after the refused one was rolled %+v, want 山田's 3 and 2", roll)
	}
	deal := tableURL + "/deal"
	pageA, pageB = p.B.Get(tableURL).Body, other.Get(tableURL).Body
	chips := rv.Tables[0].Board.Chips()
	dealt := webtest.DealValues(chips)
	dealt.Set("version", formAt(t, pageA, deal, 0).Get("version"))
	if res := p.B.Post(deal, dealt); res.Status != http.StatusSeeOther {
		t.Fatalf("deal = %d, want 303\n%s", res.Status, res.Body)
	}
	// 佐藤 typed two other chips the other way round (neither red, so the
	// dango rule has nothing to say).
	var i, j int
	for i = range chips {
		if chips[i].Number != 6 && chips[i].Number != 8 {
			break
		}
	}
	for j = range chips {
		if chips[j].Number != 6 && chips[j].Number != 8 && chips[j].Number != chips[i].Number {
			break
		}
	}
	typed := webtest.DealValues(chips)
	first, second := fmt.Sprintf("chip_%d_%d", chips[i].Hex.Q, chips[i].Hex.R), fmt.Sprintf("chip_%d_%d", chips[j].Hex.Q, chips[j].Hex.R)
	typed.Set(first, fmt.Sprint(chips[j].Number))
	typed.Set(second, fmt.Sprint(chips[i].Number))
	typed.Set("version", formAt(t, pageB, deal, 0).Get("version"))
	res = other.Post(deal, typed)
	webtest.MustSee(t, "a stale deal", res, http.StatusConflict, "盤面は 山田 さんが", "（版2）",
		fmt.Sprintf(`id="%s-mine">あなたの入力: %d`, first, chips[j].Number))
	if got := webtest.FieldValue(res.Body, first); got != fmt.Sprint(chips[i].Number) {
		t.Errorf("the deal's field after the conflict = %q, want the saved %d", got, chips[i].Number)
	}
	rv, _ = p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if got := rv.Tables[0].Table.Board; got.Judge != "山田" || got.Version != 2 {
		t.Errorf("the board after the refused deal = %+v, want 山田's deal, version 2", got)
	}
}

// A player's page opened by two judges: each saves the fields they changed
// from what the page showed, so both edits hold; a third, on the same old
// page, changing a field another judge changed, is shown the player as
// saved with what they typed beside it, and nothing of theirs is saved.
func TestStalePlayerForm(t *testing.T) {
	p := webtest.NewPaired(t)
	b2, b3 := p.Browser(), p.Browser()
	b2.Login("佐藤")
	b3.Login("鈴木")
	target, err := p.Service.AddPlayer(p.Ctx, "setup", p.Tournament.ID, tournament.PlayerInput{Name: "遅刻", Kana: "ちこく"})
	if err != nil {
		t.Fatal(err)
	}
	page := fmt.Sprintf("/judge/t/%d/players/%d", p.Tournament.ID, target.ID)
	first, second, third := p.B.Get(page).Body, b2.Get(page).Body, b3.Get(page).Body

	if res := p.B.Post(page, formAt(t, first, page, 0, "fixed_table", "2")); res.Status != http.StatusSeeOther {
		t.Fatalf("fix the table = %d, want 303\n%s", res.Status, res.Body)
	}
	if res := b2.Post(page, formAt(t, second, page, 0, "name", "遅刻 太郎")); res.Status != http.StatusSeeOther {
		t.Fatalf("rename on the old page = %d, want 303\n%s", res.Status, res.Body)
	}
	got, err := p.Service.GetPlayer(p.Ctx, target.TournamentID, target.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "遅刻 太郎" || got.FixedTable != 2 {
		t.Errorf("after two edits on one page: %q at table %d, want 遅刻 太郎 at table 2 (neither reverted)", got.Name, got.FixedTable)
	}

	res := b3.Post(page, formAt(t, third, page, 0, "fixed_table", "1"))
	webtest.MustSee(t, "a stale edit of the same field", res, http.StatusConflict, "他のジャッジが", `id="fixed_table-mine">あなたの入力: 1`, "自分の入力に戻す")
	if v := webtest.FieldValue(res.Body, "fixed_table"); v != "2" {
		t.Errorf("fixed table field after the conflict = %q, want the saved 2", v)
	}
	if v := webtest.FieldValue(res.Body, "name"); v != "遅刻 太郎" {
		t.Errorf("name field after the conflict = %q, want the saved 遅刻 太郎", v)
	}
	// Saving the conflict page as it stands changes nothing.
	if res := b3.Post(page, formAt(t, res.Body, page, 1)); res.Status != http.StatusSeeOther {
		t.Fatalf("save the conflict page as it stands = %d, want 303\n%s", res.Status, res.Body)
	}
	if got, _ = p.Service.GetPlayer(p.Ctx, target.TournamentID, target.ID); got.Name != "遅刻 太郎" || got.FixedTable != 2 {
		t.Errorf("after saving the conflict page as it stands: %q at table %d, want 遅刻 太郎 at table 2", got.Name, got.FixedTable)
	}
	// Taking back what this judge changed shows it over the player as saved
	// now (issue 24: not the name they never touched), from the page's base.
	res = b3.Post(page, formAt(t, b3.Post(page, formAt(t, third, page, 0, "fixed_table", "1")).Body, page, 0))
	webtest.MustSee(t, "my entries back", res, http.StatusOK, `name="base_fixed_table" value=""`, `name="merged" value="1"`)
	if v, n := webtest.FieldValue(res.Body, "fixed_table"), webtest.FieldValue(res.Body, "name"); v != "1" || n != "遅刻 太郎" {
		t.Errorf("with my entries back the form shows table %q and name %q, want 1 and the saved 遅刻 太郎", v, n)
	}
	// Saving it would undo the other judge's table 2: asked first.
	res = b3.Post(page, formAt(t, res.Body, page, 0))
	webtest.MustSee(t, "the save over another judge's table", res, http.StatusConflict, "他のジャッジが変えた欄を上書きしようとしています",
		"<th scope=\"row\">固定卓</th><td>（空欄）</td><td>2</td><td><strong>1</strong></td>")
	if got, _ = p.Service.GetPlayer(p.Ctx, target.TournamentID, target.ID); got.FixedTable != 2 {
		t.Fatalf("the table before the confirmation = %d, want 2", got.FixedTable)
	}
	m := overwriteToken.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatalf("no overwrite button\n%s", res.Body)
	}
	confirm := formAt(t, res.Body, page, 0)
	confirm.Set("overwrite", m[1])
	if res := b3.Post(page, confirm); res.Status != http.StatusSeeOther {
		t.Fatalf("confirmed = %d\n%s", res.Status, res.Body)
	}
	if got, _ = p.Service.GetPlayer(p.Ctx, target.TournamentID, target.ID); got.FixedTable != 1 || got.Name != "遅刻 太郎" {
		t.Errorf("after the confirmation: %q at table %d, want 遅刻 太郎 at table 1", got.Name, got.FixedTable)
	}
}

// Through the API a seating or board request may give the version it was
// decided on; over a newer one it is a 409 naming the current version.
func TestStaleTableAPI(t *testing.T) {
	p := webtest.NewPaired(t)
	cl := webtest.APIClient{T: t, Env: p.Env}
	base := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1", p.Tournament.ID)
	var table api.RoundTableJSON
	cl.Call("POST", base+"/seating", `{"auto":true,"version":0}`, 200, &table)
	if table.SeatingVersion != 1 {
		t.Errorf("seating_version after the first seating = %d, want 1", table.SeatingVersion)
	}
	rec := webtest.Do(p.Handler, "POST", base+"/seating", `{"auto":true,"version":0}`, "Authorization", "Bearer test-token", "Accept-Language", "en")
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"stale-seating"`) || !strings.Contains(rec.Body.String(), `"current_version":1`) {
		t.Errorf("a seating over version 0 after version 1 = %d %s, want 409 stale-seating at version 1", rec.Code, rec.Body)
	}
	cl.Call("POST", base+"/board", `{"white":2,"blue":3,"version":0}`, 200, &table)
	rec = webtest.Do(p.Handler, "POST", base+"/board", `{"auto":true,"version":0}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"stale-board"`) {
		t.Errorf("a board over version 0 after version 1 = %d %s, want 409 stale-board", rec.Code, rec.Body)
	}
	cl.Call("POST", base+"/board", `{"auto":true}`, 200, &table)
	if table.BoardVersion != 2 {
		t.Errorf("board_version after a board without a version = %d, want 2", table.BoardVersion)
	}
}

// Issue 24 on the deal: two judges on one table's page, each swapping two
// chips of the deal saved. The second's conflict lists only the chips they
// changed, and taking them back keeps the first judge's swap; where both
// changed one chip, taking theirs back asks before it saves, naming the
// hex with the three chips.
func TestStaleDealKeepsTheOtherChips(t *testing.T) {
	p := webtest.NewPaired(t)
	other := p.Browser()
	other.Login("佐藤")
	tableURL := p.URL + "/tables/1"
	deal := tableURL + "/deal"
	if res := p.B.Post(tableURL+"/board", url.Values{"auto": {"1"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("set the board = %d\n%s", res.Status, res.Body)
	}
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	chips := rv.Tables[0].Board.Chips()
	dealt := formAt(t, p.B.Get(tableURL).Body, deal, 0)
	for k, v := range webtest.DealValues(chips) {
		dealt[k] = v
	}
	if res := p.B.Post(deal, dealt); res.Status != http.StatusSeeOther {
		t.Fatalf("enter the deal = %d\n%s", res.Status, res.Body)
	}
	// Four hexes of chips neither red nor alike, to swap in pairs.
	var h []referee.Chip
	for _, ch := range chips {
		if ch.Number != 6 && ch.Number != 8 && !slices.ContainsFunc(h, func(o referee.Chip) bool { return o.Number == ch.Number }) {
			h = append(h, ch)
		}
	}
	if len(h) < 4 {
		t.Fatalf("the deal has %d non-red chips of distinct numbers, want 4", len(h))
	}
	name := func(ch referee.Chip) string { return fmt.Sprintf("chip_%d_%d", ch.Hex.Q, ch.Hex.R) }
	swap := func(v url.Values, a, b referee.Chip) {
		v.Set(name(a), fmt.Sprint(b.Number))
		v.Set(name(b), fmt.Sprint(a.Number))
	}
	chipsNow := func() map[string]int {
		rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, ch := range rv.Tables[0].Board.Chips() {
			out[name(ch)] = ch.Number
		}
		return out
	}

	pageA, pageB := p.B.Get(tableURL).Body, other.Get(tableURL).Body
	mine := formAt(t, pageA, deal, 0)
	swap(mine, h[0], h[1])
	if res := p.B.Post(deal, mine); res.Status != http.StatusSeeOther {
		t.Fatalf("山田's swap = %d\n%s", res.Status, res.Body)
	}
	theirs := formAt(t, pageB, deal, 0)
	swap(theirs, h[2], h[3])
	res := other.Post(deal, theirs)
	webtest.MustSee(t, "佐藤's swap over 山田's", res, http.StatusConflict, "盤面は 山田 さんが",
		fmt.Sprintf(`id="%s-mine">あなたの入力: %d`, name(h[2]), h[3].Number), fmt.Sprintf(`id="%s-mine">あなたの入力: %d`, name(h[3]), h[2].Number))
	for _, ch := range h[:2] {
		if strings.Contains(res.Body, `id="`+name(ch)+`-mine"`) {
			t.Errorf("the conflict marks %s as typed; 佐藤 never changed it", name(ch))
		}
	}
	if res := other.Post(deal, formAt(t, res.Body, deal, 0)); res.Status != http.StatusSeeOther {
		t.Fatalf("佐藤 takes their swap back = %d\n%s", res.Status, res.Body)
	}
	now := chipsNow()
	if now[name(h[0])] != h[1].Number || now[name(h[1])] != h[0].Number || now[name(h[2])] != h[3].Number || now[name(h[3])] != h[2].Number {
		t.Errorf("the deal after both swaps has %v at the four hexes, want both swaps", []int{now[name(h[0])], now[name(h[1])], now[name(h[2])], now[name(h[3])]})
	}

	// Both change the chip of h[0], which holds h[1]'s number now: 山田
	// swaps it with h[2]'s (h[3]'s number now), 佐藤 with h[3]'s (h[2]'s
	// number now). 佐藤's, taken back, asks before it is saved over.
	pageA, pageB = p.B.Get(tableURL).Body, other.Get(tableURL).Body
	mine = formAt(t, pageA, deal, 0)
	mine.Set(name(h[0]), fmt.Sprint(h[3].Number))
	mine.Set(name(h[2]), fmt.Sprint(h[1].Number))
	if res := p.B.Post(deal, mine); res.Status != http.StatusSeeOther {
		t.Fatalf("山田's second swap = %d\n%s", res.Status, res.Body)
	}
	before := chipsNow()
	theirs = formAt(t, pageB, deal, 0)
	theirs.Set(name(h[0]), fmt.Sprint(h[2].Number))
	theirs.Set(name(h[3]), fmt.Sprint(h[1].Number))
	res = other.Post(deal, theirs)
	webtest.MustSee(t, "佐藤's second swap", res, http.StatusConflict, "盤面は 山田 さんが")
	res = other.Post(deal, formAt(t, res.Body, deal, 0))
	webtest.MustSee(t, "佐藤's chip over 山田's", res, http.StatusConflict, "他のジャッジが変えた欄を上書きしようとしています",
		fmt.Sprintf("</th><td>%d</td><td>%d</td><td><strong>%d</strong></td>", h[1].Number, h[3].Number, h[2].Number))
	if got := chipsNow(); !maps.Equal(got, before) {
		t.Errorf("the deal changed before the confirmation: %v, want %v", got, before)
	}
}
