// Package sheet is a score sheet as a form posts it, for the judges' score
// sheet (console) and the players' report of their table (kiosk) alike:
// each player's line as typed (the VP, the VP breakdown of §11), read into
// the service's scores with a message by each field not filled in right,
// and the service's refusals of the sheet (referee.CheckSheet's, each
// naming its players and field) put by the fields they are about. The
// rules are the service's: this package only reads and places.
package sheet

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// Fields are the inputs of a line's breakdown, as the score sheet's API
// and referee.CheckSheet name them.
var Fields = []string{referee.FieldSettlements, referee.FieldCities, referee.FieldLongestRoad, referee.FieldLargestArmy, referee.FieldPointCards}

// Line is one player's line of a sheet as typed, with what the service
// said of it.
type Line struct {
	ID   int64
	Name string
	VP   string // as typed
	// The VP breakdown as typed (§11), and the VP it counts to (the
	// referee's count, shown beside it); Total is "" without a breakdown.
	Settlements, Cities, PointCards string
	LongestRoad, LargestArmy        bool
	Total                           string
	// Error is the message by the VP field.
	Error string
	// Problems are the sheet's refusals about this player's breakdown,
	// Invalid the fields they are about.
	Problems []string
	Invalid  map[string]bool
}

// Field is the name of the line's VP input: vp_ID.
func (l Line) Field() string { return fmt.Sprintf("vp_%d", l.ID) }

// Input is the name of the line's input of a breakdown field: field_ID.
func (l Line) Input(field string) string { return fmt.Sprintf("%s_%d", field, l.ID) }

// Fields are the names of the line's breakdown fields.
func (Line) Fields() []string { return Fields }

// HasBreakdown says whether the line gives a breakdown.
func (l Line) HasBreakdown() bool {
	return l.Settlements != "" || l.Cities != "" || l.PointCards != "" || l.LongestRoad || l.LargestArmy
}

// Empty says nothing is typed on the line.
func (l Line) Empty() bool { return l.VP == "" && !l.HasBreakdown() }

// Read reads the line from the form (form gives a posted value by name)
// into l, to show it back, and into a Score, with a message by each field
// not filled in right: the VP is required unless the line gives a
// breakdown, whose count then stands for it.
func (l *Line) Read(p i18n.Printer, form func(string) string) (tournament.Score, bool) {
	l.VP = strings.TrimSpace(form(l.Field()))
	l.Settlements = strings.TrimSpace(form(l.Input(referee.FieldSettlements)))
	l.Cities = strings.TrimSpace(form(l.Input(referee.FieldCities)))
	l.PointCards = strings.TrimSpace(form(l.Input(referee.FieldPointCards)))
	l.LongestRoad = form(l.Input(referee.FieldLongestRoad)) != ""
	l.LargestArmy = form(l.Input(referee.FieldLargestArmy)) != ""
	l.Error, l.Problems, l.Invalid, l.Total = "", nil, nil, ""
	good := true
	// 99 only catches a slip of the finger; the cap (§11) is the
	// referee's. A line with a breakdown may leave the VP to it.
	vp, msg := Number(p, l.VP, 0, 99, !l.HasBreakdown())
	if msg != "" {
		l.problem(referee.FieldVP, msg)
		good = false
	}
	score := tournament.Score{PlayerID: l.ID, VP: vp, NoVP: l.VP == ""}
	if l.HasBreakdown() {
		// The counts' bounds (§8, §9) are the referee's; an empty count
		// is none.
		b := referee.Breakdown{LongestRoad: l.LongestRoad, LargestArmy: l.LargestArmy}
		for _, f := range []struct {
			field, typed string
			to           *int
		}{{referee.FieldSettlements, l.Settlements, &b.Settlements}, {referee.FieldCities, l.Cities, &b.Cities}, {referee.FieldPointCards, l.PointCards, &b.PointCards}} {
			n, msg := Number(p, f.typed, -1<<31, 1<<31-1, false)
			if msg != "" {
				l.problem(f.field, msg)
				good = false
			}
			*f.to = n
		}
		score.Breakdown = &b
		l.Total = strconv.Itoa(b.VP())
	}
	return score, good
}

// Fill puts a recorded VP and breakdown (nil for none) in the line's
// fields.
func (l *Line) Fill(vp int, b *referee.Breakdown) {
	l.VP = strconv.Itoa(vp)
	l.Settlements, l.Cities, l.PointCards, l.Total = "", "", "", ""
	l.LongestRoad, l.LargestArmy = false, false
	if b != nil {
		l.Settlements, l.Cities, l.PointCards = strconv.Itoa(b.Settlements), strconv.Itoa(b.Cities), strconv.Itoa(b.PointCards)
		l.LongestRoad, l.LargestArmy = b.LongestRoad, b.LargestArmy
		l.Total = strconv.Itoa(b.VP())
	}
}

// problem records a refusal about the line's field.
func (l *Line) problem(field, msg string) {
	if l.Invalid == nil {
		l.Invalid = map[string]bool{}
	}
	l.Invalid[field] = true
	if field == referee.FieldVP {
		l.Error = msg
	} else if !slices.Contains(l.Problems, msg) {
		l.Problems = append(l.Problems, msg)
	}
}

// Number reads a whole number typed into a field (full-width digits, as a
// Japanese IME types them, too), with the message to show by the field
// when it is missing (and required), not a number or outside [lo, hi].
func Number(p i18n.Printer, v string, lo, hi int, required bool) (int, string) {
	if v == "" {
		if required {
			return 0, p.Text("form.required", nil)
		}
		return 0, ""
	}
	n, err := strconv.Atoi(HalfWidth(v))
	if err != nil {
		return 0, p.Text("form.number", nil)
	}
	if n < lo || n > hi {
		return n, p.Text("form.range", map[string]any{"Min": lo, "Max": hi})
	}
	return n, ""
}

// HalfWidth turns full-width digits and minus, which a Japanese IME types,
// into ASCII.
func HalfWidth(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '０' && r <= '９':
			return '0' + (r - '０')
		case r == '－' || r == 'ー':
			return '-'
		}
		return r
	}, s)
}

// Refusals are where the service's refusal of a sheet shows (Place).
type Refusals struct {
	// Placed says some refusal went by the fields of a line.
	Placed bool
	// Table is the refusal about no one player (the table's), "" for none.
	Table string
	// Declared is the refusal of the declared winner's VP
	// (winner-under-win-vp), for the form to say by its choice of winner.
	Declared *referee.Violation
}

// Place puts the refusals of a sheet's breakdowns (referee.CheckSheet:
// codes sheet-*, each naming its players and field) by the fields of the
// lines they are about, in p's language, and says where the others go.
func Place(p i18n.Printer, err error, lines []Line) Refusals {
	var all []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	} else {
		all = []error{err}
	}
	var out Refusals
	for _, e := range all {
		var v *referee.Violation
		switch {
		case !errors.As(e, &v):
			continue
		case v.Code == "winner-under-win-vp":
			out.Declared = v
			continue
		case !strings.HasPrefix(v.Code, "sheet-"):
			continue
		}
		_, msg, _ := problem.Describe(p, v)
		field, _ := v.Args["Field"].(string)
		ids, _ := v.Args["GroupIDs"].([]int64)
		if id, ok := v.Args["PlayerID"].(int64); ok {
			ids = append(ids, id)
		}
		for _, id := range ids {
			if i := slices.IndexFunc(lines, func(l Line) bool { return l.ID == id }); i >= 0 {
				lines[i].problem(field, msg)
				out.Placed = true
			}
		}
		if len(ids) == 0 {
			out.Table, out.Placed = msg, true
		}
	}
	return out
}

// Bad says some line has a message by one of its fields.
func Bad(lines []Line) bool {
	return slices.ContainsFunc(lines, func(l Line) bool { return l.Error != "" || len(l.Problems) > 0 })
}

// Said says a breakdown in p's language, or "" for none:
// "家2・街3・ロンゲストロード・1ポイント×1".
func Said(p i18n.Printer, b *referee.Breakdown) string {
	if b == nil {
		return ""
	}
	return p.Text("score.breakdown_text", map[string]any{
		"Settlements": b.Settlements, "Cities": b.Cities, "LongestRoad": b.LongestRoad, "LargestArmy": b.LargestArmy, "PointCards": b.PointCards,
	})
}
