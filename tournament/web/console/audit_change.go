package console

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/gameview"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// auditChanges says in words what an entry of the audit log changed,
// beyond its sentence (issue 25): a recorded move as the record page
// writes it, a score sheet's values, and a correction's values before and
// after, each player by their label. The raw record stays behind the
// line's toggle. It reads each table's recorded game once a page.
type auditChanges struct {
	ctx   context.Context
	svc   *tournament.Service
	tid   int64
	p     i18n.Printer
	names map[int64]string // the players' labels
	games map[[2]int]*auditGame
}

// auditGame is a table's recorded game and its players in play order,
// or ok false when the table has none to read.
type auditGame struct {
	g     tournament.Game
	seats []gameview.Seat
	ok    bool
}

// of is what entry e (about f) changed in words, or "" when its sentence
// says it all.
func (a *auditChanges) of(e tournament.AuditEntry, f auditFacts) string {
	switch {
	case e.Action == tournament.ActionGameMove:
		return a.move(e.After, f)
	case e.Action == tournament.ActionGameUndo:
		return a.move(e.Before, f)
	case strings.HasPrefix(e.Action, "result."):
		return a.result(e.Before, e.After)
	}
	return ""
}

func (a *auditChanges) move(rec string, f auditFacts) string {
	var m tournament.GameMove
	if json.Unmarshal([]byte(rec), &m) != nil || m.Move.Do == "" || f.Table == 0 {
		return ""
	}
	key := [2]int{f.Round, f.Table}
	g := a.games[key]
	if g == nil {
		g = &auditGame{}
		if game, err := a.svc.Game(a.ctx, a.tid, f.Round, f.Table); err == nil {
			g.g, g.ok = game, true
			for _, id := range game.Players {
				g.seats = append(g.seats, gameview.Seat{ID: strconv.FormatInt(id, 10), Name: a.names[id]})
			}
		}
		a.games[key] = g
	}
	if !g.ok {
		return ""
	}
	return gameview.MoveText(a.p, g.g, g.seats, m.Number, m.Move)
}

func (a *auditChanges) result(before, after string) string {
	var was, is tournament.Result
	if json.Unmarshal([]byte(after), &is) != nil || len(is.Scores) == 0 {
		return ""
	}
	_ = json.Unmarshal([]byte(before), &was)
	var parts []string
	if was.Version == 0 {
		// A first save: the sheet as saved.
		for _, sc := range is.Scores {
			parts = append(parts, a.p.Text("audit.change.vp", map[string]any{"Player": a.names[sc.PlayerID], "VP": sc.VP}))
		}
		if is.Declared != 0 {
			parts = append(parts, a.p.Text("audit.change.declared", map[string]any{"Player": a.names[is.Declared]}))
		}
		return a.p.List(parts)
	}
	for _, d := range tournament.DiffResults(was, is) {
		parts = append(parts, problem.ResultChange(a.p, a.names, d))
	}
	if is.Reason != "" {
		parts = append(parts, a.p.Text("audit.change.reason", map[string]any{"Reason": is.Reason}))
	}
	return a.p.List(parts)
}
