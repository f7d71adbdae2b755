package console

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/width"
)

// staleForm is what a form shows after another judge's save came first (a
// 409 conflict): the form starts again from what is saved now, so that
// submitting it as it stands never undoes the other judge's change, and
// what this judge changed is shown beside it (Mine, and next to each
// field), with a button that takes it back (Again, posted to Action): a
// second, deliberate choice made knowing what is saved.
//
// "What this judge changed" is what their input changed from the version
// their form was opened at, never a field they left as it was (issue 24:
// a sheet's untouched line, taken back, put back the value another judge
// had corrected). Taking it back applies those fields alone over what is
// saved now, and the form then remembers where the judge's input began, so
// that saving it asks once more (overwriteForm) before it changes a field
// another judge changed since.
type staleForm struct {
	Mine   []mineLine    // what this judge changed, where it is not what is saved
	Again  []hiddenField // what is saved now with this judge's changes, for the button
	Action string        // where the button posts
	Button string        // the button's words
}

// mineLine is one value this judge typed that is not what is saved.
type mineLine struct{ Label, Value string }

// formField is one field of a versioned form as a judge reads it: what it
// is (Key), its label and its value in words, and the form's inputs that
// carry that value.
type formField struct {
	Key    string
	Label  string
	Text   string
	Inputs []hiddenField
}

// formFields are a form's fields, in the form's order.
type formFields []formField

// get returns the field of key.
func (fs formFields) get(key string) (formField, bool) {
	i := slices.IndexFunc(fs, func(f formField) bool { return f.Key == key })
	if i < 0 {
		return formField{}, false
	}
	return fs[i], true
}

// changedFrom returns the fields of fs whose inputs are not base's.
func (fs formFields) changedFrom(base formFields) formFields {
	var out formFields
	for _, f := range fs {
		if b, ok := base.get(f.Key); !ok || !slices.Equal(b.Inputs, f.Inputs) {
			out = append(out, f)
		}
	}
	return out
}

// with returns the inputs of fs with those of fields in their place: what
// is saved now with a judge's own changes over it.
func (fs formFields) with(fields formFields) []hiddenField {
	var out []hiddenField
	for _, f := range fs {
		if m, ok := fields.get(f.Key); ok {
			f = m
		}
		out = append(out, f.Inputs...)
	}
	return out
}

// overwrite is a field a save would change that another judge changed
// since the judge's input began: its label, the value it had then, the
// other judge's and this judge's.
type overwrite struct {
	Key                  string
	Label                string
	Before, Theirs, Mine string
}

// overwrites lists the fields of typed (a form whose input began at base)
// that would change what is saved now (current) where current is no
// longer base: another judge's change this save would undo.
func overwrites(base, current, typed formFields) []overwrite {
	var out []overwrite
	for _, t := range typed {
		c, ok := current.get(t.Key)
		b, had := base.get(t.Key)
		if !ok || !had || slices.Equal(c.Inputs, b.Inputs) || slices.Equal(c.Inputs, t.Inputs) {
			continue
		}
		out = append(out, overwrite{Key: t.Key, Label: t.Label, Before: b.Text, Theirs: c.Text, Mine: t.Text})
	}
	return out
}

// overwriteForm is what a save asks before it changes fields another
// judge changed since this judge's input began: each with the three
// values, and the button that saves this judge's over them (overwrite:
// Token, submitting the form Form, which shows the values to be saved).
type overwriteForm struct {
	Fields []overwrite
	Form   string // the id of the form the button submits
	Token  string // overwriteToken of Fields
}

// newOverwriteForm asks about over, with the button of the form id.
func newOverwriteForm(over []overwrite, id string) *overwriteForm {
	return &overwriteForm{Fields: over, Form: id, Token: overwriteToken(over)}
}

// overwriteToken names the overwrites a judge confirms: each field with
// the other judge's value it saves over. A save confirmed for others (a
// field changed again after the question was asked) asks again.
func overwriteToken(over []overwrite) string {
	h := sha256.New()
	for _, o := range over {
		fmt.Fprintf(h, "%s\x00%s\x00", o.Key, o.Theirs)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// normalNumber is a number as typed, written as the form reads it
// (full-width digits and leading zeros made plain), so that typing the
// saved value again is no change; anything else stays as typed.
func normalNumber(v string) string {
	v = strings.TrimSpace(width.Narrow.String(v))
	if n, err := strconv.Atoi(v); err == nil {
		return strconv.Itoa(n)
	}
	return v
}
