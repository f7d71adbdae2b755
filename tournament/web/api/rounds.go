package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

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
