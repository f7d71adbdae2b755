package console

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// staffPage is the view model of /judge/staff: the head's list of the
// staff accounts, the form that adds one, and a password shown once.
type staffPage struct {
	render.Page
	Staff []staffLine
	Roles []roleChoice
	// New is the form that adds an account, as typed, with its messages.
	New   staffForm
	Error string // a refusal of a change of a listed account
	// Password is a new account's or a reset password, shown this once,
	// for the account named PasswordFor.
	Password, PasswordFor string
}

type staffLine struct {
	ID     int64
	Name   string
	Role   string // the role's id
	Active bool
	Self   bool // the account viewing the page
}

type roleChoice struct {
	ID, Label string
}

type staffForm struct {
	Name, Role string
	Errors     fieldErrors
}

// staffRules say where the new account's form shows the service's refusals.
var staffRules = fieldRules{
	"staff-name-taken":    {"staff_name", ""},
	"staff-name-reserved": {"staff_name", ""},
	"judge-missing":       {"staff_name", "form.required"},
	"text-too-long":       {"staff_name", ""},
	"text-control":        {"staff_name", ""},
	"text-bidi":           {"staff_name", ""},
	"text-invisible":      {"staff_name", ""},
	"staff-role-unknown":  {"staff_role", "form.choose"},
}

func (s *Pages) ShowStaff(c *gin.Context) (render.Result, error) {
	return s.staffPage(c, http.StatusOK, staffPage{New: staffForm{Role: string(tournament.RoleJudge)}})
}

// staffPage shows the accounts with vm's forms and messages.
func (s *Pages) staffPage(c *gin.Context, status int, vm staffPage) (render.Result, error) {
	list, err := s.svc.StaffList(c.Request.Context())
	if err != nil {
		return render.Result{}, err
	}
	if vm.Page, err = s.hallPage(c, "page.staff", nil); err != nil {
		return render.Result{}, err
	}
	lang := vm.Lang
	for _, r := range tournament.Roles {
		vm.Roles = append(vm.Roles, roleChoice{ID: string(r), Label: s.i18n.Text(lang, "role."+string(r), nil)})
	}
	me := auth.Judge(c)
	for _, st := range list {
		vm.Staff = append(vm.Staff, staffLine{ID: st.ID, Name: st.Name, Role: string(st.Role), Active: st.Active, Self: st.Name == me})
	}
	return render.ShowStatus(status, "staff", vm), nil
}

// AddStaff makes an account from the page's form and shows its password
// once.
func (s *Pages) AddStaff(c *gin.Context) (render.Result, error) {
	f := staffForm{Name: strings.TrimSpace(c.PostForm("name")), Role: c.PostForm("role"), Errors: fieldErrors{}}
	password := auth.NewPassword()
	hash, err := auth.HashPassword(password)
	if err != nil {
		return render.Result{}, err
	}
	st, err := s.svc.AddStaff(c.Request.Context(), auth.Judge(c), tournament.StaffInput{Name: f.Name, Role: tournament.Role(f.Role)}, hash)
	if err == nil {
		return s.staffPage(c, http.StatusOK, staffPage{New: staffForm{Role: f.Role}, Password: password, PasswordFor: st.Name})
	}
	status := http.StatusUnprocessableEntity
	vm := staffPage{New: f}
	if !s.place(s.i18n.Lang(c), err, staffRules, f.Errors) {
		var ok bool
		if status, vm.Error, ok = s.refusal(c, err); !ok {
			return render.Result{}, err
		}
	}
	return s.staffPage(c, status, vm)
}

// EditStaff changes a listed account's role or activity (its row's form).
func (s *Pages) EditStaff(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "sid")
	if err != nil {
		return render.Result{}, err
	}
	var e tournament.StaffEdit
	if r := c.PostForm("role"); r != "" {
		role := tournament.Role(r)
		e.Role = &role
	}
	if a := c.PostForm("active"); a != "" {
		active := a == "1"
		e.Active = &active
	}
	if _, err := s.svc.EditStaff(c.Request.Context(), auth.Judge(c), id, e); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.staffPage(c, status, staffPage{New: staffForm{Role: string(tournament.RoleJudge)}, Error: msg})
	}
	return render.SeeOther(route.Staff, "flash.staff_saved"), nil
}

// ResetStaffPassword gives a listed account a new password, ends its
// sessions, and shows the password once.
func (s *Pages) ResetStaffPassword(c *gin.Context) (render.Result, error) {
	id, err := route.ID(c, "sid")
	if err != nil {
		return render.Result{}, err
	}
	password := auth.NewPassword()
	hash, err := auth.HashPassword(password)
	if err != nil {
		return render.Result{}, err
	}
	st, err := s.svc.ResetStaffPassword(c.Request.Context(), auth.Judge(c), id, hash)
	if err != nil {
		return render.Result{}, err
	}
	return s.staffPage(c, http.StatusOK, staffPage{New: staffForm{Role: string(tournament.RoleJudge)}, Password: password, PasswordFor: st.Name})
}
