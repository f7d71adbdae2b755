package web

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
)

var (
	errNoRoute  = errors.New("no such route")
	errNoMethod = errors.New("method not allowed")
	// errNoService is a judge route on a server started without the tournament service.
	errNoService = errors.New("no tournament service")
)

// badRequest is a request the server could not read (malformed JSON, a body
// too large, a missing field): 400 with a message id.
type badRequest struct {
	id     string
	data   map[string]any
	detail string
}

func (e *badRequest) Error() string { return "bad request: " + e.id + ": " + e.detail }

// notFound is a named thing that does not exist: 404 with a message id.
type notFound struct {
	id   string
	data map[string]any
}

func (e *notFound) Error() string { return "not found: " + e.id }

// fail maps an error to its HTTP status and a message in the request's
// language. It is the one place that does so.
func (s *Server) fail(c *gin.Context, err error) {
	lang := s.i18n.Lang(c)
	status, msg, extra := s.describe(lang, err)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(c.Request.Context(), level, "request failed", "id", c.GetString(requestIDKey), "status", status, "err", err)
	body := gin.H{"error": msg}
	for k, v := range extra {
		body[k] = v
	}
	c.AbortWithStatusJSON(status, body)
}

func (s *Server) describe(lang string, err error) (int, string, map[string]any) {
	var (
		br *badRequest
		nf *notFound
		fb *forbidden
		ce *tournament.ConflictError
		se *tournament.StaleError
		fe *referee.FieldError
		te *referee.TieError
		ge *game.Error
		v  *referee.Violation
	)
	switch {
	case errors.As(err, &br):
		return http.StatusBadRequest, s.i18n.Text(lang, br.id, br.data), nil
	case errors.As(err, &nf):
		return http.StatusNotFound, s.i18n.Text(lang, nf.id, nf.data), nil
	case errors.As(err, &fb):
		return http.StatusForbidden, s.i18n.Text(lang, fb.id, nil), nil
	case errors.Is(err, errNoRoute):
		return http.StatusNotFound, s.i18n.Text(lang, "error.not_found", nil), nil
	case errors.Is(err, errNoMethod):
		return http.StatusMethodNotAllowed, s.i18n.Text(lang, "error.method", nil), nil
	case errors.Is(err, errNoService):
		return http.StatusServiceUnavailable, s.i18n.Text(lang, "error.no_service", nil), nil
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable, s.i18n.Text(lang, "error.busy", nil), nil
	case errors.Is(err, errTooManyAtOnce):
		return http.StatusTooManyRequests, s.i18n.Text(lang, "error.too_many_at_once", nil), nil
	case errors.Is(err, errTooManyFeeds):
		return http.StatusTooManyRequests, s.i18n.Text(lang, "error.too_many_feeds", nil), nil
	case errors.Is(err, errTooManyGuesses):
		return http.StatusTooManyRequests, s.i18n.Text(lang, "error.too_many_guesses", nil), nil
	case errors.Is(err, errMultipart):
		return http.StatusUnsupportedMediaType, s.i18n.Text(lang, "error.multipart", nil), nil
	case errors.As(err, &ce):
		return http.StatusConflict, s.conflict(lang, ce), map[string]any{"current_version": ce.Current.Version}
	case errors.As(err, &se):
		msg := s.i18n.Text(lang, "stale."+se.Record, map[string]any{"Judge": se.Judge, "At": s.i18n.In(lang).Clock(se.At), "Version": se.Current})
		return http.StatusConflict, msg, map[string]any{"code": "stale-" + se.Record, "current_version": se.Current}
	case errors.Is(err, tournament.ErrConflict) && errors.As(err, &v):
		// Another judge's change came first, or what is recorded no longer
		// allows this one: said by its code, like a broken rule.
		return http.StatusConflict, s.violation(lang, v), map[string]any{"code": v.Code}
	case errors.Is(err, tournament.ErrConflict):
		return http.StatusConflict, s.i18n.Text(lang, "error.conflict", map[string]any{"Detail": err.Error()}), nil
	case errors.Is(err, tournament.ErrNotFound):
		return http.StatusNotFound, s.i18n.Text(lang, "error.not_found_thing", map[string]any{"Detail": err.Error()}), nil
	case errors.As(err, &te):
		return http.StatusUnprocessableEntity,
			s.i18n.Text(lang, "error.tie", map[string]any{"Players": strings.Join(te.Players(), ", ")}),
			map[string]any{"reroll": te.Groups}
	case errors.As(err, &ge):
		// A rule of play (referee/game): the message, and the rule's code
		// and section, with the step at fault when there is one.
		extra := map[string]any{"code": ge.Code, "section": ge.Section}
		if ge.Index >= 0 {
			extra["step"] = ge.Index
		}
		return http.StatusUnprocessableEntity, s.violation(lang, ge.Violation), extra
	case errors.As(err, &fe):
		return http.StatusUnprocessableEntity,
			s.i18n.Text(lang, "error.field", map[string]any{"Field": fe.Field, "Msg": fe.Msg}), nil
	case errors.As(err, &v):
		// The code names the rule for a program: the message is for people.
		return http.StatusUnprocessableEntity, s.violation(lang, v), map[string]any{"code": v.Code}
	case errors.Is(err, referee.ErrInvalid), errors.Is(err, tournament.ErrInvalid):
		return http.StatusUnprocessableEntity, s.i18n.Text(lang, "error.invalid", map[string]any{"Detail": err.Error()}), nil
	}
	return http.StatusInternalServerError, s.i18n.Text(lang, "error.internal", nil), nil
}

// violation says a broken rule in lang from its message "rule."+Code
// (locales/rules.*.toml), filled from the values it names. A rule without a
// message falls back to the English message of the code that found it.
func (s *Server) violation(lang string, v *referee.Violation) string {
	id := "rule." + v.Code
	data := ruleData(lang, s.terms(lang, v.Args))
	// A text rule names its field by code ("field.<code>" says it).
	if f, ok := v.Args["Field"].(string); ok {
		if name := s.i18n.Text(lang, "field."+f, nil); name != "field."+f {
			data["Field"] = name
		}
	}
	if msg := s.i18n.Text(lang, id, data); msg != id {
		return msg
	}
	if lang == "en" {
		return v.Error()
	}
	return s.i18n.Text(lang, "error.invalid", map[string]any{"Detail": v.Error()})
}

// termIDs are the message ids of the names a rule of play gives by their
// ids in the API (resources, development cards, pieces, terrains), by the
// value's key in a violation.
var termIDs = map[string]string{"Resource": "resource.", "Resources": "resource.", "Card": "card.", "Piece": "piece.", "Terrain": "terrain."}

// terms returns a violation's values with each such name said in lang; a
// name without a message (an unknown resource as typed) stays as it is.
func (s *Server) terms(lang string, args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	say := func(prefix, name string) string {
		if msg := s.i18n.Text(lang, prefix+name, nil); msg != prefix+name {
			return msg
		}
		return name
	}
	for k, a := range args {
		prefix, ok := termIDs[k]
		switch v := a.(type) {
		case string:
			if ok {
				a = say(prefix, v)
			}
		case []string:
			if ok {
				names := make([]string, len(v))
				for i, n := range v {
					names[i] = say(prefix, n)
				}
				a = names
			}
		}
		out[k] = a
	}
	return out
}

// ruleData copies a violation's values for its message, with each list
// joined as lang writes one.
func ruleData(lang string, args map[string]any) map[string]any {
	sep := "、"
	if lang == "en" {
		sep = ", "
	}
	data := make(map[string]any, len(args))
	for k, a := range args {
		if list, ok := a.([]string); ok {
			a = strings.Join(list, sep)
		}
		data[k] = a
	}
	return data
}

// conflict says who saved the newer result, when, and what changed since
// the version the judge edited, so the judge can redo the edit knowingly.
func (s *Server) conflict(lang string, ce *tournament.ConflictError) string {
	cur := ce.Current
	var lines []string
	for _, d := range ce.Diff() {
		lines = append(lines, s.resultChange(lang, ce, d))
	}
	sep := "、"
	if lang == "en" {
		sep = "; "
	}
	changes := strings.Join(lines, sep)
	if changes == "" {
		changes = s.i18n.Text(lang, "error.conflict_same", nil)
	}
	return s.i18n.Text(lang, "error.stale_result", map[string]any{
		"Expected": ce.Expected, "Version": cur.Version, "Judge": cur.Judge,
		"At": s.i18n.In(lang).Clock(cur.At), "Reason": cur.Reason, "Changes": changes,
	})
}

// resultChange words one difference between two revisions of a score sheet
// in lang (locales/conflict.*.toml).
func (s *Server) resultChange(lang string, ce *tournament.ConflictError, d tournament.ResultChange) string {
	name := func(id int64) string {
		if id == 0 {
			return s.i18n.Text(lang, "conflict.nobody", nil)
		}
		if n := ce.Names[id]; n != "" {
			return n
		}
		return s.i18n.Text(lang, "conflict.player", map[string]any{"ID": id})
	}
	ended := func(by string) string {
		if by == "" {
			return s.i18n.Text(lang, "conflict.not_recorded", nil)
		}
		return s.i18n.Text(lang, "score.ended_"+by, nil)
	}
	switch {
	case d.Field == tournament.ChangeDeclared:
		return s.i18n.Text(lang, "conflict.declared", map[string]any{"From": name(d.WinnerFrom), "To": name(d.WinnerTo)})
	case d.Field == tournament.ChangeEndedBy:
		return s.i18n.Text(lang, "conflict.ended_by", map[string]any{"From": ended(d.EndedFrom), "To": ended(d.EndedTo)})
	case !d.Had:
		return s.i18n.Text(lang, "conflict.vp_added", map[string]any{"Player": name(d.Player), "To": d.VPTo})
	case !d.Has:
		return s.i18n.Text(lang, "conflict.vp_removed", map[string]any{"Player": name(d.Player)})
	}
	return s.i18n.Text(lang, "conflict.vp", map[string]any{"Player": name(d.Player), "From": d.VPFrom, "To": d.VPTo})
}
