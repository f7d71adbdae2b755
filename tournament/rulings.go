package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// Ruling is a judge's ruling at a table: the position as the judge rebuilt
// it on the table's board (the steps of game.Evaluate, in the order things
// happened), what the rules engine answered, and the judge's note. It is
// a record: it never changes a result.
type Ruling struct {
	ID      int64
	TableID int64
	Round   int // the round's number
	Table   int // the table's number
	// Players are the table's players in play order (pairing order before
	// the table is seated): the steps name them by their ids, as strings.
	Players []int64
	Steps   []game.Step
	Note    string
	Answer  RulingAnswer
	Judge   string
	At      time.Time
}

// RulingAnswer is what the rules engine answered to a ruling's position
// after its last step (game.Evaluate): each player's longest road and VP,
// the holders of the 2-point cards and why, and what the rules forbid in
// the position. Players are named by their ids.
type RulingAnswer struct {
	Players     []RulingPlayer `json:"players"`
	LongestRoad RulingAward    `json:"longest_road"`
	LargestArmy RulingAward    `json:"largest_army"`
	Notes       []RulingReason `json:"notes"`
}

// RulingPlayer is one player's part of a ruling's position (§10, §11).
type RulingPlayer struct {
	PlayerID  int64             `json:"player"`
	Road      int               `json:"road"`
	Roads     int               `json:"roads"` // road pieces on the board
	Trail     []string          `json:"trail"` // the corners of one longest trail, in order
	Soldiers  int               `json:"soldiers"`
	VP        int               `json:"vp"`
	Breakdown referee.Breakdown `json:"breakdown"`
}

// RulingAward is who holds a 2-point card (0 for the bank) and the rule
// that put it there (§10).
type RulingAward struct {
	Holder int64        `json:"holder"`
	Why    RulingReason `json:"why"`
}

// RulingReason is a rule the engine gave as a reason or a note: its code
// and section, the step it is about (-1 for none) and the values of its
// message, players by id.
type RulingReason struct {
	Code    string         `json:"code"`
	Section string         `json:"section"`
	Step    int            `json:"step"`
	Args    map[string]any `json:"args"`
}

// Violation is the reason as a broken rule, for its message: a player
// named by id in Args["Player"] or Args["Group"] is named by name (names),
// and the values read back from JSON take the types the messages expect.
func (r RulingReason) Violation(names map[int64]string) *referee.Violation {
	args := make(map[string]any, len(r.Args))
	for k, v := range r.Args {
		switch x := v.(type) {
		case float64:
			if x == float64(int64(x)) {
				v = int(x)
			}
		case []any:
			list := make([]string, len(x))
			for i, e := range x {
				list[i] = fmt.Sprint(e)
			}
			v = list
		}
		args[k] = v
	}
	name := func(id string) string {
		if n, ok := names[fromPID(id)]; ok {
			return n
		}
		return id
	}
	if id, ok := args["Player"].(string); ok {
		args["Player"] = name(id)
	}
	if ids, ok := args["Group"].([]string); ok {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = name(id)
		}
		args["Group"] = out
	}
	return referee.NewViolation(r.Code, r.Code, args)
}

// ReasonOf is the rule an evaluation gives as a reason or a note, to keep
// or to say.
func ReasonOf(e *game.Error) RulingReason {
	return RulingReason{Code: e.Code, Section: e.Section, Step: e.Index, Args: maps.Clone(e.Args)}
}

// RulingInput is a ruling as a judge saves it.
type RulingInput struct {
	Steps []game.Step
	Note  string
}

// RulingPlayers returns the players of table number of round n, in play
// order once seated, as the steps of a ruling name them (their ids as
// strings), with the ruleset the engine applies.
func (s *Service) RulingPlayers(ctx context.Context, tournamentID int64, n, number int) ([]string, referee.Ruleset, error) {
	e, t, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return nil, referee.Ruleset{}, err
	}
	return pids(playOrder(t)), e.t.Ruleset, nil
}

// playOrder returns a table's players in play order once it is seated,
// else in pairing order.
func playOrder(t Table) []int64 {
	if t.Seating == nil {
		return slices.Clone(t.Players)
	}
	seats := slices.Clone(t.Seating.Seats)
	slices.SortFunc(seats, func(a, b Seat) int { return a.Order - b.Order })
	out := make([]int64, len(seats))
	for i, st := range seats {
		out[i] = st.PlayerID
	}
	return out
}

// SaveRuling evaluates the position a judge rebuilt at table number of
// round n (game.Evaluate, under the tournament's ruleset) and records it
// as a ruling with the engine's answer and the judge's note, in the
// audit log. A step the engine cannot place on a table is refused (a
// *game.Error naming the step); a placement the rules forbid in play is
// recorded with the note that says so. Nothing else changes: a ruling
// never changes a result. It returns the ruling and the evaluation.
func (s *Service) SaveRuling(ctx context.Context, judge string, tournamentID int64, n, number int, in RulingInput) (Ruling, *game.Evaluation, error) {
	if err := checkJudge(judge); err != nil {
		return Ruling{}, nil, err
	}
	note, err := fieldNote.clean(in.Note)
	if err != nil {
		return Ruling{}, nil, err
	}
	e, t, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return Ruling{}, nil, err
	}
	players := playOrder(t)
	ev, err := game.Evaluate(e.t.Ruleset, pids(players), in.Steps)
	if err != nil {
		return Ruling{}, nil, fmt.Errorf("%s: %w", tableSubject(n, number), err)
	}
	r := Ruling{TableID: t.ID, Round: n, Table: number, Players: players, Steps: slices.Clone(in.Steps), Note: note,
		Answer: answerOf(ev), Judge: judge, At: s.now().UTC()}
	if r.Steps == nil {
		r.Steps = []game.Step{}
	}
	c := s.change(judge, "table.ruling", tableSubject(n, number), nil, &r)
	if err := s.store.AddRuling(ctx, &r, c); err != nil {
		return Ruling{}, nil, err
	}
	return r, ev, nil
}

// answerOf is what a ruling records of an evaluation.
func answerOf(ev *game.Evaluation) RulingAnswer {
	holder := func(q int) int64 {
		if q < 0 {
			return 0
		}
		return fromPID(ev.Players[q].Player)
	}
	a := RulingAnswer{
		LongestRoad: RulingAward{Holder: holder(ev.LongestRoad.Holder), Why: ReasonOf(ev.LongestRoad.Why)},
		LargestArmy: RulingAward{Holder: holder(ev.LargestArmy.Holder), Why: ReasonOf(ev.LargestArmy.Why)},
		Notes:       []RulingReason{},
	}
	for _, p := range ev.Players {
		rp := RulingPlayer{PlayerID: fromPID(p.Player), Road: p.Road, Roads: p.Roads, Trail: []string{}, Soldiers: p.Soldiers, VP: p.VP.Total(),
			Breakdown: referee.Breakdown{Settlements: p.Settlements, Cities: p.Cities, LongestRoad: p.VP.LongestRoad > 0,
				LargestArmy: p.VP.LargestArmy > 0, PointCards: p.PointCards}}
		for _, v := range p.Trail.Corners {
			rp.Trail = append(rp.Trail, v.String())
		}
		a.Players = append(a.Players, rp)
	}
	for _, n := range ev.Notes {
		a.Notes = append(a.Notes, ReasonOf(n))
	}
	return a
}

// Rulings lists the rulings recorded at table number of round n, oldest
// first. They are read once per version of the tournament and shared: the
// caller must not change them.
func (s *Service) Rulings(ctx context.Context, tournamentID int64, n, number int) ([]Ruling, error) {
	return readTable(ctx, s, &s.rulings, tournamentID, n, number, func(ctx context.Context, _ record, t Table) ([]Ruling, error) {
		out, err := s.store.Rulings(ctx, t.ID)
		for j := range out {
			out[j].Round, out[j].Table = n, number
		}
		return out, err
	})
}

// EncodeRulingParts is how a store keeps a ruling's steps and answer: as
// JSON.
func EncodeRulingParts(r Ruling) (steps, answer string, err error) {
	st, err := json.Marshal(r.Steps)
	if err != nil {
		return "", "", err
	}
	an, err := json.Marshal(r.Answer)
	return string(st), string(an), err
}

// DecodeRulingParts reads back what EncodeRulingParts wrote.
func DecodeRulingParts(steps, answer string, r *Ruling) error {
	if err := json.Unmarshal([]byte(steps), &r.Steps); err != nil {
		return fmt.Errorf("ruling %d steps: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(answer), &r.Answer); err != nil {
		return fmt.Errorf("ruling %d answer: %w", r.ID, err)
	}
	return nil
}
