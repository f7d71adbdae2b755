package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// declaredTime is the value of the "declared" choice when time ended the game (§12).
const declaredTime = "time"

// scorePage is the view model of a table's score sheet: VP per player in
// seat order, who declared victory or "time", and the placings.
type scorePage struct {
	page
	TID           int64
	N             int
	Number        int
	Rows          []scoreRow
	Declared      string // a player ID, declaredTime, or "" when not chosen
	DeclaredError string
	Reason        string
	ReasonError   string
	Version       int // the revision being edited; 0 before the first save
	Error         string
	Conflict      string
	Preview       []placeLine // placings of the sheet as typed, not saved
	Saved         []placeLine // placings of the latest saved revision
	SavedBy       string
	Revisions     []revisionLine
	WinVP         int
	VPCap         int
	// TimeUp: the table's time signal has passed (§12). The sheet then
	// defaults to "time", and a declaration needs the judge's LateReason.
	TimeUp     bool
	Deadline   string // the table's time signal, for the hint
	LateReason string
	LateError  string
}

type scoreRow struct {
	ID       int64
	Name     string
	Kana     string
	Seat     int
	Color    string
	ColorTxt string
	VP       string // as typed
	Field    string
	Error    string
}

type placeLine struct {
	Place    int
	Name     string
	VP       int
	Declared bool
}

type revisionLine struct {
	Version int
	Judge   string
	At      string
	Reason  string
	Ended   string
	Scores  string
	Late    string // the confirmation of a declaration recorded after the signal (§12)
}

func (s *Server) showScore(c *gin.Context) {
	ts, err := s.loadTable(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	vm, err := s.newScorePage(c, ts)
	if err != nil {
		s.failPage(c, err)
		return
	}
	if r := ts.tv.Result; r != nil {
		vm.Version = r.Version
		vm.Declared = declaredTime
		if r.Declared != 0 {
			vm.Declared = strconv.FormatInt(r.Declared, 10)
		}
		for i := range vm.Rows {
			for _, sc := range r.Scores {
				if sc.PlayerID == vm.Rows[i].ID {
					vm.Rows[i].VP = strconv.Itoa(sc.VP)
				}
			}
		}
	} else if vm.TimeUp {
		// §12: a table without a result at the signal ended by time.
		vm.Declared = declaredTime
	}
	s.render(c, http.StatusOK, "score", vm)
}

// newScorePage fills the parts of the score page that come from what is
// recorded: the players in seat order, the saved placings, the revisions.
func (s *Server) newScorePage(c *gin.Context, ts tableState) (scorePage, error) {
	lang := s.i18n.lang(c)
	tv := ts.tv
	vm := scorePage{
		page:   s.newPage(c, "page.score", map[string]any{"N": ts.n, "Table": tv.Table.Number}),
		TID:    ts.t.ID,
		N:      ts.n,
		Number: tv.Table.Number,
		WinVP:  ts.t.Ruleset.WinVP,
		VPCap:  ts.t.Ruleset.VPCap,
		TimeUp: tv.Clock.TimeUp,
	}
	if vm.TimeUp {
		vm.Deadline = tv.Clock.Deadline.Local().Format("15:04:05")
	}
	vm.Nav = ts.nav
	names := map[int64]string{}
	for _, p := range tv.Players {
		row := scoreRow{ID: p.PlayerID, Name: p.Name, Kana: p.Kana, Seat: p.Seat, Color: string(p.Color), Field: fmt.Sprintf("vp_%d", p.PlayerID)}
		if p.Color != "" {
			row.ColorTxt = s.i18n.text(lang, "color."+string(p.Color), nil)
		}
		vm.Rows = append(vm.Rows, row)
		names[p.PlayerID] = p.Name
	}
	if r := tv.Result; r != nil {
		for _, pl := range tv.Places {
			vm.Saved = append(vm.Saved, placeLine{Place: pl.Place, Name: names[pl.PlayerID], VP: pl.VP, Declared: pl.PlayerID == r.Declared})
		}
		vm.SavedBy = s.i18n.text(lang, "score.saved_by", map[string]any{"V": r.Version, "Judge": r.Judge, "At": localTime(r.At)})
		revs, err := s.deps.Service.Revisions(c.Request.Context(), ts.t.ID, ts.n, tv.Table.Number)
		if err != nil {
			return vm, err
		}
		for i := len(revs) - 1; i >= 0; i-- {
			vm.Revisions = append(vm.Revisions, s.revisionLine(lang, revs[i], names))
		}
	}
	return vm, nil
}

func (s *Server) revisionLine(lang string, r tournament.Result, names map[int64]string) revisionLine {
	var parts []string
	for _, sc := range r.Scores {
		parts = append(parts, fmt.Sprintf("%s %d", names[sc.PlayerID], sc.VP))
	}
	ended := s.i18n.text(lang, "score.ended_"+r.EndedBy, nil)
	if r.Declared != 0 {
		ended = s.i18n.text(lang, "score.declared_by", map[string]any{"Name": names[r.Declared]})
	}
	return revisionLine{Version: r.Version, Judge: r.Judge, At: localTime(r.At), Reason: r.Reason, Ended: ended, Scores: strings.Join(parts, "、"), Late: r.LateReason}
}

// saveScore previews or saves the score sheet. Both check the sheet with
// the referee first, so a broken rule shows next to its field; the
// preview then shows the placings without saving anything.
func (s *Server) saveScore(c *gin.Context) {
	ts, err := s.loadTable(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	vm, err := s.newScorePage(c, ts)
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := vm.Lang
	in, ok := s.readScoreForm(c, &vm)
	if ok {
		ok = s.checkScoreSheet(c, ts, in, &vm)
	}
	if !ok {
		s.render(c, http.StatusUnprocessableEntity, "score", vm)
		return
	}
	if c.PostForm("action") == "preview" {
		s.render(c, http.StatusOK, "score", vm)
		return
	}
	_, err = s.deps.Service.SaveResult(c.Request.Context(), c.GetString(judgeKey), ts.t.ID, ts.n, ts.tv.Table.Number, in)
	var ce *tournament.ConflictError
	switch {
	case err == nil:
		seeOther(c, fmt.Sprintf("/judge/t/%d/rounds/%d/tables/%d/score", ts.t.ID, ts.n, ts.tv.Table.Number), "flash.score_saved")
	case errors.As(err, &ce):
		// Someone saved a newer revision: keep what this judge typed, say
		// what changed, and let them save again over the newer one knowingly.
		_, vm.Conflict, _ = s.describe(lang, err)
		s.log.Info("stale score sheet", "id", c.GetString(requestIDKey), "err", err)
		if ts, err = s.loadTable(c); err != nil {
			s.failPage(c, err)
			return
		}
		fresh, err := s.newScorePage(c, ts)
		if err != nil {
			s.failPage(c, err)
			return
		}
		vm.Saved, vm.SavedBy, vm.Revisions = fresh.Saved, fresh.SavedBy, fresh.Revisions
		vm.Version = ce.Current.Version
		vm.Preview = nil
		s.render(c, http.StatusConflict, "score", vm)
	default:
		if vm.Error = s.formError(c, err); vm.Error != "" {
			// A declaration after the signal: the message goes next to
			// the confirmation it asks for.
			if v := (*referee.Violation)(nil); errors.As(err, &v) && v.Code == "declared-after-time" {
				vm.LateError, vm.Error = vm.Error, ""
			}
			vm.Preview = nil
			s.render(c, http.StatusUnprocessableEntity, "score", vm)
		}
	}
}

// readScoreForm reads the sheet into vm (to show it back) and into a
// ResultInput, with a message next to each field that is not filled in.
func (s *Server) readScoreForm(c *gin.Context, vm *scorePage) (tournament.ResultInput, bool) {
	lang := vm.Lang
	ok := true
	var in tournament.ResultInput
	for i := range vm.Rows {
		row := &vm.Rows[i]
		row.VP = strings.TrimSpace(c.PostForm(row.Field))
		errs := fieldErrors{}
		// 99 only catches a slip of the finger; the cap (§11) is the referee's.
		vp, good := s.formInt(lang, row.VP, 0, 99, true, errs, row.Field)
		row.Error = errs[row.Field]
		ok = ok && good
		in.Scores = append(in.Scores, tournament.Score{PlayerID: row.ID, VP: vp})
	}
	vm.Declared = c.PostForm("declared")
	switch vm.Declared {
	case "":
		vm.DeclaredError = s.i18n.text(lang, "score.declared_missing", nil)
		ok = false
	case declaredTime:
	default:
		id, err := strconv.ParseInt(vm.Declared, 10, 64)
		found := false
		for _, r := range vm.Rows {
			found = found || r.ID == id
		}
		if err != nil || !found {
			vm.DeclaredError = s.i18n.text(lang, "score.declared_missing", nil)
			vm.Declared = ""
			ok = false
		}
		in.Declared = id
	}
	if v, err := strconv.Atoi(c.PostForm("version")); err == nil && v >= 0 {
		in.Version = v
	}
	vm.Version = in.Version
	vm.Reason = strings.TrimSpace(c.PostForm("reason"))
	in.Reason = vm.Reason
	vm.LateReason = strings.TrimSpace(c.PostForm("late_reason"))
	in.LateReason = vm.LateReason
	if in.Version > 0 && vm.Reason == "" {
		vm.ReasonError = s.i18n.text(lang, "score.reason_missing", nil)
		ok = false
	}
	return in, ok
}

// checkScoreSheet places the sheet with the referee, as saving will, and
// puts the placings in vm.Preview. When the referee refuses the sheet, it
// tells which part is at fault by placing it once without the declaration:
// if that succeeds, the declaration broke the rule (§11) and the message
// goes next to the declared winner; otherwise it goes above the form.
func (s *Server) checkScoreSheet(c *gin.Context, ts tableState, in tournament.ResultInput, vm *scorePage) bool {
	lang := vm.Lang
	rs := ts.t.Ruleset
	scores := make([]referee.Score, len(in.Scores))
	names := map[string]string{}
	for i, sc := range in.Scores {
		id := strconv.FormatInt(sc.PlayerID, 10)
		scores[i] = referee.Score{Player: id, VP: sc.VP}
	}
	for _, r := range vm.Rows {
		names[strconv.FormatInt(r.ID, 10)] = r.Name
	}
	if _, err := referee.Place(rs, scores, ""); err != nil {
		_, vm.Error, _ = s.describe(lang, err)
		return false
	}
	declared := ""
	if in.Declared != 0 {
		declared = strconv.FormatInt(in.Declared, 10)
		if _, err := referee.Place(rs, scores, declared); err != nil {
			vm.DeclaredError = s.i18n.text(lang, "score.declared_too_few", map[string]any{"WinVP": rs.WinVP, "Name": names[declared]})
			return false
		}
	}
	sanctions, err := s.gameSanctions(c, ts)
	if err != nil {
		_, vm.Error, _ = s.describe(lang, err)
		return false
	}
	ps, err := referee.PlaceWithPenalties(rs, scores, declared, sanctions)
	if err != nil {
		_, vm.Error, _ = s.describe(lang, err)
		return false
	}
	vm.Preview = nil
	for _, p := range ps {
		vm.Preview = append(vm.Preview, placeLine{Place: p.Place, Name: names[p.Player], VP: p.VP, Declared: p.Player == declared})
	}
	return true
}

// gameSanctions are the standing penalties given in this game, which change
// its placings (RULINGS.md, Penalties). It mirrors what the service applies
// when it places a saved sheet, so that the preview shows the same places.
func (s *Server) gameSanctions(c *gin.Context, ts tableState) ([]referee.Sanction, error) {
	pens, err := s.deps.Service.Penalties(c.Request.Context(), ts.t.ID)
	if err != nil {
		return nil, err
	}
	var out []referee.Sanction
	for _, p := range pens {
		if p.Revoked == nil && p.Round == ts.n && p.Table == ts.tv.Table.Number {
			out = append(out, referee.Sanction{Player: strconv.FormatInt(p.PlayerID, 10), Level: p.Level})
		}
	}
	return out, nil
}
