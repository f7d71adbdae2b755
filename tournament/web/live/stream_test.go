package live

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// readFrame reads back an event as a page does: its id line and its data
// line's JSON, with the parts it carries (nil for none).
func readFrame(t *testing.T, frame []byte) (id string, e Event, parts *string) {
	t.Helper()
	text, ok := strings.CutSuffix(string(frame), "\n\n")
	if !ok {
		t.Fatalf("%q does not end an event", frame)
	}
	var data string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		case line != "event: change":
			t.Fatalf("%q: line %q", frame, line)
		}
	}
	var got struct {
		Event
		Parts *string `json:"parts"`
	}
	if err := json.Unmarshal([]byte(data), &got); err != nil {
		t.Fatalf("%q: %v", frame, err)
	}
	return id, got.Event, got.Parts
}

// A change's event carries the parts a feed's page shows (under "parts",
// beside kind, action and version), unless there are none, they could not
// be made, they are larger than MaxParts, or the change is a resync.
func TestEventCarriesTheParts(t *testing.T) {
	s := &State{}
	e := Event{Kind: "result", Action: "result.save", Version: 42}
	framed := func(p []byte, err error) Parts {
		return func(_ context.Context, e Event) ([]byte, error) {
			if err != nil {
				return nil, err
			}
			return Frame(e, p), nil
		}
	}
	small, _ := json.Marshal(`<p id="clock">7:00</p>` + "\n<p>\r</p>")
	big, _ := json.Marshal(strings.Repeat("x", MaxParts))
	for _, c := range []struct {
		what  string
		e     Event
		parts Parts
		want  string
	}{
		{"no parts asked", e, nil, ""},
		{"the parts", e, framed(small, nil), `<p id="clock">7:00</p>` + "\n<p>\r</p>"},
		{"none", e, framed(nil, nil), ""},
		{"a failure", e, framed(nil, errors.New("render")), ""},
		{"too large", e, framed(big, nil), ""},
		{"a resync", Event{Kind: Resync, Action: Resync}, framed(small, nil), ""},
	} {
		id, got, parts := readFrame(t, s.event(t.Context(), c.e, c.parts))
		if got != c.e || (id == "") != (c.e.Version == 0) || (id != "" && id != "42") {
			t.Errorf("%s: id %q, event %+v, want %+v", c.what, id, got, c.e)
		}
		switch {
		case c.want == "" && parts != nil:
			t.Errorf("%s: carries parts %q, want none", c.what, *parts)
		case c.want != "" && (parts == nil || *parts != c.want):
			t.Errorf("%s: carries %v, want %q", c.what, parts, c.want)
		}
	}
}

// The feeds of one view share one event a change, made once while they
// wait; another view or another change is made on its own, and a failure
// is not kept. Run with -race.
func TestPushesMakeEachEventOnce(t *testing.T) {
	p := NewPushes[string]()
	var made atomic.Int64
	making := func(data string) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) {
			made.Add(1)
			return []byte(data), nil
		}
	}
	e1 := Event{Kind: "result", Action: "result.save", Version: 11}
	e0 := Event{Kind: "result", Action: "result.save", Version: 10} // another server's, committed after 11
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			if got, err := p.Get(t.Context(), "ja", e1, making("ja 11")); err != nil || string(got) != "ja 11" {
				t.Errorf("Get(ja, 11) = %q, %v", got, err)
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != 1 {
		t.Errorf("100 feeds of one view made the event %d times, want once", n)
	}
	if got, _ := p.Get(t.Context(), "en", e1, making("en 11")); string(got) != "en 11" {
		t.Errorf("Get(en, 11) = %q, want the English view's own", got)
	}
	if got, _ := p.Get(t.Context(), "ja", e0, making("ja 10")); string(got) != "ja 10" {
		t.Errorf("Get(ja, 10) after 11 = %q, want an event of its own", got)
	}
	if n := made.Load(); n != 3 {
		t.Errorf("made %d events, want 3", n)
	}
	failed := errors.New("render")
	e2 := Event{Kind: "clock", Action: "clock.start", Version: 12}
	if _, err := p.Get(t.Context(), "ja", e2, func(context.Context) ([]byte, error) { return nil, failed }); !errors.Is(err, failed) {
		t.Errorf("Get(ja, 12) failing = %v, want the failure", err)
	}
	if got, err := p.Get(t.Context(), "ja", e2, making("ja 12")); err != nil || string(got) != "ja 12" {
		t.Errorf("Get(ja, 12) again = %q, %v; want it made again", got, err)
	}
}
