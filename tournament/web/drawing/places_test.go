package drawing

import (
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// Every corner and side of the land reads as one place and no other, on
// boards of both presets, in both languages: by the hexes around it where
// that tells it apart, else as a corner or side of its first hex in reading
// order; and the engine's names read back as the same words.
func TestPlacesNameEachPlaceOnce(t *testing.T) {
	tr, err := i18n.New(templates.Locales, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"proshop-2003", "national-2025"} {
		rs, ok := rules.Get(name)
		if !ok {
			t.Fatalf("no ruleset %s", name)
		}
		for seed := range uint64(40) {
			b, err := referee.NewBoard(rs, referee.CapsuleRoll{White: 1 + int(seed%6), Blue: 1 + int(seed/6%6)}, seed)
			if rs.Board.Method == referee.SpiralBoard {
				b, err = referee.NewSpiralBoard(rs, 1+int(seed%6), seed)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range []string{"ja", "en"} {
				named := NewPlaces(tr.In(lang), &b)
				seen := map[string]string{}
				unique := func(what, name string) {
					if other, ok := seen[name]; ok {
						t.Errorf("%s seed %d (%s): %s and %s are both %q", rs.Name, seed, lang, other, what, name)
					}
					seen[name] = what
				}
				for _, h := range referee.LandHexes() {
					unique(h.String(), named.Hex(h))
					if got := named.Name(h.String()); got != named.Hex(h) {
						t.Errorf("Name(%s) = %q, want %q", h, got, named.Hex(h))
					}
				}
				for _, v := range referee.LandVertices() {
					n := named.Corner(v)
					unique(v.String(), n)
					if strings.Contains(n, "(") && lang == "ja" || named.Name(v.String()) != n {
						t.Errorf("corner %s = %q, Name gives %q", v, n, named.Name(v.String()))
					}
				}
				for _, e := range referee.LandEdges() {
					n := named.Side(e)
					unique(e.String(), n)
					if named.Name(e.String()) != n || named.Name(e.A.String()+" "+e.B.String()) != n {
						t.Errorf("side %s = %q, Name gives %q", e, n, named.Name(e.String()))
					}
				}
			}
		}
	}
	// Without a board, hexes are named by their place alone.
	if got := NewPlaces(tr.In("ja"), nil).Hex(referee.Hex{Q: 0, R: -2}); got != "1段目・左から1" {
		t.Errorf("the first hex of an unknown board = %q, want 1段目・左から1", got)
	}
}
