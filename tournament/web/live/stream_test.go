package live

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// A change's event carries the parts a feed's page shows (under "parts",
// beside kind, action and version), unless there are none, they could not
// be made, they are larger than MaxParts, or the change is a resync.
func TestEventCarriesTheParts(t *testing.T) {
	s := &State{}
	e := Event{Kind: "result", Action: "result.save", Version: 42}
	parts := func(p []byte, err error) Parts {
		return func(context.Context, Event) ([]byte, error) { return p, err }
	}
	small, _ := json.Marshal(`<p id="clock">7:00</p>`)
	big, _ := json.Marshal(strings.Repeat("x", MaxParts))
	for _, c := range []struct {
		what  string
		e     Event
		parts Parts
		want  string
	}{
		{"no parts asked", e, nil, ""},
		{"the parts", e, parts(small, nil), `<p id="clock">7:00</p>`},
		{"none", e, parts(nil, nil), ""},
		{"a failure", e, parts(nil, errors.New("render")), ""},
		{"too large", e, parts(big, nil), ""},
		{"a resync", Event{Kind: Resync, Action: Resync}, parts(small, nil), ""},
	} {
		pieces, err := s.event(t.Context(), c.e, c.parts)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		var data []byte
		for _, p := range pieces {
			data = append(data, p...)
		}
		var got struct {
			Event
			Parts *string `json:"parts"`
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: %s: %v", c.what, data, err)
		}
		if got.Event != c.e {
			t.Errorf("%s: event %+v, want %+v", c.what, got.Event, c.e)
		}
		switch {
		case c.want == "" && got.Parts != nil:
			t.Errorf("%s: carries parts %q, want none", c.what, *got.Parts)
		case c.want != "" && (got.Parts == nil || *got.Parts != c.want):
			t.Errorf("%s: carries %v, want %q", c.what, got.Parts, c.want)
		}
	}
}
