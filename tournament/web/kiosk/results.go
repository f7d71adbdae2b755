package kiosk

import (
	"cmp"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// resultsPage is the view model of /results/:id, a finished tournament's
// results to print on A4 (issue 18): the final results first when a final
// was played, the standings, and every table's result round by round. It
// is a printable (templates/partials/print_layout.html) that anyone may
// open.
type resultsPage struct {
	Lang     string
	Title    string
	Path     string
	Back     string // the landing page
	BackText string
	Name     string // the tournament's
	Date     string
	Venue    string
	Kiosk    string // the kiosk's address, under its QR code
	QR       string
	Loopback bool // never said here: the page is the players', not the judges'
	TID      int64
	// Published says the tournament is finished: before, the page says
	// the results are published once the judges close it.
	Published bool
	Winners   string
	Final     *resultsFinal
	Order     string
	Standings []resultsStanding
	Rounds    []resultsRound
}

// resultsFinal is the final results, as the final_results partial lays
// them out.
type resultsFinal struct {
	Leaders bool
	Lines   []resultsFinalLine
}

type resultsFinalLine struct {
	Rank      int
	Shared    bool
	Name      string
	Kana      string
	FromFinal bool
	From      string
}

type resultsStanding struct {
	PID     int64
	Rank    int
	Shared  bool
	Name    string
	Kana    string
	Firsts  int
	VP      int
	Share   string
	Played  int
	Dropped int
}

type resultsRound struct {
	Label  string
	Tables []resultsTable
	Byes   string // the names of the players without a table
}

type resultsTable struct {
	Number int
	Ended  string
	Seats  []resultsSeat
}

type resultsSeat struct {
	PID      int64
	Name     string
	Place    int
	VP       int
	Sum      string
	Seat     int
	Color    string
	ColorTxt string
	Declared bool
	Why      string // the levels of the penalties behind Sum
}

// ShowResults shows a finished tournament's results, from the record the
// kiosk keeps; before the judges close it, a page that says so.
func (s *Pages) ShowResults(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	res, err := s.live.Results(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	t := res.Tournament
	vm := resultsPage{
		Lang: lang, Path: c.Request.URL.RequestURI(), Back: route.Home, BackText: p.Text("results.back", nil),
		Name: t.Name, Date: t.Date, Venue: t.Venue, TID: tid, Kiosk: s.kioskURL(tid), QR: route.Path(route.KioskQR, tid),
		Title: p.Text("results.title", nil), Published: t.Closed != nil,
	}
	if !vm.Published {
		return render.Show("results", vm), nil
	}
	vm.Order = p.StandingsOrder(t.Ruleset)
	vm.Winners = p.Winners(res.Winners)
	if len(res.Final) > 0 {
		vm.Final = finalOf(p, res)
	}
	for i, x := range res.Standings {
		if x.Played == 0 {
			continue
		}
		vm.Standings = append(vm.Standings, resultsStanding{PID: x.PlayerID, Rank: x.Rank, Name: x.Label, Kana: tournament.ReadingBeside(x.Label, x.Name, x.Kana),
			Firsts: x.Firsts, VP: x.VP, Share: i18n.Share(x.Share), Played: x.Played, Dropped: x.DroppedRound,
			Shared: i > 0 && res.Standings[i-1].Rank == x.Rank || i+1 < len(res.Standings) && res.Standings[i+1].Rank == x.Rank})
	}
	for _, r := range res.Rounds {
		vm.Rounds = append(vm.Rounds, resultsRoundOf(p, res, r))
	}
	return render.Show("results", vm), nil
}

// finalOf lays out the event's final results.
func finalOf(p i18n.Printer, res tournament.EventResults) *resultsFinal {
	leaders := res.Tournament.Ruleset.WithDefaults().Event.Final == referee.LeadersTable
	out := &resultsFinal{Leaders: leaders}
	for i, f := range res.Final {
		out.Lines = append(out.Lines, resultsFinalLine{Rank: f.Rank, Name: f.Label, Kana: tournament.ReadingBeside(f.Label, f.Name, f.Kana), FromFinal: f.FromFinal(),
			From:   p.FinalFrom(f, leaders),
			Shared: i > 0 && res.Final[i-1].Rank == f.Rank || i+1 < len(res.Final) && res.Final[i+1].Rank == f.Rank})
	}
	return out
}

// resultsRoundOf lays out a round's tables, each by its placings.
func resultsRoundOf(p i18n.Printer, res tournament.EventResults, r tournament.RoundResults) resultsRound {
	out := resultsRound{Label: p.Text("nav.round", map[string]any{"N": r.Number})}
	if r.Final {
		out.Label = p.Text("kiosk.final_round", map[string]any{"N": r.Number})
	}
	var byes []string
	for _, id := range r.Byes {
		if l, ok := res.Labels[id]; ok {
			byes = append(byes, l)
		}
	}
	out.Byes = p.List(byes)
	for _, tv := range r.Tables {
		rt := resultsTable{Number: tv.Table.Number}
		if tv.Result != nil {
			rt.Ended = p.Text("score.ended_"+tv.Result.EndedBy, nil)
		}
		for _, sv := range tv.Players {
			seat := resultsSeat{PID: sv.PlayerID, Name: sv.Label, Seat: sv.Seat, Color: string(sv.Color),
				Declared: tv.Result != nil && tv.Result.Declared == sv.PlayerID}
			if sv.Color != "" {
				seat.ColorTxt = p.Text("color."+string(sv.Color), nil)
			}
			for _, pl := range tv.Places {
				if pl.PlayerID == sv.PlayerID {
					seat.Place, seat.VP, seat.Sum, seat.Why = pl.Place, pl.VP, pl.Sum(), penaltyLevels(p, pl)
				}
			}
			rt.Seats = append(rt.Seats, seat)
		}
		slices.SortStableFunc(rt.Seats, func(a, b resultsSeat) int { return cmp.Compare(a.Place, b.Place) })
		out.Tables = append(out.Tables, rt)
	}
	return out
}
