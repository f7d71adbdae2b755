package auth

import (
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
	if _, ok := a.sessionJudge(c); ok {
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

// LimitLogins refuses the login form of an address that got the password
// wrong too often lately, before the form is read (it is the login route's
// guard).
func (a *Auth) LimitLogins(c *gin.Context) {
	if a.limiter.blocked(ClientAddr(c), time.Now()) {
		a.pages.Write(c, a.tooManyLogins(c, loginPage{Page: a.pages.Page(c, "page.login", nil), Next: route.Tournaments}))
		c.Abort()
		return
	}
	c.Next()
}

func (a *Auth) tooManyLogins(c *gin.Context, vm loginPage) render.Result {
	c.Header("Retry-After", strconv.Itoa(a.limiter.retryAfter()))
	vm.Error = a.i18n.Text(vm.Lang, "login.too_many", nil)
	return render.ShowStatus(http.StatusTooManyRequests, "login", vm)
}

// LogIn checks the shared judge password and starts a session in the name
// the judge typed, which the audit log then records for every change.
// Only a wrong password counts against the address's login limit.
func (a *Auth) LogIn(c *gin.Context) (render.Result, error) {
	vm := loginPage{
		Page: a.pages.Page(c, "page.login", nil),
		Name: strings.TrimSpace(c.PostForm("name")),
		Next: route.Local(c.PostForm("next"), route.Tournaments),
	}
	lang := vm.Lang
	password := c.PostForm("password")
	// The name goes into the audit log: it follows the rules of every text.
	name, err := tournament.CheckJudgeName(vm.Name)
	switch {
	case vm.Name == "":
		vm.NameError = a.i18n.Text(lang, "login.name_missing", nil)
	case err != nil:
		_, vm.NameError, _ = problem.Describe(a.i18n.In(lang), err)
	}
	if password == "" {
		vm.PasswordError = a.i18n.Text(lang, "login.password_missing", nil)
	}
	if vm.NameError != "" || vm.PasswordError != "" {
		return render.ShowStatus(http.StatusUnprocessableEntity, "login", vm), nil
	}
	addr := ClientAddr(c)
	ok, succeeded := a.limiter.attempt(addr, time.Now())
	if !ok {
		return a.tooManyLogins(c, vm), nil
	}
	if ok, err = checkPassword(c.Request.Context(), a.settings, password); err != nil {
		return render.Result{}, err
	}
	if !ok {
		a.log.Info("judge login refused", "id", problem.RequestID(c), "addr", addr, "name", vm.Name)
		// The name is any judge's: the password is what was wrong, and
		// the judge types it again there.
		vm.PasswordError = a.i18n.Text(lang, "login.wrong", nil)
		return render.ShowStatus(http.StatusUnauthorized, "login", vm), nil
	}
	succeeded()
	if err := startSession(c, name, a.epoch.get()); err != nil {
		return render.Result{}, err
	}
	a.log.Info("judge logged in", "id", problem.RequestID(c), "addr", addr, "name", vm.Name)
	return render.SeeOther(vm.Next, ""), nil
}

func (a *Auth) LogOut(c *gin.Context) (render.Result, error) {
	if err := a.endSession(c); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Login+"?bye=1", ""), nil
}

// LogOutEveryone ends every judge's session, this browser's too: for a lost
// tablet, whose cookie a logout elsewhere cannot reach. Each judge logs in
// again with the password.
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
