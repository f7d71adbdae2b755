package console_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

func TestPrintables(t *testing.T) {
	p := webtest.NewPaired(t)
	base := p.URL + "/print/"
	if _, err := p.Service.SetSeating(p.Ctx, "setup", p.Tournament.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Service.SetBoard(p.Ctx, "setup", p.Tournament.ID, 1, 1, tournament.BoardInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "round page", p.B.Get(p.URL), http.StatusOK, `href="`+base+`scores"`, `href="`+base+`boards"`, `href="`+base+`names"`, `href="`+base+`tables"`)

	res := p.B.Get(base + "scores")
	webtest.MustSee(t, "score sheets", res, http.StatusOK, "第1回戦 成績表", `src="/kiosk/`+webtest.Itoa(p.Tournament.ID)+`/qr.png"`, "/kiosk/"+webtest.Itoa(p.Tournament.ID), "勝利宣言なし（時間切れで終了）", "print.css")
	if n := strings.Count(res.Body, `<section class="sheet score-sheet"`); n != len(p.Round.Tables) {
		t.Errorf("score sheets: %d sheets, want one per table (%d)", n, len(p.Round.Tables))
	}
	// Table 1 is seated: its sheet lists the play order with colours.
	if !strings.Contains(res.Body, `<span class="chip red" aria-hidden="true"></span>1`) {
		t.Error("the seated table's sheet shows no red first seat")
	}
	// Issue 15: each sheet has a box per player for every part of the VP
	// breakdown, for the table to add up before it hands the sheet in.
	if n := strings.Count(res.Body, `<table class="score-breakdown">`); n != len(p.Round.Tables) {
		t.Errorf("score sheets: %d breakdown tables, want one per sheet (%d)", n, len(p.Round.Tables))
	}
	webtest.MustSee(t, "the breakdown", res, http.StatusOK, "記入すると合計の書き間違いが見つかります", "1軒1点", "1つ2点", "合計（勝利点）",
		"1ポイントカードは卓で5枚までです（§10・§11）")
	res = p.B.Get(base + "scores?table=2")
	if n := strings.Count(res.Body, `<section class="sheet score-sheet"`); n != 1 || !strings.Contains(res.Body, `id="score-2"`) {
		t.Errorf("score sheet of table 2: %d sheets", n)
	}
	if res := p.B.Get(base + "scores?table=9"); res.Status != http.StatusNotFound {
		t.Errorf("score sheet of a table the round does not have = %d, want 404", res.Status)
	}

	res = p.B.Get(base + "boards")
	webtest.MustSee(t, "board sheets", res, http.StatusOK, `<svg class="board"`, "カプセルダイス（§3 イ）", "この卓の盤面はまだ設定されていません。")
	if n := strings.Count(res.Body, `class="hexcell `); n != 19 {
		t.Errorf("board sheet of table 1 deals %d hexes, want 19", n)
	}

	// By name: everyone, in kana order, with their table; a reading typed
	// in katakana or half-width katakana sorts with the hiragana ones.
	for _, x := range []struct {
		i    int
		kana string
	}{{0, "アオキ"}, {6, "ｷﾑﾗ"}} {
		pl := p.Players[x.i]
		if _, err := p.Service.EditPlayer(p.Ctx, "setup", p.Tournament.ID, pl.ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: pl.Name, Kana: x.kana}, FixedTable: pl.FixedTable, KeepApart: pl.KeepApart}); err != nil {
			t.Fatal(err)
		}
	}
	res = p.B.Get(base + "names")
	webtest.MustSee(t, "pairings by name", res, http.StatusOK, "第1回戦 組み合わせ（名前順）")
	var order []string
	for _, m := range regexp.MustCompile(`<th scope="row">([^<]+) <span class="kana">`).FindAllStringSubmatch(res.Body, -1) {
		order = append(order, m[1])
	}
	want := []string{"青木1", "井上1", "上田1", "江藤1", "大野1", "加藤1", "木村1", "久保1"}
	if !slices.Equal(order, want) {
		t.Errorf("pairings by name list %v, want kana order %v", order, want)
	}
	res = p.B.Get(base + "tables")
	webtest.MustSee(t, "pairings by table", res, http.StatusOK, "第1回戦 組み合わせ（卓順）", "1卓", "2卓")

	// English, as the rest of the console.
	webtest.MustSee(t, "score sheets in English", p.B.Get(base+"scores?lang=en"), http.StatusOK, "Round 1 score sheets", "No declaration (ended by time)")
}

// Board sheets draw one board per table on one page: every id on it is
// unique, and every board's title labels that board.
func TestBoardSheetIDsAreUnique(t *testing.T) {
	p := webtest.NewPaired(t)
	for _, tb := range p.Round.Tables {
		if _, err := p.Service.SetBoard(p.Ctx, "setup", p.Tournament.ID, 1, tb.Number, tournament.BoardInput{Auto: true}); err != nil {
			t.Fatal(err)
		}
	}
	res := p.B.Get(p.URL + "/print/boards")
	webtest.MustSee(t, "board sheets", res, http.StatusOK)
	if n := strings.Count(res.Body, `<svg class="board"`); n != len(p.Round.Tables) || n < 2 {
		t.Fatalf("board sheets: %d boards drawn, want one per table (%d)", n, len(p.Round.Tables))
	}
	for _, tb := range p.Round.Tables {
		id := fmt.Sprintf("board-drawing-%d-title", tb.Number)
		if !strings.Contains(res.Body, `aria-labelledby="`+id+`"`) || !strings.Contains(res.Body, `<title id="`+id+`">`) {
			t.Errorf("the board of table %d is not labelled by its own title %q", tb.Number, id)
		}
	}
	checkIDs(t, "board sheets", res.Body)
}

var (
	idAttr   = regexp.MustCompile(`\sid="([^"]*)"`)
	ariaRefs = regexp.MustCompile(`\saria-(?:labelledby|describedby)="([^"]*)"`)
)

// checkIDs fails the test when an id repeats on a page, or an
// aria-labelledby or aria-describedby names an id the page does not have.
func checkIDs(t *testing.T, what, body string) {
	t.Helper()
	ids := map[string]int{}
	for _, m := range idAttr.FindAllStringSubmatch(body, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("%s: id %q appears %d times", what, id, n)
		}
	}
	for _, m := range ariaRefs.FindAllStringSubmatch(body, -1) {
		for _, ref := range strings.Fields(m[1]) {
			if ids[ref] == 0 {
				t.Errorf("%s: %s refers to the missing id %q", what, strings.TrimSpace(m[0]), ref)
			}
		}
	}
}
