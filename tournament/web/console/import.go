package console

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gin-gonic/gin"
	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/roster"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// MaxImport caps an uploaded list of players: 2 MiB holds far more than
// roster.MaxRows lines of names.
const MaxImport = 2 << 20

// readUpload reads an uploaded file, at most MaxImport bytes of it.
func readUpload(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxImport))
	if err != nil {
		return nil, fmt.Errorf("read upload: %w", err)
	}
	return data, nil
}

// importPage is the view model of /judge/t/:id/players/import: the upload
// form, then the preview of what the file would do. Nothing is stored
// until the judge confirms the preview; the preview carries the file
// itself, and the confirmation reads it again, so no upload is kept on the
// server between the two steps.
type importPage struct {
	render.Page
	TID     int64
	Error   string // why the file could not be read
	Preview *importPreview
}

type importPreview struct {
	FileName string
	Format   string // how the file was read, in words
	Ignored  []string
	Lines    []importLine
	Problems []importLine // the refused lines, listed first
	Add      int
	Skip     int
	Refused  int
	Warned   int    // added lines that may be someone already there
	Data     string // the file, base64, for the confirmation
}

type importLine struct {
	Line       int
	Name       string
	Kana       string
	Member     string
	FixedTable int
	// PersonID is the person of the registry an added line will be (0 for
	// a new one); Candidates are the people it may be, for the judge to
	// choose from in the preview.
	PersonID   int64
	PersonName string
	Candidates []personLine
	Action     string // tournament.ImportAdd, ImportSkip or ImportRefuse: also a CSS class
	Message    string
	Warning    string // why an added line may be someone already there
}

func (s *Pages) ShowImport(c *gin.Context) (render.Result, error) {
	return s.importPage(c, http.StatusOK, "", nil)
}

func (s *Pages) importPage(c *gin.Context, status int, msg string, pv *importPreview) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "players")
	if err != nil {
		return render.Result{}, err
	}
	vm := importPage{Page: s.pages.Page(c, "page.import", map[string]any{"Name": t.Name}), TID: t.ID, Error: msg, Preview: pv}
	vm.Nav = nav
	return render.ShowStatus(status, "import", vm), nil
}

// PreviewImport reads the uploaded file and shows what importing it would
// do, line by line, without storing anything.
func (s *Pages) PreviewImport(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	fh, err := c.FormFile("file")
	if err != nil {
		id := "import.no_file"
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			id = "import.too_large"
		}
		return s.importPage(c, http.StatusUnprocessableEntity, s.i18n.Text(lang, id, map[string]any{"MB": MaxImport >> 20}), nil)
	}
	if fh.Size > MaxImport {
		return s.importPage(c, http.StatusUnprocessableEntity, s.i18n.Text(lang, "import.too_large", map[string]any{"MB": MaxImport >> 20}), nil)
	}
	data, err := readUpload(fh)
	if err != nil {
		return render.Result{}, err
	}
	r, err := roster.Read(data)
	if err != nil {
		return s.importPage(c, http.StatusUnprocessableEntity, s.rosterError(c, err), nil)
	}
	return s.showPreview(c, tid, http.StatusOK, "", r, data, fh.Filename)
}

// ImportPlayers registers the players of the file the judge confirmed,
// read again from the preview's form: whatever changed since the preview
// (a player registered by hand meanwhile) is planned anew, and a row
// already registered is never added twice.
func (s *Pages) ImportPlayers(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	data, err := base64.StdEncoding.DecodeString(c.PostForm("data"))
	if err != nil || len(data) == 0 || len(data) > MaxImport {
		return s.importPage(c, http.StatusUnprocessableEntity, s.i18n.Text(lang, "import.no_file", nil), nil)
	}
	r, err := roster.Read(data)
	if err != nil {
		return s.importPage(c, http.StatusUnprocessableEntity, s.rosterError(c, err), nil)
	}
	importPlayers, done := s.svc.ImportPlayers, "import.done"
	if c.PostForm("check_in") == "1" {
		importPlayers, done = s.svc.ImportPlayersCheckedIn, "import.done_checked_in"
	}
	// The judge's choice of each line's person, from the preview.
	for i := range r.Rows {
		r.Rows[i].Person = importChoice(c.PostForm(fmt.Sprintf("person_%d", r.Rows[i].Line)))
	}
	plan, err := importPlayers(c.Request.Context(), auth.Judge(c), tid, r.Rows)
	if err != nil {
		if status, msg, ok := s.refusal(c, err); ok {
			return s.showPreview(c, tid, status, msg, r, data, "")
		}
		return render.Result{}, err
	}
	if len(plan.Added) == 0 {
		return render.SeeOther(route.Path(route.Players, tid), done), nil
	}
	// The new players' cards wait on the players page, to print at once.
	if err := s.keepCards(c.Request.Context(), tid, plan.Added, time.Now()); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Players, tid)+"#cards", done), nil
}

// showPreview shows with status the preview of roster r (read from data,
// the file name), as its rows plan it (with the judge's choices of people,
// after a refused confirmation, whose reason msg says).
func (s *Pages) showPreview(c *gin.Context, tid int64, status int, msg string, r roster.Roster, data []byte, name string) (render.Result, error) {
	plan, err := s.svc.PlanImport(c.Request.Context(), tid, r.Rows)
	if err != nil {
		return render.Result{}, err
	}
	players, err := s.svc.Players(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	pv := s.newImportPreview(s.i18n.Lang(c), r, plan, players)
	pv.FileName, pv.Data = name, base64.StdEncoding.EncodeToString(data)
	return s.importPage(c, status, msg, &pv)
}

// importChoice reads the preview's choice of a line's person: an ID,
// "new", or nothing, which leaves it to the name, reading and member
// number.
func importChoice(v string) tournament.PersonChoice {
	if v == "new" {
		return tournament.PersonChoice{New: true}
	}
	if id, err := strconv.ParseInt(v, 10, 64); err == nil && id > 0 {
		return tournament.PersonChoice{ID: id}
	}
	return tournament.PersonChoice{}
}

// rosterError is the message of a file roster cannot read.
func (s *Pages) rosterError(c *gin.Context, err error) string {
	var re *roster.Error
	if !errors.As(err, &re) {
		re = &roster.Error{Code: roster.CodeUnreadable}
	}
	s.log.Info("import refused", "id", problem.RequestID(c), "err", err)
	last, _ := excelize.ColumnNumberToName(roster.MaxColumns)
	return s.i18n.Text(s.i18n.Lang(c), "import.error_"+re.Code, map[string]any{
		"Line": re.Line, "Column": re.Column, "Max": roster.MaxRows, "Columns": roster.MaxColumns, "LastColumn": last,
	})
}

func (s *Pages) newImportPreview(lang string, r roster.Roster, plan tournament.ImportPlan, players []tournament.Player) importPreview {
	pv := importPreview{Ignored: r.Ignored, Add: plan.Add, Skip: plan.Skip, Refused: plan.Refused}
	who := map[int64]string{}
	for _, p := range players {
		who[p.ID] = p.Name
		if p.Kana != "" {
			who[p.ID] += "（" + tournament.Hiragana(p.Kana) + "）"
		}
	}
	if r.Format == "xlsx" {
		pv.Format = s.i18n.Text(lang, "import.format_xlsx", map[string]any{"Sheet": r.Sheet})
	} else {
		pv.Format = s.i18n.Text(lang, "import.format_csv", map[string]any{"Encoding": r.Encoding})
	}
	for _, l := range plan.Lines {
		line := importLine{Line: l.Line, Name: l.Name, Kana: l.Kana, Member: l.Member, FixedTable: l.FixedTable, Action: l.Action, PersonID: l.PersonID}
		switch l.Action {
		case tournament.ImportAdd:
			line.Message = s.i18n.Text(lang, "import.add", nil)
			for _, cand := range l.Candidates {
				pl := personLineOf(s.i18n.In(lang), cand.PersonEntry, cand.How)
				if cand.ID == l.PersonID {
					line.PersonName = pl.Name
				}
				line.Candidates = append(line.Candidates, pl)
			}
			if l.Warning != "" {
				data := map[string]any{"Player": who[l.SamePlayer], "Line": l.SameLine}
				suffix := "_player"
				if l.SamePlayer == 0 {
					suffix = "_line"
				}
				line.Warning = s.i18n.Text(lang, "import.warn_"+l.Warning+suffix, data)
				pv.Warned++
			}
		case tournament.ImportSkip:
			line.Message = s.i18n.Text(lang, "import.skip", nil)
			if name := who[l.SamePlayer]; name != "" {
				line.Message = s.i18n.Text(lang, "import.skip_as", map[string]any{"Player": name})
			}
		default:
			if l.Text != nil {
				// Said as the player form would say it, with the text's
				// hidden characters shown rather than acted upon.
				_, line.Message, _ = problem.Describe(s.i18n.In(lang), l.Text)
				line.Name, line.Kana = showHidden(l.Name), showHidden(l.Kana)
			} else {
				line.Message = s.i18n.Text(lang, "import.problem_"+l.Problem, map[string]any{"Max": tournament.MaxNameRunes, "Line": l.SameLine, "Table": l.FixedTable})
			}
			pv.Problems = append(pv.Problems, line)
		}
		pv.Lines = append(pv.Lines, line)
	}
	return pv
}

// showHidden writes the characters of s that show nothing or act on the
// text around them (controls, direction marks, zero-width characters) as
// their code points, [U+202E], so that a refused name reads as it is.
func showHidden(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u3164' || r == '\u2800' || r == '\u115F' || r == '\u1160' || r == '\uFFA0' {
			fmt.Fprintf(&b, "[U+%04X]", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
