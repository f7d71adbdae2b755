package console

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// fieldErrors holds a form's validation messages by field name, each shown
// next to its field.
type fieldErrors map[string]string

// fieldRule says where a form shows a refusal of the service: next to
// field, in the form's own words msg (a message id, said with the
// violation's values), or in the rule's words when msg is "".
type fieldRule struct{ field, msg string }

// fieldRules maps the codes of the rules a form's input may break to the
// fields they are about. The service checks the rules; the form only says
// where each refusal shows.
type fieldRules map[string]fieldRule

// place puts the refusal err next to its field in errs, when rules name its
// code, and reports whether it did.
func (s *Pages) place(lang string, err error, rules fieldRules, errs fieldErrors) bool {
	var v *referee.Violation
	if !errors.As(err, &v) {
		return false
	}
	r, ok := rules[v.Code]
	if !ok {
		return false
	}
	if r.msg == "" {
		_, errs[r.field], _ = problem.Describe(s.i18n.In(lang), err)
	} else {
		errs[r.field] = s.i18n.Text(lang, r.msg, v.Args)
	}
	return true
}

// formInt reads a whole number typed into field, recording a message in
// errs when it is missing (and required), not a number or outside [lo, hi].
func (s *Pages) formInt(lang, v string, lo, hi int, required bool, errs fieldErrors, field string) (int, bool) {
	n, msg := sheet.Number(s.i18n.In(lang), v, lo, hi, required)
	if msg != "" {
		errs[field] = msg
		return n, false
	}
	return n, true
}

// formNumber reads a whole number typed into field, as formInt does,
// leaving its range to the service.
func (s *Pages) formNumber(lang, v string, required bool, errs fieldErrors, field string) int {
	n, _ := s.formInt(lang, v, -1<<31, 1<<31-1, required, errs, field)
	return n
}

// formError returns the message of a service error that a form shows next
// to its fields: a rule the input breaks (422), or a save the full disk
// refused (507), which the form shows again with what was typed, to save
// once space is freed. For any other error ok is false, and the handler
// returns the error for the error page.
func (s *Pages) formError(c *gin.Context, err error) (msg string, ok bool) {
	status, msg, _ := problem.Describe(s.i18n.In(s.i18n.Lang(c)), err)
	if status != http.StatusUnprocessableEntity && status != http.StatusInsufficientStorage {
		return "", false
	}
	s.log.Info("form refused", "id", problem.RequestID(c), "err", err)
	return msg, true
}

// placeRefusal places a refusal of a form's change on its field when
// rules name the rule err breaks (422), else next to the form as refusal
// says; ok is false for an error the error page shows.
func (s *Pages) placeRefusal(c *gin.Context, lang string, err error, rules fieldRules, errs fieldErrors) (status int, msg string, ok bool) {
	if s.place(lang, err, rules, errs) {
		return http.StatusUnprocessableEntity, "", true
	}
	return s.refusal(c, err)
}

// placeFormError is placeRefusal for a form that shows only a rule's
// refusal (formError), a conflict going to the error page.
func (s *Pages) placeFormError(c *gin.Context, lang string, err error, rules fieldRules, errs fieldErrors) (msg string, ok bool) {
	if s.place(lang, err, rules, errs) {
		return "", true
	}
	return s.formError(c, err)
}

// refusal returns the status and the message of a service error that the
// page shows next to the button or form that caused it: a rule the action
// breaks (422), a conflict with what is recorded (409), such as another
// judge's change made first, or a full disk (507). For any other error ok
// is false, and the handler returns the error for the error page.
func (s *Pages) refusal(c *gin.Context, err error) (status int, msg string, ok bool) {
	status, msg, _ = problem.Describe(s.i18n.In(s.i18n.Lang(c)), err)
	if status != http.StatusUnprocessableEntity && status != http.StatusConflict && status != http.StatusInsufficientStorage {
		return 0, "", false
	}
	s.log.Info("action refused", "id", problem.RequestID(c), "status", status, "err", err)
	return status, msg, true
}

// code is the code of the rule err breaks, "" for none.
func code(err error) string {
	if v := (*referee.Violation)(nil); errors.As(err, &v) {
		return v.Code
	}
	return ""
}

// formVersion reads the version a form carries: the version of the record
// it showed (0 for none yet), or nil for a form without one.
func formVersion(c *gin.Context) *int {
	v, err := strconv.Atoi(c.PostForm("version"))
	if err != nil || v < 0 {
		return nil
	}
	return &v
}
