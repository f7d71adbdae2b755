package auth

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// loginPage is the view model of /judge/login.
type loginPage struct {
	render.Page
	Name          string
	Next          string
	LoggedOut     bool
	AllLoggedOut  bool   // every judge was logged out (logOutEveryone)
	Error         string // the form's message: wrong password, too many attempts
	NameError     string
	PasswordError string
}

func (a *Auth) ShowLogin(c *gin.Context) (render.Result, error) {
	next := route.Local(c.Query("next"), route.Tournaments)
	if a.staffActor(c) != nil {
		return render.SeeOther(next, ""), nil
	}
	vm := loginPage{
		Page:         a.pages.Page(c, "page.login", nil),
		Next:         next,
		LoggedOut:    c.Query("bye") == "1",
		AllLoggedOut: c.Query("all") == "1",
	}
	return render.Show("login", vm), nil
}

// LimitLogins refuses a login of an address that got the password wrong
// too often lately, before the form is read (it is the login route's
// guard): the login page with its message, or, for the JSON API's
// session, 429 as JSON.
func (a *Auth) LimitLogins(c *gin.Context) {
	if !a.limiter.blocked(ClientAddr(c), time.Now()) {
		c.Next()
		return
	}
	if strings.HasPrefix(c.Request.URL.Path, route.API+"/") {
		c.Header("Retry-After", strconv.Itoa(a.limiter.retryAfter()))
		a.failJSON(c, problem.ErrTooManyGuesses)
		return
	}
	a.pages.Write(c, a.tooManyLogins(c, loginPage{Page: a.pages.Page(c, "page.login", nil), Next: route.Tournaments}))
	c.Abort()
}

func (a *Auth) tooManyLogins(c *gin.Context, vm loginPage) render.Result {
	c.Header("Retry-After", strconv.Itoa(a.limiter.retryAfter()))
	vm.Error = a.i18n.Text(vm.Lang, "login.too_many", nil)
	return render.ShowStatus(http.StatusTooManyRequests, "login", vm)
}

// LogIn checks the name and password of a staff account and starts a
// session of it, which the audit log then names for every change. Only a
// wrong name or password counts against the address's login limit.
func (a *Auth) LogIn(c *gin.Context) (render.Result, error) {
	vm := loginPage{
		Page: a.pages.Page(c, "page.login", nil),
		Name: strings.TrimSpace(c.PostForm("name")),
		Next: route.Local(c.PostForm("next"), route.Tournaments),
	}
	lang := vm.Lang
	password := c.PostForm("password")
	if vm.Name == "" {
		vm.NameError = a.i18n.Text(lang, "login.name_missing", nil)
	}
	if password == "" {
		vm.PasswordError = a.i18n.Text(lang, "login.password_missing", nil)
	}
	if vm.NameError != "" || vm.PasswordError != "" {
		return render.ShowStatus(http.StatusUnprocessableEntity, "login", vm), nil
	}
	st, err := a.checkLogin(c, vm.Name, password)
	switch {
	case errors.Is(err, problem.ErrTooManyGuesses):
		return a.tooManyLogins(c, vm), nil
	case errors.Is(err, problem.ErrWrongLogin):
		// Which of the two was wrong is not said: the login does not tell
		// which names have accounts.
		vm.PasswordError = a.i18n.Text(lang, "login.wrong", nil)
		return render.ShowStatus(http.StatusUnauthorized, "login", vm), nil
	case errors.Is(err, problem.ErrInactive):
		vm.Error = a.i18n.Text(lang, "login.inactive", nil)
		return render.ShowStatus(http.StatusForbidden, "login", vm), nil
	case err != nil:
		return render.Result{}, err
	}
	if err := a.startSession(c, st.ID); err != nil {
		return render.Result{}, err
	}
	a.log.Info("staff logged in", "id", problem.RequestID(c), "addr", ClientAddr(c), "name", st.Name, "role", st.Role)
	return render.SeeOther(vm.Next, ""), nil
}

// checkLogin returns the account of name when password is its password
// and the account is active. The attempt is taken from the address's
// login limit before the password is checked (problem.ErrTooManyGuesses
// when none is left), and given back when it was right; an unknown name
// is checked against a hash of no account, so that it takes as long as a
// wrong password.
func (a *Auth) checkLogin(c *gin.Context, name, password string) (tournament.Staff, error) {
	addr := ClientAddr(c)
	ok, succeeded := a.limiter.attempt(addr, time.Now())
	if !ok {
		return tournament.Staff{}, problem.ErrTooManyGuesses
	}
	st, err := a.settings.StaffByName(c.Request.Context(), name)
	hash := st.PasswordHash
	switch {
	case errors.Is(err, tournament.ErrNotFound):
		hash = noAccount()
	case err != nil:
		return tournament.Staff{}, err
	}
	if !PasswordMatches(hash, password) || st.ID == 0 {
		a.log.Info("staff login refused", "id", problem.RequestID(c), "addr", addr, "name", name)
		return tournament.Staff{}, problem.ErrWrongLogin
	}
	succeeded()
	if !st.Active {
		return tournament.Staff{}, problem.ErrInactive
	}
	return st, nil
}

func (a *Auth) LogOut(c *gin.Context) (render.Result, error) {
	if err := a.endSession(c); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Login+"?bye=1", ""), nil
}

// LogOutEveryone ends every session of every account, this browser's and
// the session tokens too: for a lost tablet, whose cookie a logout
// elsewhere cannot reach. Each logs in again with their password.
func (a *Auth) LogOutEveryone(c *gin.Context) (render.Result, error) {
	if err := a.epoch.bump(c.Request.Context(), a.settings); err != nil {
		return render.Result{}, err
	}
	a.log.Info("every judge logged out", "id", problem.RequestID(c), "addr", c.ClientIP(), "judge", Judge(c))
	if err := a.endSession(c); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Login+"?all=1", ""), nil
}

// NewSessionToken checks the name and password of a staff account as the
// login does and returns a session token of it (a bearer token for the
// JSON API, POST /api/v1/session), with the account and when the token
// expires. The same limit counts a wrong password.
func (a *Auth) NewSessionToken(c *gin.Context, name, password string) (string, tournament.Staff, time.Time, error) {
	st, err := a.checkLogin(c, name, password)
	if errors.Is(err, problem.ErrTooManyGuesses) {
		c.Header("Retry-After", strconv.Itoa(a.limiter.retryAfter()))
	}
	if err != nil {
		return "", tournament.Staff{}, time.Time{}, err
	}
	s := a.newSession(st.ID)
	token, err := a.sessionToken(s)
	if err != nil {
		return "", tournament.Staff{}, time.Time{}, err
	}
	a.log.Info("staff session token", "id", problem.RequestID(c), "addr", ClientAddr(c), "name", st.Name, "role", st.Role)
	return token, st, s.since().Add(tokenTTL), nil
}

// EndSessionToken ends the session of the request's session token on
// every server (DELETE /api/v1/session), or, from a browser, its session
// cookie's; the API token has no session to end.
func (a *Auth) EndSessionToken(c *gin.Context) error {
	if a.checkToken(c) != tokenSession {
		return a.endSession(c)
	}
	s := a.tokenSession(c)
	return a.ended.end(c.Request.Context(), a.settings, s.ID, s.since().Add(tokenTTL))
}
