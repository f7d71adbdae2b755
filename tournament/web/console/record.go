package console

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/gameview"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The record page: a scorekeeper at a streamed or disputed table enters
// the game as it is played, move by move, on the table's board. Every move
// is played by the rules engine (Service.AppendMove) before it is stored;
// the page shows what the engine keeps of the game and, once it has
// ended, saves the result from the record (Service.SaveGameResult). The
// page's script (static/record.js) only fills the form from taps and keys,
// posts it, and swaps in the part the server draws (render.Part "live").

// recordPage is the view model of a table's record page.
type recordPage struct {
	render.Page
	TID   int64
	Round int
	Table int
	// Missing says why the table carries no record yet (its play order or
	// its board); the page then offers nothing else.
	Missing   string
	Projector string // the table's board on the kiosk, for the projector
	gameview.View
	Seats []gameview.Seat
	// Expected is the number of moves of the record as shown: a move is
	// entered on it.
	Expected int
	Form     recordForm
	Errors   fieldErrors // what the form lacks, by field
	Error    string      // the move refused, with its rule and section
	Stale    string      // another judge changed the record first
	Notice   string      // what the last action did
	// Locked says why the record takes no more moves and no undo: the
	// table has a result (a correction is the score sheet's).
	Locked   string
	Choices  recordChoices
	CardRows struct{ Discard, Give, Get []cardField }
	Result   *recordResult // the result the record gives, once the game is over
	board    referee.Board // the table's board, to name its hexes
}

// recordChoices are the form's choices, as the page offers them.
type recordChoices struct {
	Taps      []choice
	Hexes     []choice
	Resources []choice
	Cards     []choice
	Dice      []int
}

// cardField is the count of one resource's cards, as typed.
type cardField struct{ Name, Label, Value, Error string }

// recordResult is the result a finished record gives, to save.
type recordResult struct {
	Version     int  // the table's latest revision: saving corrects it
	HasResult   bool // the table has a result: a correction needs its reason
	Declared    bool // a player declared victory (§11)
	Ended       string
	Preview     []placeLine
	Waiting     string // why the placings cannot be shown yet (a reason missing)
	ReasonError string
	LateError   string
	Error       string
}

// ShowRecord shows a table's recorded game with the entry of its next
// move, or what the table lacks before a game can be recorded.
func (s *Pages) ShowRecord(c *gin.Context) (render.Result, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return render.Result{}, err
	}
	vm := s.newRecordPage(c, ts)
	if err := s.fillRecord(c, ts, &vm); err != nil {
		return render.Result{}, err
	}
	return render.Show("record", vm), nil
}

// PostRecord enters a move (the button's "do"), undoes the last one, or
// saves the result from the finished record. A move the rules refuse is
// said with its rule and section beside the form, and what was typed is
// kept; a record another judge changed first is said, and nothing is
// stored. A request with live=1 (static/record.js) gets the part of the
// page that changes.
func (s *Pages) PostRecord(c *gin.Context) (render.Result, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return render.Result{}, err
	}
	vm := s.newRecordPage(c, ts)
	vm.Form = readRecordForm(c)
	status := http.StatusOK
	switch action := c.PostForm("action"); action {
	case "result":
		_, err := s.svc.SaveGameResult(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number, tournament.GameResultInput{
			Moves: vm.Form.Expected, Version: vm.Form.Version, Reason: vm.Form.Reason, LateReason: vm.Form.lateReason(s, vm.Lang)})
		if err == nil {
			return render.SeeOther(route.Path(route.Score, ts.t.ID, ts.n, ts.tv.Table.Number)+"#revisions", "flash.record_result_saved"), nil
		}
		if status, err = s.refuseRecord(c, err, &vm); err != nil {
			return render.Result{}, err
		}
	case "undo":
		_, err := s.svc.UndoMove(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number, vm.Form.Expected)
		if err == nil {
			vm.Notice = s.i18n.Text(vm.Lang, "record.undone", map[string]any{"N": vm.Form.Expected})
			vm.Form = recordForm{Tap: vm.Form.Tap}
		} else if status, err = s.refuseRecord(c, err, &vm); err != nil {
			return render.Result{}, err
		}
	default:
		if status, err = s.enterMove(c, ts, &vm); err != nil {
			return render.Result{}, err
		}
	}
	live := c.PostForm("live") != ""
	if status == http.StatusOK && !live {
		// Post/Redirect/Get: the record as it stands now, and what was done.
		return render.SeeOther(route.Path(route.Record, ts.t.ID, ts.n, ts.tv.Table.Number), "flash.record_"+c.PostForm("action")+"done"), nil
	}
	if err := s.fillRecord(c, ts, &vm); err != nil {
		return render.Result{}, err
	}
	if live {
		return render.Part("record", "live", vm), nil
	}
	return render.ShowStatus(status, "record", vm), nil
}

// enterMove enters the move the form names, once the form has what the
// move needs; it returns the page's status.
func (s *Pages) enterMove(c *gin.Context, ts tableState, vm *recordPage) (int, error) {
	do := c.PostForm("do")
	vm.Errors = fieldErrors{}
	spec, ok := s.recordMove(vm.Lang, do, vm.Form, vm.Errors)
	if !ok {
		return http.StatusUnprocessableEntity, nil
	}
	g, voided, err := s.svc.AppendMove(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number,
		tournament.MoveInput{Move: spec, Expected: vm.Form.Expected})
	if err != nil {
		return s.refuseRecord(c, err, vm)
	}
	vm.Notice = s.i18n.Text(vm.Lang, "record.entered", map[string]any{"N": len(g.Moves)})
	if voided != nil {
		_, msg, _ := problem.Describe(s.i18n.In(vm.Lang), voided)
		vm.Notice = s.i18n.Text(vm.Lang, "record.entered_void", map[string]any{"N": len(g.Moves), "Why": msg})
	}
	// The next move starts afresh, tapping as the judge chose to.
	vm.Form = recordForm{Tap: vm.Form.Tap}
	return http.StatusOK, nil
}

// refuseRecord shows a refusal of the record page's action: a stale
// record, a rule the move breaks, or a result the sheet's rules refuse,
// next to what it is about. Any other error is the error page's.
func (s *Pages) refuseRecord(c *gin.Context, err error, vm *recordPage) (int, error) {
	status, msg, ok := s.refusal(c, s.placesNamed(vm, err))
	switch {
	case !ok:
		return 0, err
	case errors.As(err, new(*tournament.StaleError)):
		vm.Stale = msg
	case c.PostForm("action") == "result":
		// Said by the result's form, next to its field when it has one.
		r := &recordResult{Error: msg}
		errs := fieldErrors{}
		if s.place(vm.Lang, err, scoreRules, errs) {
			r.ReasonError, r.LateError, r.Error = errs["reason"], errs["late"], ""
		}
		vm.Result = r
	default:
		vm.Error = msg
	}
	return status, nil
}

// newRecordPage is the record page of the table, without its game.
func (s *Pages) newRecordPage(c *gin.Context, ts tableState) recordPage {
	tv := ts.tv
	vm := recordPage{
		Page:      s.pages.Page(c, s.roundWords(c, "page.record", ts.final()), map[string]any{"N": ts.n, "Table": tv.Table.Number}),
		TID:       ts.t.ID,
		Round:     ts.n,
		Table:     tv.Table.Number,
		Projector: route.Path(route.KioskGame, ts.t.ID, ts.n, tv.Table.Number) + "?view=projector",
	}
	vm.Nav = ts.nav
	if tv.Board != nil {
		vm.board = *tv.Board
	}
	return vm
}

// fillRecord reads the table's game and lays it out, with the choices of
// the form and, once the game is over, the result it gives.
func (s *Pages) fillRecord(c *gin.Context, ts tableState, vm *recordPage) error {
	g, err := s.svc.Game(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number)
	var v *referee.Violation
	if errors.Is(err, tournament.ErrConflict) && errors.As(err, &v) {
		_, vm.Missing, _ = problem.Describe(s.i18n.In(vm.Lang), err)
		return nil
	}
	if err != nil {
		return err
	}
	p := s.i18n.In(vm.Lang)
	names := ts.names()
	for _, id := range g.Players {
		for _, sv := range ts.tv.Players {
			if sv.PlayerID == id {
				vm.Seats = append(vm.Seats, gameview.Seat{ID: strconv.FormatInt(id, 10), Name: sv.Label, Color: string(sv.Color),
					ColorTxt: p.Text("color."+string(sv.Color), nil)})
			}
		}
	}
	vm.View = gameview.New(p, g, vm.Seats, gameview.Judges, gameview.Options{ID: "record-board",
		Targets: drawing.Targets{Board: true, Hexes: true}, Names: names})
	vm.Expected = len(g.Moves)
	if ts.tv.Result != nil {
		vm.Locked = s.i18n.Text(vm.Lang, "rule.game-has-result", map[string]any{"Round": ts.n, "Table": ts.tv.Table.Number})
	}
	s.fillRecordChoices(vm)
	if g.Over() {
		s.fillRecordResult(c, ts, g, vm)
	}
	return nil
}
