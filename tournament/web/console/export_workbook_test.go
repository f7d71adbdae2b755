package console_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
	"github.com/xuri/excelize/v2"
)

func TestExportWorkbook(t *testing.T) {
	p := webtest.NewPaired(t)
	path := "/api/v1/tournaments/" + webtest.Itoa(p.Tournament.ID) + "/export.xlsx"

	if res := p.Env.Browser().Get(path); res.Status != http.StatusUnauthorized {
		t.Errorf("anonymous GET %s = %d, want 401: the workbook holds the judges' notes", path, res.Status)
	}
	for _, tc := range []struct {
		name   string
		path   string
		header []string
		sheet  string
	}{
		{"japanese by default", path, nil, "順位表"},
		{"english by ?lang", path + "?lang=en", nil, "Standings"},
		{"english by Accept-Language", path, []string{"Accept-Language", "en-GB,en;q=0.9"}, "Standings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := p.B.Get(tc.path, tc.header...)
			if res.Status != http.StatusOK {
				t.Fatalf("GET %s = %d\n%s", tc.path, res.Status, res.Body)
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
				t.Errorf("Content-Type = %q", ct)
			}
			// 土曜カタン大会.xlsx, UTF-8 and percent-encoded (RFC 5987), after an ASCII fallback.
			want := `attachment; filename="tournament-` + webtest.Itoa(p.Tournament.ID) + `.xlsx"; filename*=UTF-8''%E5%9C%9F%E6%9B%9C%E3%82%AB%E3%82%BF%E3%83%B3%E5%A4%A7%E4%BC%9A.xlsx`
			if cd := res.Header.Get("Content-Disposition"); cd != want {
				t.Errorf("Content-Disposition = %q, want %q", cd, want)
			}
			f, err := excelize.OpenReader(strings.NewReader(res.Body))
			if err != nil {
				t.Fatalf("the download is not a workbook: %v", err)
			}
			defer f.Close()
			if got := f.GetSheetName(0); got != tc.sheet {
				t.Errorf("first sheet = %q, want %q", got, tc.sheet)
			}
			rows, err := f.GetRows(tc.sheet)
			if err != nil || len(rows) != 3+len(p.Players) {
				t.Errorf("standings rows = %d (%v), want a title, a note, a header and %d players", len(rows), err, len(p.Players))
			}
		})
	}
	// The overview links to the download.
	webtest.MustSee(t, "overview", p.B.Get("/judge/t/"+webtest.Itoa(p.Tournament.ID)), http.StatusOK, `href="`+path+`"`)
}
