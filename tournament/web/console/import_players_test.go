package console_test

import (
	"bytes"
	"encoding/base64"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/japanese"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/console"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

var hiddenData = regexp.MustCompile(`<input type="hidden" name="data" value="([^"]*)">`)

func TestImportPlayersPreviewThenConfirm(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(2) // 青木1 あおき, 井上1 いのうえ
	b := env.Browser()
	b.Login("山田")
	page := "/judge/t/" + webtest.Itoa(tr.ID) + "/players/import"
	webtest.MustSee(t, "players page", b.Get("/judge/t/"+webtest.Itoa(tr.ID)+"/players"), http.StatusOK, `href="`+page+`"`)
	webtest.MustSee(t, "import page", b.Get(page), http.StatusOK, `enctype="multipart/form-data"`, `name="file"`)

	// Excel's "CSV (comma delimited)" on a Japanese PC: Shift_JIS.
	list := "氏名,フリガナ,固定卓\r\n青木1,あおき,\r\n上田,うえだ,2\r\n,えとう,\r\n大野,おおの,百\r\n"
	sjis, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(list))
	if err != nil {
		t.Fatal(err)
	}
	res := b.Upload(page, "受付名簿.csv", sjis)
	webtest.MustSee(t, "preview", res, http.StatusOK,
		"受付名簿.csv", "CSV（Shift_JIS）",
		"新しく登録: 1人 ・ 登録済みのため追加しない: 1人 ・ エラーのため取り込まない: 2行",
		"4行目: 名前が空です。", "5行目: 固定卓は 1〜100 の卓番号で書いてください。 (大野)",
		"1人を登録する", "上田")
	if ps, _ := env.Service.Players(env.Ctx, tr.ID); len(ps) != 2 {
		t.Fatalf("after the preview %d players are registered, want the 2 from before", len(ps))
	}
	m := hiddenData.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatalf("the preview has no confirmation carrying the file\n%s", res.Body)
	}
	confirm := url.Values{"data": {html.UnescapeString(m[1])}}
	res = b.Post(page+"/confirm", confirm)
	if res.Status != http.StatusSeeOther || res.Location != "/judge/t/"+webtest.Itoa(tr.ID)+"/players#cards" {
		t.Fatalf("confirm = %d to %q, want 303 to the players with the new players' cards\n%s", res.Status, res.Location, res.Body)
	}
	webtest.MustSee(t, "players after the import", b.Get(res.Location), http.StatusOK, "名簿を取り込みました。", "上田", "未印刷のカード 1枚")
	webtest.MustSee(t, "the new players' cards", b.Get("/judge/t/"+webtest.Itoa(tr.ID)+"/players/cards"), http.StatusOK, "参加者カード", "上田", "あなたのコード")
	// The confirmation sent twice (a double click, the back button) adds nobody again.
	b.Post(page+"/confirm", confirm)
	ps, err := env.Service.Players(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
		if p.Name == "上田" && p.FixedTable != 2 {
			t.Errorf("上田 has fixed table %d, want 2", p.FixedTable)
		}
	}
	if !slices.Equal(names, []string{"青木1", "井上1", "上田"}) {
		t.Errorf("players = %v, want 上田 added once", names)
	}
	// The same file again: the preview says nobody is new and offers no confirmation.
	res = b.Upload(page, "受付名簿.csv", sjis)
	webtest.MustSee(t, "preview of the same file", res, http.StatusOK, "新しく登録する参加者はいません。")
	if hiddenData.MatchString(res.Body) {
		t.Error("the preview of a file with nobody new offers to register")
	}
}

func TestImportRefusesUnreadableFiles(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(1)
	b := env.Browser()
	b.Login("山田")
	page := "/judge/t/" + webtest.Itoa(tr.ID) + "/players/import"
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"no name column", []byte("よみ\nあおき\n"), "見出しの行に名前の列"},
		{"an old workbook", []byte{0xD0, 0xCF, 0x11, 0xE0, 0, 0, 0, 0}, "古い Excel 形式（.xls）は読めません"},
		{"too large", bytes.Repeat([]byte("a"), console.MaxImport+1), "ファイルが大きすぎます"},
	} {
		res := b.Upload(page, "list.csv", tc.data)
		webtest.MustSee(t, tc.name, res, http.StatusUnprocessableEntity, `id="file-error"`, tc.want)
	}
	webtest.MustSee(t, "confirm without a file", b.Post(page+"/confirm", url.Values{}), http.StatusUnprocessableEntity, "取り込むファイルを選んでください。")
	if ps, _ := env.Service.Players(env.Ctx, tr.ID); len(ps) != 1 {
		t.Errorf("%d players after refused imports, want 1", len(ps))
	}
}

// Names the text rules refuse are listed as errors in the preview, said as
// the player form says them, with their hidden characters shown; the
// confirmation, reading the same file, registers only the good rows.
func TestImportListsRefusedTextAsErrors(t *testing.T) {
	env, tr, b, page := importSetUp(t)
	list := "名前,よみ\n上田,うえだ\n\u200b,\ntaro\u202egpj.exe,たろう\n江\x1b藤,えとう\n大野,お\u2066おの\n"
	res := b.Upload(page, "list.csv", []byte(list))
	webtest.MustSee(t, "preview", res, http.StatusOK,
		"新しく登録: 1人", "エラーのため取り込まない: 4行",
		"3行目: 名前に見える文字がありません。", "([U&#43;200B])",
		"4行目: 名前に文字の向きを変える記号", "(taro[U&#43;202E]gpj.exe)",
		"5行目: 名前に改行・タブなどの制御文字", "(江[U&#43;001B]藤)",
		"6行目: よみがなに文字の向きを変える記号")
	if strings.Contains(res.Body, "\u202e") || strings.Contains(res.Body, "\x1b") {
		t.Errorf("the preview shows a refused name's hidden characters as they are")
	}
	m := hiddenData.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatalf("the preview has no confirmation\n%s", res.Body)
	}
	if res := b.Post(page+"/confirm", url.Values{"data": {html.UnescapeString(m[1])}}); res.Status != http.StatusSeeOther {
		t.Fatalf("confirm = %d\n%s", res.Status, res.Body)
	}
	if names := playerNames(t, env, tr.ID); !slices.Equal(names, []string{"青木1", "上田"}) {
		t.Errorf("players after the import = %q, want 上田 added alone", names)
	}
}

// A workbook with a value in the last column (the attack that made the
// preview allocate a gigabyte) is refused at once with what to do, in the
// preview and in a confirmation carrying it alike.
func TestImportRefusesAValueInTheLastColumn(t *testing.T) {
	env, tr, b, page := importSetUp(t)
	f := excelize.NewFile()
	for cell, v := range map[string]string{"A1": "名前", "A2": "上田", "XFD3": "x"} {
		if err := f.SetCellValue("Sheet1", cell, v); err != nil {
			t.Fatal(err)
		}
	}
	var data bytes.Buffer
	if err := f.Write(&data); err != nil {
		t.Fatal(err)
	}
	want := "3行目の XFD 列に値があります。名簿は 64 列（BL 列）までです。"
	webtest.MustSee(t, "preview", b.Upload(page, "list.xlsx", data.Bytes()), http.StatusUnprocessableEntity, want)
	confirm := url.Values{"data": {base64.StdEncoding.EncodeToString(data.Bytes())}}
	webtest.MustSee(t, "confirm", b.Post(page+"/confirm", confirm), http.StatusUnprocessableEntity, want)
	res := b.Post(page+"/confirm?lang=en", confirm)
	webtest.MustSee(t, "confirm in English", res, http.StatusUnprocessableEntity, "Row 3 has a value in column XFD; a roster has at most 64 columns (up to BL).")
	if ps, _ := env.Service.Players(env.Ctx, tr.ID); len(ps) != 1 {
		t.Errorf("%d players after the refused import, want 1", len(ps))
	}
}

// playerNames returns the names of a tournament's players, by reading.
func playerNames(t *testing.T, env *webtest.Env, tid int64) []string {
	t.Helper()
	ps, err := env.Service.Players(env.Ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}

// importSetUp is a tournament of one player and a judge's browser on its
// import page.
func importSetUp(t *testing.T) (*webtest.Env, tournament.Tournament, *webtest.Browser, string) {
	t.Helper()
	env := webtest.New(t)
	tr, _ := env.SeedTournament(1)
	b := env.Browser()
	b.Login("山田")
	return env, tr, b, "/judge/t/" + webtest.Itoa(tr.ID) + "/players/import"
}
