// Package live keeps the live pages current: the broker that fans each
// committed change out to the pages watching its tournament, the event
// feed (Server-Sent Events) they listen to, and the reads of a
// tournament's live state that the kiosks share until the next change.
package live

import (
	"strings"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// Event tells the live pages of a tournament that something changed, and
// what kind of thing; the pages then fetch the new state. It is kept small
// on purpose: the page re-fetches what changed.
type Event struct {
	Kind    string `json:"kind"`    // the audit action's subject: "result", "clock", "round", "table", "player", ...
	Action  string `json:"action"`  // the audit action, e.g. "result.save"
	Version int64  `json:"version"` // the change's audit entry ID: increases with every change
}

// Broker fans the committed changes of each tournament out to the live
// pages watching it. Each subscriber has a small buffered channel; Publish
// never waits, and a subscriber whose buffer is full is dropped (its channel
// closed) rather than slowing the judge's save: its page reconnects and
// fetches the state afresh. Every access to the subscriber maps holds mu.
type Broker struct {
	mu   sync.Mutex
	subs map[int64]map[chan Event]struct{} // by tournament ID
	// stamps change with every change published of a tournament, so that
	// a read stamped before it is known to be stale (Version). The
	// changes of other servers arrive in commit order, not in the order
	// of their IDs: a stamp is the broker's own count, not an ID.
	stamps map[int64]int64
	seq    int64 // the last stamp given
	// resynced is the stamp of the last Resync: every tournament may have
	// changed then. deaf says other servers' changes go unheard (Lost
	// until Resync): then no read is known to be current.
	resynced int64
	deaf     bool
	n        int            // subscribers in subs
	clients  map[string]int // subscribers by client address
	buffer   int
	max      int
	// perClient bounds the subscriptions of one client address, so that
	// one client cannot take every slot and lock the phones out.
	perClient int
	// Lifetime is how long a feed lasts before the page is told to
	// reconnect (Stream), so that no connection is held for ever; set it
	// before the broker is used.
	Lifetime time.Duration
}

// The broker's defaults: a page that misses this many events in a row is
// stuck; a hall of 500 players has some 5,000 screens (the players',
// their friends', the projectors), each with a feed or two (a judge's
// laptop may show the kiosk in a few tabs: DefaultPerClient feeds one
// client address may hold), and the cap is twice that (the server's
// --max-feeds sets it; config.DefaultMaxFeeds); and a feed lasts a quarter
// of an hour before its page reconnects.
const (
	defaultBuffer         = 16
	defaultMaxSubscribers = 10_000
	DefaultPerClient      = 8
	defaultLifetime       = 15 * time.Minute
)

// NewBroker returns a broker with per-subscriber buffers of buffer events
// taking at most max subscribers; zero values take the defaults.
func NewBroker(buffer, max int) *Broker {
	if buffer <= 0 {
		buffer = defaultBuffer
	}
	if max <= 0 {
		max = defaultMaxSubscribers
	}
	return &Broker{
		subs: map[int64]map[chan Event]struct{}{}, stamps: map[int64]int64{}, clients: map[string]int{},
		buffer: buffer, max: max, perClient: DefaultPerClient, Lifetime: defaultLifetime,
	}
}

// Subscribe returns the events of a tournament for client (its address)
// and a function that ends the subscription. The channel is closed by
// cancel, or by the broker when the subscriber falls behind. It fails with
// problem.ErrBusy when the broker is full and with problem.ErrTooManyFeeds when client has
// as many subscriptions as one client may.
func (b *Broker) Subscribe(tournamentID int64, client string) (<-chan Event, func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.clients[client] >= b.perClient:
		return nil, nil, problem.ErrTooManyFeeds
	case b.n >= b.max:
		return nil, nil, problem.ErrBusy
	}
	ch := make(chan Event, b.buffer)
	set := b.subs[tournamentID]
	if set == nil {
		set = map[chan Event]struct{}{}
		b.subs[tournamentID] = set
	}
	set[ch] = struct{}{}
	b.n++
	b.clients[client]++
	var once sync.Once
	cancel := func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.dropLocked(tournamentID, ch)
			// The client's count goes when the subscriber leaves, not
			// when it is dropped: until then it holds a connection.
			if b.clients[client]--; b.clients[client] <= 0 {
				delete(b.clients, client)
			}
		})
	}
	return ch, cancel, nil
}

func (b *Broker) dropLocked(tournamentID int64, ch chan Event) {
	set := b.subs[tournamentID]
	if _, ok := set[ch]; !ok {
		return
	}
	delete(set, ch)
	if len(set) == 0 {
		delete(b.subs, tournamentID)
	}
	b.n--
	close(ch)
}

// Publish sends e to every subscriber of the tournament without waiting;
// subscribers with a full buffer are dropped.
func (b *Broker) Publish(tournamentID int64, e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	b.stamps[tournamentID] = b.seq
	b.sendLocked(tournamentID, e)
}

func (b *Broker) sendLocked(tournamentID int64, e Event) {
	for ch := range b.subs[tournamentID] {
		select {
		case ch <- e:
		default:
			b.dropLocked(tournamentID, ch)
		}
	}
}

// Resync is the kind of the event that tells every live page to fetch its
// state afresh: the server may have missed other servers' changes.
const Resync = "resync"

// Lost says the changes of other servers on the database go unheard for a
// while (their connection was lost): until Resync, no read is shared, since
// none is known to be current.
func (b *Broker) Lost() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deaf = true
}

// Resync says the changes of other servers are heard again after Lost:
// every read made before is stale, and every live page is sent a "resync"
// change, on which it fetches its state afresh.
func (b *Broker) Resync() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deaf = false
	b.seq++
	b.resynced = b.seq
	for tid := range b.subs {
		b.sendLocked(tid, Event{Kind: Resync, Action: Resync})
	}
}

// Committed publishes a change the store has committed; it is the store's
// after-commit hook (store.WithAfterCommit), so nothing is published for a
// change that was rolled back. The changes other servers commit on the same
// PostgreSQL database come here too (store.Peers).
func (b *Broker) Committed(e tournament.AuditEntry) {
	if e.TournamentID == 0 {
		// Nobody watches a change outside any tournament (the registry's,
		// a deleted tournament's), but the reads that show people depend
		// on it: Version(0) changes with it.
		b.mu.Lock()
		defer b.mu.Unlock()
		b.seq++
		b.stamps[0] = b.seq
		return
	}
	kind, _, _ := strings.Cut(e.Action, ".")
	b.Publish(e.TournamentID, Event{Kind: kind, Action: e.Action, Version: e.ID})
}

// Version returns a stamp of a tournament's state as the broker knows it:
// it changes with every change published (this server's and, through
// Committed, the other servers'), and with every Resync. A state read after
// the stamp was taken is as new as any read under the same stamp. While
// the other servers go unheard (Lost) every call returns a new stamp, so
// that no read is shared.
func (b *Broker) Version(tournamentID int64) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.deaf {
		b.seq++
		return b.seq
	}
	return max(b.stamps[tournamentID], b.resynced)
}

// Subscribers returns the number of live subscriptions.
func (b *Broker) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}
