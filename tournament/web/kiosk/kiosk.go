// Package kiosk serves what the players see, on the shop's screen, on a
// projector and on their phones: the current round's tables, seats and
// colours, the clock, the placings and the standings, and the QR code that
// opens the kiosk on a phone. It is read-only and needs no login. The page
// is complete as the server renders it; static/kiosk.js then keeps it live
// from the event feed.
package kiosk

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/skip2/go-qrcode"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/clock"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// kioskPage is the view model of /kiosk/:id.
type kioskPage struct {
	Lang      string
	Title     string
	Path      string // this page's path and query, for the language switch
	TID       int64
	Name      string
	Projector bool
	Query     string // the search typed, for the page without script
	Matches   int    // entries matching Query
	Round     int    // the current round; 0 before round 1 is paired
	Rounds    int    // rounds planned
	Clock     clock.Face
	Entries   []kioskEntry // every player of the round, by tournament.CollationKey
	Tables    []kioskTable
	Standings []kioskStanding
	// StandingsLabel says what the standings count: the rounds complete
	// ("after round N"), every result so far (LiveStandings, the switch
	// ?standings=live), or the final standings.
	StandingsLabel string
	LiveStandings  bool
	SwitchURL      string // the same page with the other standings
	SwitchText     string
	Finished       bool   // the tournament is closed: the standings are final
	Winners        string // the players ranked 1st, once finished
	URL            string // the kiosk's address, for phones
	Text           kioskText
}

// kioskEntry is one player's line in the list: where they sit.
type kioskEntry struct {
	Name     string
	Kana     string
	Key      string // the search key: name and kana, folded (tournament.FoldReading)
	Table    int    // 0 for a bye
	Seat     int    // play order; 0 before the table is seated
	Color    string
	ColorTxt string
	Hidden   bool   // filtered out by the search
	order    string // tournament.CollationKey
}

type kioskTable struct {
	Number    int
	Status    string
	StatusTxt string
	Remaining int    // seconds, this table's own
	Left      string // Remaining as m:ss
	Extension string // this table's own extensions, "+m:ss"; "" for none
	Ended     string
	Players   []kioskSeat
}

type kioskSeat struct {
	Name     string
	Seat     int
	Color    string
	ColorTxt string
	Place    int
	VP       int
	Sum      string // a deduction as such: "6 − 2 = 4" (showVP)
	Why      string // the levels of the penalties behind Sum
	Declared bool
}

type kioskStanding struct {
	Rank   int
	Name   string
	Firsts int
	VP     int
	Share  string
	Played int
}

// kioskText holds the words kiosk.js needs, in the page's language; the
// page carries it as JSON data, never as script.
type kioskText struct {
	Table     string            `json:"table"` // with {N}
	Seat      string            `json:"seat"`  // with {N}
	Place     string            `json:"place"` // with {N}
	Bye       string            `json:"bye"`
	NoSeat    string            `json:"no_seat"`
	Time      string            `json:"time"`
	Colors    map[string]string `json:"colors"`
	Status    map[string]string `json:"status"`
	State     map[string]string `json:"state"`
	Ended     map[string]string `json:"ended"`
	Extended  string            `json:"extended"` // with {T}
	After     string            `json:"after"`    // the standings after round {N}
	Live      string            `json:"live"`     // the standings with every result so far, round {N} in play
	Final     string            `json:"final"`    // the final standings
	Winner    string            `json:"winner"`   // with {W}
	Finished  string            `json:"finished"` // the clock's word once the tournament is closed
	NoMatch   string            `json:"no_match"`
	Page      string            `json:"page"`    // with {N} and {M}
	Matches   string            `json:"matches"` // with {N}
	Round     string            `json:"round"`   // with {N}
	NotPaired string            `json:"not_paired"`
	VP        string            `json:"vp"` // with {N}
	Declared  string            `json:"declared"`
	Levels    map[string]string `json:"levels"`    // penalty levels by id
	Sep       string            `json:"sep"`       // between the items of a list
	Placement string            `json:"placement"` // with {K}, {N} and {T}
}

func (s *Pages) ShowKiosk(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	live, err := s.live.Live(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	vm := kioskPage{
		Lang:      lang,
		Path:      c.Request.URL.RequestURI(),
		TID:       tid,
		Name:      live.Tournament.Name,
		Projector: c.Query("view") == "projector",
		Query:     strings.TrimSpace(c.Query("q")),
		Rounds:    live.Tournament.Rounds,
		URL:       s.kioskURL(tid),
		Text:      s.kioskText(lang),
	}
	vm.Title = s.i18n.Text(lang, "kiosk.title", map[string]any{"Name": vm.Name})
	game := time.Duration(live.Tournament.GameMinutes) * time.Minute
	vm.Clock = clock.Show(s.i18n.In(lang), tournament.Clock{State: tournament.ClockReady, GameLength: game, Remaining: game})
	if v := live.Round; v != nil {
		vm.Round = v.Round.Number
		vm.Clock = clock.Show(s.i18n.In(lang), v.Timer)
		s.fillKioskRound(lang, &vm, *v)
	}
	vm.Finished = live.Tournament.Closed != nil
	vm.LiveStandings = c.Query("standings") == "live" && !vm.Finished
	standings := live.Standings
	if vm.LiveStandings {
		standings = live.LiveStandings
	}
	vm.StandingsLabel, vm.SwitchText = s.standingsLabel(lang, live, vm.LiveStandings)
	q := url.Values{}
	if vm.Projector {
		q.Set("view", "projector")
	}
	if !vm.LiveStandings {
		q.Set("standings", "live")
	}
	vm.SwitchURL = route.Path(route.Kiosk, tid)
	if len(q) > 0 {
		vm.SwitchURL += "?" + q.Encode()
	}
	if vm.Finished {
		vm.Winners = winnerNames(s.i18n.In(lang), live.Standings)
	}
	for _, st := range standings {
		if st.Played == 0 {
			continue
		}
		vm.Standings = append(vm.Standings, kioskStanding{
			Rank: st.Rank, Name: st.Name, Firsts: st.Firsts, VP: st.VP, Share: fmt.Sprintf("%.3f", st.Share), Played: st.Played,
		})
	}
	if len(vm.Standings) == 0 {
		vm.Standings = nil
	}
	return render.Show("kiosk", vm), nil
}

// standingsLabel says what the kiosk's standings count, and offers the
// other view: after the rounds complete, or (live) with every result so
// far; once finished, they are final and there is no other view.
func (s *Pages) standingsLabel(lang string, live tournament.Live, liveView bool) (label, other string) {
	switch {
	case live.Tournament.Closed != nil:
		return s.i18n.Text(lang, "kiosk.standings_final", nil), ""
	case liveView:
		return s.i18n.Text(lang, "kiosk.standings_live", map[string]any{"N": live.StandingsAfter + 1}),
			s.i18n.Text(lang, "kiosk.switch_after", nil)
	}
	return s.i18n.Text(lang, "kiosk.standings_after", map[string]any{"N": live.StandingsAfter}),
		s.i18n.Text(lang, "kiosk.switch_live", nil)
}

// fillKioskRound lists the round's players by kana with their table, seat
// and colour, and the tables with their status and placings.
func (s *Pages) fillKioskRound(lang string, vm *kioskPage, v tournament.RoundView) {
	key := tournament.FoldReading(vm.Query)
	add := func(e kioskEntry, id int64, kana string) {
		e.Kana = kana
		e.Key = tournament.FoldReading(e.Name + kana)
		e.order = tournament.CollationKey(kana, e.Name, id)
		e.Hidden = key != "" && !strings.Contains(e.Key, key)
		if !e.Hidden {
			vm.Matches++
		}
		vm.Entries = append(vm.Entries, e)
	}
	for _, tv := range v.Tables {
		kt := kioskTable{
			Number:    tv.Table.Number,
			Status:    tv.Clock.Status,
			StatusTxt: s.i18n.Text(lang, "kiosk.status_"+tv.Clock.Status, nil),
			Remaining: clock.Seconds(tv.Clock.Remaining),
			Left:      clock.Text(clock.Seconds(tv.Clock.Remaining)),
			Extension: clock.Extension(tv.Clock.Extension),
		}
		if tv.Result != nil {
			kt.Ended = s.i18n.Text(lang, "score.ended_"+tv.Result.EndedBy, nil)
		}
		for _, p := range tv.Players {
			seat := kioskSeat{Name: p.Name, Seat: p.Seat, Color: string(p.Color)}
			if p.Color != "" {
				seat.ColorTxt = s.i18n.Text(lang, "color."+string(p.Color), nil)
			}
			for _, pl := range tv.Places {
				if pl.PlayerID == p.PlayerID {
					seat.Place, seat.VP, seat.Sum, seat.Why = pl.Place, pl.VP, pl.Sum(), penaltyLevels(s.i18n.In(lang), pl)
					seat.Declared = tv.Result != nil && tv.Result.Declared == p.PlayerID
				}
			}
			kt.Players = append(kt.Players, seat)
			add(kioskEntry{Name: p.Name, Table: tv.Table.Number, Seat: p.Seat, Color: seat.Color, ColorTxt: seat.ColorTxt}, p.PlayerID, p.Kana)
		}
		if tv.Result != nil {
			slices.SortStableFunc(kt.Players, func(a, b kioskSeat) int { return cmp.Compare(a.Place, b.Place) })
		}
		vm.Tables = append(vm.Tables, kt)
	}
	for _, p := range v.Byes {
		add(kioskEntry{Name: p.Name}, p.ID, p.Kana)
	}
	// The list is ordered as players look themselves up: by reading.
	slices.SortFunc(vm.Entries, func(a, b kioskEntry) int { return strings.Compare(a.order, b.order) })
}

func (s *Pages) kioskText(lang string) kioskText {
	n := map[string]any{"N": "{N}"}
	t := kioskText{
		Table:     s.i18n.Text(lang, "round.table", n),
		Seat:      s.i18n.Text(lang, "kiosk.seat", n),
		Place:     s.i18n.Text(lang, "score.place", n),
		Bye:       s.i18n.Text(lang, "kiosk.bye", nil),
		NoSeat:    s.i18n.Text(lang, "kiosk.no_seat", nil),
		Time:      s.i18n.Text(lang, "kiosk.time", nil),
		Extended:  s.i18n.Text(lang, "kiosk.extended", map[string]any{"T": "{T}"}),
		After:     s.i18n.Text(lang, "kiosk.standings_after", n),
		Live:      s.i18n.Text(lang, "kiosk.standings_live", n),
		Final:     s.i18n.Text(lang, "kiosk.standings_final", nil),
		Winner:    s.i18n.Text(lang, "end.winner", map[string]any{"Names": "{W}"}),
		Finished:  s.i18n.Text(lang, "kiosk.finished", nil),
		NoMatch:   s.i18n.Text(lang, "kiosk.no_match", nil),
		Page:      s.i18n.Text(lang, "kiosk.page", map[string]any{"N": "{N}", "M": "{M}"}),
		Matches:   s.i18n.Text(lang, "kiosk.matches", n),
		Round:     s.i18n.Text(lang, "nav.round", n),
		NotPaired: s.i18n.Text(lang, "kiosk.not_paired", nil),
		VP:        s.i18n.Text(lang, "kiosk.vp", n),
		Declared:  s.i18n.Text(lang, "kiosk.declared", nil),
		Placement: s.i18n.Text(lang, "kiosk.placement", map[string]any{"K": "{K}", "N": "{N}", "T": "{T}"}),
		Colors:    map[string]string{},
		Levels:    map[string]string{},
		Sep:       "、",
		Status:    map[string]string{},
		State:     map[string]string{},
		Ended:     map[string]string{},
	}
	for _, c := range []string{"red", "blue", "yellow", "green", "white", "orange"} {
		t.Colors[c] = s.i18n.Text(lang, "color."+c, nil)
	}
	for _, st := range []string{tournament.TableReady, tournament.TablePlaying, tournament.TableFinished, tournament.TableOver} {
		t.Status[st] = s.i18n.Text(lang, "kiosk.status_"+st, nil)
	}
	for _, st := range []string{tournament.ClockReady, tournament.ClockRunning, tournament.ClockPaused, tournament.ClockOver, tournament.ClockStopped} {
		t.State[st] = s.i18n.Text(lang, "kiosk.state_"+st, nil)
	}
	for _, l := range referee.Levels {
		t.Levels[string(l)] = s.i18n.In(lang).Level(l)
	}
	if lang == "en" {
		t.Sep = ", "
	}
	for _, e := range []string{tournament.EndedByDeclaration, tournament.EndedByTime} {
		t.Ended[e] = s.i18n.Text(lang, "score.ended_"+e, nil)
	}
	return t
}

// kioskURL is the kiosk's address for the QR code that phones scan in the
// room, at the configured public address. It never follows the request's
// Host header: a rebinding name or a proxy would end up printed on the
// pairings.
func (s *Pages) kioskURL(tid int64) string { return s.publicURL + route.Path(route.Kiosk, tid) }

// ShowQR is a QR code of the kiosk's address, for the projector and
// the judge console, so that players open the kiosk on their phones.
func (s *Pages) ShowQR(c *gin.Context) {
	tid, err := route.ID(c, "id")
	if err != nil {
		s.pages.Fail(c, err)
		return
	}
	png, err := s.kioskQR(c.Request.Context(), tid)
	if err != nil {
		s.pages.Fail(c, err)
		return
	}
	c.Header("Cache-Control", "private, max-age=3600")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(http.StatusOK, "image/png", png)
}

// kioskQR returns the PNG of the QR code of a tournament's kiosk, drawn
// once: its address changes only with the server's configuration.
func (s *Pages) kioskQR(ctx context.Context, tid int64) ([]byte, error) {
	return s.qrs.Get(ctx, tid, 0, func(ctx context.Context) ([]byte, error) {
		if _, err := s.svc.GetTournament(ctx, tid); err != nil {
			return nil, err
		}
		png, err := qrcode.Encode(s.kioskURL(tid), qrcode.Medium, 320)
		if err != nil {
			return nil, fmt.Errorf("qr code: %w", err)
		}
		return png, nil
	})
}

// winnerNames names the players ranked 1st, as p lists them.
func winnerNames(p i18n.Printer, st []tournament.Standing) string {
	var names []string
	for _, w := range tournament.Winners(st) {
		names = append(names, w.Name)
	}
	return p.List(names)
}

// penaltyLevels names the levels of the penalties that changed pl:
// players see that a deduction was given, judges see why.
func penaltyLevels(p i18n.Printer, pl tournament.Placing) string {
	var names []string
	for _, x := range pl.Penalties {
		names = append(names, p.Level(x.Level))
	}
	return p.List(names)
}

// Config is what the kiosk is made from.
type Config struct {
	Service *tournament.Service
	Live    *live.State
	// PublicURL is the address players' phones reach the server at, for
	// the QR codes; "" gives the kiosk's path alone.
	PublicURL string
	Pages     *render.Engine
	I18n      *i18n.Translator
	Log       *slog.Logger
}

// Pages are the kiosk's pages.
type Pages struct {
	svc       *tournament.Service
	live      *live.State
	qrs       *live.Cache[int64, []byte]
	publicURL string
	pages     *render.Engine
	i18n      *i18n.Translator
	log       *slog.Logger
}

// New returns the kiosk's pages.
func New(cfg Config) *Pages {
	return &Pages{svc: cfg.Service, live: cfg.Live, publicURL: cfg.PublicURL, pages: cfg.Pages, i18n: cfg.I18n, log: cfg.Log,
		// A QR code's address changes only with the server's configuration.
		qrs: live.NewCache[int64, []byte](time.Duration(math.MaxInt64))}
}
