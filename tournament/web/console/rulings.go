package console

import (
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// rulingLine is a recorded ruling as the table page and its printable say
// it: who ruled when, the note, and the engine's answer in the page's
// language.
type rulingLine struct {
	ID          int64
	Judge       string
	At          string
	Note        string
	Steps       int
	LongestRoad string // the holder, or the bank, with the rule and its section
	LargestArmy string
	Players     []rulingPlayerLine
	Notes       []string // what the rules forbid in the position
}

type rulingPlayerLine struct {
	Name      string
	Color     string // CSS class of the seat dot, "" before seating
	Road      int
	VP        int
	Breakdown string
}

// rulingLines says the rulings, newest first.
func (s *Pages) rulingLines(lang string, ts tableState, rulings []tournament.Ruling) []rulingLine {
	names, colors := ts.names(), map[int64]string{}
	for _, p := range ts.tv.Players {
		colors[p.PlayerID] = string(p.Color)
	}
	p := s.i18n.In(lang)
	// Places are named as the ruling view names them, on the table's board.
	board := layoutBoard(ts.t.Ruleset)
	if ts.tv.Board != nil {
		board = *ts.tv.Board
	}
	named := drawing.NewPlaces(p, &board)
	award := func(a tournament.RulingAward) string {
		holder := s.i18n.Text(lang, "ruling.bank", nil)
		if a.Holder != 0 {
			holder = names[a.Holder]
		}
		return fmt.Sprintf("%s — %s", holder, problem.Violation(p, named.Violation(a.Why.Violation(names))))
	}
	var out []rulingLine
	for i := len(rulings) - 1; i >= 0; i-- {
		r := rulings[i]
		l := rulingLine{ID: r.ID, Judge: r.Judge, At: s.i18n.In(lang).Time(r.At), Note: r.Note, Steps: len(r.Steps),
			LongestRoad: award(r.Answer.LongestRoad), LargestArmy: award(r.Answer.LargestArmy)}
		for _, pl := range r.Answer.Players {
			b := pl.Breakdown
			l.Players = append(l.Players, rulingPlayerLine{Name: names[pl.PlayerID], Color: colors[pl.PlayerID], Road: pl.Road, VP: pl.VP,
				Breakdown: s.breakdownText(lang, &b)})
		}
		for _, n := range r.Answer.Notes {
			l.Notes = append(l.Notes, s.i18n.Text(lang, "ruling.step", map[string]any{"N": n.Step + 1})+": "+problem.Violation(p, named.Violation(n.Violation(names))))
		}
		out = append(out, l)
	}
	return out
}

// rulingsPage is the printable of a table's rulings.
type rulingsPage struct {
	printPage
	Number  int
	Rulings []rulingLine
}

// PrintRulings prints the rulings recorded at a table, newest first.
func (s *Pages) PrintRulings(c *gin.Context) (render.Result, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return render.Result{}, err
	}
	rulings, err := s.svc.Rulings(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number)
	if err != nil {
		return render.Result{}, err
	}
	pr, err := s.loadPrintRound(c)
	if err != nil {
		return render.Result{}, err
	}
	vm := rulingsPage{printPage: s.newPrintPage(c, pr, "print.rulings"), Number: ts.tv.Table.Number}
	vm.Title = s.i18n.In(vm.Lang).TextFor("print.rulings", vm.Final, map[string]any{"N": ts.n, "Table": ts.tv.Table.Number})
	vm.Back = tableURL(ts)
	vm.Rulings = s.rulingLines(vm.Lang, ts, rulings)
	return render.Show("print_rulings", vm), nil
}
