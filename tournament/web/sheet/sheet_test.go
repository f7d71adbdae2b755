package sheet

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

func printer(t *testing.T) i18n.Printer {
	t.Helper()
	tr, err := i18n.New(templates.Locales, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr.In("ja")
}

// A line reads as typed: the VP (full-width digits too), or a breakdown
// that stands for it with its count, each field's slip by that field.
func TestLineRead(t *testing.T) {
	p := printer(t)
	for _, tc := range []struct {
		name    string
		form    map[string]string
		want    tournament.Score
		ok      bool
		total   string
		invalid []string
	}{
		{"the VP", map[string]string{"vp_7": "10"}, tournament.Score{PlayerID: 7, VP: 10}, true, "", nil},
		{"full-width", map[string]string{"vp_7": "１０"}, tournament.Score{PlayerID: 7, VP: 10}, true, "", nil},
		{"nothing", map[string]string{}, tournament.Score{PlayerID: 7, NoVP: true}, false, "", []string{"vp"}},
		{"a breakdown alone", map[string]string{"settlements_7": "2", "cities_7": "3", "longest_road_7": "1"},
			tournament.Score{PlayerID: 7, NoVP: true, Breakdown: &referee.Breakdown{Settlements: 2, Cities: 3, LongestRoad: true}}, true, "10", nil},
		{"a count that is no number", map[string]string{"vp_7": "9", "cities_7": "three"},
			tournament.Score{PlayerID: 7, VP: 9, Breakdown: &referee.Breakdown{}}, false, "0", []string{"cities"}},
		{"a VP out of range", map[string]string{"vp_7": "100"}, tournament.Score{PlayerID: 7, VP: 100}, false, "", []string{"vp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Line{ID: 7, Error: "stale", Problems: []string{"stale"}}
			got, ok := l.Read(p, func(k string) string { return tc.form[k] })
			if diff := cmp.Diff(tc.want, got); diff != "" || ok != tc.ok || l.Total != tc.total {
				t.Errorf("Read() = %+v, %v, total %q; want %+v, %v, %q\n%s", got, ok, l.Total, tc.want, tc.ok, tc.total, diff)
			}
			for _, f := range tc.invalid {
				if !l.Invalid[f] {
					t.Errorf("field %s not marked invalid: %v", f, l.Invalid)
				}
			}
			if len(tc.invalid) == 0 && (l.Error != "" || len(l.Problems) > 0) {
				t.Errorf("a good line keeps messages: %q %q", l.Error, l.Problems)
			}
		})
	}
}

// The sheet's refusals go by the fields of the players they name; the
// declared winner's and the table's are said apart.
func TestPlace(t *testing.T) {
	p := printer(t)
	lines := []Line{{ID: 1, Name: "青木"}, {ID: 2, Name: "井上"}}
	err := errors.Join(
		referee.NewViolation("sheet-vp-mismatch", "mismatch", map[string]any{"Player": "青木", "PlayerID": int64(1), "Field": "vp", "VP": 9, "Counted": 8}),
		referee.NewViolation("sheet-longest-road-twice", "twice", map[string]any{"Group": []string{"青木", "井上"}, "GroupIDs": []int64{1, 2}, "Field": "longest_road"}),
		referee.NewViolation("winner-under-win-vp", "under", map[string]any{"Player": "井上", "Need": 10}),
	)
	r := Place(p, err, lines)
	if !r.Placed || r.Declared == nil || r.Declared.Code != "winner-under-win-vp" || r.Table != "" {
		t.Fatalf("Place() = %+v", r)
	}
	if lines[0].Error == "" || !lines[0].Invalid["vp"] || !lines[0].Invalid["longest_road"] || !lines[1].Invalid["longest_road"] || len(lines[1].Problems) != 1 || lines[1].Error != "" {
		t.Errorf("lines after Place: %+v", lines)
	}
}
