package webtest

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"

	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// DQSeed pairs round 1 of a 4-player event and saves a declared win of
// the table's first player, whom it returns.
func (e *Env) DQSeed() (tournament.Tournament, int64) {
	e.TB.Helper()
	tr, _ := e.SeedTournament(4)
	r, err := e.Service.PairNextRound(e.Ctx, "setup", tr.ID)
	if err != nil {
		e.TB.Fatal(err)
	}
	ids := r.Tables[0].Players
	in := tournament.ResultInput{Declared: ids[0]}
	for i, id := range ids {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 6, 4}[i]})
	}
	if _, err := e.Service.SaveResult(e.Ctx, "setup", tr.ID, 1, 1, in); err != nil {
		e.TB.Fatal(err)
	}
	return tr, ids[0]
}

// SeedSeason creates a qualification season of tournament tid, so that a
// walk of the route table reaches the seasons' pages (season 1).
func (e *Env) SeedSeason(tid int64) tournament.Season {
	e.TB.Helper()
	se, err := e.Service.CreateSeason(e.Ctx, "setup", tournament.SeasonInput{Name: "秋の地区予選", From: "2025-10-01", To: "2025-12-31", Events: []int64{tid},
		Formula: season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3}, Best: 2}, Qualification: &tournament.Qualification{}})
	if err != nil {
		e.TB.Fatal(err)
	}
	return se
}

// TeamSeed makes a team event with 17 players: teams Tokyo (5), Osaka,
// Nagoya, Fukuoka (4 each) registered, and 7 players of no team.
func (env *Env) TeamSeed() (tournament.Tournament, []tournament.Team, []int64) {
	return env.TeamSeedBy(env.Service, "")
}

// TeamSeedBy is TeamSeed with the tournament made by maker under ruleset
// ("" for the default).
func (env *Env) TeamSeedBy(maker *tournament.Service, ruleset string) (tournament.Tournament, []tournament.Team, []int64) {
	env.TB.Helper()
	tr, err := maker.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "ジャパンカップ予選", Rounds: 3, Team: true, Ruleset: ruleset})
	if err != nil {
		env.TB.Fatal(err)
	}
	var teams []tournament.Team
	var loose []int64
	for _, tn := range []struct {
		name string
		size int
	}{{"東京", 5}, {"大阪", 4}, {"名古屋", 4}, {"福岡", 4}, {"", 7}} {
		var ids []int64
		for i := range tn.size {
			p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("%s選手%d", tn.name, i+1), CheckedIn: true})
			if err != nil {
				env.TB.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		if tn.name == "" {
			loose = ids
			continue
		}
		team, err := env.Service.RegisterTeam(env.Ctx, "setup", tr.ID, tournament.TeamInput{Name: tn.name, Players: ids})
		if err != nil {
			env.TB.Fatal(err)
		}
		teams = append(teams, team)
	}
	return tr, teams, loose
}

// Restart starts a second server over env's store, as a restart of the
// program with the head's password password (CATANJUDGE_JUDGE_PASSWORD)
// does.
func (e *Env) Restart(password string) {
	e.TB.Helper()
	if _, err := auth.SetUpHead(e.Ctx, e.Store, password, e.TB.TempDir()); err != nil {
		e.TB.Fatal(err)
	}
	e.Server.Config.Handler = e.NewHandler()
}

// Upload posts file as the multipart form of the import page.
func (b *Browser) Upload(path, name string, data []byte) Response {
	b.Env.TB.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	part.Write(data)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, b.Env.Server.URL+path, &body)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := b.HTTP.Do(req)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return Response{Status: res.StatusCode, Location: res.Header.Get("Location"), Body: string(out), Header: res.Header}
}
