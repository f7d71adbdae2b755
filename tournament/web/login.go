package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// loginPage is the view model of /judge/login.
type loginPage struct {
	page
	Name          string
	Next          string
	LoggedOut     bool
	AllLoggedOut  bool   // every judge was logged out (logOutEveryone)
	Error         string // the form's message: wrong password, too many attempts
	NameError     string
	PasswordError string
}

func (s *Server) showLogin(c *gin.Context) (result, error) {
	next := route.Local(c.Query("next"), route.Tournaments)
	if _, ok := s.sessionJudge(c); ok {
		return seeOther(next, ""), nil
	}
	vm := loginPage{
		page:         s.newPage(c, "page.login", nil),
		Next:         next,
		LoggedOut:    c.Query("bye") == "1",
		AllLoggedOut: c.Query("all") == "1",
	}
	return show("login", vm), nil
}

// limitLogins refuses the login form of an address that got the password
// wrong too often lately, before the form is read (it is the login route's
// guard).
func (s *Server) limitLogins(c *gin.Context) {
	if s.con.limiter.blocked(clientAddr(c), time.Now()) {
		s.answer(c, s.tooManyLogins(c, loginPage{page: s.newPage(c, "page.login", nil), Next: route.Tournaments}))
		c.Abort()
		return
	}
	c.Next()
}

func (s *Server) tooManyLogins(c *gin.Context, vm loginPage) result {
	c.Header("Retry-After", strconv.Itoa(s.con.limiter.retryAfter()))
	vm.Error = s.i18n.Text(vm.Lang, "login.too_many", nil)
	return showStatus(http.StatusTooManyRequests, "login", vm)
}

// logIn checks the shared judge password and starts a session in the name
// the judge typed, which the audit log then records for every change.
// Only a wrong password counts against the address's login limit.
func (s *Server) logIn(c *gin.Context) (result, error) {
	vm := loginPage{
		page: s.newPage(c, "page.login", nil),
		Name: strings.TrimSpace(c.PostForm("name")),
		Next: route.Local(c.PostForm("next"), route.Tournaments),
	}
	lang := vm.Lang
	password := c.PostForm("password")
	// The name goes into the audit log: it follows the rules of every text.
	name, err := tournament.CheckJudgeName(vm.Name)
	switch {
	case vm.Name == "":
		vm.NameError = s.i18n.Text(lang, "login.name_missing", nil)
	case err != nil:
		_, vm.NameError, _ = s.describe(lang, err)
	}
	if password == "" {
		vm.PasswordError = s.i18n.Text(lang, "login.password_missing", nil)
	}
	if vm.NameError != "" || vm.PasswordError != "" {
		return showStatus(http.StatusUnprocessableEntity, "login", vm), nil
	}
	addr := clientAddr(c)
	ok, succeeded := s.con.limiter.attempt(addr, time.Now())
	if !ok {
		return s.tooManyLogins(c, vm), nil
	}
	if ok, err = checkPassword(c.Request.Context(), s.con.settings, password); err != nil {
		return result{}, err
	}
	if !ok {
		s.log.Info("judge login refused", "id", c.GetString(requestIDKey), "addr", addr, "name", vm.Name)
		vm.Error = s.i18n.Text(lang, "login.wrong", nil)
		return showStatus(http.StatusUnauthorized, "login", vm), nil
	}
	succeeded()
	if err := startSession(c, name, s.con.epoch.get()); err != nil {
		return result{}, err
	}
	s.log.Info("judge logged in", "id", c.GetString(requestIDKey), "addr", addr, "name", vm.Name)
	return seeOther(vm.Next, ""), nil
}

func (s *Server) logOut(c *gin.Context) (result, error) {
	if err := s.endSession(c); err != nil {
		return result{}, err
	}
	return seeOther(route.Login+"?bye=1", ""), nil
}

// logOutEveryone ends every judge's session, this browser's too: for a lost
// tablet, whose cookie a logout elsewhere cannot reach. Each judge logs in
// again with the password.
func (s *Server) logOutEveryone(c *gin.Context) (result, error) {
	if err := s.con.epoch.bump(c.Request.Context(), s.con.settings); err != nil {
		return result{}, err
	}
	s.log.Info("every judge logged out", "id", c.GetString(requestIDKey), "addr", c.RemoteIP(), "judge", c.GetString(judgeKey))
	if err := s.endSession(c); err != nil {
		return result{}, err
	}
	return seeOther(route.Login+"?all=1", ""), nil
}
