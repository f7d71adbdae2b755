package web

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// pairedEnv is a logged-in judge and a tournament of 8 checked-in players
// with round 1 paired: two tables of four.
type pairedEnv struct {
	*consoleEnv
	b   *browser
	t   tournament.Tournament
	ps  []tournament.Player
	r   tournament.Round
	url string // the round's page
}

func newPairedEnv(t *testing.T) *pairedEnv {
	env := newConsoleEnv(t)
	tr, ps := env.seedTournament(8)
	r, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := env.browser()
	b.login("山田")
	return &pairedEnv{consoleEnv: env, b: b, t: tr, ps: ps, r: r, url: fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)}
}

func (p *pairedEnv) name(id int64) string {
	for _, x := range p.ps {
		if x.ID == id {
			return x.Name
		}
	}
	p.t0().Fatalf("no player %d", id)
	return ""
}

func (p *pairedEnv) t0() testing.TB { return p.consoleEnv.t }

// saveAll records a declared win at every table of round n, the first
// player of each table winning.
func (p *pairedEnv) saveAll(n int) {
	p.t0().Helper()
	rv, err := p.svc.RoundView(p.ctx, p.t.ID, n)
	if err != nil {
		p.t0().Fatal(err)
	}
	r := rv.Round
	for _, tb := range r.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 7, 5, 3}[i]})
		}
		if _, err := p.svc.SaveResult(p.ctx, "setup", p.t.ID, n, tb.Number, in); err != nil {
			p.t0().Fatal(err)
		}
	}
}

// fieldValue returns the value attribute of the input with the given id.
func fieldValue(body, id string) string {
	re := regexp.MustCompile(`<input id="` + regexp.QuoteMeta(id) + `"[^>]*?value="([^"]*)"`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		return "<no input " + id + ">"
	}
	return m[1]
}

func dealValues(chips []referee.Chip) url.Values {
	v := url.Values{}
	for _, ch := range chips {
		v.Set(fmt.Sprintf("chip_%d_%d", ch.Hex.Q, ch.Hex.R), strconv.Itoa(ch.Number))
	}
	return v
}
