package tournament_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

const (
	shopEast = "カードショップ東"
	shopWest = "ボードゲームカフェ西"
)

// runEvent runs a one-round event of the first n names at shop on date:
// each table's VP in pairing order are vp[table], the first declaring.
func (c *console) runEvent(name, date, shop string, n int, vp [][]int) tournament.Tournament {
	c.T.Helper()
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: name, Date: date, Shop: shop, Rounds: 1})).OK(c.T)
	for _, nm := range names[:n] {
		must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, Kana: nm.Kana, CheckedIn: true})).OK(c.T)
	}
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(c.T)
	for i := range r.Tables {
		declared := -1
		if vp[i][0] >= 10 {
			declared = 0
		}
		c.Save(tour, 1, i+1, 0, vp[i], declared, "")
	}
	return must(c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)).OK(c.T)
}

// pastEvent is an imported event of two rounds at shop: a table of 4 and a
// table of 3 each round.
func pastEvent(name, date, shop string) tournament.PastEvent {
	score := func(i, vp int) tournament.PastScore {
		return tournament.PastScore{Name: names[i].Name, Kana: names[i].Kana, VP: vp}
	}
	return tournament.PastEvent{Name: name, Date: date, Shop: shop, Tables: []tournament.PastGame{
		{Round: 1, Table: 1, Scores: []tournament.PastScore{score(0, 10), score(1, 8), score(2, 8), score(3, 4)}},
		{Round: 1, Table: 2, Scores: []tournament.PastScore{score(4, 10), score(5, 6), score(6, 3)}},
		{Round: 2, Table: 1, Scores: []tournament.PastScore{score(4, 10), score(0, 9), score(5, 7), score(1, 2)}},
		{Round: 2, Table: 2, Scores: []tournament.PastScore{score(2, 6), score(3, 10), score(6, 6)}},
	}}
}

// threeEvents is a season's three events at two shops, entered out of
// the order they were played in, and one event of another shop.
func (c *console) threeEvents() []tournament.Tournament {
	c.T.Helper()
	dec := c.runEvent("12月定例会", "2025-12-20", shopEast, 7, [][]int{{10, 9, 5, 3}, {10, 7, 7}})
	oct := c.runEvent("10月定例会", "2025-10-18", shopEast, 8, [][]int{{10, 6, 6, 2}, {10, 8, 4, 4}})
	nov := must(c.Svc.ImportPastEvents(c.Ctx, "judge-a", []tournament.PastEvent{pastEvent("西の秋大会", "2025-11-08", shopWest)})).OK(c.T)
	c.runEvent("よその大会", "2025-11-29", "よその店", 4, [][]int{{10, 3, 2, 1}})
	return []tournament.Tournament{oct, nov[0], dec}
}

func TestSeasonOverThreeEventsAtTwoShopsCountsTheBestTwo(t *testing.T) {
	c := newConsole(t)
	c.threeEvents()
	se := must(c.Svc.CreateSeason(c.Ctx, "judge-a", tournament.SeasonInput{
		Name: "2025年秋リーグ", From: "2025-10-01", To: "2025-12-31", Shops: []string{shopEast, shopWest},
		Formula: season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3, 2, 1}, Best: 2},
	})).OK(t)
	st := must(c.Svc.SeasonStandings(c.Ctx, se.ID)).OK(t)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s..%s best %d of %v\n", st.Season.Name, st.Season.From, st.Season.To, st.Season.Formula.Best, st.Season.Formula.Points)
	for _, e := range st.Events {
		fmt.Fprintf(&b, "event %s %s %s imported=%q\n", e.Day(), e.Shop, e.Name, e.Imported)
	}
	for _, l := range st.Lines {
		fmt.Fprintf(&b, "%2d %-6s %6s pts %d events:", l.Rank, l.Person.Name, l.Points.FloatString(2), l.Events)
		for _, r := range l.Results {
			mark := " "
			if r.Counted {
				mark = "*"
			}
			fmt.Fprintf(&b, " %s%s#%d=%s", mark, r.Event.Name, r.Rank, r.Points.FloatString(2))
		}
		b.WriteString("\n")
	}
	golden(t, "season-best-two.golden", b.String())
	if len(st.Events) != 3 || st.Events[0].Name != "10月定例会" || st.Events[2].Name != "12月定例会" {
		t.Errorf("events = %+v, want October, November, December by date", st.Events)
	}
	for _, l := range st.Lines {
		counted := 0
		for _, r := range l.Results {
			if r.Counted {
				counted++
			}
		}
		if counted > 2 {
			t.Errorf("%s counts %d events, want 2 at most", l.Person.Name, counted)
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	tournamenttest.Golden(t, filepath.Join("testdata", name), got, *update)
}

func TestSeasonRefusesABadFormula(t *testing.T) {
	c := newConsole(t)
	_, err := c.Svc.CreateSeason(c.Ctx, "judge-a", tournament.SeasonInput{Name: "x", From: "2025-10-01", To: "2025-12-31",
		Formula: season.Formula{Kind: season.KindZeroSum, Uma4: []int{30, 10, -10, -20}, Uma3: []int{20, 0, -20}}})
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "season-uma-not-zero" {
		t.Fatalf("CreateSeason with an uma of +10 = %v, want season-uma-not-zero", err)
	}
	if ss := must(c.Svc.Seasons(c.Ctx)).OK(t); len(ss) != 0 {
		t.Errorf("seasons = %+v after a refusal, want none", ss)
	}
}

// The ratings count every finished event's games in date order, a table
// of 3 and an imported event's included; reopening an event takes its
// games out until it closes again.
func TestRatingsReplayFinishedEventsByDate(t *testing.T) {
	c := newConsole(t)
	events := c.threeEvents()
	aoki := personOf(t, c, events[0], "青木")
	r := must(c.Svc.Rating(c.Ctx, aoki)).OK(t)
	// Every shop's events count for the ratings, by date, whenever entered.
	var order []string
	for _, p := range r.History {
		order = append(order, p.Event.Name)
	}
	if strings.Join(order, ",") != "10月定例会,西の秋大会,よその大会,12月定例会" {
		t.Fatalf("青木's history = %v, want October, the 8th and 29th of November, December", order)
	}
	if r.Games != 5 || r.History[1].Games != 2 {
		t.Errorf("青木 rated on %d games (%d on the 8th of November), want 5 (2)", r.Games, r.History[1].Games)
	}
	for i := 1; i < len(r.History); i++ {
		if r.History[i].Before != r.History[i-1].After {
			t.Errorf("point %d starts at %+v, want %+v", i, r.History[i].Before, r.History[i-1].After)
		}
	}
	// A player of the table of 3 only (the imported event's 木村).
	kimura := personOf(t, c, events[1], "木村")
	if k := must(c.Svc.Rating(c.Ctx, kimura)).OK(t); k.Games < 2 {
		t.Errorf("木村 rated on %d games, want the tables of 3 counted", k.Games)
	}
	must(c.Svc.ReopenTournament(c.Ctx, "judge-a", events[0].ID, "訂正")).OK(t)
	reopened := must(c.Svc.Rating(c.Ctx, aoki)).OK(t)
	if len(reopened.History) != 3 || reopened.History[0].Before != tournament.RatingModel.New() {
		t.Errorf("with October reopened, 青木's history = %+v, want November first from a new rating", reopened.History)
	}
	must(c.Svc.CloseTournament(c.Ctx, "judge-a", events[0].ID)).OK(t)
	if again := must(c.Svc.Rating(c.Ctx, aoki)).OK(t); again.Rating != r.Rating {
		t.Errorf("closed again, 青木 = %+v, want %+v as before", again.Rating, r.Rating)
	}
	list := must(c.Svc.Ratings(c.Ctx, 3, 1)).OK(t)
	for i, l := range list.People {
		if l.Games < 3 || i > 0 && l.Rating.Ordinal() > list.People[i-1].Rating.Ordinal() {
			t.Errorf("ratings line %d = %+v, want 3 games or more, by ordinal", i, l)
		}
	}
}

func personOf(t *testing.T, c *console, tour tournament.Tournament, name string) int64 {
	t.Helper()
	for _, p := range must(c.Svc.Players(c.Ctx, tour.ID)).OK(t) {
		if p.Name == name {
			return p.PersonID
		}
	}
	t.Fatalf("%s does not play %s", name, tour.Name)
	return 0
}

// A qualification allows three attempts: the fourth counting event's
// check-in is refused with the rule, wherever it is made.
func TestQualificationRefusesAFourthAttempt(t *testing.T) {
	c := newConsole(t)
	c.threeEvents()
	se := must(c.Svc.CreateSeason(c.Ctx, "judge-a", tournament.SeasonInput{
		Name: "2025年地区予選", From: "2025-10-01", To: "2026-01-31", Shops: []string{shopEast, shopWest},
		Formula:       season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3}},
		Qualification: &tournament.Qualification{RealName: true},
	})).OK(t)
	fourth := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "1月予選", Date: "2026-01-10", Shop: shopEast, Rounds: 1})).OK(t)
	aoki := must(c.Svc.AddPlayer(c.Ctx, "judge-a", fourth.ID, tournament.PlayerInput{Name: "青木", Kana: "あおき"})).OK(t)
	notes := must(c.Svc.QualificationNotes(c.Ctx, fourth.ID, []int64{aoki.PersonID})).OK(t)[aoki.PersonID]
	if len(notes) != 1 || notes[0].Refused == nil || !notes[0].RealNameMissing {
		t.Fatalf("notes = %+v, want the fourth attempt refused and the real name missing", notes)
	}
	_, err := c.Svc.CheckIn(c.Ctx, "judge-a", fourth.ID, aoki.ID, true)
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "qualification-attempts-used" || v.Args["Season"] != "2025年地区予選" {
		t.Fatalf("CheckIn of a fourth attempt = %v, want qualification-attempts-used naming the season", err)
	}
	// Someone with attempts left (工藤 played October only) is told where
	// they stand, checks in, and the ledger counts it.
	kudo := must(c.Svc.AddPlayer(c.Ctx, "judge-a", fourth.ID, tournament.PlayerInput{Name: "工藤", Kana: "くどう"})).OK(t)
	if n := must(c.Svc.QualificationNotes(c.Ctx, fourth.ID, []int64{kudo.PersonID})).OK(t)[kudo.PersonID]; len(n) != 1 || n[0].Attempt != 2 || n[0].Refused != nil {
		t.Fatalf("工藤's notes = %+v, want the 2nd attempt", n)
	}
	must(c.Svc.CheckIn(c.Ctx, "judge-a", fourth.ID, kudo.ID, true)).OK(t)
	must(c.Svc.RecordRealName(c.Ctx, "judge-a", kudo.PersonID, "工藤 一郎")).OK(t)
	ledger := must(c.Svc.Qualification(c.Ctx, se.ID)).OK(t)
	for _, en := range ledger.People {
		switch en.Person.Name {
		case "青木":
			if en.Used != 3 || en.Left != 0 || en.Qualified == nil || en.Qualified.Event.Name != "12月定例会" {
				t.Errorf("青木 = %+v, want 3 used, qualified by the win in December", en)
			}
		case "工藤":
			if en.Used != 2 || en.RealName == nil || en.RealName.Name != "工藤 一郎" || en.Attempts[1].Event.ID != fourth.ID || en.Attempts[1].Rank != 0 {
				t.Errorf("工藤 = %+v, want January counted (no rank yet) and the real name recorded", en)
			}
		}
	}
	if _, err := c.Svc.CheckIn(c.Ctx, "judge-a", fourth.ID, aoki.ID, true); err == nil {
		t.Error("a second try of the fourth attempt checked in")
	}
	if p := must(c.Svc.GetPlayer(c.Ctx, fourth.ID, aoki.ID)).OK(t); p.CheckedIn {
		t.Error("青木 is checked in after the refusal")
	}
}
