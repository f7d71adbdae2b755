package console

import (
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/roster"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// pastEventsPage is the view model of /judge/past-events: the upload of a
// results sheet, then the preview of the events it holds and whom each
// player is in the registry; nothing is stored until the judge confirms,
// and the confirmation carries the file, read again (issue 29).
type pastEventsPage struct {
	render.Page
	Error   string
	Preview *pastPreview
}

type pastPreview struct {
	FileName string
	Events   []pastEventView
	Data     string // the file, base64, for the confirmation
}

type pastEventView struct {
	Name, Date, Shop string
	Rounds, Tables   int
	Players          []pastPlayerView
}

type pastPlayerView struct {
	Name, Kana string
	Games      int
	Who        string // the registry's person, a new one, or the doubt
	Doubt      bool
}

// ShowPastEvents shows the upload form.
func (s *Pages) ShowPastEvents(c *gin.Context) (render.Result, error) {
	return s.pastEventsPage(c, http.StatusOK, "", nil)
}

func (s *Pages) pastEventsPage(c *gin.Context, status int, msg string, pv *pastPreview) (render.Result, error) {
	page, err := s.hallPage(c, "past.title", nil)
	if err != nil {
		return render.Result{}, err
	}
	vm := pastEventsPage{Page: page, Error: msg, Preview: pv}
	return render.ShowStatus(status, "past_events", vm), nil
}

// pastEventsOf reads a results sheet's events; the message says why it
// cannot be read.
func (s *Pages) pastEventsOf(c *gin.Context, data []byte) ([]tournament.PastEvent, string) {
	events, err := roster.ReadResults(data)
	if err == nil {
		return events, ""
	}
	var re *roster.Error
	if errors.As(err, &re) && re.Code == roster.CodeNoResults || errors.As(err, &re) && re.Code == roster.CodeBadValue {
		return nil, s.i18n.Text(s.i18n.Lang(c), "past.error_"+re.Code, map[string]any{"Line": re.Line, "Column": re.Column})
	}
	return nil, s.rosterError(c, err)
}

// PreviewPastEvents reads the uploaded results sheet and shows what
// importing it would do.
func (s *Pages) PreviewPastEvents(c *gin.Context) (render.Result, error) {
	lang := s.i18n.Lang(c)
	fh, err := c.FormFile("file")
	if err != nil || fh.Size > MaxImport {
		return s.pastEventsPage(c, http.StatusUnprocessableEntity, s.i18n.Text(lang, "import.no_file", nil), nil)
	}
	data, err := readUpload(fh)
	if err != nil {
		return render.Result{}, err
	}
	events, msg := s.pastEventsOf(c, data)
	if msg != "" {
		return s.pastEventsPage(c, http.StatusUnprocessableEntity, msg, nil)
	}
	plans, err := s.svc.PlanPastEvents(c.Request.Context(), events)
	if err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.pastEventsPage(c, status, msg, nil)
	}
	pv := &pastPreview{FileName: fh.Filename, Data: base64.StdEncoding.EncodeToString(data)}
	for _, p := range plans {
		ev := pastEventView{Name: p.Event.Name, Date: p.Event.Date, Shop: p.Event.Shop, Rounds: p.Rounds, Tables: len(p.Event.Tables)}
		for _, pp := range p.Players {
			v := pastPlayerView{Name: pp.Name, Kana: pp.Kana, Games: pp.Games, Who: s.i18n.Text(lang, "past.new_person", nil)}
			switch {
			case pp.PersonID != 0:
				v.Who = s.i18n.Text(lang, "past.person", map[string]any{"ID": pp.PersonID})
			case pp.Doubt > 0:
				v.Who, v.Doubt = s.i18n.Text(lang, "past.doubt", map[string]any{"N": pp.Doubt}), true
			}
			ev.Players = append(ev.Players, v)
		}
		pv.Events = append(pv.Events, ev)
	}
	return s.pastEventsPage(c, http.StatusOK, "", pv)
}

// ImportPastEvents imports the results sheet the judge confirmed, read
// again from the preview's form.
func (s *Pages) ImportPastEvents(c *gin.Context) (render.Result, error) {
	data, err := base64.StdEncoding.DecodeString(c.PostForm("data"))
	if err != nil || len(data) == 0 || len(data) > MaxImport {
		return s.pastEventsPage(c, http.StatusUnprocessableEntity, s.i18n.Text(s.i18n.Lang(c), "import.no_file", nil), nil)
	}
	events, msg := s.pastEventsOf(c, data)
	if msg != "" {
		return s.pastEventsPage(c, http.StatusUnprocessableEntity, msg, nil)
	}
	if _, err := s.svc.ImportPastEvents(c.Request.Context(), auth.Judge(c), events); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.pastEventsPage(c, status, msg, nil)
	}
	return render.SeeOther(route.Seasons, "past.imported"), nil
}
