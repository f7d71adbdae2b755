package live

import (
	"log/slog"
	"math"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
)

// State reads the tournaments' live state for the live pages and the
// kiosk's API, sharing each read among the requests that ask before the
// next change, and serves the event feed.
type State struct {
	svc    *tournament.Service
	broker *Broker
	lives  *Cache[int64, tournament.Live]
	rounds *Cache[roundKey, roundRead]
	// results are the tournaments' whole records, for the players' pages
	// and the results; they name people of the registry, so a change of
	// the registry (tournament 0's) makes them stale too.
	results *Cache[int64, tournament.EventResults]
	// games are the tables' recorded games, as the kiosk shows them.
	games  *Cache[tableKey, tournament.Game]
	fail   func(*gin.Context, error)
	client func(*gin.Context) string
	log    *slog.Logger
	// keep is how long a read is kept (until the next change), 0 when
	// nothing is shared: the caches beside these keep theirs as long.
	keep time.Duration
}

// New reads through svc and hears of changes from broker; nil makes a
// broker nobody publishes to, and then nothing is shared, since nothing
// would say a read is out of date. fail answers a feed refused; client
// names the client a request comes from, whose feeds are counted.
func New(svc *tournament.Service, broker *Broker, fail func(*gin.Context, error), client func(*gin.Context) string, log *slog.Logger) *State {
	// The kiosks share reads only when the broker tells of every change
	// (see Cache): then a read is kept until the next change.
	keep := time.Duration(math.MaxInt64)
	if broker == nil {
		broker, keep = NewBroker(0, 0), 0
	}
	return &State{svc: svc, broker: broker, fail: fail, client: client, log: log, keep: keep,
		lives: NewCache[int64, tournament.Live](keep), rounds: NewCache[roundKey, roundRead](keep),
		results: NewCache[int64, tournament.EventResults](keep), games: NewCache[tableKey, tournament.Game](keep)}
}

// Version returns the broker's stamp of a tournament's state
// (Broker.Version): what is made from a read taken after it is as new as
// anything made under the same stamp.
func (s *State) Version(tid int64) int64 { return s.broker.Version(tid) }

// KeptAs returns a cache whose values are kept as the state's own reads
// are: until their tournament's next change, or not at all when no broker
// tells of the changes. What it keeps is made from those reads (pages
// rendered once per version, say), and is keyed by Version.
func KeptAs[K comparable, V any](s *State) *Cache[K, V] { return NewCache[K, V](s.keep) }
