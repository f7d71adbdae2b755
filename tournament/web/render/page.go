package render

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Page is what every page's view model starts with: the layout reads it.
type Page struct {
	Lang  string
	Title string // translated
	Judge string // the account logged in, or ""
	// Role is the account's role ("" for a table device, or nobody): the
	// pages show each role only what it may do (Can).
	Role string
	// Device says a table device shows the page: no navigation, nothing
	// but its table's page.
	Device bool
	Path   string // this page's path and query, for the language switch
	// Flashes are the messages of the action whose redirect led here,
	// taken when the page's layout shows them (Flashes.Take).
	Flashes *Flashes
	Nav     *Nav
	// Refresh is how often, in seconds, the page loads itself again; 0
	// for never (a page saying the database cannot be reached, for now).
	Refresh int
}

// Nav is the navigation inside one tournament.
type Nav struct {
	ID     int64
	Name   string
	Active string // "overview", "players", "rounds", "penalties", "standings", "audit"
	Rounds []int  // numbers of the rounds paired so far
	// Finished says a judge closed the tournament: every page says so, as
	// every change is refused until it is reopened.
	Finished bool
	// Final is the first round of the final (its first stage), 0 before
	// the final is made: the rounds from it on are named 決勝.
	Final int
	// Calls are the tournament's open judge calls, which every page shows
	// live (console-live.js).
	Calls *CallsBadge
	// Team says the tournament is a team event: the navigation leads to
	// its teams.
	Team bool
	// Divisions are the event's divisions (issue 30), each linked to its
	// page of the part of the navigation this page is; nil for an event
	// of one division.
	Divisions []NavDivision
}

// NavDivision is one division of the event in the navigation.
type NavDivision struct {
	Name    string // "" for the event's unnamed main division
	Href    string
	Current bool // the division the page is of
}

// CallsBadge is a tournament's open judge calls as the navigation shows
// them: how many, at which tables, and whether one waits for anyone or
// was escalated to the head judges.
type CallsBadge struct {
	TID       int64
	Round     int // the latest round a call is of
	Open      int
	Tables    []int
	Waiting   bool
	Escalated bool
	// Rings name the open calls, for the chime to ring once for each new
	// one, whichever part of the page shows it first.
	Rings string
}

// Can reports whether the account viewing the page has a role that allows
// need's ("head", "judge", "scorekeeper").
func (p Page) Can(need string) bool {
	return tournament.Role(p.Role).Allows(tournament.Role(need))
}

// IsFinal reports whether round n is a stage of the final.
func (n *Nav) IsFinal(round int) bool { return n.Final > 0 && round >= n.Final }

// Page fills the part of a view model every page has, its title the
// message titleID with data.
func (e *Engine) Page(c *gin.Context, titleID string, data map[string]any) Page {
	lang := e.i18n.Lang(c)
	who := e.who(c)
	return Page{
		Lang:    lang,
		Title:   e.i18n.Text(lang, titleID, data),
		Judge:   who.Name,
		Role:    who.Role,
		Device:  who.Device,
		Path:    c.Request.URL.RequestURI(),
		Flashes: &Flashes{c: c},
	}
}

// Result is what a page handler answers: a page to render, with its status
// and view model, or where the browser goes after a successful form
// (Post/Redirect/Get).
type Result struct {
	status int
	page   string // the page's templates: templates/pages/<page>.html
	block  string // a part of the page to render alone; "" for its whole document
	view   any
	to     string // a redirect's target, answered with 303
	flash  Flash  // with to: the message the next page shows; no ID for none
	// shared is a page rendered once, answered as it is (Serve).
	shared *Shared
	// now, when set, is the server's time the page's clocks count from,
	// sent beside it (ServerTime).
	now time.Time
}

// Show renders page with the view model vm, with status 200.
func Show(page string, vm any) Result { return Result{status: http.StatusOK, page: page, view: vm} }

// ShowStatus renders page with vm and status: a form shown again with the
// service's refusal (422 or 409).
func ShowStatus(status int, page string, vm any) Result {
	return Result{status: status, page: page, view: vm}
}

// Part renders the template block of page alone, with vm: a part of the
// page a script swaps in.
func Part(page, block string, vm any) Result {
	return Result{status: http.StatusOK, page: page, block: block, view: vm}
}

// SeeOther ends a successful form with Post/Redirect/Get, keeping the
// message flashID ("" for none) for the page it leads to, which shows it
// as done.
func SeeOther(to, flashID string) Result {
	return Result{to: to, flash: Flash{ID: flashID, Kind: FlashDone}}
}

// SeeOtherNotice is SeeOther with a message to heed rather than one of
// success (an action that went through but did not do what was meant).
func SeeOtherNotice(to, flashID string) Result {
	return Result{to: to, flash: Flash{ID: flashID, Kind: FlashNotice}}
}

// Handler is a page's handler: it parses the request, calls the service
// and returns what to show, or an error for Handle to map.
type Handler func(c *gin.Context) (Result, error)

// Handle adapts a Handler: its error goes through Fail, the one mapping of
// errors to statuses and messages; its result is rendered or redirected to.
func (e *Engine) Handle(h Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		r, err := h(c)
		if err != nil {
			e.Fail(c, err)
			return
		}
		e.Write(c, r)
	}
}

// At says the page's clocks count from now, the server's time: it is
// sent beside the page (ServerTime), for clock.js to count from.
func (r Result) At(now time.Time) Result {
	r.now = now
	return r
}

// Write answers r: a redirect, or the page rendered into a buffer first,
// so that a template error is a clean 500 rather than half a page.
func (e *Engine) Write(c *gin.Context, r Result) {
	if r.to != "" {
		if r.flash.ID != "" {
			keepFlash(c, r.to, r.flash)
		}
		c.Redirect(http.StatusSeeOther, r.to)
		return
	}
	if !r.now.IsZero() {
		c.Header(ServerTime, strconv.FormatInt(r.now.UnixMilli(), 10))
	}
	if r.shared != nil {
		r.shared.write(c)
		return
	}
	body, err := e.render(e.i18n.Lang(c), r)
	if err != nil {
		e.renderFailure(c, err)
		return
	}
	pageHeaders(c)
	c.Data(r.status, "text/html; charset=utf-8", body)
}

// render renders r's page, or its block, in lang into a buffer.
func (e *Engine) render(lang string, r Result) ([]byte, error) {
	set, ok := e.pages[lang][r.page]
	if !ok {
		return nil, fmt.Errorf("no page template %q", r.page)
	}
	doc := set.doc
	if r.block != "" {
		doc = r.block
	}
	var buf bytes.Buffer
	if err := set.t.ExecuteTemplate(&buf, doc, r.view); err != nil {
		return nil, fmt.Errorf("render %s: %w", r.page, err)
	}
	return buf.Bytes(), nil
}

// renderFailure answers a page that could not be rendered with a plain 500.
func (e *Engine) renderFailure(c *gin.Context, err error) {
	e.log.Error("render failed", "id", problem.RequestID(c), "err", err)
	pageHeaders(c)
	c.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte(e.i18n.Text(e.i18n.Lang(c), "error.internal", nil)))
	c.Abort()
}

// pageHeaders are the headers of every console page: nothing cached (the
// pages show live tournament state). The security headers of every
// response are set by securityHeaders.
func pageHeaders(c *gin.Context) {
	c.Writer.Header().Set("Cache-Control", "no-store")
}

// errorPage is the view model of a page that failed.
type errorPage struct {
	Page
	Status  int
	Message string
	Then    string // a message id: what happens next, or ""
	Back    string
}

// Fail maps err through problem.Describe, the one mapping of errors to
// statuses and messages, and shows it as a page. While the database cannot
// be reached, a page the judge opened loads itself again every few seconds
// until it can (issue 24: bare 500s), and an action says it was not done.
func (e *Engine) Fail(c *gin.Context, err error) {
	status, msg, _ := problem.Describe(e.i18n.In(e.i18n.Lang(c)), err)
	problem.Log(c, e.log, status, err)
	vm := errorPage{Page: e.Page(c, "page.error", nil), Status: status, Message: msg, Back: route.Back(c.GetHeader("Referer"), c.Request.Host, route.Tournaments)}
	if errors.Is(err, tournament.ErrUnavailable) {
		c.Header("Retry-After", strconv.Itoa(problem.RetryAfter))
		vm.Then = "error.unavailable_write"
		if c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
			vm.Refresh, vm.Then = problem.RetryAfter, "error.unavailable_retry"
		}
	}
	e.Write(c, ShowStatus(status, "error", vm))
	c.Abort()
}

// Flash is a message a page shows once, after the redirect of the action
// that led to it.
type Flash struct {
	ID   string // the message id
	Kind string // FlashDone or FlashNotice, which the page styles apart
}

// The kinds of Flash.
const (
	FlashDone   = "done"   // the action did what was asked
	FlashNotice = "notice" // it went through, but the judge should heed what it says
)

// Flashes are the messages kept for a page by the redirect that led to
// it. They are taken by the page's layout (a whole document, never a part
// a script fetches), and only by the page the redirect named: every
// document shown forgets every message kept, so that a message never
// shows later on another page (issue 24: a printable that showed no
// message left 「新しいコードを発行しました」 for the round page minutes later).
type Flashes struct {
	c     *gin.Context
	taken bool
	list  []Flash
}

// Take returns the messages kept for this page, and forgets every message
// kept; called again, it returns the same.
func (f *Flashes) Take() []Flash {
	if f == nil || f.c == nil {
		return nil
	}
	if !f.taken {
		f.taken, f.list = true, takeFlashes(f.c, f.c.Request.URL.Path)
	}
	return f.list
}

// keepFlash keeps m for the page at to (a path, with its query and
// fragment) the browser goes to next, after a 303.
func keepFlash(c *gin.Context, to string, m Flash) {
	target, _, _ := strings.Cut(to, "#")
	target, _, _ = strings.Cut(target, "?")
	sess := sessions.Default(c)
	sess.AddFlash(m.Kind+"\n"+target+"\n"+m.ID, sessionFlash)
	_ = sess.Save()
}

// takeFlashes forgets the messages kept and returns those kept for path.
func takeFlashes(c *gin.Context, path string) []Flash {
	sess := sessions.Default(c)
	fs := sess.Flashes(sessionFlash)
	if len(fs) == 0 {
		return nil
	}
	_ = sess.Save()
	var out []Flash
	for _, f := range fs {
		s, _ := f.(string)
		parts := strings.SplitN(s, "\n", 3)
		if len(parts) == 3 && parts[1] == path {
			out = append(out, Flash{Kind: parts[0], ID: parts[2]})
		}
	}
	return out
}

// sessionFlash is the key of the flashes in the session cookie.
const sessionFlash = "flash"

// Block is r, a page to show, rendered as its template block alone: the
// live parts of a page built as the whole page is.
func (r Result) Block(block string) Result {
	r.block = block
	return r
}
