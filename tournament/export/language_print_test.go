package export_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
)

// latinWord is a word of two or more Latin letters.
var latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z_-]+`)

// Issue 25: the workbook printed through LibreOffice, as an organizer
// would, reads in its own language on every sheet: no TRUE or FALSE, no
// "api", no English word in the Japanese workbook but the 設定 sheet's
// codes beside their values; no Japanese word in the English one but the
// event's own names and notes.
func TestWorkbookPrintsInItsLanguage(t *testing.T) {
	soffice, pdftotext, _ := printTools(t)
	t.Parallel()
	d := fortyPlayers(t)
	// A breakdown with an award held and one not, and a penalty given
	// through the API token and revoked by it.
	tv := &d.Rounds[0].Tables[0]
	tv.Result.Scores = append(tv.Result.Scores, tournament.Score{PlayerID: tv.Players[0].PlayerID, VP: 9,
		Breakdown: &referee.Breakdown{Settlements: 2, Cities: 2, LongestRoad: true, PointCards: 1}})
	d.Penalties[2].Judge = tournament.APIActor
	d.Penalties[1].Revoked.Judge = tournament.APIActor
	dir := t.TempDir()
	var workbooks []string
	codes := map[string]bool{} // the 設定 sheet's keys and file values, word by word
	for _, lang := range []string{"ja", "en"} {
		var buf bytes.Buffer
		if err := export.Workbook(&buf, d, lang); err != nil {
			t.Fatal(err)
		}
		if lang == "ja" {
			f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := f.GetRows("設定")
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				for i := 3; i < len(r); i++ {
					for _, w := range latinWord.FindAllString(r[i], -1) {
						codes[w] = true
					}
				}
			}
			codes[d.Tournament.Ruleset.Name] = true
		}
		path := filepath.Join(dir, "forty."+lang+".xlsx")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		workbooks = append(workbooks, path)
	}
	// What the English workbook may say in Japanese: the event's own text.
	var own []string
	own = append(own, d.Tournament.Name, d.Tournament.Venue)
	for _, p := range d.Players {
		own = append(own, p.Name, tournament.Hiragana(p.Kana))
	}
	for _, p := range d.Penalties {
		own = append(own, p.Judge, p.Note)
		if p.Revoked != nil {
			own = append(own, p.Revoked.Judge, p.Revoked.Reason)
		}
	}
	ownRunes := map[rune]bool{}
	for _, s := range own {
		for _, r := range s {
			ownRunes[r] = true
		}
	}
	pdfs := printToPDF(t, soffice, workbooks...)
	ja, en := pdfPages(t, pdftotext, pdfs[0]), pdfPages(t, pdftotext, pdfs[1])
	for i, page := range ja {
		for _, w := range latinWord.FindAllString(page, -1) {
			// APIトークン is the glossary's word; JSON names the ruleset
			// file's format.
			if w == "API" || w == "JSON" {
				continue
			}
			if strings.Contains(page, "全国大会 — 設定") && (codes[w] || strings.Contains(d.Tournament.Ruleset.Name, w)) {
				continue
			}
			t.Errorf("page %d of the Japanese workbook says %q:\n%s", i+1, w, page)
			break
		}
	}
	for i, page := range en {
		for _, bad := range []string{"TRUE", "FALSE", "api"} {
			if regexp.MustCompile(`\b` + bad + `\b`).MatchString(page) {
				t.Errorf("page %d of the English workbook says %q", i+1, bad)
			}
		}
		var foreign []string
		// A rulebook section keeps its katakana sub-item: §3 ウ.
		for _, r := range regexp.MustCompile(`§\d+ ?[ア-ン]`).ReplaceAllString(page, "") {
			if (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)) && !ownRunes[r] {
				foreign = append(foreign, string(r))
			}
		}
		if len(foreign) > 0 {
			t.Errorf("page %d of the English workbook has Japanese words %q:\n%s", i+1, strings.Join(foreign, ""), page)
		}
	}
	if !strings.Contains(strings.Join(ja, ""), "APIトークン") || !strings.Contains(strings.Join(en, ""), "API token") {
		t.Errorf("the penalties given through the API token are not named as such")
	}
	if !strings.Contains(strings.Join(ja, ""), "あり") || !strings.Contains(strings.Join(en, ""), "yes") {
		t.Errorf("the award held on the sheet is not said in words")
	}
}
