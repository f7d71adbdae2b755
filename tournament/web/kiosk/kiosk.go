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
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/clock"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// kioskPage is the view model of /kiosk/:id, and of its live parts.
type kioskPage struct {
	Lang    string
	Title   string
	Path    string // this page's path and query, for the language switch
	LiveURL string // the live parts of this page, for kiosk.js to fetch
	// EventsURL is the live feed of this page, whose events carry the
	// live parts of LiveURL (ShowEvents).
	EventsURL string
	TID       int64
	Name      string
	Projector bool
	Query     string // the search typed
	QueryKey  string // Query folded as readings are (tournament.FoldReading), for kiosk.js to search with
	Matches   int    // entries matching Query
	Round     int    // the current round; 0 before round 1 is paired
	Rounds    int    // rounds planned
	Clock     clock.Face
	Placement *placementText // the placement under way; nil outside the placement phase
	Entries   []kioskEntry   // every player of the round, by tournament.CollationKey
	Tables    []kioskTable
	Standings []kioskStanding
	// Teams are a team event's standings (teams.go); TeamEvent says it is one.
	Teams     []kioskTeam
	TeamEvent bool
	// StandingsLabel says what the standings count: the rounds complete
	// ("after round N"), every result so far (LiveStandings, the switch
	// ?standings=live), or the final standings.
	StandingsLabel string
	LiveStandings  bool
	SwitchURL      string // the same page with the other standings
	SwitchText     string
	Finished       bool // the tournament is closed: the standings are final
	// FinalRound says the current round is a stage of the final: players
	// not at its tables did not advance, and are told so.
	FinalRound  bool
	Cut         *kioskCut    // how the final's players were chosen; nil outside a final round
	Final       []kioskFinal // the final results once the final is played
	FinalHint   string       // how the final results are ranked
	SelfCheckIn bool         // players may check themselves in (checkin.go)
	SelfReport  bool         // players may report their table (report.go)
	Winners     string       // the players ranked 1st, once finished
	URL         string       // the kiosk's address, for phones
	// Loopback says URL is this machine's own address, which phones cannot
	// open: the projector says so where players scan.
	Loopback bool
	Text     kioskText
	// now is the moment the page shows the clock at; until is when it
	// would look different but for its countdowns (clock.Until).
	now, until time.Time

	// FinalTables are the tables of the final's stage, during and after
	// it: shown first, above everything else (issue 24); Tables is then
	// empty, the rest of the room being out of the final, and the
	// projector shows no list of where everyone sits, only the standings.
	FinalTables []kioskTable
	// Divisions are the event's divisions, each linked to its kiosk
	// (divisions.go); nil for an event of one.
	Divisions []kioskDivision
}

// placementText is the time to the round's signal in the placement phase,
// 「試合終了まで67:58」, in words around the time left, which the page counts
// down.
type placementText struct {
	Before, After string
	Left          int    // seconds
	Deadline      int64  // the round's signal, in ms since 1970
	Shown         string // m:ss
}

// kioskCut is how a stage of the final chose its players, in words: who
// advanced and, when players tied at the line, the draw that separated
// them with its seed.
type kioskCut struct {
	Advancing string
	Draw      string // the drawn order, "" when nobody was drawn
	Seed      uint64
}

// kioskFinal is one line of the final results: the rank and which part of
// the event decided it.
type kioskFinal struct {
	PlayerID  int64
	Rank      int
	Name      string
	From      string
	FromFinal bool
}

// kioskEntry is one player's line in the list: where they sit.
type kioskEntry struct {
	ID       int64 // the player, whose page the name links to
	Name     string
	Kana     string
	Key      string // name and kana, folded (tournament.FoldReading)
	Out      bool   // not at a table of the final round: did not advance
	Table    int    // 0 for a bye
	Seat     int    // play order; 0 before the table is seated
	Color    string
	ColorTxt string
	Hidden   bool   // filtered out by the search
	Mine     bool   // what the search found: highlighted
	order    string // tournament.CollationKey
}

type kioskTable struct {
	Number    int
	Mine      bool // seats a player the search found
	Status    string
	StatusTxt string
	Remaining int    // seconds, this table's own
	Deadline  int64  // when Remaining runs out, in ms since 1970 (clock.Deadline)
	Left      string // Remaining as m:ss
	Extension string // this table's own extensions, "+m:ss"; "" for none
	Ended     string
	Players   []kioskSeat
	Turns     *kioskTurns // a final table's turn limit once its game time is over
	Game      string      // the table's board, when its game is recorded (game.go); "" for none

	State  string // the round clock's state: the table's time counts down while it runs
	Final  bool   // a table of the final's stage: 決勝卓, its time always shown
	Report string // the players' report of the table, while they may report it; "" otherwise
}

// kioskTurns is a final table's turn limit as the room sees it: whose
// turn, its time left (or past the limit), and the end announced.
type kioskTurns struct {
	Turn     int
	Current  string // "" until the table names whose turn it is
	Left     int    // seconds of this turn's limit left
	Deadline int64  // the turn's limit, in ms since 1970 (clock.Deadline)
	Shown    string // m:ss left, or +m:ss past the limit
	Over     bool
	Limit    string // m:ss
	State    string // the round's clock: the counts run while it runs
	Announce string // the end's announcement, within the ruleset's notice; "" before
	// Notice is the seconds until the announcement is due, for the page to
	// ask the server again then; 0 when none is due. NoticeAt is when.
	Notice   int
	NoticeAt int64
}

type kioskSeat struct {
	ID       int64 // the player, on a player's page (player.go)
	Me       bool  // the player whose page it is
	Name     string
	Seat     int
	Color    string
	ColorTxt string
	Place    int
	VP       int
	Sum      string // a deduction as such: "6 − 2 = 4" (tournament.Placing.Sum)
	Why      string // the levels of the penalties behind Sum
	// Breakdown is the VP breakdown the score sheet gave (§11), "" when
	// it gave none.
	Breakdown string
	Declared  bool
}

type kioskStanding struct {
	PID    int64
	Key    string // name and kana, folded, as kioskEntry.Key
	Mine   bool   // a player the search found
	Rank   int
	Name   string
	Firsts int
	VP     int
	Share  string
	Played int
}

// kioskText holds the words the projector's script needs, in the page's
// language; the page carries it as JSON data, never as script.
type kioskText struct {
	Page    string `json:"page"`     // the projector's page number, with {N} and {M}
	Matches string `json:"matches"`  // the players a search found, with {N}
	NoMatch string `json:"no_match"` // a search found nobody
}

// ShowKiosk shows the kiosk: the current round's tables, seats and
// colours, the clock, the placings and the standings.
func (s *Pages) ShowKiosk(c *gin.Context) (render.Result, error) { return s.kiosk(c, "") }

// ShowLive renders the kiosk's live parts alone, for kiosk.js to swap in
// after a change, or when a player searches.
func (s *Pages) ShowLive(c *gin.Context) (render.Result, error) { return s.kiosk(c, "live") }

// kiosk answers the kiosk's page, or its live parts (block "live"), as
// the request asks (kioskView): rendered once per version of the
// tournament for every request of the same view without a search (share),
// for the request alone with one.
func (s *Pages) kiosk(c *gin.Context, block string) (render.Result, error) {
	v, err := s.kioskView(c)
	if err != nil {
		return render.Result{}, err
	}
	ctx := c.Request.Context()
	if v.Query != "" {
		ctx, release, err := auth.Work(ctx)
		if err != nil {
			return render.Result{}, err
		}
		defer release()
		// Rendered here, in the gate's slot, and answered as it is.
		vm, err := s.kioskPage(ctx, v)
		if err != nil {
			return render.Result{}, err
		}
		b, err := s.pages.Share(v.Lang, kioskResult(vm, block), vm.until)
		if err != nil {
			return render.Result{}, err
		}
		return render.Serve(b.Plain(), vm.now), nil
	}
	return s.share(ctx, v.key(block), s.renderKiosk(v, block))
}

// kioskResult is the kiosk's page (block "") or its live parts (block
// "live") of vm.
func kioskResult(vm kioskPage, block string) render.Result {
	if block == "" {
		return render.Show("kiosk", vm)
	}
	return render.Part("kiosk", block, vm)
}

// renderKiosk renders the kiosk's page or its live parts of view v, once
// for everyone who asks for it (share).
func (s *Pages) renderKiosk(v kioskView, block string) func(context.Context) (render.Shared, error) {
	return func(ctx context.Context) (render.Shared, error) {
		vm, err := s.kioskPage(ctx, v)
		if err != nil {
			return render.Shared{}, err
		}
		return s.pages.Share(v.Lang, kioskResult(vm, block), vm.until)
	}
}

// key names the kiosk's page (block "") or its live parts (block
// "live") of view v as rendered once for everyone.
func (v kioskView) key(block string) sharedKey {
	return sharedKey{page: "kiosk", block: block, tid: v.TID, lang: v.Lang, asked: v.AskedLang, projector: v.Projector, standings: v.LiveStandings}
}

// ShowEvents is the kiosk's live feed (live.State.StreamWith): each
// change carries the kiosk's live parts of the view the feed asks for
// (its query: the language, the projector, the standings), exactly as
// ShowLive answers them for the same view, rendered once per version for
// every feed and request of that view, and framed once per change for
// every feed of the view (live.Pushes). kiosk.js swaps them in without
// asking; a change the kiosk does not follow (a recorded game's moves)
// carries none.
func (s *Pages) ShowEvents(c *gin.Context) {
	v, err := s.kioskView(c)
	if err != nil {
		s.pages.Fail(c, err)
		return
	}
	// The parts everyone shares: a search is the page's own to ask for.
	v.Query = ""
	key, rendering := v.key("live"), s.renderKiosk(v, "live")
	s.live.StreamWith(c, v.TID, func(ctx context.Context, e live.Event) ([]byte, error) {
		if e.Kind == "game" {
			return nil, nil
		}
		return s.pushes.Get(ctx, key, e, func(ctx context.Context) ([]byte, error) {
			b, err := s.rendered(ctx, key, rendering)
			if err != nil {
				return nil, err
			}
			return live.Frame(e, b.JSON()), nil
		})
	})
}

// kioskView is what a request asks of the kiosk: which tournament, in
// which language, which view, what search. A kiosk page is made of it and
// the tournament's state alone.
type kioskView struct {
	TID       int64
	Lang      string // the page's language
	AskedLang string // the language the query asks for, which the page's links keep; "" for none
	Projector bool   // ?view=projector
	// LiveStandings is ?standings=live: every result so far, unless the
	// standings are final or a final is played.
	LiveStandings bool
	Query         string // the search typed (search)
}

// kioskView reads what the request asks of the kiosk.
func (s *Pages) kioskView(c *gin.Context) (kioskView, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return kioskView{}, err
	}
	v := kioskView{TID: tid, Lang: s.i18n.Lang(c), Projector: c.Query("view") == "projector",
		LiveStandings: c.Query("standings") == "live", Query: search(c.Query("q"))}
	if lang := c.Query("lang"); lang == "ja" || lang == "en" {
		v.AskedLang = lang
	}
	return v, nil
}

// kioskPage reads the tournament's live state and lays it out as the
// view asks: the projector, the standings with every result so far, the
// players matching a search.
func (s *Pages) kioskPage(ctx context.Context, v kioskView) (kioskPage, error) {
	live, err := s.live.Live(ctx, v.TID)
	if err != nil {
		return kioskPage{}, err
	}
	tid, lang := v.TID, v.Lang
	p := s.i18n.In(lang)
	vm := kioskPage{
		Lang:      lang,
		TID:       tid,
		Name:      live.Tournament.Name,
		Projector: v.Projector,
		Query:     v.Query,
		QueryKey:  tournament.FoldReading(v.Query),
		Rounds:    live.Tournament.Rounds,
		URL:       s.kioskURL(tid),
		Loopback:  route.Unreachable(s.kioskURL(tid)),
		Text:      kioskTexts(p),
		Title:     p.Text("kiosk.title", map[string]any{"Name": live.Tournament.Name}),
		Finished:  live.Tournament.Closed != nil,
	}
	vm.FinalRound = live.Round != nil && live.Round.Round.Mode == tournament.ModeFinal
	vm.SelfCheckIn = live.Tournament.SelfCheckIn && !vm.Finished
	mode := live.Tournament.SelfReport
	vm.SelfReport = (mode == tournament.SelfReportApprove || mode == tournament.SelfReportAuto) && !vm.Finished
	// A final's games do not count in the standings: during a final they
	// are the qualifying standings, with nothing more to show live.
	vm.LiveStandings = v.LiveStandings && !vm.Finished && !vm.FinalRound
	// The live parts speak the page's language whatever asked for it (the
	// query, a cookie, the browser); the switch keeps a language asked for.
	vm.LiveURL = route.Path(route.KioskLive, tid) + vm.query(vm.LiveStandings, lang)
	vm.EventsURL = route.Path(route.KioskEvents, tid) + vm.query(vm.LiveStandings, lang)
	vm.SwitchURL = route.Path(route.Kiosk, tid) + vm.query(!vm.LiveStandings, v.AskedLang)
	vm.Path = route.Path(route.Kiosk, tid) + v.query()
	game := time.Duration(live.Tournament.GameMinutes) * time.Minute
	timer := tournament.Clock{State: tournament.ClockReady, GameLength: game, Remaining: game, At: s.svc.Now()}
	rules := live.Tournament.Ruleset.WithDefaults()
	notice := time.Duration(rules.Timing.EndNoticeMinutes) * time.Minute
	if v := live.Round; v != nil {
		vm.Round, timer = v.Round.Number, v.Timer
		s.fillKioskRound(p, &vm, *v, notice, live.LiveStandings)
	}
	vm.now, vm.until = timer.At, clock.Until(timer, notice)
	vm.Clock, vm.Placement = clock.Show(p, timer), placement(p, timer)
	if vm.FinalRound {
		vm.FinalTables, vm.Tables = vm.Tables, nil
	}
	s.fillStandings(p, &vm, live)
	fillTeams(&vm, live)
	fillFinal(p, &vm, live)
	vm.Divisions = kioskDivisions(live.Tournament, v.Projector)
	return vm, nil
}

// query is the query of the kiosk's page the view asks for, as the
// language switch comes back to it.
func (v kioskView) query() string {
	q := url.Values{}
	if v.AskedLang != "" {
		q.Set("lang", v.AskedLang)
	}
	if v.Query != "" {
		q.Set("q", v.Query)
	}
	if v.LiveStandings {
		q.Set("standings", "live")
	}
	if v.Projector {
		q.Set("view", "projector")
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// kioskTexts are the words the kiosk's scripts need, in p's language.
func kioskTexts(p i18n.Printer) kioskText {
	return kioskText{Page: p.Text("kiosk.page", map[string]any{"N": "{N}", "M": "{M}"}),
		Matches: p.Text("kiosk.matches", map[string]any{"N": "{N}"}), NoMatch: p.Text("kiosk.no_match", nil)}
}

// query is the query of this kiosk's view: the projector, the standings
// with every result so far when live, and lang unless empty.
func (vm kioskPage) query(live bool, lang string) string {
	q := url.Values{}
	if lang == "ja" || lang == "en" {
		q.Set("lang", lang)
	}
	if vm.Projector {
		q.Set("view", "projector")
	}
	if live {
		q.Set("standings", "live")
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

// maxSearch bounds the search a kiosk request folds and compares: a name
// and its kana are 60 characters each, so no longer search matches.
const maxSearch = 120

// search is the search typed, trimmed, and cut one character past
// maxSearch, still too long to match anyone.
func search(q string) string {
	q = strings.TrimSpace(q)
	if r := []rune(q); len(r) > maxSearch+1 {
		q = string(r[:maxSearch+1])
	}
	return q
}

// placement is the time to the round's signal in the placement phase, in
// words around it (the placement's own countdown is the big number); nil
// outside the placement phase.
func placement(p i18n.Printer, c tournament.Clock) *placementText {
	if _, ok := clock.Placing(c); !ok {
		return nil
	}
	left := clock.Seconds(c.Remaining)
	// The message places the time to the signal; the page counts it down.
	const mark = "\x00"
	before, after, _ := strings.Cut(p.Text("kiosk.placement_total", map[string]any{"T": mark}), mark)
	return &placementText{Before: before, After: after, Left: left, Deadline: clock.Deadline(c.At, c.Remaining), Shown: clock.Text(left)}
}

// fillStandings lists the standings the kiosk shows: after the rounds
// complete, or every result so far; once finished, the final ones and the
// winners. A player who has not played is not listed.
func (s *Pages) fillStandings(p i18n.Printer, vm *kioskPage, live tournament.Live) {
	standings := live.Standings
	if vm.LiveStandings {
		standings = live.LiveStandings
	}
	vm.StandingsLabel, vm.SwitchText = standingsLabel(p, live, vm.LiveStandings)
	if vm.Finished {
		vm.Winners = p.Winners(live.Winners)
	}
	key := vm.QueryKey
	for _, st := range standings {
		if st.Played == 0 {
			continue
		}
		find := tournament.FoldReading(st.Name + st.Kana)
		vm.Standings = append(vm.Standings, kioskStanding{
			PID: st.PlayerID, Rank: st.Rank, Name: st.Label, Firsts: st.Firsts, VP: st.VP, Share: i18n.Share(st.Share), Played: st.Played,
			Key: find, Mine: key != "" && strings.Contains(find, key),
		})
	}
}

// standingsLabel says what the kiosk's standings count, and offers the
// other view: after the rounds complete, or (live) with every result so
// far; once finished, they are final and there is no other view.
func standingsLabel(p i18n.Printer, live tournament.Live, liveView bool) (label, other string) {
	switch {
	case len(live.Final) > 0:
		// The final results come first; these rank the qualifying rounds.
		return p.Text("final.qualifying", nil), ""
	case live.Tournament.Closed != nil:
		return p.Text("kiosk.standings_final", nil), ""
	case liveView:
		return p.Text("kiosk.standings_live", map[string]any{"N": live.StandingsAfter + 1}),
			p.Text("kiosk.switch_after", nil)
	}
	return p.Text("kiosk.standings_after", map[string]any{"N": live.StandingsAfter}),
		p.Text("kiosk.switch_live", nil)
}

// fillKioskRound lists the round's players by kana with their table, seat
// and colour, and the tables with their status and placings.
func (s *Pages) fillKioskRound(p i18n.Printer, vm *kioskPage, v tournament.RoundView, notice time.Duration, standings []tournament.Standing) {
	key := vm.QueryKey
	at := v.Timer.At
	add := func(e kioskEntry, id int64, kana string) {
		e.Kana = tournament.Hiragana(kana)
		e.Key = tournament.FoldReading(e.Name + kana)
		e.order = tournament.CollationKey(kana, e.Name, id)
		e.Hidden = key != "" && !strings.Contains(e.Key, key)
		e.Mine, e.ID = key != "" && !e.Hidden, id
		if !e.Hidden {
			vm.Matches++
		}
		vm.Entries = append(vm.Entries, e)
	}
	for _, tv := range v.Tables {
		kt := kioskTable{
			Number:    tv.Table.Number,
			Status:    tv.Clock.Status,
			StatusTxt: p.Text("kiosk.status_"+tv.Clock.Status, nil),
			Remaining: clock.Seconds(tv.Clock.Remaining),
			Deadline:  clock.Deadline(at, tv.Clock.Remaining),
			Left:      clock.Text(clock.Seconds(tv.Clock.Remaining)),
			Extension: clock.Extension(tv.Clock.Extension),
			State:     v.Timer.State,
			Final:     vm.FinalRound,
		}
		if vm.SelfReport && tv.Result == nil {
			kt.Report = route.Path(route.KioskTable, vm.TID, v.Round.Number, tv.Table.Number)
		}
		if tv.Result != nil {
			kt.Ended = p.Text("score.ended_"+tv.Result.EndedBy, nil)
		}
		if tv.Result == nil && tv.Table.Entered != nil {
			// Entered under the two-person rule: shown as waiting, with
			// no placings, until another account confirms it.
			kt.Status, kt.StatusTxt = "pending", p.Text("kiosk.pending", nil)
		}
		if tv.Table.Moves > 0 {
			kt.Game = route.Path(route.KioskGame, vm.TID, v.Round.Number, tv.Table.Number)
			if vm.Projector {
				kt.Game += "?view=projector"
			}
		}
		for _, sv := range tv.Players {
			seat := kioskSeat{Name: sv.Label, Seat: sv.Seat, Color: string(sv.Color)}
			if sv.Color != "" {
				seat.ColorTxt = p.Text("color."+string(sv.Color), nil)
			}
			for _, pl := range tv.Places {
				if pl.PlayerID == sv.PlayerID {
					seat.Place, seat.VP, seat.Sum, seat.Why = pl.Place, pl.VP, pl.Sum(), penaltyLevels(p, pl)
					seat.Declared = tv.Result != nil && tv.Result.Declared == sv.PlayerID
				}
			}
			if tv.Result != nil {
				for _, sc := range tv.Result.Scores {
					if sc.PlayerID == sv.PlayerID {
						seat.Breakdown = sheet.Said(p, sc.Breakdown)
					}
				}
			}
			kt.Players = append(kt.Players, seat)
			add(kioskEntry{Name: sv.Name, Table: tv.Table.Number, Seat: sv.Seat, Color: seat.Color, ColorTxt: seat.ColorTxt}, sv.PlayerID, sv.Kana)
		}
		if tl := tv.Clock.Turns; tl != nil && tv.Result == nil {
			kt.Turns = turns(p, tv, tl, at, notice)
			kt.Turns.State = v.Timer.State
		}
		if tv.Result != nil {
			slices.SortStableFunc(kt.Players, func(a, b kioskSeat) int { return cmp.Compare(a.Place, b.Place) })
		}
		vm.Tables = append(vm.Tables, kt)
	}
	for _, b := range v.Byes {
		add(kioskEntry{Name: b.Name}, b.ID, b.Kana)
	}
	if vm.FinalRound {
		// A final stage seats its cut alone: everyone else who played the
		// qualifying rounds is told they did not advance, not that they
		// lack a table.
		seated := map[int64]bool{}
		for _, tb := range v.Round.Tables {
			for _, id := range tb.Players {
				seated[id] = true
			}
		}
		for _, st := range standings {
			if !seated[st.PlayerID] && st.Played > 0 {
				add(kioskEntry{Name: st.Name, Out: true}, st.PlayerID, st.Kana)
			}
		}
	}
	// The list is ordered as players look themselves up: by reading.
	slices.SortFunc(vm.Entries, func(a, b kioskEntry) int { return strings.Compare(a.order, b.order) })
	// The tables of the players the search found are highlighted too.
	for _, e := range vm.Entries {
		for i := range vm.Tables {
			if e.Mine && e.Table == vm.Tables[i].Number {
				vm.Tables[i].Mine = true
			}
		}
	}
}

// turns is the turn limit tl of a final table tv in words; the end's
// announcement once within notice of it (the ruleset's EndNoticeMinutes).
func turns(p i18n.Printer, tv tournament.TableView, tl *tournament.TurnClock, at time.Time, notice time.Duration) *kioskTurns {
	kt := &kioskTurns{Turn: tl.Turn, Left: clock.Seconds(tl.Remaining), Deadline: clock.Deadline(at, tl.Remaining-tl.Over),
		Limit: clock.Text(clock.Seconds(tl.Limit))}
	for _, sv := range tv.Players {
		if sv.PlayerID == tl.Player {
			kt.Current = sv.Label
		}
	}
	kt.Shown = clock.Text(kt.Left)
	if tl.Over > 0 {
		kt.Over, kt.Shown = true, "+"+clock.Text(clock.Seconds(tl.Over))
	}
	switch {
	case tl.End.IsZero():
	case tl.Announce:
		kt.Announce = p.Text("turns.announce", map[string]any{"End": p.Clock(tl.End), "Minutes": int(notice / time.Minute)})
	case tl.EndLeft > notice:
		kt.Notice, kt.NoticeAt = clock.Seconds(tl.EndLeft-notice), clock.Deadline(at, tl.EndLeft-notice)
	}
	return kt
}

// fillFinal shows the event's final: while a stage of it is played, who
// advanced and the draw that settled a tie at the line; once it is
// played, the final results, each line saying what decided it.
func fillFinal(p i18n.Printer, vm *kioskPage, live tournament.Live) {
	leaders := live.Tournament.Ruleset.WithDefaults().Event.Final == referee.LeadersTable
	for _, f := range live.Final {
		vm.Final = append(vm.Final, kioskFinal{PlayerID: f.PlayerID, Rank: f.Rank, Name: f.Label, From: p.FinalFrom(f, leaders), FromFinal: f.FromFinal()})
	}
	if len(vm.Final) > 0 {
		vm.FinalHint = p.Text("final.results_hint", nil)
		if leaders {
			vm.FinalHint = p.Text("final.results_hint_leaders", nil)
		}
	}
	if live.Round == nil || live.Round.Round.Cut == nil || len(vm.Final) > 0 {
		return
	}
	cut := live.Round.Round.Cut
	vm.Cut = &kioskCut{Advancing: p.Players(cut.Advancing, live.LiveStandings), Seed: cut.Seed}
	if len(cut.Draw) > 0 {
		vm.Cut.Draw = p.Players(cut.Draw, live.LiveStandings)
	}
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
	// Codes limits the guesses at players' codes (shared with the API).
	Codes *auth.Codes
	// Remember seals the player a phone remembers (remember.go).
	Remember *auth.Sealer
	Pages    *render.Engine
	I18n     *i18n.Translator
	Log      *slog.Logger
}

// Pages are the kiosk's pages.
type Pages struct {
	svc       *tournament.Service
	live      *live.State
	qrs       *live.Cache[int64, []byte]
	shared    *live.Cache[sharedKey, render.Shared] // the pages rendered once per version (share)
	pushes    *live.Pushes[sharedKey]               // the live feed's events of each view (ShowEvents)
	publicURL string
	codes     *auth.Codes
	remember  *auth.Sealer
	pages     *render.Engine
	i18n      *i18n.Translator
	log       *slog.Logger
}

// New returns the kiosk's pages.
func New(cfg Config) *Pages {
	return &Pages{svc: cfg.Service, live: cfg.Live, publicURL: cfg.PublicURL, codes: cfg.Codes, remember: cfg.Remember, pages: cfg.Pages,
		i18n: cfg.I18n, log: cfg.Log,
		// A QR code's address changes only with the server's configuration.
		qrs: live.NewCache[int64, []byte](time.Duration(math.MaxInt64)), shared: live.KeptAs[sharedKey, render.Shared](cfg.Live),
		pushes: live.NewPushes[sharedKey]()}
}
