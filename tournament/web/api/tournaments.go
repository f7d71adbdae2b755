package api

import (
	"cmp"
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The tournament JSON API. Writes need a judge session or the API token;
// the round and standings reads are public, as the kiosk shows the same facts.
// Player ids are the numbers the API returned.

type TournamentJSON struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	Date           string `json:"date,omitempty"`
	Venue          string `json:"venue,omitempty"`
	Shop           string `json:"shop,omitempty"`
	Imported       string `json:"imported,omitempty"` // what a past event was imported from
	Ruleset        string `json:"ruleset"`
	RulesetVersion string `json:"ruleset_version"`
	Rounds         int    `json:"rounds"`
	GameMinutes    int    `json:"game_minutes"`
	// SelfCheckIn says players may check themselves in with their code.
	SelfCheckIn bool `json:"self_checkin"`
	// SelfReport says what players' table reports do: "off", "approve"
	// (a judge accepts each) or "auto" (saved once every player confirmed).
	SelfReport string `json:"self_report"`
	// ConfirmResults is the two-person rule: a result counts once a
	// second account confirmed it.
	ConfirmResults bool `json:"confirm_results"`
	// State is "setup" (no round paired), "running" or "finished" (closed
	// by a judge: the results are final, nothing changes until reopened).
	State    string     `json:"state"`
	ClosedAt *time.Time `json:"closed_at,omitempty"`
	// ArchivedAt is set while a judge has the tournament archived: kept,
	// but off the console's list and the landing page.
	ArchivedAt *time.Time `json:"archived_at,omitempty"`
	// Team says it is a team event, and TeamRules are then the ruleset's
	// team settings (issue 30).
	Team      bool           `json:"team"`
	TeamRules *TeamRulesJSON `json:"team_rules,omitempty"`
	// Divisions in one event (divisions.go): the division this tournament
	// is, and the event's divisions, the main first; both left out for an
	// event of one division.
	Division  string         `json:"division,omitempty"`
	Divisions []DivisionJSON `json:"divisions,omitempty"`
}

func toTournamentJSON(t tournament.Tournament) TournamentJSON {
	out := TournamentJSON{
		ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Shop: t.Shop, Imported: t.Imported,
		Ruleset: t.Ruleset.Name, RulesetVersion: t.Ruleset.Version,
		Rounds: t.Rounds, GameMinutes: t.GameMinutes, SelfCheckIn: t.SelfCheckIn, SelfReport: cmp.Or(t.SelfReport, tournament.SelfReportOff), State: t.State(),
		ConfirmResults: t.ConfirmResults,
		Team:           t.Team, TeamRules: teamRulesJSON(t),
	}
	if t.Closed != nil {
		at := t.Closed.At
		out.ClosedAt = &at
	}
	if t.Archived != nil {
		at := t.Archived.At
		out.ArchivedAt = &at
	}
	out.Division, out.Divisions = t.Division, toDivisionsJSON(t.Divisions)
	return out
}

// ArchiveTournament archives a tournament (kept, off the lists).
func (s *Handlers) ArchiveTournament(c *gin.Context) (int, any, error) {
	return s.archive(c, s.svc.ArchiveTournament)
}

// UnarchiveTournament lists an archived tournament again.
func (s *Handlers) UnarchiveTournament(c *gin.Context) (int, any, error) {
	return s.archive(c, s.svc.UnarchiveTournament)
}

func (s *Handlers) archive(c *gin.Context, set func(context.Context, string, int64) (tournament.Tournament, error)) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	t, err := set(c.Request.Context(), auth.Judge(c), id)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

// DeleteTournament deletes a tournament that never started: 204, or 409
// tournament-started once a round is paired.
func (s *Handlers) DeleteTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	if err := s.svc.DeleteTournament(c.Request.Context(), auth.Judge(c), id); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

// CloseTournament closes a tournament whose tables all have results.
func (s *Handlers) CloseTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	t, err := s.svc.CloseTournament(c.Request.Context(), auth.Judge(c), id)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

type reopenRequest struct {
	Reason string `json:"reason"`
}

// ReopenTournament reopens a closed tournament, with the judge's reason.
func (s *Handlers) ReopenTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req reopenRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.ReopenTournament(c.Request.Context(), auth.Judge(c), id, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

type createTournamentRequest struct {
	Name        string `json:"name"`
	Date        string `json:"date"`
	Venue       string `json:"venue"`
	Shop        string `json:"shop"`
	Ruleset     string `json:"ruleset"`
	Rounds      int    `json:"rounds"`
	GameMinutes int    `json:"game_minutes"`
	SelfCheckIn bool   `json:"self_checkin"`
	SelfReport  string `json:"self_report"`
	// ConfirmResults is the two-person rule (issue 27).
	ConfirmResults bool `json:"confirm_results"`
	// Team makes it a team event (issue 30).
	Team bool `json:"team"`
}

func (s *Handlers) CreateTournament(c *gin.Context) (int, any, error) {
	var req createTournamentRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.CreateTournament(c.Request.Context(), auth.Judge(c), tournament.TournamentInput(req))
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusCreated, t)
}

// editTournamentRequest is a change of a tournament's settings: a field
// left out stays as it is.
type editTournamentRequest struct {
	Name        *string `json:"name"`
	Date        *string `json:"date"`
	Venue       *string `json:"venue"`
	Shop        *string `json:"shop"`
	Rounds      *int    `json:"rounds"`
	GameMinutes *int    `json:"game_minutes"`
	SelfCheckIn *bool   `json:"self_checkin"`
	SelfReport  *string `json:"self_report"`
	// ConfirmResults is the two-person rule (issue 27).
	ConfirmResults *bool `json:"confirm_results"`
	// Team makes it a team event, or no longer one, before round 1 (issue 30).
	Team *bool `json:"team"`
}

// EditTournament changes the settings the body gives, by the console's
// rules (tournament.Service.EditTournament): 200 the tournament as GET
// answers it; 422 for a setting refused (rounds below those paired, the
// game time once a clock ran, an unknown self_report).
func (s *Handlers) EditTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req editTournamentRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.PatchTournament(c.Request.Context(), auth.Judge(c), id, tournament.TournamentPatch(req))
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

func (s *Handlers) ListTournaments(c *gin.Context) (int, any, error) {
	ts, err := s.svc.ListTournaments(c.Request.Context())
	if err != nil {
		return 0, nil, err
	}
	out := make([]TournamentJSON, len(ts))
	for i, t := range ts {
		out[i] = toTournamentJSON(t)
	}
	return http.StatusOK, gin.H{"tournaments": out}, nil
}

func (s *Handlers) ShowTournament(c *gin.Context) (int, any, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	return s.answer(c.Request.Context(), http.StatusOK, t)
}

type PlayerJSON struct {
	ID           int64   `json:"id"`
	Name         string  `json:"name"`
	Kana         string  `json:"kana,omitempty"`
	CheckedIn    bool    `json:"checked_in"`
	LateEntry    int     `json:"late_entry_round,omitempty"`
	DroppedRound int     `json:"dropped_round,omitempty"`
	FixedTable   int     `json:"fixed_table,omitempty"`
	KeepApart    []int64 `json:"keep_apart,omitempty"`
	// Person is the player's person of the registry of people across
	// events (GET /api/v1/people/{id}).
	Person int64 `json:"person,omitempty"`
	// Code is the player's code, in the answer of the call that issued it
	// alone (adding the player, or issuing a new code): it is stored hashed.
	Code string `json:"code,omitempty"`
	// Disqualification is the player's disqualification (events.go), if any.
	Disqualification *DisqualificationJSON `json:"disqualification,omitempty"`
	// Team is the player's team in a team event (teams.go), if any.
	Team *PlayerTeamJSON `json:"team,omitempty"`
	// Division is the event's division the player plays in (divisions.go);
	// left out for an event of one division.
	Division string `json:"division,omitempty"`
}

func toPlayerJSON(p tournament.Player) PlayerJSON {
	return PlayerJSON{
		ID: p.ID, Name: p.Name, Kana: p.Kana, CheckedIn: p.CheckedIn, LateEntry: p.LateEntryRound,
		DroppedRound: p.DroppedRound, FixedTable: p.FixedTable, KeepApart: p.KeepApart, Code: p.Code, Person: p.PersonID,
		Disqualification: toDisqualificationJSON(p),
		Team:             toPlayerTeamJSON(p.Team),
	}
}

type addPlayerRequest struct {
	Name string `json:"name"`
	Kana string `json:"kana"`
	// CheckedIn defaults to true: a player registered through the API is
	// usually registered at the desk on the day.
	CheckedIn *bool `json:"checked_in"`
	// Person links the player to this person of the registry; Member is
	// their member number, which links them to its person. Without
	// either, the player is the one person of the same name and reading,
	// else a new person: the API never links on less.
	Person int64  `json:"person"`
	Member string `json:"member"`
	// Division is the event's division the player registers in
	// (divisions.go): left out, the tournament's own.
	Division string `json:"division"`
}

func (s *Handlers) AddPlayer(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req addPlayerRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.PlayerInput{Name: req.Name, Kana: req.Kana, CheckedIn: req.CheckedIn == nil || *req.CheckedIn,
		Member: req.Member, Person: tournament.PersonChoice{ID: req.Person}, Division: req.Division}
	p, err := s.svc.AddPlayer(c.Request.Context(), auth.Judge(c), tid, in)
	if err != nil {
		return 0, nil, err
	}
	return s.playerIn(c, p)
}

func (s *Handlers) ListPlayers(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	ps, err := s.svc.Players(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	division, err := s.divisionOf(c, tid)
	if err != nil {
		return 0, nil, err
	}
	out := make([]PlayerJSON, len(ps))
	for i, p := range ps {
		out[i] = toPlayerJSON(p)
		out[i].Division = division
	}
	return http.StatusOK, gin.H{"players": out}, nil
}

func (s *Handlers) DropPlayer(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	p, err := s.svc.DropPlayer(c.Request.Context(), auth.Judge(c), tid, pid)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

// DeletePlayer removes a registration that has no game on record: 204,
// or 409 for a player who has played (drop them instead).
func (s *Handlers) DeletePlayer(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	if _, err := s.svc.DeletePlayer(c.Request.Context(), auth.Judge(c), tid, pid); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

// IssueCode gives a player a new code, voiding the old one: 200 with the
// player and the new code.
func (s *Handlers) IssueCode(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	p, err := s.svc.IssueCode(c.Request.Context(), auth.Judge(c), tid, pid)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

type checkInRequest struct {
	CheckedIn bool `json:"checked_in"`
}

func (s *Handlers) CheckIn(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	var req checkInRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.CheckIn(c.Request.Context(), auth.Judge(c), tid, pid, req.CheckedIn)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

// Rounds.

type tablePlayerJSON struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Kana  string `json:"kana,omitempty"`
	Seat  int    `json:"seat,omitempty"`
	Color string `json:"color,omitempty"`
}

type ResultJSON struct {
	Version  int           `json:"version"`
	Declared *int64        `json:"declared"`
	EndedBy  string        `json:"ended_by"`
	Scores   []PlaceIDJSON `json:"scores"`
	Judge    string        `json:"judge,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	// LateReason is the judge's confirmation that a declaration recorded
	// after the table's time signal came before it (§12).
	LateReason string `json:"late_reason,omitempty"`
	// ConfirmedBy is the second account that confirmed it, under the
	// two-person rule.
	ConfirmedBy string `json:"confirmed_by,omitempty"`
}

type PlaceIDJSON struct {
	Player int64 `json:"player"`
	VP     int   `json:"vp"` // what counts: capped (§11), after deductions
	Place  int   `json:"place"`
	// ReportedVP is the VP as written on the score sheet, Deducted what the
	// penalties took off (docs/rules.md, Penalties: a deduction shows as
	// such), and Penalties the levels of those penalties.
	ReportedVP int      `json:"reported_vp"`
	Deducted   int      `json:"deducted"`
	Penalties  []string `json:"penalties,omitempty"`
	// Breakdown is the VP breakdown the score sheet gave, if it gave one.
	Breakdown *BreakdownJSON `json:"breakdown,omitempty"`
}

// BreakdownJSON is a player's VP on a score sheet by where they come
// from (§11): the contract of the score sheet's PUT.
type BreakdownJSON struct {
	Settlements int  `json:"settlements"`
	Cities      int  `json:"cities"`
	LongestRoad bool `json:"longest_road"`
	LargestArmy bool `json:"largest_army"`
	PointCards  int  `json:"point_cards"`
}

func (b BreakdownJSON) breakdown() *referee.Breakdown {
	return &referee.Breakdown{Settlements: b.Settlements, Cities: b.Cities, LongestRoad: b.LongestRoad, LargestArmy: b.LargestArmy, PointCards: b.PointCards}
}

func toBreakdownJSON(b *referee.Breakdown) *BreakdownJSON {
	if b == nil {
		return nil
	}
	return &BreakdownJSON{Settlements: b.Settlements, Cities: b.Cities, LongestRoad: b.LongestRoad, LargestArmy: b.LargestArmy, PointCards: b.PointCards}
}

type RoundTableJSON struct {
	Number  int               `json:"number"`
	Players []tablePlayerJSON `json:"players"`
	Board   *BoardJSON        `json:"board"`
	Result  *ResultJSON       `json:"result"`
	// The versions of the table's seating and board (0 for none), for a
	// change that must not replace another judge's.
	SeatingVersion int `json:"seating_version"`
	BoardVersion   int `json:"board_version"`
	// AwaitingConfirmation says a result was entered under the two-person
	// rule and waits for a second account: it counts nowhere yet.
	AwaitingConfirmation bool `json:"awaiting_confirmation,omitempty"`
}

type RoundJSON struct {
	Number  int               `json:"number"`
	Mode    string            `json:"mode"`
	Seed    uint64            `json:"seed"`
	Repeats int               `json:"repeats"`
	Tables  []RoundTableJSON  `json:"tables"`
	Byes    []tablePlayerJSON `json:"byes"`
	// Clock is the round clock's state, computed when the round was read.
	Clock *ClockJSON `json:"clock"`
	// Cut is a final stage's cut (mode "final"), absent for other rounds.
	Cut *CutJSON `json:"cut,omitempty"`
}

// public strips what only judges see (who saved a result and the reasons
// they gave) from a round served to the kiosk and other anonymous readers.
func (r RoundJSON) public() RoundJSON {
	tables := make([]RoundTableJSON, len(r.Tables))
	for i, t := range r.Tables {
		if t.Result != nil {
			res := *t.Result
			res.Judge, res.Reason, res.LateReason, res.ConfirmedBy = "", "", "", ""
			t.Result = &res
		}
		tables[i] = t
	}
	r.Tables = tables
	return r
}

func toRoundJSON(v tournament.RoundView) RoundJSON {
	out := RoundJSON{Number: v.Round.Number, Mode: v.Round.Mode, Seed: v.Round.Seed, Repeats: v.Round.Repeats, Tables: []RoundTableJSON{}, Byes: []tablePlayerJSON{}}
	for _, tv := range v.Tables {
		t := RoundTableJSON{Number: tv.Table.Number}
		if st := tv.Table.Seating; st != nil {
			t.SeatingVersion = st.Version
		}
		if b := tv.Table.Board; b != nil {
			t.BoardVersion = b.Version
		}
		for _, p := range tv.Players {
			t.Players = append(t.Players, tablePlayerJSON{ID: p.PlayerID, Name: p.Name, Kana: p.Kana, Seat: p.Seat, Color: string(p.Color)})
		}
		if tv.Board != nil {
			b := boardToJSON(*tv.Board)
			t.Board = &b
		}
		if tv.Result != nil {
			t.Result = toResultJSON(*tv.Result, tv.Places)
		}
		t.AwaitingConfirmation = tv.Entered != nil
		out.Tables = append(out.Tables, t)
	}
	for _, p := range v.Byes {
		out.Byes = append(out.Byes, tablePlayerJSON{ID: p.ID, Name: p.Name, Kana: p.Kana})
	}
	out.Clock = toClockJSON(v.Timer)
	if v.Round.Cut != nil {
		cut := toFinalJSON(v).Cut
		out.Cut = &cut
	}
	return out
}

func toResultJSON(r tournament.Result, places []tournament.Placing) *ResultJSON {
	out := &ResultJSON{Version: r.Version, EndedBy: r.EndedBy, Judge: r.Judge, Reason: r.Reason, LateReason: r.LateReason, Scores: []PlaceIDJSON{},
		ConfirmedBy: r.ConfirmedBy}
	if r.Declared != 0 {
		d := r.Declared
		out.Declared = &d
	}
	breakdowns := map[int64]*referee.Breakdown{}
	for _, sc := range r.Scores {
		breakdowns[sc.PlayerID] = sc.Breakdown
	}
	for _, p := range places {
		sc := PlaceIDJSON{Player: p.PlayerID, VP: p.VP, Place: p.Place, ReportedVP: p.Reported, Deducted: p.Deducted, Breakdown: toBreakdownJSON(breakdowns[p.PlayerID])}
		for _, x := range p.Penalties {
			sc.Penalties = append(sc.Penalties, string(x.Level))
		}
		out.Scores = append(out.Scores, sc)
	}
	return out
}

func (s *Handlers) PairRound(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	r, err := s.svc.PairNextRound(c.Request.Context(), auth.Judge(c), tid)
	if err != nil {
		return 0, nil, err
	}
	v, err := s.svc.RoundView(c.Request.Context(), tid, r.Number)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, toRoundJSON(v), nil
}

func (s *Handlers) ShowRound(c *gin.Context) (int, any, error) {
	v, err := s.liveRound(c)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toRoundJSON(v).public(), nil
}

// liveRound reads the :id tournament's round :n from the reads the kiosk
// shares (live.State), its clock computed now.
func (s *Handlers) liveRound(c *gin.Context) (tournament.RoundView, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return tournament.RoundView{}, err
	}
	return s.live.Round(c.Request.Context(), tid, n)
}

type idRollJSON struct {
	Player int64 `json:"player"`
	White  int   `json:"white"`
	Blue   int   `json:"blue"`
}

type tableSeatingRequest struct {
	Rounds [][]idRollJSON `json:"rounds"`
	Auto   bool           `json:"auto"`
	// Version, when given, is the version of the table's seating the
	// change was decided on (0 for none): a newer one is a 409.
	Version *int `json:"version"`
}

// tableJSON answers a seating or board change with the table as the round shows it.
func (s *Handlers) tableJSON(c *gin.Context, tid int64, n, number int) (int, any, error) {
	v, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return 0, nil, err
	}
	for _, t := range toRoundJSON(v).Tables {
		if t.Number == number {
			return http.StatusOK, t, nil
		}
	}
	return 0, nil, problem.ErrNoRoute
}

func (s *Handlers) SeatTable(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req tableSeatingRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.SeatingInput{Auto: req.Auto, Version: req.Version}
	for _, round := range req.Rounds {
		var rolls []tournament.Roll
		for _, r := range round {
			rolls = append(rolls, tournament.Roll{PlayerID: r.Player, CapsuleRoll: referee.CapsuleRoll{White: r.White, Blue: r.Blue}})
		}
		in.Rolls = append(in.Rolls, rolls)
	}
	if _, err := s.svc.SetSeating(c.Request.Context(), auth.Judge(c), tid, n, number, in); err != nil {
		return 0, nil, err
	}
	return s.tableJSON(c, tid, n, number)
}

type tableBoardRequest struct {
	White  int  `json:"white"`
	Blue   int  `json:"blue"`
	Corner int  `json:"corner"` // a spiral ruleset's corner die
	Auto   bool `json:"auto"`
	// Version, as tableSeatingRequest's, of the table's board.
	Version *int `json:"version"`
}

func (s *Handlers) SetBoard(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req tableBoardRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.BoardInput{Roll: referee.CapsuleRoll{White: req.White, Blue: req.Blue}, Corner: req.Corner, Auto: req.Auto, Version: req.Version}
	if _, err := s.svc.SetBoard(c.Request.Context(), auth.Judge(c), tid, n, number, in); err != nil {
		return 0, nil, err
	}
	return s.tableJSON(c, tid, n, number)
}

type IdScoreJSON struct {
	Player    int64          `json:"player"`
	VP        int            `json:"vp"`
	Breakdown *BreakdownJSON `json:"breakdown,omitempty"`
}

// ScoreRequest is one line of a score sheet as the PUT takes it: the VP,
// the breakdown, or both.
type ScoreRequest struct {
	Player    int64          `json:"player"`
	VP        *int           `json:"vp"`
	Breakdown *BreakdownJSON `json:"breakdown"`
}

type SaveResultRequest struct {
	Scores   []ScoreRequest `json:"scores"`
	Declared *int64         `json:"declared"`
	Version  int            `json:"version"`
	Reason   string         `json:"reason"`
	// LateReason confirms that a declaration saved after the table's time
	// signal was made before it (§12).
	LateReason string `json:"late_reason"`
	// Report is the players' report the sheet was taken from: saved as
	// one of its versions, the revision is that report, accepted.
	Report int64 `json:"report"`
}

func (s *Handlers) SaveResult(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req SaveResultRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.ResultInput{Version: req.Version, Reason: req.Reason, LateReason: req.LateReason, ReportID: req.Report}
	if req.Declared != nil {
		in.Declared = *req.Declared
	}
	in.Scores = scoresOf(req.Scores)
	tr, err := s.svc.SaveResult(c.Request.Context(), auth.Judge(c), tid, n, number, in)
	if err != nil {
		return 0, nil, err
	}
	res := toResultJSON(tr.Result, tr.Places)
	return http.StatusOK, gin.H{"placings": res.Scores, "version": res.Version, "ended_by": res.EndedBy}, nil
}

// scoresOf reads the lines of a score sheet: a line without a VP gives
// only its breakdown, whose count the service takes.
func scoresOf(lines []ScoreRequest) []tournament.Score {
	var out []tournament.Score
	for _, sc := range lines {
		score := tournament.Score{PlayerID: sc.Player, NoVP: sc.VP == nil}
		if sc.VP != nil {
			score.VP = *sc.VP
		}
		if sc.Breakdown != nil {
			score.Breakdown = sc.Breakdown.breakdown()
		}
		out = append(out, score)
	}
	return out
}

type penaltyRequest struct {
	Player  int64  `json:"player"`
	Round   int    `json:"round"`
	Table   int    `json:"table"`
	Offence string `json:"offence"`
	Level   string `json:"level"`
	Note    string `json:"note"`
}

type PenaltyJSON struct {
	ID      int64           `json:"id"`
	Player  int64           `json:"player"`
	Round   int             `json:"round"`
	Table   int             `json:"table"`
	Offence string          `json:"offence"`
	Level   string          `json:"level"`
	Judge   string          `json:"judge"`
	Note    string          `json:"note"`
	Revoked *revocationJSON `json:"revoked"`
}

type revocationJSON struct {
	Judge  string `json:"judge"`
	Reason string `json:"reason"`
}

func (s *Handlers) RecordPenalty(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req penaltyRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.RecordPenalty(c.Request.Context(), auth.Judge(c), tid, tournament.PenaltyInput{
		PlayerID: req.Player, Round: req.Round, Table: req.Table, Offence: req.Offence, Level: referee.Level(req.Level), Note: req.Note,
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, toPenaltyJSON(p), nil
}

func toPenaltyJSON(p tournament.Penalty) PenaltyJSON {
	out := PenaltyJSON{
		ID: p.ID, Player: p.PlayerID, Round: p.Round, Table: p.Table, Offence: p.Offence,
		Level: string(p.Level), Judge: p.Judge, Note: p.Note,
	}
	if p.Revoked != nil {
		out.Revoked = &revocationJSON{Judge: p.Revoked.Judge, Reason: p.Revoked.Reason}
	}
	return out
}

func (s *Handlers) ListPenalties(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	ps, err := s.svc.Penalties(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := make([]PenaltyJSON, len(ps))
	for i, p := range ps {
		out[i] = toPenaltyJSON(p)
	}
	return http.StatusOK, gin.H{"penalties": out}, nil
}

type revokeRequest struct {
	Reason string `json:"reason"`
}

func (s *Handlers) RevokePenalty(c *gin.Context) (int, any, error) {
	tid, id, err := route.IDs(c, "penalty")
	if err != nil {
		return 0, nil, err
	}
	var req revokeRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.RevokePenalty(c.Request.Context(), auth.Judge(c), tid, id, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPenaltyJSON(p), nil
}

type TournamentStandingJSON struct {
	Rank   int     `json:"rank"`
	Player int64   `json:"player"`
	Name   string  `json:"name"`
	Kana   string  `json:"kana,omitempty"`
	Firsts int     `json:"firsts"`
	VP     int     `json:"vp"`
	Share  float64 `json:"share"`
	Points int     `json:"points"`
	Played int     `json:"played"`
	// DroppedRound is the first round the player no longer plays; 0 while active.
	DroppedRound int `json:"dropped_round"`
	// Disqualified is the effect of the player's disqualification on the
	// games they played ("keep", "remove", "void"); absent for none.
	Disqualified string `json:"disqualified,omitempty"`
}

func (s *Handlers) ShowStandings(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	// The kiosk's standings, shared through the cache like the rest of
	// what it shows.
	if tid, err = s.divisionNamed(c, tid); err != nil {
		return 0, nil, err
	}
	live, err := s.live.Live(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, StandingsJSON{Final: toFinalStandingsJSON(live.Final), Standings: toStandingsJSON(live.Standings)}, nil
}

// StandingsJSON is the standings, with the final results first once a
// final is played.
type StandingsJSON struct {
	Final     []FinalStandingJSON      `json:"final,omitempty"`
	Standings []TournamentStandingJSON `json:"standings"`
}

func toStandingsJSON(st []tournament.Standing) []TournamentStandingJSON {
	out := make([]TournamentStandingJSON, len(st))
	for i, x := range st {
		out[i] = TournamentStandingJSON{
			Rank: x.Rank, Player: x.PlayerID, Name: x.Name, Kana: x.Kana, Firsts: x.Firsts, VP: x.VP,
			Share: roundShare(x.Share), Points: x.Points, Played: x.Played, DroppedRound: x.DroppedRound,
			Disqualified: string(x.Disqualified),
		}
	}
	return out
}
