package console

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// auditPage is the view model of the audit log: each entry as a sentence
// with a link to what it changed, filtered by round, table, player, judge
// and kind, with the raw record behind a toggle.
type auditPage struct {
	render.Page
	TID    int64
	Lines  []auditLine
	Filter auditFilter
	All    int // entries before the filter
	// The filter's choices.
	Rounds  []int
	Tables  []int
	Players []personRef
	Judges  []auditKind // ID the actor as recorded, Name as the page says it
	Kinds   []auditKind
	// LinkText is the words of each line's link.
	LinkText string
}

type auditLine struct {
	At       string
	Judge    string
	Sentence string
	Change   string // what changed, in words (auditChanges), or ""
	Link     string // the page of what changed, or ""
	Action   string // the raw action code, for the raw record
	Subject  string
	Before   string // indented JSON
	After    string
}

type auditKind struct{ ID, Name string }

// auditFilter is the filter as the query string gives it; zero values
// filter nothing.
type auditFilter struct {
	Round, Table int
	Player       int64
	Judge, Kind  string
}

// auditKinds are the kinds of change the filter offers: an action's first
// word.
var auditKinds = []string{"tournament", "player", "round", "table", "game", "result", "report", "penalty", "clock"}

// auditFacts are what an entry is about, read from its subject and its
// record: the round, the table, the player and the penalty.
type auditFacts struct {
	Round, Table int
	Player       int64
	Players      int // players imported
	Reports      int // players' reports a change of the pairing discarded
	Penalty      int64
	Version      int // a result's revision
	Move         int // a recorded game's move
	FromGame     int // a result saved from a recorded game: its moves
	CheckedIn    bool
	Extra        string
	// Reported says a result was saved from a players' report, Disputed
	// that a dispute of one gave the player's own version.
	Reported, Disputed bool
	// DQEffect is a disqualification's effect on the games played.
	DQEffect string
	// Final says Round is a stage of the final: named 決勝.
	Final bool
}

var (
	// A table's subject, alone or followed by what at the table: a
	// players' report ("round 1 table 2: report of ..."), a result saved
	// from one ("round 1 table 2 (reported by players)").
	subjectTable = regexp.MustCompile(`^round (\d+) table (\d+)(?:$|[: ])`)
	subjectRound = regexp.MustCompile(`^round (\d+)$`)
)

// factsOf reads what entry e is about.
func factsOf(e tournament.AuditEntry) auditFacts {
	var f auditFacts
	if m := subjectTable.FindStringSubmatch(e.Subject); m != nil {
		f.Round, _ = strconv.Atoi(m[1])
		f.Table, _ = strconv.Atoi(m[2])
	} else if m := subjectRound.FindStringSubmatch(e.Subject); m != nil {
		f.Round, _ = strconv.Atoi(m[1])
	}
	rec := e.After
	if rec == "" || rec == "null" {
		rec = e.Before
	}
	kind, _, _ := strings.Cut(e.Action, ".")
	switch kind {
	case "player":
		if e.Action == "player.import" {
			var ps []json.RawMessage
			_ = json.Unmarshal([]byte(rec), &ps)
			f.Players = len(ps)
			break
		}
		var p struct {
			ID                 int64
			CheckedIn          bool
			DQEffect, DQReason string
		}
		_ = json.Unmarshal([]byte(rec), &p)
		f.Player, f.CheckedIn = p.ID, p.CheckedIn
		if e.Action == "player.disqualify" {
			f.DQEffect, f.Extra = p.DQEffect, p.DQReason
		}
	case "round":
		var r struct{ Number, DiscardedReports int }
		_ = json.Unmarshal([]byte(rec), &r)
		if r.Number != 0 {
			f.Round = r.Number
		}
		f.Reports = r.DiscardedReports
	case "penalty":
		var p struct {
			ID, PlayerID int64
			Round, Table int
			Revoked      *struct{ Reason string }
		}
		_ = json.Unmarshal([]byte(rec), &p)
		f.Penalty, f.Player, f.Round, f.Table = p.ID, p.PlayerID, p.Round, p.Table
		if p.Revoked != nil {
			f.Extra = p.Revoked.Reason
		}
	case "result":
		var r struct {
			Version, GameMoves int
			ReportID           int64
		}
		_ = json.Unmarshal([]byte(rec), &r)
		f.Version, f.Reported, f.FromGame = r.Version, r.ReportID != 0, r.GameMoves
	case "report":
		f.Player, f.Disputed = reportFacts(e.Action, rec)
	case "final":
		var r struct {
			Number int
			Reason string
		}
		_ = json.Unmarshal([]byte(e.After), &r)
		f.Round, f.Extra = r.Number, r.Reason
	case "game":
		var m struct{ Number int }
		_ = json.Unmarshal([]byte(rec), &m)
		f.Move = m.Number
	case "clock":
		var c struct {
			Seconds  int
			PlayerID int64
			Reason   string
		}
		_ = json.Unmarshal([]byte(rec), &c)
		f.Player, f.Extra = c.PlayerID, c.Reason
		if c.Seconds != 0 && (e.Action == "clock.extend" || e.Action == "clock."+tournament.ClockPlacementEnd) {
			f.Extra = strings.TrimSpace(fmt.Sprintf("%+ds %s", c.Seconds, c.Reason))
		}
	}
	return f
}

// reportFacts reads who made a players' report's change from its record:
// the reporter, the player who confirmed last, or the one who disputed;
// and, for a dispute, whether it gave its own version.
func reportFacts(action, rec string) (player int64, version bool) {
	var r struct {
		ReportedBy, DisputedBy int64
		Confirmed              []int64
		Dispute                *struct{ Scores []json.RawMessage }
	}
	_ = json.Unmarshal([]byte(rec), &r)
	switch {
	case action == "report.dispute":
		return r.DisputedBy, r.Dispute != nil && len(r.Dispute.Scores) > 0
	case action == "report.confirm" && len(r.Confirmed) > 0:
		return r.Confirmed[len(r.Confirmed)-1], false
	}
	return r.ReportedBy, false
}

// keeps says the filter keeps an entry with facts f.
func (flt auditFilter) keeps(e tournament.AuditEntry, f auditFacts) bool {
	kind, _, _ := strings.Cut(e.Action, ".")
	return (flt.Round == 0 || f.Round == flt.Round) &&
		(flt.Table == 0 || f.Table == flt.Table) &&
		(flt.Player == 0 || f.Player == flt.Player) &&
		(flt.Judge == "" || e.Judge == flt.Judge) &&
		(flt.Kind == "" || kind == flt.Kind)
}

func readAuditFilter(c *gin.Context) auditFilter {
	var f auditFilter
	f.Round, _ = strconv.Atoi(c.Query("round"))
	f.Table, _ = strconv.Atoi(c.Query("table"))
	f.Player, _ = strconv.ParseInt(c.Query("player"), 10, 64)
	f.Judge = c.Query("judge")
	if k := c.Query("kind"); slices.Contains(auditKinds, k) {
		f.Kind = k
	}
	return f
}

func (s *Pages) ShowAudit(c *gin.Context) (render.Result, error) {
	t, nav, players, err := s.loadPlayers(c, "audit")
	if err != nil {
		return render.Result{}, err
	}
	entries, err := s.svc.AuditLog(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	vm := auditPage{Page: s.pages.Page(c, "page.audit", map[string]any{"Name": t.Name}), TID: t.ID,
		Filter: readAuditFilter(c), All: len(entries), Rounds: nav.Rounds}
	vm.Nav = nav
	vm.LinkText = s.i18n.Text(lang, "audit.open", nil)
	names := tournament.Labels(players)
	changes := &auditChanges{ctx: c.Request.Context(), svc: s.svc, tid: t.ID, p: s.i18n.In(lang), names: names, games: map[[2]int]*auditGame{}}
	for _, p := range players {
		vm.Players = append(vm.Players, personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
	}
	for _, k := range auditKinds {
		vm.Kinds = append(vm.Kinds, auditKind{ID: k, Name: s.i18n.Text(lang, "audit.kind_"+k, nil)})
	}
	for _, e := range entries {
		if !slices.ContainsFunc(vm.Judges, func(k auditKind) bool { return k.ID == e.Judge }) {
			vm.Judges = append(vm.Judges, auditKind{ID: e.Judge, Name: s.actor(lang, e.Judge)})
		}
		f := factsOf(e)
		f.Final = nav.IsFinal(f.Round)
		if f.Table > 0 && !slices.Contains(vm.Tables, f.Table) {
			vm.Tables = append(vm.Tables, f.Table)
		}
		if !vm.Filter.keeps(e, f) {
			continue
		}
		line := s.auditLine(lang, t.ID, e, f, names)
		line.Change = changes.of(e, f)
		vm.Lines = append(vm.Lines, line)
	}
	slices.Sort(vm.Tables)
	slices.SortFunc(vm.Judges, func(a, b auditKind) int { return strings.Compare(a.Name, b.Name) })
	return render.Show("audit", vm), nil
}

// auditLine writes entry e as a sentence in lang, naming the players, with
// a link to the page of what it changed.
func (s *Pages) auditLine(lang string, tid int64, e tournament.AuditEntry, f auditFacts, names map[int64]string) auditLine {
	l := auditLine{
		At: s.i18n.In(lang).Stamp(e.At), Judge: s.actor(lang, e.Judge), Action: e.Action, Subject: e.Subject,
		Before: indentJSON(e.Before), After: indentJSON(e.After),
	}
	name := names[f.Player]
	if name == "" && f.Player != 0 {
		name = s.playerNameIn(e)
	}
	where := ""
	switch {
	case f.Table > 0:
		where = s.i18n.In(lang).TextFor("audit.where_table", f.Final, map[string]any{"Round": f.Round, "Table": f.Table})
		l.Link = route.Path(route.Table, tid, f.Round, f.Table)
	case f.Round > 0:
		where = s.i18n.In(lang).TextFor("nav.round", f.Final, map[string]any{"N": f.Round})
		l.Link = route.Path(route.Round, tid, f.Round)
	}
	switch {
	case f.Penalty != 0:
		l.Link = route.Path(route.Penalties, tid) + fmt.Sprintf("#pen%d", f.Penalty)
	case strings.HasPrefix(e.Action, "player.") && f.Player != 0 && e.Action != "player.delete":
		l.Link = route.Path(route.Player, tid, f.Player)
	case strings.HasPrefix(e.Action, "result."):
		l.Link = route.Path(route.Score, tid, f.Round, f.Table)
	case strings.HasPrefix(e.Action, "report.") && f.Round > 0:
		l.Link = route.Path(route.Round, tid, f.Round) + "#reports"
	case strings.HasPrefix(e.Action, "game."):
		l.Link = route.Path(route.Record, tid, f.Round, f.Table)
	case strings.HasPrefix(e.Action, "tournament."):
		l.Link = route.Path(route.Tournament, tid)
	}
	if f.Disputed {
		f.Extra = s.i18n.Text(lang, "audit.dispute_version", nil)
	}
	data := map[string]any{"Judge": l.Judge, "Player": name, "Where": where, "Players": f.Players, "Version": f.Version, "Extra": f.Extra, "In": f.CheckedIn,
		"Move": f.Move, "Game": f.FromGame, "Reports": f.Reports}
	if f.DQEffect != "" {
		data["Effect"] = s.i18n.Text(lang, "dq.effect."+f.DQEffect, nil)
	}
	id := "audit.say." + e.Action
	if f.Reported && e.Action == "result.save" {
		id = "audit.say.result.save_reported"
	}
	l.Sentence = s.i18n.Text(lang, id, data)
	if l.Sentence == id {
		// An action this page has no sentence for: its name, and what.
		action := s.i18n.Text(lang, "action."+e.Action, nil)
		if action == "action."+e.Action {
			action = e.Action
		}
		l.Sentence = s.i18n.Text(lang, "audit.say.other", map[string]any{"Judge": l.Judge, "Action": action, "Where": where, "Player": name})
	}
	return l
}

// actor is who made a change as the page says it: a judge's name, or
// the words for a player with their code and for the API's token.
func (s *Pages) actor(lang, judge string) string {
	switch judge {
	case tournament.PlayerActor:
		return s.i18n.Text(lang, "audit.player_actor", nil)
	case tournament.APIActor, legacyAPIActor:
		return s.i18n.Text(lang, "audit.api_actor", nil)
	case tournament.StartupActor:
		return s.i18n.Text(lang, "audit.startup_actor", nil)
	}
	return judge
}

// legacyAPIActor is how the versions before staff accounts named the API
// token in the audit log.
const legacyAPIActor = "api"

// playerNameIn is the name in an entry's record of a player no longer
// registered (a deleted registration).
func (s *Pages) playerNameIn(e tournament.AuditEntry) string {
	var p struct{ Name string }
	if json.Unmarshal([]byte(e.Before), &p) == nil && p.Name != "" {
		return p.Name
	}
	_ = json.Unmarshal([]byte(e.After), &p)
	return p.Name
}
