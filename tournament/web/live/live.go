package live

import (
	"log/slog"

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
