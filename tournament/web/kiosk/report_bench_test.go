package kiosk_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// BenchmarkReportLiveCheck is one live check of the report form
// (part=check, anyone may send it) at a 400-player event with four rounds
// recorded and the fifth paired: the table's page, read from the kiosk's
// kept reads, and the sheet checked by CheckSheet. docs/security.md
// bounds how many run at once.
func BenchmarkReportLiveCheck(b *testing.B) {
	env := webtest.New(b, webtest.WithLive()) // the kiosk's reads kept, as served
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "全国大会", Rounds: 5, SelfReport: tournament.SelfReportApprove})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 400 {
		if _, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%03d", i+1), CheckedIn: true}); err != nil {
			b.Fatal(err)
		}
	}
	var table []int64
	for n := 1; n <= 5; n++ {
		r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
		if err != nil {
			b.Fatal(err)
		}
		table = r.Tables[0].Players
		for _, tb := range r.Tables {
			if n == 5 {
				break
			}
			in := tournament.ResultInput{Declared: tb.Players[0]}
			for i, id := range tb.Players {
				in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 7, 5, 3}[i]})
			}
			if _, err := env.Service.SaveResult(env.Ctx, "setup", tr.ID, n, tb.Number, in); err != nil {
				b.Fatal(err)
			}
		}
	}
	form := url.Values{"part": {"check"}, "declared": {fmt.Sprint(table[0])}}
	for i, id := range table {
		form.Set(fmt.Sprintf("vp_%d", id), []string{"10", "7", "5", "3"}[i])
		form.Set(fmt.Sprintf("settlements_%d", id), "2")
	}
	body := form.Encode()
	path := fmt.Sprintf("/kiosk/%d/rounds/5/tables/1/report", tr.ID)
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		rec := httptest.NewRecorder()
		env.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "data-live-fields") {
			b.Fatalf("live check = %d %s", rec.Code, rec.Body)
		}
	}
}
