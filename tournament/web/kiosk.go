package web

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The kiosk is what the players see, on the shop's screen, on a projector
// and on their phones: the current round's tables, seats and colours, the
// clock, the placings and the standings. It is read-only and needs no
// login. The page is complete as the server renders it; static/kiosk.js
// then keeps it live from the event feed.

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
	Clock     kioskClock
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

type kioskClock struct {
	State     string
	Remaining int    // seconds
	Shown     string // m:ss, or the word for time up
	Label     string // what the clock is doing, in words
	Warn      bool   // the last minute
	Up        bool   // time is up
	// Placement is the placement under way, 「配置 5/8・残り0:41」, in
	// the placement phase (referee.Timing); "" otherwise.
	Placement string
	// PlacementK of PlacementOf is that placement, with PlacementLeft
	// seconds left, for the page's countdown.
	PlacementK, PlacementOf, PlacementLeft int
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

func (s *Server) showKiosk(c *gin.Context) (result, error) {
	tid, err := pathID(c, "id")
	if err != nil {
		return result{}, err
	}
	live, err := s.live(c.Request.Context(), tid)
	if err != nil {
		return result{}, err
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
	vm.Clock = s.kioskClock(lang, tournament.Clock{State: tournament.ClockReady, GameLength: game, Remaining: game})
	if v := live.Round; v != nil {
		vm.Round = v.Round.Number
		vm.Clock = s.kioskClock(lang, v.Timer)
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
		vm.Winners = winnerNames(lang, live.Standings)
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
	return show("kiosk", vm), nil
}

// standingsLabel says what the kiosk's standings count, and offers the
// other view: after the rounds complete, or (live) with every result so
// far; once finished, they are final and there is no other view.
func (s *Server) standingsLabel(lang string, live tournament.Live, liveView bool) (label, other string) {
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
func (s *Server) fillKioskRound(lang string, vm *kioskPage, v tournament.RoundView) {
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
			Remaining: seconds(tv.Clock.Remaining),
			Left:      clockText(seconds(tv.Clock.Remaining)),
			Extension: extensionText(tv.Clock.Extension),
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
					seat.Place, seat.VP, seat.Sum, seat.Why = pl.Place, pl.VP, pl.Sum(), s.penaltyLevels(lang, pl)
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

// kioskClock describes the round's clock for the page.
func (s *Server) kioskClock(lang string, c tournament.Clock) kioskClock {
	k := kioskClock{State: c.State, Remaining: seconds(c.Remaining)}
	k.Shown = clockText(k.Remaining)
	k.Label = s.i18n.Text(lang, "kiosk.state_"+c.State, nil)
	switch {
	case c.State == tournament.ClockStopped:
		k.Shown = s.i18n.Text(lang, "kiosk.finished", nil)
	case c.State != tournament.ClockReady && k.Remaining == 0:
		k.Up = true
		k.Shown = s.i18n.Text(lang, "kiosk.time", nil)
	case c.State == tournament.ClockRunning && k.Remaining <= 60:
		k.Warn = true
	}
	if p := c.Phase; p.Phase == tournament.PhasePlacement {
		k.PlacementK, k.PlacementOf, k.PlacementLeft = p.Placement, p.Placements, seconds(p.PhaseLeft)
		k.Placement = s.i18n.Text(lang, "kiosk.placement", map[string]any{"K": p.Placement, "N": p.Placements, "T": clockText(k.PlacementLeft)})
	}
	return k
}

// clockText shows seconds as m:ss.
func clockText(sec int) string { return fmt.Sprintf("%d:%02d", sec/60, sec%60) }

// extensionText shows an extension as +m:ss, and none as "".
func extensionText(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return "+" + clockText(seconds(d))
}

func (s *Server) kioskText(lang string) kioskText {
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
		t.Levels[string(l)] = levelName(lang, l)
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
func (s *Server) kioskURL(tid int64) string {
	return fmt.Sprintf("%s/kiosk/%d", s.deps.PublicURL, tid)
}

// showKioskQR is a QR code of the kiosk's address, for the projector and
// the judge console, so that players open the kiosk on their phones.
func (s *Server) showKioskQR(c *gin.Context) {
	tid, err := pathID(c, "id")
	if err != nil {
		s.fail(c, err)
		return
	}
	png, err := s.kioskQR(c.Request.Context(), tid)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "private, max-age=3600")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(http.StatusOK, "image/png", png)
}

// liveJSON is everything the kiosk shows, for kiosk.js to fetch after each
// change: the latest round (with its clock) and the standings, read together.
type liveJSON struct {
	Tournament tournamentJSON           `json:"tournament"`
	Round      *roundJSON               `json:"round"` // null before round 1 is paired
	Standings  []tournamentStandingJSON `json:"standings"`
	// StandingsAfter is the number of rounds complete (a result at every
	// table) that Standings count; with ?standings=live, StandingsLive is
	// true and Standings count every result so far.
	StandingsAfter int  `json:"standings_after"`
	StandingsLive  bool `json:"standings_live"`
	// Winners are the players ranked 1st once the tournament is finished.
	Winners []winnerJSON `json:"winners"`
}

type winnerJSON struct {
	Player int64  `json:"player"`
	Name   string `json:"name"`
}

func (s *Server) showLiveAPI(c *gin.Context) {
	tid, err := pathID(c, "id")
	if err != nil {
		s.fail(c, err)
		return
	}
	live, err := s.live(c.Request.Context(), tid)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := liveJSON{Tournament: toTournamentJSON(live.Tournament), StandingsAfter: live.StandingsAfter, Winners: []winnerJSON{}}
	out.StandingsLive = c.Query("standings") == "live" && live.Tournament.Closed == nil
	if out.StandingsLive {
		out.Standings = toStandingsJSON(live.LiveStandings)
	} else {
		out.Standings = toStandingsJSON(live.Standings)
	}
	for _, w := range live.Winners {
		out.Winners = append(out.Winners, winnerJSON{Player: w.PlayerID, Name: w.Name})
	}
	if live.Round != nil {
		r := toRoundJSON(*live.Round).public()
		out.Round = &r
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, out)
}
