package webtest

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Paired is a logged-in judge and a tournament of 8 checked-in players
// with round 1 paired: two tables of four.
type Paired struct {
	*Env
	B          *Browser
	Tournament tournament.Tournament
	Players    []tournament.Player
	Round      tournament.Round
	URL        string // the round's page
}

// NewPaired starts a site with a judge logged in and round 1 paired.
func NewPaired(t *testing.T) *Paired {
	env := New(t)
	tr, ps := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	return &Paired{Env: env, B: b, Tournament: tr, Players: ps, Round: r, URL: fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)}
}

// Name returns the name of player id, failing the test if there is none.
func (p *Paired) Name(id int64) string {
	for _, x := range p.Players {
		if x.ID == id {
			return x.Name
		}
	}
	p.T0().Fatalf("no player %d", id)
	return ""
}

// T0 is the test the site was started for.
func (p *Paired) T0() testing.TB { return p.Env.TB }

// SaveAll records a declared win at every table of round n, the first
// player of each table winning.
func (p *Paired) SaveAll(n int) {
	p.T0().Helper()
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, n)
	if err != nil {
		p.T0().Fatal(err)
	}
	r := rv.Round
	for _, tb := range r.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 7, 5, 3}[i]})
		}
		if _, err := p.Service.SaveResult(p.Ctx, "setup", p.Tournament.ID, n, tb.Number, in); err != nil {
			p.T0().Fatal(err)
		}
	}
}

// FieldValue returns the value attribute of the input with the given id.
func FieldValue(body, id string) string {
	re := regexp.MustCompile(`<input id="` + regexp.QuoteMeta(id) + `"[^>]*?value="([^"]*)"`)
	m := re.FindStringSubmatch(body)
	if m == nil {
		return "<no input " + id + ">"
	}
	return m[1]
}

// DealValues is the deal form of chips, one field per hex.
func DealValues(chips []referee.Chip) url.Values {
	v := url.Values{}
	for _, ch := range chips {
		v.Set(fmt.Sprintf("chip_%d_%d", ch.Hex.Q, ch.Hex.R), strconv.Itoa(ch.Number))
	}
	return v
}
