package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// heartbeat is how often an idle live feed sends a comment line, so that a
// dead connection is noticed and no proxy closes a quiet one.
const heartbeat = 15 * time.Second

// Stream is the live feed of a tournament (Server-Sent Events): one
// "change" event per committed change, with a small JSON payload (kind,
// action, version); the page then fetches what changed. A change of kind
// "resync" (Broker.Resync) says anything may have changed. The browser's
// EventSource reconnects by itself after retry milliseconds, and a page
// re-fetches everything on each (re)connection, so an event missed while
// disconnected, or dropped because the page fell behind, costs nothing.
// A feed ends with a "reconnect" event after the broker's lifetime, and
// one client address holds a few feeds at most (Broker.Subscribe).
func (s *State) Stream(c *gin.Context) {
	tid, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || tid <= 0 {
		s.fail(c, problem.ErrNoRoute)
		return
	}
	s.StreamWith(c, tid, nil)
}

// Parts returns the event of change e as a feed's page is to see it:
// Frame's bytes, made once for every feed of the same view (Pushes); nil
// (or an error) for the change's event as Stream sends it.
type Parts func(ctx context.Context, e Event) ([]byte, error)

// MaxParts bounds the parts an event carries, in bytes of their JSON:
// larger ones are left out, and each page fetches them instead, gzipped
// and with their ETag (the feed is not compressed: a page of a big event
// is cheaper to fetch than to push to every screen).
const MaxParts = 128 << 10

// StreamWith is Stream of tournament tid whose "change" events carry the
// parts of the page that follows it (Parts; nil for none; Frame). A resync
// carries none: the page fetches everything afresh.
func (s *State) StreamWith(c *gin.Context, tid int64, parts Parts) {
	// The tournament must exist: asked of the live state every feed and
	// page shares, so that a room of phones connecting at once (after a
	// restart, say) reads it once, not once a phone.
	ctx := c.Request.Context()
	if _, err := s.Live(ctx, tid); err != nil {
		s.fail(c, err)
		return
	}
	events, cancel, err := s.broker.Subscribe(tid, s.client(c))
	if err != nil {
		if errors.Is(err, problem.ErrTooManyFeeds) || errors.Is(err, problem.ErrBusy) {
			c.Header("Retry-After", "5")
		}
		s.fail(c, err)
		return
	}
	defer cancel()
	s.send(c, tid, events, parts)
}

// send writes the feed of events, until the client goes away, the feed's
// lifetime is over or the subscriber is dropped.
func (s *State) send(c *gin.Context, tid int64, events <-chan Event, parts Parts) {
	ctx := c.Request.Context()
	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// A reverse proxy must pass each event on at once.
	h.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	w := c.Writer
	if _, err := fmt.Fprint(w, "retry: 2000\n: live feed of tournament ", tid, "\n\n"); err != nil {
		return
	}
	w.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	// Feeds end after about their lifetime, spread so that a room of
	// phones does not reconnect at once; the page is told to reconnect.
	lifetime := s.broker.Lifetime
	end := time.NewTimer(lifetime - lifetime/10 + rand.N(lifetime/5+1))
	defer end.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-end.C:
			_, _ = fmt.Fprint(w, "event: reconnect\ndata: {}\n\n")
			w.Flush()
			return
		case e, ok := <-events:
			if !ok {
				// Dropped for falling behind: end the response so the page
				// reconnects and fetches the state afresh.
				return
			}
			if _, err := w.Write(s.event(ctx, e, parts)); err != nil {
				return
			}
			w.Flush()
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
			w.Flush()
		}
	}
}

// event is the event of change e, with the parts made by parts when
// there are any.
func (s *State) event(ctx context.Context, e Event, parts Parts) []byte {
	if parts != nil && e.Kind != Resync {
		// A rendering that failed is the page's to see: it fetches the
		// parts, and is answered the error as any request is.
		if data, err := parts(ctx, e); err == nil && data != nil {
			return data
		}
	}
	return Frame(e, nil)
}

// Frame is the event of change e, carrying the parts (a JSON string,
// render.Shared.JSON) under "parts" beside kind, action and version,
// unless they are nil or larger than MaxParts: "id: <version>" (none for
// a resync, Broker.Resync), "event: change", the data line.
func Frame(e Event, parts []byte) []byte {
	var buf bytes.Buffer
	if e.Version != 0 {
		fmt.Fprintf(&buf, "id: %d\n", e.Version)
	}
	buf.WriteString("event: change\ndata: ")
	// An Event always encodes.
	data, _ := json.Marshal(e)
	if parts != nil && len(parts) <= MaxParts {
		buf.Write(data[:len(data)-1])
		buf.WriteString(`,"parts":`)
		buf.Write(parts)
		buf.WriteString("}")
	} else {
		buf.Write(data)
	}
	buf.WriteString("\n\n")
	return buf.Bytes()
}
