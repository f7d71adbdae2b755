// Package problem is the one mapping of errors to HTTP statuses and to
// messages in the request's language, for pages and the JSON API alike: the
// errors of the service (tournament.ErrNotFound, a broken rule's
// referee.Violation, a stale save's ConflictError, ...) and the site's own
// (a request it cannot read, a limit reached).
package problem

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// The site's own errors, each with its status (Describe).
var (
	// ErrNoRoute is a path the site does not have: 404.
	ErrNoRoute = errors.New("no such route")
	// ErrNoMethod is a method a path does not take: 405.
	ErrNoMethod = errors.New("method not allowed")
	// ErrNoService is a judge route on a server started without the
	// tournament service (the stateless referee API alone): 503.
	ErrNoService = errors.New("no tournament service")
	// ErrBusy is an anonymous request refused because the server has as
	// much of its kind under way as it takes (live feeds, computations): 503.
	ErrBusy = errors.New("too many at once")
	// ErrTooManyAtOnce is an anonymous request refused because its client
	// already has as many under way as one client may: 429.
	ErrTooManyAtOnce = errors.New("too many computations at once from this client")
	// ErrTooManyFeeds is a live feed refused because its client holds as
	// many as one client may: 429.
	ErrTooManyFeeds = errors.New("too many live feeds from this client")
	// ErrTooManyGuesses is a credential not checked because its address got
	// too many wrong ones lately: 429.
	ErrTooManyGuesses = errors.New("too many wrong credentials from this address")
	// ErrTooManyCodes is a player's code not checked because its address,
	// or the player, got too many wrong ones lately: 429.
	ErrTooManyCodes = errors.New("too many wrong players' codes")
	// ErrMultipart is a multipart body sent to a route that takes none: 415.
	ErrMultipart = errors.New("multipart body where none is taken")
	// ErrWrongLogin is a staff account's name or password that is wrong
	// (which is not said): 401.
	ErrWrongLogin = errors.New("wrong name or password")
	// ErrInactive is the right password of an account a head deactivated: 403.
	ErrInactive = errors.New("account deactivated")
)

// RoleForbidden is a request of an account whose role does not allow it:
// 403 with the code role-forbidden, naming the role it needs.
type RoleForbidden struct {
	Need string // the role the action needs
	Role string // the account's
}

func (e *RoleForbidden) Error() string { return "role " + e.Role + " may not: it needs " + e.Need }

// The codes of the database's faults (tournament.ErrNoSpace and
// ErrUnavailable), in the JSON API's answers and /healthz.
const (
	CodeNoSpace     = "disk-full"
	CodeUnavailable = "database-unavailable"
)

// RetryAfter is the Retry-After, in seconds, of an answer to a request
// that failed because the database could not be reached, and how often a
// page that says so loads itself again.
const RetryAfter = 5

// BadRequest is a request the server could not read (malformed JSON, a body
// too large, a missing field): 400, said by the message ID with Data.
type BadRequest struct {
	ID     string
	Data   map[string]any
	Detail string // for the log
}

func (e *BadRequest) Error() string { return "bad request: " + e.ID + ": " + e.Detail }

// NotFound is a named thing that does not exist: 404, said by the message
// ID with Data.
type NotFound struct {
	ID   string
	Data map[string]any
}

func (e *NotFound) Error() string { return "not found: " + e.ID }

// Forbidden is a request refused whoever makes it: 403, said by the
// message ID.
type Forbidden struct {
	ID     string
	Detail string // for the log
}

func (e *Forbidden) Error() string { return "forbidden: " + e.ID + ": " + e.Detail }

// requestIDKey is the gin context key of the request's ID.
const requestIDKey = "request_id"

// SetRequestID names the request id in every log line about it.
func SetRequestID(c *gin.Context, id string) { c.Set(requestIDKey, id) }

// RequestID is the request's ID, for its log lines.
func RequestID(c *gin.Context) string { return c.GetString(requestIDKey) }

// Log records a failed request: as an error for a server error, else as
// information.
func Log(c *gin.Context, log *slog.Logger, status int, err error) {
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	log.Log(c.Request.Context(), level, "request failed", "id", RequestID(c), "status", status, "err", err)
}

// JSON answers err as the JSON API does: its status, and {"error": the
// message} with the values Describe gives besides.
func JSON(c *gin.Context, p i18n.Printer, log *slog.Logger, err error) {
	status, msg, extra := Describe(p, err)
	Log(c, log, status, err)
	if errors.Is(err, tournament.ErrUnavailable) {
		c.Header("Retry-After", strconv.Itoa(RetryAfter))
	}
	body := gin.H{"error": msg}
	for k, v := range extra {
		body[k] = v
	}
	c.AbortWithStatusJSON(status, body)
}

// Describe maps err to its HTTP status and a message in p's language, with
// the values a program reads besides (a rule's code, a version). It is the
// one place that does so: pages and the JSON API alike say errors through it.
func Describe(p i18n.Printer, err error) (int, string, map[string]any) {
	var (
		br *BadRequest
		nf *NotFound
		fb *Forbidden
		rf *RoleForbidden
		ce *tournament.ConflictError
		se *tournament.StaleError
		fe *referee.FieldError
		te *referee.TieError
		ge *game.Error
		v  *referee.Violation
	)
	switch {
	case errors.As(err, &br):
		return http.StatusBadRequest, p.Text(br.ID, br.Data), nil
	case errors.As(err, &nf):
		return http.StatusNotFound, p.Text(nf.ID, nf.Data), nil
	case errors.As(err, &fb):
		return http.StatusForbidden, p.Text(fb.ID, nil), nil
	case errors.As(err, &rf):
		return http.StatusForbidden, p.Text("error.role_forbidden", map[string]any{"Role": p.Text("role."+rf.Need, nil)}),
			map[string]any{"code": "role-forbidden", "role": rf.Need}
	case errors.Is(err, ErrWrongLogin):
		return http.StatusUnauthorized, p.Text("login.wrong", nil), map[string]any{"code": "login-wrong"}
	case errors.Is(err, ErrInactive):
		return http.StatusForbidden, p.Text("login.inactive", nil), map[string]any{"code": "account-inactive"}
	case errors.Is(err, ErrNoRoute):
		return http.StatusNotFound, p.Text("error.not_found", nil), nil
	case errors.Is(err, ErrNoMethod):
		return http.StatusMethodNotAllowed, p.Text("error.method", nil), nil
	case errors.Is(err, ErrNoService):
		return http.StatusServiceUnavailable, p.Text("error.no_service", nil), nil
	case errors.Is(err, ErrBusy):
		return http.StatusServiceUnavailable, p.Text("error.busy", nil), nil
	case errors.Is(err, ErrTooManyAtOnce):
		return http.StatusTooManyRequests, p.Text("error.too_many_at_once", nil), nil
	case errors.Is(err, ErrTooManyFeeds):
		return http.StatusTooManyRequests, p.Text("error.too_many_feeds", nil), nil
	case errors.Is(err, ErrTooManyGuesses):
		return http.StatusTooManyRequests, p.Text("error.too_many_guesses", nil), nil
	case errors.Is(err, ErrTooManyCodes):
		return http.StatusTooManyRequests, p.Text("error.too_many_codes", nil), nil
	case errors.Is(err, ErrMultipart):
		return http.StatusUnsupportedMediaType, p.Text("error.multipart", nil), nil
	case errors.Is(err, tournament.ErrNoSpace):
		// Nothing of the request was saved; what was saved stays, and the
		// same request goes through once space is freed.
		return http.StatusInsufficientStorage, p.Text("error.no_space", nil), map[string]any{"code": CodeNoSpace}
	case errors.Is(err, tournament.ErrUnavailable):
		return http.StatusServiceUnavailable, p.Text("error.unavailable", nil), map[string]any{"code": CodeUnavailable}
	case errors.As(err, &ce):
		return http.StatusConflict, conflict(p, ce), map[string]any{"current_version": ce.Current.Version}
	case errors.As(err, &se):
		msg := p.Text("stale."+se.Record, map[string]any{"Judge": se.Judge, "At": p.Clock(se.At), "Version": se.Current})
		return http.StatusConflict, msg, map[string]any{"code": "stale-" + se.Record, "current_version": se.Current}
	case errors.Is(err, tournament.ErrConflict) && errors.As(err, &v):
		// Another judge's change came first, or what is recorded no longer
		// allows this one: said by its code, like a broken rule.
		return http.StatusConflict, Violation(p, v), map[string]any{"code": v.Code}
	case errors.Is(err, tournament.ErrConflict):
		return http.StatusConflict, p.Text("error.conflict", map[string]any{"Detail": err.Error()}), nil
	case errors.Is(err, tournament.ErrNotFound) && errors.As(err, &v):
		// A thing named by the request that is not there (a division of
		// the event, issue 30): said by its code, like a broken rule.
		return http.StatusNotFound, Violation(p, v), map[string]any{"code": v.Code}
	case errors.Is(err, tournament.ErrNotFound):
		return http.StatusNotFound, p.Text("error.not_found_thing", map[string]any{"Detail": err.Error()}), nil
	case errors.As(err, &te):
		return http.StatusUnprocessableEntity,
			p.Text("error.tie", map[string]any{"Players": strings.Join(te.Players(), ", ")}),
			map[string]any{"reroll": te.Groups}
	case errors.As(err, &ge):
		// A rule of play (referee/game): the message, and the rule's code
		// and section, with the step at fault when there is one.
		extra := map[string]any{"code": ge.Code, "section": ge.Section}
		if ge.Index >= 0 {
			extra["step"] = ge.Index
		}
		return http.StatusUnprocessableEntity, Violation(p, ge.Violation), extra
	case errors.As(err, &fe):
		return http.StatusUnprocessableEntity,
			p.Text("error.field", map[string]any{"Field": fe.Field, "Msg": fe.Msg}), nil
	case errors.As(err, &v):
		// The code names the rule for a program: the message is for people;
		// a score sheet's rule names the player and the field at fault too.
		extra := map[string]any{"code": v.Code}
		if id, ok := v.Args["PlayerID"].(int64); ok {
			if f, ok := v.Args["Field"].(string); ok {
				extra["player"], extra["field"] = id, f
			}
		}
		return http.StatusUnprocessableEntity, Violation(p, v), extra
	case errors.Is(err, referee.ErrInvalid), errors.Is(err, tournament.ErrInvalid):
		return http.StatusUnprocessableEntity, p.Text("error.invalid", map[string]any{"Detail": err.Error()}), nil
	}
	return http.StatusInternalServerError, p.Text("error.internal", nil), nil
}

// Violation says a broken rule in p's language from its message
// "rule."+Code (templates/locales/rules.*.toml), filled from the values it
// names; about the final, "rule."+Code+".final" where there is one. A rule without a message falls back to the English message of the
// code that found it.
func Violation(p i18n.Printer, v *referee.Violation) string {
	id := "rule." + v.Code
	data := ruleData(p, terms(p, v.Args))
	// A text rule names its field by code ("field.<code>" says it).
	if f, ok := v.Args["Field"].(string); ok {
		if name, ok := p.Lookup("field."+f, nil); ok {
			data["Field"] = name
		}
	}
	// A refusal about the final names it so (tournament's Args["Final"]):
	// its message's own version, where it has one (locales/final.*.toml).
	if final, _ := v.Args["Final"].(bool); final {
		if msg, ok := p.Lookup(id+".final", data); ok {
			return msg
		}
	}
	if msg, ok := p.Lookup(id, data); ok {
		return msg
	}
	if p.Lang == "en" {
		return v.Error()
	}
	return p.Text("error.invalid", map[string]any{"Detail": v.Error()})
}

// termIDs are the message ids of the names a rule of play gives by their
// ids in the API (resources, development cards, pieces, terrains), by the
// value's key in a violation.
var termIDs = map[string]string{"Resource": "resource.", "Resources": "resource.", "Card": "card.", "Piece": "piece.", "Terrain": "terrain."}

// terms returns a violation's values with each such name said in p's
// language; a name without a message (an unknown resource as typed) stays
// as it is.
func terms(p i18n.Printer, args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	say := func(prefix, name string) string {
		if msg, ok := p.Lookup(prefix+name, nil); ok {
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
// joined as p's language writes one.
func ruleData(p i18n.Printer, args map[string]any) map[string]any {
	data := make(map[string]any, len(args))
	for k, a := range args {
		if list, ok := a.([]string); ok {
			a = p.List(list)
		}
		data[k] = a
	}
	return data
}

// conflict says who saved the newer result, when, and what changed since
// the version the judge edited, so the judge can redo the edit knowingly.
func conflict(p i18n.Printer, ce *tournament.ConflictError) string {
	cur := ce.Current
	var lines []string
	for _, d := range ce.Diff() {
		lines = append(lines, resultChange(p, ce, d))
	}
	sep := "、"
	if p.Lang == "en" {
		sep = "; "
	}
	changes := strings.Join(lines, sep)
	if changes == "" {
		changes = p.Text("error.conflict_same", nil)
	}
	return p.Text("error.stale_result", map[string]any{
		"Expected": ce.Expected, "Version": cur.Version, "Judge": cur.Judge,
		"At": p.Clock(cur.At), "Reason": cur.Reason, "Changes": changes,
	})
}

// resultChange words one difference between two revisions of a score sheet
// in p's language (locales/conflict.*.toml).
func resultChange(p i18n.Printer, ce *tournament.ConflictError, d tournament.ResultChange) string {
	return ResultChange(p, ce.Names, d)
}

// ResultChange words one difference between two revisions of a score
// sheet in p's language, naming the players by names (their labels).
func ResultChange(p i18n.Printer, names map[int64]string, d tournament.ResultChange) string {
	name := func(id int64) string {
		if id == 0 {
			return p.Text("conflict.nobody", nil)
		}
		if n := names[id]; n != "" {
			return n
		}
		return p.Text("conflict.player", map[string]any{"ID": id})
	}
	ended := func(by string) string {
		if by == "" {
			return p.Text("conflict.not_recorded", nil)
		}
		return p.Text("score.ended_"+by, nil)
	}
	switch {
	case d.Field == tournament.ChangeDeclared:
		return p.Text("conflict.declared", map[string]any{"From": name(d.WinnerFrom), "To": name(d.WinnerTo)})
	case d.Field == tournament.ChangeEndedBy:
		return p.Text("conflict.ended_by", map[string]any{"From": ended(d.EndedFrom), "To": ended(d.EndedTo)})
	case !d.Had:
		return p.Text("conflict.vp_added", map[string]any{"Player": name(d.Player), "To": d.VPTo})
	case !d.Has:
		return p.Text("conflict.vp_removed", map[string]any{"Player": name(d.Player)})
	}
	return p.Text("conflict.vp", map[string]any{"Player": name(d.Player), "From": d.VPFrom, "To": d.VPTo})
}
