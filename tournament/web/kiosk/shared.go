package kiosk

import (
	"context"
	"errors"
	"net/url"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// The pages a room of screens follows, the kiosk's (its page and its live
// parts) and a recorded table's board (its page and its live part), are
// rendered once per version of the tournament for everyone who asks for
// the same view, and answered as those bytes (render.Shared) with an
// ETag: after a change, the thousands of phones fetching the page share
// one rendering, and the read gate bounds the renderings, not the copies
// (auth.PassShared). Their clocks count down to deadlines the bytes carry
// (data-deadline) from the server's time each answer carries
// (render.ServerTime), so that the bytes hold until the tournament
// changes or the clock reaches a point where the page looks different
// (clock.Until). A search is the one thing rendered per request: it marks
// what it found, which kiosk.js then marks on the shared parts itself.

// sharedKey names a page rendered once per version: the page and its
// block ("" for the whole document), its tournament (and table), and
// every part of the request the page is made of.
type sharedKey struct {
	page, block  string
	tid          int64
	round, table int
	lang, asked  string // the page's language, and the language the query asks for
	projector    bool
	standings    bool  // ?standings=live
	me           int64 // the player the phone remembers (ShowTable)
}

// share answers the page key names as rendered for the tournament's
// snapshot's version (live.State.Version), rendering it with
// make when none is kept for that version, or the one kept shows a clock
// past its time (render.Shared.Fresh). A rendering takes a slot of the
// read gate (auth.Work); answering bytes made already takes none.
func (s *Pages) share(ctx context.Context, key sharedKey, make func(context.Context) (render.Shared, error)) (render.Result, error) {
	b, err := s.rendered(ctx, key, make)
	if err != nil {
		return render.Result{}, err
	}
	return render.Serve(b, s.svc.Now()), nil
}

// rendered is the page key names as share answers it: the bytes every
// request of the view shares, and every feed of it (kiosk.ShowEvents).
func (s *Pages) rendered(ctx context.Context, key sharedKey, make func(context.Context) (render.Shared, error)) (render.Shared, error) {
	fresh := func(b render.Shared) bool { return b.Fresh(s.svc.Now()) }
	version, err := s.live.Version(ctx, key.tid)
	switch {
	case errors.Is(err, tournament.ErrUnavailable):
		// The database is out of reach: no version is known, and the
		// rendering that cannot be made answers the last one kept
		// (live.Cache), so that the room keeps the last state it had.
		version = -1
	case err != nil:
		return render.Shared{}, err
	}
	return s.shared.GetFresh(ctx, key, version, fresh, func(ctx context.Context) (render.Shared, error) {
		ctx, release, err := auth.Work(ctx)
		if err != nil {
			return render.Shared{}, err
		}
		defer release()
		return make(ctx)
	})
}

// path is the page at p with the query the key is made of, as the
// language switch links back to it: a page rendered once for everyone
// names no request's own address.
func (k sharedKey) path(p string) string {
	q := url.Values{}
	if k.projector {
		q.Set("view", "projector")
	}
	if k.asked != "" {
		q.Set("lang", k.asked)
	}
	if k.standings {
		q.Set("standings", "live")
	}
	if len(q) == 0 {
		return p
	}
	return p + "?" + q.Encode()
}
