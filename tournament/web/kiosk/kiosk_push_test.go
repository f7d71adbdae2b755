package kiosk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// pushedEvent is a change read from a live feed, with the parts it
// carries (nil for none).
type pushedEvent struct {
	live.Event
	Parts *string `json:"parts"`
}

// readChanges reads the "change" events of the live feed at target into
// the channel it returns, until ctx ends.
func readChanges(t *testing.T, ctx context.Context, client *http.Client, target string) <-chan pushedEvent {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		res.Body.Close()
		t.Fatalf("GET %s = %d %s, want 200 text/event-stream", target, res.StatusCode, res.Header.Get("Content-Type"))
	}
	out := make(chan pushedEvent, 16)
	opened := make(chan struct{})
	go func() {
		defer res.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		name := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "retry: "):
				close(opened)
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && name == "change":
				var e pushedEvent
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e); err != nil {
					t.Errorf("event data %q: %v", line, err)
				}
				out <- e
			}
		}
	}()
	select {
	case <-opened:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s sent no retry line within 5s", target)
	}
	return out
}

// The kiosk's feed carries, with each change, the kiosk's live parts of
// its view exactly as /live serves them for the same version, each view
// (language, projector, standings) its own; the tournament's feed, which
// the judges' pages follow, carries none, as before.
func TestKioskFeedCarriesTheLiveParts(t *testing.T) {
	env := webtest.New(t, webtest.WithLive())
	defer env.Server.Close()
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{}}
	defer client.Transport.(*http.Transport).CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	views := []string{"?lang=ja", "?lang=en&standings=live&view=projector"}
	base := fmt.Sprintf("%s/kiosk/%d", env.Server.URL, tr.ID)
	var feeds []<-chan pushedEvent
	for _, q := range views {
		feeds = append(feeds, readChanges(t, ctx, client, base+"/events"+q))
	}
	judges := readChanges(t, ctx, client, fmt.Sprintf("%s/api/v1/tournaments/%d/events", env.Server.URL, tr.ID))

	cl.Save(tr.ID, 1, 1, 0, []int{10, 6, 5, 4}, 0, "")
	next := func(what string, ch <-chan pushedEvent) pushedEvent {
		t.Helper()
		select {
		case e := <-ch:
			return e
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no event within 5s", what)
			return pushedEvent{}
		}
	}
	var got []string
	for i, q := range views {
		e := next(q, feeds[i])
		if e.Kind != "result" || e.Action != "result.save" || e.Version == 0 || e.Parts == nil {
			t.Fatalf("the kiosk's feed %s: %+v, want the result saved with the live parts", q, e.Event)
		}
		res := env.Browser().Get(fmt.Sprintf("/kiosk/%d/live%s", tr.ID, q))
		if res.Status != http.StatusOK || res.Body != *e.Parts {
			t.Errorf("the parts of the event on %s differ from /live's (%d)\nevent: %s\n/live: %s", q, res.Status, *e.Parts, res.Body)
		}
		got = append(got, *e.Parts)
	}
	if !strings.Contains(got[0], "1卓") || !strings.Contains(got[1], "Table 1") || !strings.Contains(got[0], `class="k-card status-finished"`) {
		t.Errorf("the parts pushed are not each view's, after the result:\nja: %s\nen: %s", got[0], got[1])
	}
	if e := next("the judges' feed", judges); e.Kind != "result" || e.Parts != nil {
		t.Errorf("the tournament's feed: %+v (parts %v), want the result saved without parts", e.Event, e.Parts != nil)
	}

	if res := env.Browser().Get("/kiosk/999/events"); res.Status != http.StatusNotFound {
		t.Errorf("the kiosk feed of a missing tournament = %d, want 404", res.Status)
	}
}
