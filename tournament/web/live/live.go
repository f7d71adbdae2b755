package live

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
)

// State reads the tournaments' live state for the live pages and the
// kiosk's API from their snapshots (tournament.Snapshot), which every
// reader shares until the next change, and serves the event feed.
type State struct {
	svc    *tournament.Service
	broker *Broker
	fail   func(*gin.Context, error)
	client func(*gin.Context) string
	log    *slog.Logger
}

// New reads through svc and serves the feed of broker's changes; nil makes
// a broker nobody publishes to (the pages then never update live). fail
// answers a feed refused; client names the client a request comes from,
// whose feeds are counted.
func New(svc *tournament.Service, broker *Broker, fail func(*gin.Context, error), client func(*gin.Context) string, log *slog.Logger) *State {
	if broker == nil {
		broker = NewBroker(0, 0)
	}
	return &State{svc: svc, broker: broker, fail: fail, client: client, log: log}
}

// Version returns the version of a tournament's snapshot a read would
// see now (tournament.Service.Snapshot): what is made from the snapshot
// of that version stays right until the next change, so it is what the
// pages made once for every reader are kept by.
func (s *State) Version(ctx context.Context, tid int64) (int64, error) {
	snap, err := s.svc.Snapshot(ctx, tid)
	if err != nil {
		return 0, err
	}
	return snap.Version(), nil
}

// KeptAs returns a cache for what is made from a tournament's snapshot
// (pages rendered once per version, say), keyed by Version: a value is
// kept until the tournament's next change.
func KeptAs[K comparable, V any](*State) *Cache[K, V] {
	return NewCache[K, V](time.Duration(math.MaxInt64))
}
