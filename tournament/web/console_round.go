package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// roundPage is the view model of /judge/t/:id/rounds/:n.
type roundPage struct {
	page
	TID       int64
	N         int
	Mode      string
	PairedBy  string
	PairedAt  string
	Repeats   int
	Tables    []tableCard
	Byes      []personRef
	Missing   []personRef
	Withdrawn []personRef
	Changes   []amendmentLine
	Started   bool   // something is recorded at a table or on the clock
	Latest    bool   // the latest round: the only one that can be re-paired
	CanPair   bool   // the next round may be paired from here
	PairError string // why pairing or re-pairing was refused, next to the buttons
	NextRound int
	Done      int // tables with a result
	Choices   []playerGroup
	Swap      swapForm
	Move      moveForm
	Clock     clockPanel
}

type personRef struct {
	ID   int64
	Name string
	Kana string
}

// tableCard is one table on the round page.
type tableCard struct {
	Number  int
	Players []seatLine
	Seated  bool
	Board   bool
	Version int // latest result revision; 0 for none
	Ended   string
}

type seatLine struct {
	ID       int64
	Name     string
	Kana     string
	Seat     int
	Color    string // colour id, also the CSS class of the seat dot
	ColorTxt string
	Place    int
	VP       int
	Sum      string // a deduction as such (showVP)
	Why      string
}

type amendmentLine struct {
	Text   string
	Reason string
	Judge  string
	At     string
}

// playerGroup is a table (or the byes) in the swap form's player lists.
type playerGroup struct {
	Label   string
	Players []personRef
}

type swapForm struct {
	A, B   string
	Reason string
	Errors fieldErrors
	Error  string
}

type moveForm struct {
	A, Table string
	Reason   string
	Errors   fieldErrors
	Error    string
}

// roundForms is what the round page shows again after a refused action:
// the swap and move forms as typed, or the message of a refused pairing or
// re-pairing next to their buttons.
type roundForms struct {
	Swap      swapForm
	Move      moveForm
	PairError string
}

// roundParams reads the :id tournament and the :n round number.
func roundParams(c *gin.Context) (tid int64, n int, err error) {
	if tid, err = pathID(c, "id"); err != nil {
		return 0, 0, err
	}
	if n, err = roundNumber(c); err != nil {
		return 0, 0, err
	}
	return tid, n, nil
}

// roundNumber reads the :n path parameter.
func roundNumber(c *gin.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 {
		return 0, errNoRoute
	}
	return n, nil
}

func (s *Server) showRound(c *gin.Context) {
	s.renderRound(c, http.StatusOK, swapForm{}, moveForm{})
}

func (s *Server) renderRound(c *gin.Context, status int, swap swapForm, move moveForm) {
	n, err := roundNumber(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	s.renderRoundPage(c, status, n, roundForms{Swap: swap, Move: move})
}

// renderRoundPage shows round n of the :id tournament with the forms f.
func (s *Server) renderRoundPage(c *gin.Context, status, n int, f roundForms) {
	t, nav, err := s.loadTournament(c, fmt.Sprintf("round%d", n))
	if err != nil {
		s.failPage(c, err)
		return
	}
	rv, err := s.deps.Service.RoundView(c.Request.Context(), t.ID, n)
	if err != nil {
		s.failPage(c, err)
		return
	}
	canPair, err := s.deps.Service.CanPair(c.Request.Context(), t.ID)
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	vm := roundPage{
		page:      s.newPage(c, "page.round", map[string]any{"N": n, "Name": t.Name}),
		TID:       t.ID,
		N:         n,
		Mode:      s.i18n.text(lang, "round.mode_"+rv.Round.Mode, nil),
		PairedBy:  rv.Round.PairedBy,
		PairedAt:  localTime(rv.Round.PairedAt),
		Repeats:   rv.Round.Repeats,
		Latest:    n == len(nav.Rounds),
		NextRound: len(nav.Rounds) + 1,
		Started:   rv.Started,
		Swap:      f.Swap,
		Move:      f.Move,
		PairError: f.PairError,
		Clock:     s.clockPanel(c, t.ID, rv),
	}
	vm.Nav = nav
	names := map[int64]string{}
	for _, tv := range rv.Tables {
		card := tableCard{Number: tv.Table.Number, Seated: tv.Table.Seating != nil, Board: tv.Board != nil}
		if tv.Result != nil {
			card.Version = tv.Result.Version
			card.Ended = s.i18n.text(lang, "score.ended_"+tv.Result.EndedBy, nil)
			vm.Done++
		}
		group := playerGroup{Label: s.i18n.text(lang, "round.table", map[string]any{"N": tv.Table.Number})}
		for _, p := range tv.Players {
			line := seatLine{ID: p.PlayerID, Name: p.Name, Kana: p.Kana, Seat: p.Seat, Color: string(p.Color)}
			if p.Color != "" {
				line.ColorTxt = s.i18n.text(lang, "color."+string(p.Color), nil)
			}
			for _, pl := range tv.Places {
				if pl.PlayerID == p.PlayerID {
					vp := s.showVP(lang, t.Ruleset, pl)
					line.Place, line.VP, line.Sum, line.Why = pl.Place, pl.VP, vp.Sum, vp.Why
				}
			}
			card.Players = append(card.Players, line)
			group.Players = append(group.Players, personRef{ID: p.PlayerID, Name: p.Name, Kana: p.Kana})
			names[p.PlayerID] = p.Name
		}
		vm.Tables = append(vm.Tables, card)
		vm.Choices = append(vm.Choices, group)
	}
	byes := playerGroup{Label: s.i18n.text(lang, "round.byes", nil)}
	for _, p := range rv.Byes {
		ref := personRef{ID: p.ID, Name: p.Name, Kana: p.Kana}
		vm.Byes = append(vm.Byes, ref)
		byes.Players = append(byes.Players, ref)
		names[p.ID] = p.Name
	}
	if len(byes.Players) > 0 {
		vm.Choices = append(vm.Choices, byes)
	}
	for _, p := range rv.Missing {
		vm.Missing = append(vm.Missing, personRef{ID: p.ID, Name: p.Name, Kana: p.Kana})
	}
	for _, p := range rv.Withdrawn {
		vm.Withdrawn = append(vm.Withdrawn, personRef{ID: p.ID, Name: p.Name, Kana: p.Kana})
	}
	for _, a := range rv.Round.Amendments {
		line := amendmentLine{Reason: a.Reason, Judge: a.Judge, At: localTime(a.At)}
		if a.B != 0 {
			line.Text = s.i18n.text(lang, "round.swapped", map[string]any{"A": names[a.A], "B": names[a.B]})
		} else {
			line.Text = s.i18n.text(lang, "round.moved", map[string]any{"A": names[a.A], "N": a.Table})
		}
		vm.Changes = append(vm.Changes, line)
	}
	vm.CanPair = vm.Latest && canPair
	s.render(c, status, "round", vm)
}

// localTime shows a recorded time in the server's zone, which is the shop's.
func localTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02 15:04")
}

func (s *Server) pairRound(c *gin.Context) {
	tid, err := pathID(c, "id")
	if err != nil {
		s.failPage(c, err)
		return
	}
	r, err := s.deps.Service.PairNextRound(c.Request.Context(), c.GetString(judgeKey), tid)
	if err != nil {
		status, msg := s.refusal(c, err)
		if msg == "" {
			return
		}
		// The message goes back next to the button pressed: on the round
		// page the form names, else on the overview.
		if n, err := strconv.Atoi(c.PostForm("from")); err == nil && n > 0 {
			s.renderRoundPage(c, status, n, roundForms{PairError: msg})
			return
		}
		s.renderOverview(c, status, msg)
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d/rounds/%d", tid, r.Number), "flash.paired")
}

func (s *Server) repairRound(c *gin.Context) {
	tid, n, err := roundParams(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	if _, err := s.deps.Service.RepairRound(c.Request.Context(), c.GetString(judgeKey), tid, n); err != nil {
		if status, msg := s.refusal(c, err); msg != "" {
			s.renderRoundPage(c, status, n, roundForms{PairError: msg})
		}
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d/rounds/%d", tid, n), "flash.repaired")
}

// swapPlayers trades two players' places; the reason is required.
func (s *Server) swapPlayers(c *gin.Context) {
	tid, n, err := roundParams(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	f := swapForm{A: c.PostForm("a"), B: c.PostForm("b"), Reason: strings.TrimSpace(c.PostForm("reason")), Errors: fieldErrors{}}
	a, errA := strconv.ParseInt(f.A, 10, 64)
	b, errB := strconv.ParseInt(f.B, 10, 64)
	if errA != nil {
		f.Errors["swap_a"] = s.i18n.text(lang, "form.choose", nil)
	}
	if errB != nil {
		f.Errors["swap_b"] = s.i18n.text(lang, "form.choose", nil)
	}
	if len(f.Errors) > 0 {
		s.renderRound(c, http.StatusUnprocessableEntity, f, moveForm{})
		return
	}
	if _, err := s.deps.Service.SwapPlayers(c.Request.Context(), c.GetString(judgeKey), tid, n, a, b, f.Reason); err != nil {
		switch code(err) {
		case "amend-swap-self":
			f.Errors["swap_b"] = s.i18n.text(lang, "round.swap_same", nil)
		case "amend-reason-missing":
			f.Errors["swap_reason"] = s.i18n.text(lang, "form.reason_required", nil)
		}
		if len(f.Errors) > 0 {
			s.renderRound(c, http.StatusUnprocessableEntity, f, moveForm{})
			return
		}
		var status int
		if status, f.Error = s.refusal(c, err); f.Error != "" {
			s.renderRound(c, status, f, moveForm{})
		}
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d/rounds/%d", tid, n), "flash.swapped")
}

// movePlayer moves a player to another table; the reason is required.
func (s *Server) movePlayer(c *gin.Context) {
	tid, n, err := roundParams(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	f := moveForm{A: c.PostForm("a"), Table: strings.TrimSpace(c.PostForm("table")), Reason: strings.TrimSpace(c.PostForm("reason")), Errors: fieldErrors{}}
	a, errA := strconv.ParseInt(f.A, 10, 64)
	if errA != nil {
		f.Errors["move_a"] = s.i18n.text(lang, "form.choose", nil)
	}
	table, _ := s.formInt(lang, f.Table, 1, 100, true, f.Errors, "move_table")
	if len(f.Errors) > 0 {
		s.renderRound(c, http.StatusUnprocessableEntity, swapForm{}, f)
		return
	}
	if _, err := s.deps.Service.MovePlayer(c.Request.Context(), c.GetString(judgeKey), tid, n, a, table, f.Reason); err != nil {
		if code(err) == "amend-reason-missing" {
			f.Errors["move_reason"] = s.i18n.text(lang, "form.reason_required", nil)
			s.renderRound(c, http.StatusUnprocessableEntity, swapForm{}, f)
			return
		}
		var status int
		if status, f.Error = s.refusal(c, err); f.Error != "" {
			s.renderRound(c, status, swapForm{}, f)
		}
		return
	}
	seeOther(c, fmt.Sprintf("/judge/t/%d/rounds/%d", tid, n), "flash.moved")
}
