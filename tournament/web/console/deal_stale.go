package console

import (
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
)

// The deal's form after a conflict (issue 24), as the score sheet's: what
// this judge changed is the chips they typed otherwise than the form
// showed when it was opened (carried in its was_ fields), taken back over
// the deal saved now, and saving those asks first where another judge
// changed the same chip since.

// openedDeal is the deal the form showed when it was opened: its was_
// fields, or for a form without them the deal recorded now.
func openedDeal(c *gin.Context, ts tableState) map[string]string {
	hexes := referee.LandHexes()
	if _, ok := c.GetPostForm("was_" + chipField(hexes[0])); !ok {
		return currentDeal(ts.tv)
	}
	out := map[string]string{}
	for _, h := range hexes {
		name := chipField(h)
		out[name] = strings.TrimSpace(c.PostForm("was_" + name))
	}
	return out
}

// opened records was as the deal the form showed when it was opened.
func (d *dealForm) opened(was map[string]string) {
	for i := range d.Rows {
		for j := range d.Rows[i].Cells {
			d.Rows[i].Cells[j].Was = was[d.Rows[i].Cells[j].Name]
		}
	}
}

// fields are the chips of values as a judge reads them, by hex.
func (d *dealForm) fields(values map[string]string) formFields {
	var out formFields
	for _, r := range d.Rows {
		for _, cell := range r.Cells {
			v := normalNumber(values[cell.Name])
			text := v
			if text == "" {
				text = "—"
			}
			out = append(out, formField{Key: cell.Name, Label: cell.Label, Text: text, Inputs: []hiddenField{{Name: cell.Name, Value: v}}})
		}
	}
	return out
}

// overwrites asks before the chips typed change those another judge
// changed since the form showed was: nil when they change none.
func (d *dealForm) overwrites(was, saved, typed map[string]string) *overwriteForm {
	over := overwrites(d.fields(was), d.fields(saved), d.fields(typed))
	if len(over) == 0 {
		return nil
	}
	return newOverwriteForm(over, "deal-form")
}

// takeBack is what this judge changed of the deal the form showed (was),
// posted in form, over the deal saved now, which the rows show: each chip
// changed marked by its field and listed, and the form that takes them
// back, with the deal the judge's form was opened at.
func (d *dealForm) takeBack(was map[string]string, form url.Values) ([]mineLine, []hiddenField) {
	typed, saved := map[string]string{}, map[string]string{}
	for _, r := range d.Rows {
		for _, cell := range r.Cells {
			typed[cell.Name], saved[cell.Name] = strings.TrimSpace(form.Get(cell.Name)), cell.Value
		}
	}
	mine := d.fields(typed).changedFrom(d.fields(was)).changedFrom(d.fields(saved))
	var lines []mineLine
	for i := range d.Rows {
		for j := range d.Rows[i].Cells {
			cell := &d.Rows[i].Cells[j]
			if m, ok := mine.get(cell.Name); ok {
				cell.Mine = m.Text
				lines = append(lines, mineLine{Label: m.Label, Value: m.Text})
			}
		}
	}
	again := append(d.fields(saved).with(mine), hiddenField{Name: takenBackField, Value: "1"})
	for _, r := range d.Rows {
		for _, cell := range r.Cells {
			again = append(again, hiddenField{Name: "was_" + cell.Name, Value: was[cell.Name]})
		}
	}
	return lines, again
}
