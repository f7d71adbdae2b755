package api

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee/rating"
	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The API beyond one event (issue 29): ratings, seasons, the
// qualification ledger and the import of past events.

// RatingJSON is a rating: μ, σ and the ordinal it is ranked by (μ − 3σ),
// to 4 decimals.
type RatingJSON struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"ordinal"`
	Games   *int    `json:"games,omitempty"`
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func toRatingJSON(r rating.Rating, games *int) RatingJSON {
	return RatingJSON{Mu: round4(r.Mu), Sigma: round4(r.Sigma), Ordinal: round4(r.Ordinal()), Games: games}
}

// personRatingJSON is a person's rating with its games.
func personRatingJSON(r tournament.PersonRating) RatingJSON {
	g := r.Games
	return toRatingJSON(r.Rating, &g)
}

type ratingPointJSON struct {
	Tournament int64      `json:"tournament"`
	Name       string     `json:"name"`
	Date       string     `json:"date"`
	Shop       string     `json:"shop,omitempty"`
	Before     RatingJSON `json:"before"`
	After      RatingJSON `json:"after"`
	Games      int        `json:"games"`
}

// ShowPersonRating answers a person's rating and its history, one point
// per event: public, as the person's page shows it.
func (s *Handlers) ShowPersonRating(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return 0, nil, err
	}
	r, err := s.svc.Rating(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	history := make([]ratingPointJSON, len(r.History))
	for i, p := range r.History {
		history[i] = ratingPointJSON{Tournament: p.Event.ID, Name: p.Event.Name, Date: p.Event.Day(), Shop: p.Event.Shop,
			Before: toRatingJSON(p.Before, nil), After: toRatingJSON(p.After, nil), Games: p.Games}
	}
	return http.StatusOK, gin.H{"person": id, "rating": personRatingJSON(r), "history": history}, nil
}

type ratedJSON struct {
	Rank   int    `json:"rank"`
	Person int64  `json:"person"`
	Name   string `json:"name"`
	Kana   string `json:"kana,omitempty"`
	RatingJSON
}

// ListRatings lists the people rated by ordinal: ?min_games=N (default 1)
// leaves out those with fewer games, ?page= from 1.
func (s *Handlers) ListRatings(c *gin.Context) (int, any, error) {
	minGames, err := positive(c, "min_games", 1)
	if err != nil {
		return 0, nil, err
	}
	page, err := positive(c, "page", 1)
	if err != nil {
		return 0, nil, err
	}
	list, err := s.svc.Ratings(c.Request.Context(), minGames, page)
	if err != nil {
		return 0, nil, err
	}
	out := make([]ratedJSON, len(list.People))
	for i, p := range list.People {
		g := p.Games
		out[i] = ratedJSON{Rank: p.Rank, Person: p.Person.ID, Name: p.Person.Name, Kana: p.Person.Kana, RatingJSON: toRatingJSON(p.Rating, &g)}
	}
	return http.StatusOK, gin.H{"ratings": out, "min_games": minGames, "total": list.Total, "page": list.Page, "pages": list.Pages}, nil
}

// positive reads a query parameter of 1 or more, def when absent.
func positive(c *gin.Context, name string, def int) (int, error) {
	v, ok := c.GetQuery(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1_000_000 {
		return 0, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": name}, Detail: name + "=" + v}
	}
	return n, nil
}

// FormulaJSON is a season's formula.
type FormulaJSON struct {
	Kind   string `json:"kind"`
	Points []int  `json:"points,omitempty"`
	Uma4   []int  `json:"uma4,omitempty"`
	Uma3   []int  `json:"uma3,omitempty"`
	VP     int    `json:"vp,omitempty"`
	Best   int    `json:"best,omitempty"`
}

// QualificationJSON is a season's qualification.
type QualificationJSON struct {
	Attempts int     `json:"attempts,omitempty"`
	Rank     int     `json:"rank,omitempty"`
	RealName bool    `json:"real_name"`
	Events   []int64 `json:"events,omitempty"`
}

// SeasonJSON is a season.
type SeasonJSON struct {
	ID            int64              `json:"id"`
	Name          string             `json:"name"`
	From          string             `json:"from"`
	To            string             `json:"to"`
	Shops         []string           `json:"shops"`
	Events        []int64            `json:"events"`
	Formula       FormulaJSON        `json:"formula"`
	Qualification *QualificationJSON `json:"qualification,omitempty"`
}

func toSeasonJSON(se tournament.Season) SeasonJSON {
	f := se.Formula
	out := SeasonJSON{ID: se.ID, Name: se.Name, From: se.From, To: se.To, Shops: se.Shops, Events: se.Events,
		Formula: FormulaJSON{Kind: f.Kind, Points: f.Points, Uma4: f.Uma4, Uma3: f.Uma3, VP: f.VP, Best: f.Best}}
	if out.Shops == nil {
		out.Shops = []string{}
	}
	if out.Events == nil {
		out.Events = []int64{}
	}
	if q := se.Qualification; q != nil {
		out.Qualification = &QualificationJSON{Attempts: q.Attempts, Rank: q.Rank, RealName: q.RealName, Events: q.Events}
	}
	return out
}

type createSeasonRequest struct {
	Name          string             `json:"name"`
	From          string             `json:"from"`
	To            string             `json:"to"`
	Shops         []string           `json:"shops"`
	Events        []int64            `json:"events"`
	Formula       FormulaJSON        `json:"formula"`
	Qualification *QualificationJSON `json:"qualification"`
}

// CreateSeason adds a season: 201 with it; 422 for a formula or dates the
// season cannot be scored by. A head judge's action.
func (s *Handlers) CreateSeason(c *gin.Context) (int, any, error) {
	var req createSeasonRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	f := req.Formula
	in := tournament.SeasonInput{Name: req.Name, From: req.From, To: req.To, Shops: req.Shops, Events: req.Events,
		Formula: season.Formula{Kind: f.Kind, Points: f.Points, Uma4: f.Uma4, Uma3: f.Uma3, VP: f.VP, Best: f.Best}}
	if q := req.Qualification; q != nil {
		in.Qualification = &tournament.Qualification{Attempts: q.Attempts, Rank: q.Rank, RealName: q.RealName, Events: q.Events}
	}
	se, err := s.svc.CreateSeason(c.Request.Context(), auth.Judge(c), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, toSeasonJSON(se), nil
}

// ListSeasons lists the seasons, the latest first.
func (s *Handlers) ListSeasons(c *gin.Context) (int, any, error) {
	ss, err := s.svc.Seasons(c.Request.Context())
	if err != nil {
		return 0, nil, err
	}
	out := make([]SeasonJSON, len(ss))
	for i, se := range ss {
		out[i] = toSeasonJSON(se)
	}
	return http.StatusOK, gin.H{"seasons": out}, nil
}

// ShowSeason answers a season.
func (s *Handlers) ShowSeason(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "season")
	if err != nil {
		return 0, nil, err
	}
	se, err := s.svc.Season(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toSeasonJSON(se), nil
}

type seasonEventJSON struct {
	Tournament int64  `json:"tournament"`
	Name       string `json:"name"`
	Date       string `json:"date"`
	Shop       string `json:"shop,omitempty"`
	Imported   string `json:"imported,omitempty"`
}

func toSeasonEvents(es []tournament.EventStamp) []seasonEventJSON {
	out := make([]seasonEventJSON, len(es))
	for i, e := range es {
		out[i] = seasonEventJSON{Tournament: e.ID, Name: e.Name, Date: e.Day(), Shop: e.Shop, Imported: e.Imported}
	}
	return out
}

type seasonResultJSON struct {
	Tournament int64   `json:"tournament"`
	Name       string  `json:"name"`
	Rank       int     `json:"rank"`
	Points     float64 `json:"points"`
	Counted    bool    `json:"counted"`
}

type seasonLineJSON struct {
	Rank    int                `json:"rank"`
	Person  int64              `json:"person"`
	Name    string             `json:"name"`
	Kana    string             `json:"kana,omitempty"`
	Points  float64            `json:"points"`
	Events  int                `json:"events"`
	Best    []seasonResultJSON `json:"best"`
	Results []seasonResultJSON `json:"results"`
}

// ShowSeasonStandings answers a season's standings: each person's
// points, events played, and best results (those that count).
func (s *Handlers) ShowSeasonStandings(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "season")
	if err != nil {
		return 0, nil, err
	}
	st, err := s.svc.SeasonStandings(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	lines := make([]seasonLineJSON, len(st.Lines))
	for i, l := range st.Lines {
		line := seasonLineJSON{Rank: l.Rank, Person: l.Person.ID, Name: l.Person.Name, Kana: l.Person.Kana, Points: tournament.RoundPoints(l.Points), Events: l.Events,
			Best: []seasonResultJSON{}, Results: []seasonResultJSON{}}
		for _, r := range l.Results {
			rj := seasonResultJSON{Tournament: r.Event.ID, Name: r.Event.Name, Rank: r.Rank, Points: tournament.RoundPoints(r.Points), Counted: r.Counted}
			line.Results = append(line.Results, rj)
			if r.Counted {
				line.Best = append(line.Best, rj)
			}
		}
		lines[i] = line
	}
	return http.StatusOK, gin.H{"season": toSeasonJSON(st.Season), "events": toSeasonEvents(st.Events), "pending": toSeasonEvents(st.Pending),
		"standings": lines}, nil
}

type attemptJSON struct {
	Tournament int64  `json:"tournament"`
	Name       string `json:"name"`
	Date       string `json:"date"`
	Number     int    `json:"number"`
	Rank       int    `json:"rank,omitempty"`
	Over       bool   `json:"over"`
}

type ledgerLineJSON struct {
	Person    int64         `json:"person"`
	Name      string        `json:"name"`
	RealName  string        `json:"real_name,omitempty"`
	Attempts  []attemptJSON `json:"attempts"`
	Used      int           `json:"used"`
	Left      int           `json:"left"`
	Qualified bool          `json:"qualified"`
	By        *attemptJSON  `json:"by"`
}

// ShowQualification answers a qualification season's ledger, for judges:
// each person's attempts, whether they qualified and by which result, and
// their real name where one is recorded.
func (s *Handlers) ShowQualification(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "season")
	if err != nil {
		return 0, nil, err
	}
	l, err := s.svc.Qualification(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	attempt := func(a tournament.QualificationAttempt) attemptJSON {
		return attemptJSON{Tournament: a.Event.ID, Name: a.Event.Name, Date: a.Event.Day(), Number: a.Number, Rank: a.Rank, Over: a.Over}
	}
	people := make([]ledgerLineJSON, len(l.People))
	for i, en := range l.People {
		line := ledgerLineJSON{Person: en.Person.ID, Name: en.Person.Name, Used: en.Used, Left: en.Left, Attempts: []attemptJSON{}}
		if en.RealName != nil {
			line.RealName = en.RealName.Name
		}
		for _, a := range en.Attempts {
			line.Attempts = append(line.Attempts, attempt(a))
		}
		if en.Qualified != nil {
			by := attempt(*en.Qualified)
			line.Qualified, line.By = true, &by
		}
		people[i] = line
	}
	return http.StatusOK, gin.H{"season": toSeasonJSON(l.Season), "attempts": l.Rule.Attempts, "rank": l.Rule.Rank, "real_name": l.Rule.RealName,
		"events": toSeasonEvents(l.Events), "people": people}, nil
}

type realNameRequest struct {
	RealName string `json:"real_name"`
}

// RecordRealName records a person's real name: 200 {"person","real_name"}.
func (s *Handlers) RecordRealName(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "person")
	if err != nil {
		return 0, nil, err
	}
	var req realNameRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	r, err := s.svc.RecordRealName(c.Request.Context(), auth.Judge(c), id, req.RealName)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gin.H{"person": id, "real_name": r.Name}, nil
}

// ExportSeason writes a season's workbook: its standings and events and,
// for a qualification, its ledger with the real names (judges only).
func (s *Handlers) ExportSeason(c *gin.Context) {
	id, err := route.ID(c, "season")
	if err != nil {
		s.Fail(c, err)
		return
	}
	d, err := s.seasonData(c.Request.Context(), id)
	if err != nil {
		s.Fail(c, err)
		return
	}
	var buf bytes.Buffer
	if err := export.SeasonWorkbook(&buf, d, s.i18n.Lang(c)); err != nil {
		s.Fail(c, err)
		return
	}
	c.Header("Content-Disposition", attachment(d.Standings.Season.Name+".xlsx", fmt.Sprintf("season-%d.xlsx", id)))
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, export.ContentType, buf.Bytes())
}

// seasonData reads what a season's workbook shows.
func (s *Handlers) seasonData(ctx context.Context, id int64) (export.SeasonData, error) {
	st, err := s.svc.SeasonStandings(ctx, id)
	if err != nil {
		return export.SeasonData{}, err
	}
	d := export.SeasonData{Standings: st}
	if st.Season.Qualification != nil {
		q, err := s.svc.Qualification(ctx, id)
		if err != nil {
			return export.SeasonData{}, err
		}
		d.Qualification = &q
	}
	return d, nil
}
