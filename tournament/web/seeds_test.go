package web

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

// dqSeed pairs round 1 of a 4-player event and saves a declared win of
// the table's first player, whom it returns.
func (e *consoleEnv) dqSeed() (tournament.Tournament, int64) {
	e.t.Helper()
	tr, _ := e.seedTournament(4)
	r, err := e.svc.PairNextRound(e.ctx, "setup", tr.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	ids := r.Tables[0].Players
	in := tournament.ResultInput{Declared: ids[0]}
	for i, id := range ids {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 6, 4}[i]})
	}
	if _, err := e.svc.SaveResult(e.ctx, "setup", tr.ID, 1, 1, in); err != nil {
		e.t.Fatal(err)
	}
	return tr, ids[0]
}

// seedSeason creates a qualification season of tournament tid, so that a
// walk of the route table reaches the seasons' pages (season 1).
func (e *consoleEnv) seedSeason(tid int64) tournament.Season {
	e.t.Helper()
	se, err := e.svc.CreateSeason(e.ctx, "setup", tournament.SeasonInput{Name: "秋の地区予選", From: "2025-10-01", To: "2025-12-31", Events: []int64{tid},
		Formula: season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3}, Best: 2}, Qualification: &tournament.Qualification{}})
	if err != nil {
		e.t.Fatal(err)
	}
	return se
}

// teamSeed makes a team event with 17 players: teams Tokyo (5), Osaka,
// Nagoya, Fukuoka (4 each) registered, and 7 players of no team.
func (env *consoleEnv) teamSeed() (tournament.Tournament, []tournament.Team, []int64) {
	return env.teamSeedBy(env.svc, "")
}

// teamSeedBy is teamSeed with the tournament made by maker under ruleset
// ("" for the default).
func (env *consoleEnv) teamSeedBy(maker *tournament.Service, ruleset string) (tournament.Tournament, []tournament.Team, []int64) {
	env.t.Helper()
	tr, err := maker.CreateTournament(env.ctx, "setup", tournament.TournamentInput{Name: "ジャパンカップ予選", Rounds: 3, Team: true, Ruleset: ruleset})
	if err != nil {
		env.t.Fatal(err)
	}
	var teams []tournament.Team
	var loose []int64
	for _, tn := range []struct {
		name string
		size int
	}{{"東京", 5}, {"大阪", 4}, {"名古屋", 4}, {"福岡", 4}, {"", 7}} {
		var ids []int64
		for i := range tn.size {
			p, err := env.svc.AddPlayer(env.ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("%s選手%d", tn.name, i+1), CheckedIn: true})
			if err != nil {
				env.t.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		if tn.name == "" {
			loose = ids
			continue
		}
		team, err := env.svc.RegisterTeam(env.ctx, "setup", tr.ID, tournament.TeamInput{Name: tn.name, Players: ids})
		if err != nil {
			env.t.Fatal(err)
		}
		teams = append(teams, team)
	}
	return tr, teams, loose
}

// restart starts a second server over env's store, as a restart of the
// program with the head's password password (CATANJUDGE_JUDGE_PASSWORD)
// does.
func (e *consoleEnv) restart(password string) {
	e.t.Helper()
	if _, err := auth.SetUpHead(e.ctx, e.st, password, e.t.TempDir()); err != nil {
		e.t.Fatal(err)
	}
	e.srv.Config.Handler = e.newHandler()
}

// upload posts file as the multipart form of the import page.
func (b *browser) upload(path, name string, data []byte) response {
	b.env.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		b.env.t.Fatal(err)
	}
	part.Write(data)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, b.env.srv.URL+path, &body)
	if err != nil {
		b.env.t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := b.http.Do(req)
	if err != nil {
		b.env.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Location: res.Header.Get("Location"), Body: string(out), Header: res.Header}
}
