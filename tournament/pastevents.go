package tournament

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// PastEvent is an event played before the software, as its results give
// it: a results sheet's lines of one date, shop and event name (and, once
// other servers export them, an event's record file). Its players are
// found in the registry as a registration finds them.
type PastEvent struct {
	Name, Date, Shop string
	// Source is what the event is imported from (ImportedFromSheet).
	Source string
	Tables []PastGame
	// Line is where the event starts in its file, for messages; 0 for none.
	Line int
}

// PastGame is one table of a past event.
type PastGame struct {
	Round, Table int
	Scores       []PastScore
}

// PastScore is a player's line at a past table.
type PastScore struct {
	Name, Kana, Member string
	VP                 int
	Line               int // the file's line, 0 for none
}

// PastEventPlan is what importing a past event would do.
type PastEventPlan struct {
	Event   PastEvent
	Rounds  int
	Players []PastPlayer // in the order first seen
}

// PastPlayer is one player of a past event and whom they are in the
// registry.
type PastPlayer struct {
	Name, Kana, Member string
	// PersonID is the person the registry surely has them as (a member
	// number, or one person of the same name and reading); 0 for a new
	// person. Doubt counts the people they may be, none surely: a judge
	// merges them afterwards if one is.
	PersonID int64
	Doubt    int
	Games    int
}

// Bounds of a past event, as of an event run here.
const (
	maxPastEvents  = 200
	maxPastTables  = 2000
	maxPastRounds  = 30
	maxPastPlayers = 2000
)

// PlanPastEvents checks past events and tells what importing them would
// do, changing nothing: each event's players and whom each is in the
// registry. An event that cannot be right (a table of 2, a player at two
// tables of a round, two declarers) is refused, naming it.
func (s *Service) PlanPastEvents(ctx context.Context, events []PastEvent) ([]PastEventPlan, error) {
	if len(events) == 0 || len(events) > maxPastEvents {
		return nil, invalid("past-events-count", fmt.Sprintf("import 1 to %d events at once, not %d", maxPastEvents, len(events)),
			map[string]any{"Max": maxPastEvents, "Count": len(events)})
	}
	rs, ok := s.rulesets.Get(s.defaultRuleset)
	if !ok {
		return nil, fmt.Errorf("plan past events: no default ruleset %q", s.defaultRuleset)
	}
	out := make([]PastEventPlan, len(events))
	for i, e := range events {
		plan, err := s.planPastEvent(ctx, rs, e)
		if err != nil {
			return nil, err
		}
		out[i] = plan
	}
	return out, nil
}

func (s *Service) planPastEvent(ctx context.Context, rs referee.Ruleset, e PastEvent) (PastEventPlan, error) {
	var err error
	if e.Shop, err = fieldShop.clean(e.Shop); err != nil {
		return PastEventPlan{}, err
	}
	e.Date = strings.TrimSpace(e.Date)
	if _, err := time.Parse(time.DateOnly, e.Date); err != nil {
		return PastEventPlan{}, invalid("date-format", fmt.Sprintf("date %q is not a date like 2025-11-22", e.Date), map[string]any{"Date": e.Date})
	}
	if e.Name, err = fieldTournamentName.clean(e.Name); err != nil {
		return PastEventPlan{}, err
	}
	e.Name = cmp.Or(e.Name, strings.TrimSpace(e.Date+" "+e.Shop))
	e.Source = cmp.Or(e.Source, ImportedFromSheet)
	if len(e.Tables) == 0 || len(e.Tables) > maxPastTables {
		return PastEventPlan{}, invalid("past-event-tables", fmt.Sprintf("%s: 1 to %d tables, not %d", e.Name, maxPastTables, len(e.Tables)),
			map[string]any{"Event": e.Name, "Max": maxPastTables, "Count": len(e.Tables)})
	}
	plan := PastEventPlan{Event: e}
	// Cleaned in a copy: the caller's events stay as given.
	plan.Event.Tables = slices.Clone(e.Tables)
	for i := range plan.Event.Tables {
		plan.Event.Tables[i].Scores = slices.Clone(e.Tables[i].Scores)
	}
	seen := map[string]int{} // the player's key → index in plan.Players
	type seat struct{ round, table int }
	tables := map[seat]bool{}
	rows := make([]ImportRow, 0)
	for g := range plan.Event.Tables {
		t := &plan.Event.Tables[g]
		if t.Round < 1 || t.Round > maxPastRounds || t.Table < 1 || t.Table > maxPastTables {
			return PastEventPlan{}, invalid("past-table-number", fmt.Sprintf("%s round %d table %d: rounds 1 to %d, tables from 1", e.Name, t.Round, t.Table, maxPastRounds),
				map[string]any{"Event": e.Name, "Round": t.Round, "Table": t.Table})
		}
		if tables[seat{t.Round, t.Table}] {
			return PastEventPlan{}, invalid("past-table-twice", fmt.Sprintf("%s round %d table %d is listed twice", e.Name, t.Round, t.Table),
				map[string]any{"Event": e.Name, "Round": t.Round, "Table": t.Table})
		}
		tables[seat{t.Round, t.Table}] = true
		plan.Rounds = max(plan.Rounds, t.Round)
		scores := make([]referee.Score, len(t.Scores))
		declared := ""
		for j := range t.Scores {
			sc := &t.Scores[j]
			if sc.Name, err = fieldPlayerName.clean(sc.Name); err != nil {
				return PastEventPlan{}, err
			}
			if sc.Kana, err = fieldKana.clean(sc.Kana); err != nil {
				return PastEventPlan{}, err
			}
			if sc.Member, err = checkMember(sc.Member); err != nil {
				return PastEventPlan{}, err
			}
			if sc.Name == "" {
				return PastEventPlan{}, invalid("past-player-name-missing", fmt.Sprintf("%s round %d table %d: a player without a name", e.Name, t.Round, t.Table),
					map[string]any{"Event": e.Name, "Round": t.Round, "Table": t.Table})
			}
			k := sc.key()
			if _, ok := seen[k]; !ok {
				seen[k] = len(plan.Players)
				plan.Players = append(plan.Players, PastPlayer{Name: sc.Name, Kana: sc.Kana, Member: sc.Member})
				rows = append(rows, ImportRow{Name: sc.Name, Kana: sc.Kana, Member: sc.Member})
			}
			id := pid(int64(seen[k]))
			scores[j] = referee.Score{Player: id, VP: sc.VP}
			// §11: a player with the VP to win declared it; the others end
			// by time when nobody has.
			if sc.VP >= rs.WinVP {
				if declared != "" {
					return PastEventPlan{}, invalid("past-two-winners", fmt.Sprintf("%s round %d table %d: two players with %d VP or more", e.Name, t.Round, t.Table, rs.WinVP),
						map[string]any{"Event": e.Name, "Round": t.Round, "Table": t.Table, "VP": rs.WinVP})
				}
				declared = id
			}
		}
		if _, err := referee.Place(rs, scores, declared); err != nil {
			return PastEventPlan{}, pastRefused(e, *t, plan.Players, err)
		}
	}
	if len(plan.Players) > maxPastPlayers {
		return PastEventPlan{}, invalid("past-event-players", fmt.Sprintf("%s: at most %d players", e.Name, maxPastPlayers), map[string]any{"Event": e.Name, "Max": maxPastPlayers})
	}
	if err := checkPastRounds(plan.Event, plan.Rounds, plan.Event.Tables); err != nil {
		return PastEventPlan{}, err
	}
	x, err := s.personIndex(ctx, rows)
	if err != nil {
		return PastEventPlan{}, err
	}
	for i := range plan.Players {
		p := &plan.Players[i]
		m := x.Match(0, p.Name, p.Kana, p.Member)
		if m.Sure != 0 && !slices.ContainsFunc(plan.Players[:i], func(o PastPlayer) bool { return o.PersonID == m.Sure }) {
			p.PersonID = m.Sure
		} else {
			p.Doubt = len(m.Candidates)
		}
	}
	for _, t := range plan.Event.Tables {
		for _, sc := range t.Scores {
			plan.Players[seen[sc.key()]].Games++
		}
	}
	return plan, nil
}

// key is who a past score's player is within the event: their member
// number, else their name and reading, folded.
func (sc PastScore) key() string {
	if sc.Member != "" {
		return "m" + sc.Member
	}
	return "n" + importKey(sc.Name, sc.Kana)
}

// checkPastRounds refuses a round without a table (rounds are numbered
// from 1 without a gap) and a player at two tables of one round.
func checkPastRounds(e PastEvent, rounds int, tables []PastGame) error {
	for n := 1; n <= rounds; n++ {
		if !slices.ContainsFunc(tables, func(t PastGame) bool { return t.Round == n }) {
			return invalid("past-round-missing", fmt.Sprintf("%s: round %d has no table", e.Name, n), map[string]any{"Event": e.Name, "Round": n})
		}
	}
	type at struct {
		round int
		key   string
	}
	where := map[at]bool{}
	for _, t := range tables {
		for _, sc := range t.Scores {
			k := sc.key()
			if where[at{t.Round, k}] {
				return invalid("past-player-twice", fmt.Sprintf("%s: %s plays two tables of round %d", e.Name, sc.Name, t.Round),
					map[string]any{"Event": e.Name, "Round": t.Round, "Player": sc.Name})
			}
			where[at{t.Round, k}] = true
		}
	}
	return nil
}

// pastRefused is the referee's refusal of a past table (a table of 2, a
// VP no sheet can hold), naming its players and the event, the round and
// the table.
func pastRefused(e PastEvent, t PastGame, players []PastPlayer, err error) error {
	var v *referee.Violation
	if !errors.As(err, &v) {
		return err
	}
	args := map[string]any{}
	for k, x := range v.Args {
		args[k] = x
	}
	if i, ok := args["Player"].(string); ok {
		if n, err := strconv.Atoi(i); err == nil && n >= 0 && n < len(players) {
			args["Player"] = players[n].Name
		}
	}
	args["Event"], args["Round"], args["Table"] = e.Name, t.Round, t.Table
	return invalid(v.Code, fmt.Sprintf("%s round %d table %d: %s", e.Name, t.Round, t.Table, v.Error()), args)
}

// ImportPastEvents imports past events, each as a finished tournament
// marked imported, with its players found in the registry (a member
// number, or the one person of the same name and reading; else a new
// person) and its tables' results as recorded. Each event is one
// transaction; the ratings and seasons count it at once.
func (s *Service) ImportPastEvents(ctx context.Context, judge string, events []PastEvent) ([]Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return nil, err
	}
	// Every event is checked before the first is written.
	if _, err := s.PlanPastEvents(ctx, events); err != nil {
		return nil, err
	}
	rs, _ := s.rulesets.Get(s.defaultRuleset)
	var out []Tournament
	for _, e := range events {
		// Planned again as it is written: the people an earlier event of
		// the import added are in the registry now, and found.
		plan, err := s.planPastEvent(ctx, rs, e)
		if err != nil {
			return out, err
		}
		t, err := s.importPastEvent(ctx, judge, rs, plan)
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (s *Service) importPastEvent(ctx context.Context, judge string, rs referee.Ruleset, plan PastEventPlan) (Tournament, error) {
	e := plan.Event
	now := s.now().UTC()
	t := &Tournament{Name: e.Name, Date: e.Date, Shop: e.Shop, Imported: e.Source, Ruleset: rs, Rounds: plan.Rounds, GameMinutes: rs.GameMinutes, CreatedAt: now}
	w := &PastEventWrite{Tournament: t, Judge: judge, At: now}
	index := map[string]int{}
	for i, pp := range plan.Players {
		p := &Player{Name: pp.Name, Kana: pp.Kana, CheckedIn: true, PersonID: pp.PersonID}
		if pp.PersonID == 0 {
			p.Person = &Person{Name: pp.Name, Kana: pp.Kana, Member: pp.Member}
		}
		w.Players = append(w.Players, p)
		index[PastScore{Name: pp.Name, Kana: pp.Kana, Member: pp.Member}.key()] = i
	}
	for n := 1; n <= plan.Rounds; n++ {
		r := PastRound{Number: n}
		for _, g := range e.Tables {
			if g.Round != n {
				continue
			}
			pt := PastTable{Number: g.Table, Declared: -1}
			for j, sc := range g.Scores {
				pt.Players, pt.VP = append(pt.Players, index[sc.key()]), append(pt.VP, sc.VP)
				if sc.VP >= rs.WinVP {
					pt.Declared = j
				}
			}
			r.Tables = append(r.Tables, pt)
		}
		slices.SortFunc(r.Tables, func(a, b PastTable) int { return cmp.Compare(a.Number, b.Number) })
		if len(r.Tables) > 0 {
			w.Rounds = append(w.Rounds, r)
		}
	}
	summary := map[string]any{"Name": e.Name, "Date": e.Date, "Shop": e.Shop, "Source": e.Source, "Tables": len(e.Tables), "Players": len(plan.Players)}
	if err := s.store.ImportPastEvent(ctx, w, s.change(judge, ActionImportEvent, "tournament "+e.Name, nil, summary)); err != nil {
		return Tournament{}, err
	}
	return *t, nil
}
