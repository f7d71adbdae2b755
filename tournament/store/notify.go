package store

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// Several servers on one PostgreSQL database tell each other of what they
// commit with NOTIFY on one channel. A write transaction sends its notices
// with pg_notify before it commits: PostgreSQL delivers them when, and only
// when, the transaction commits, so a notice is never heard of a change that
// was rolled back, nor lost for one that committed while its server lived.
// Each notice names the tournament and the kind of change, never the data
// (a payload holds 8000 bytes at most): the servers that hear it tell their
// live pages, which re-fetch what changed.

// changesChannel is the channel of the notices.
const changesChannel = "catanjudge_changes"

// notice is one notice's payload.
type notice struct {
	Server string `json:"s"`           // the store that committed, whose own notices it ignores
	Kind   string `json:"k"`           // noticeChange or noticeSettings
	TID    int64  `json:"t,omitempty"` // the tournament changed
	Action string `json:"a,omitempty"` // the change's audit action
	ID     int64  `json:"v,omitempty"` // the change's audit entry ID
	// Version is the tournament's version the change made: a server
	// holding a snapshot of it as new reads nothing again.
	Version int64 `json:"n,omitempty"`
}

const (
	noticeChange   = "change"   // a tournament changed
	noticeSettings = "settings" // a console setting changed or a session ended
)

// newServerID names one open Store among the servers of a database.
func newServerID() string {
	b := make([]byte, 8)
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}

// notify sends, inside the transaction db, the notices of what the writes
// wrote: one per tournament changed (0 for the changes outside any), of
// its last change (the live pages re-fetch the whole state anyway) and
// with its new version, and one when they changed the settings. It sends
// nothing on SQLite, which one server alone uses.
func notify(db *gorm.DB, server string, writes []*Tx, versions map[int64]int64) error {
	if db.Dialector.Name() != "postgres" {
		return nil
	}
	var notices []notice
	last := map[int64]int{} // tournament → its notice in notices
	add := func(n notice) {
		if i, ok := last[n.TID]; ok {
			notices[i] = n
			return
		}
		last[n.TID] = len(notices)
		notices = append(notices, n)
	}
	settings := false
	for _, tx := range writes {
		for _, e := range tx.audited {
			// A change outside any tournament (the registry's) goes out as
			// tournament 0's: the reads that show people depend on it.
			add(notice{Server: server, Kind: noticeChange, TID: e.TournamentID, Action: e.Action, ID: e.ID, Version: versions[e.TournamentID]})
		}
		for _, tid := range tx.bumped {
			if _, ok := last[tid]; ok {
				continue
			}
			n := notice{Server: server, Kind: noticeChange, TID: tid, Version: versions[tid]}
			if len(tx.audited) > 0 {
				n.Action, n.ID = tx.audited[len(tx.audited)-1].Action, tx.audited[len(tx.audited)-1].ID
			}
			add(n)
		}
		settings = settings || tx.settings
	}
	if settings {
		notices = append(notices, notice{Server: server, Kind: noticeSettings})
	}
	for _, n := range notices {
		payload, err := json.Marshal(n)
		if err != nil {
			return err
		}
		if err := db.Exec("SELECT pg_notify(?, ?)", changesChannel, string(payload)).Error; err != nil {
			return err
		}
	}
	return nil
}

// Peers is what a server does when it hears of the other servers' commits
// (Store.Listen). Each function runs on the listener's goroutine, one at a
// time, and must not block.
type Peers struct {
	// Changed is told of a change another server committed, as the
	// after-commit hook is (WithAfterCommit), with its ID, TournamentID,
	// Action and Version only.
	Changed func(tournament.AuditEntry)
	// Settings is told that another server changed a console setting or
	// ended a session: read them again.
	Settings func()
	// Lost is told that the listening connection was lost: until Resync,
	// changes of other servers go unheard.
	Lost func(error)
	// Resync is told each time the listener has connected, the first time
	// too: anything may have changed before it heard (while it was lost,
	// or while the server started), so whatever was read before is stale.
	Resync func()
}

// The listener's timings: how long a quiet connection waits before it
// checks that the database still answers, how long that check may take,
// and the bounds of the pause between tries to connect again, which
// doubles from the first to the last.
var (
	listenIdle     = 30 * time.Second
	listenPing     = 5 * time.Second
	reconnectFirst = 100 * time.Millisecond
	reconnectMax   = 10 * time.Second
)

// errNotPostgres is Listen on SQLite.
var errNotPostgres = errors.New("store: only a PostgreSQL database tells of other servers' changes")

// Listen hears the notices of the other servers on the database until ctx
// is done, and tells peers; a server's own notices are not told (its
// after-commit hook has told of them already). A lost connection is told
// to peers.Lost and tried again, after a pause that doubles up to
// reconnectMax; each time it listens, peers.Resync is told. Listen returns
// ctx's error, or errNotPostgres at once on SQLite.
func (s *Store) Listen(ctx context.Context, peers Peers) error {
	if s.engine != enginePostgres {
		return errNotPostgres
	}
	pause := reconnectFirst
	lost := false
	for {
		err := s.listen(ctx, peers, func() {
			pause, lost = reconnectFirst, false
			peers.Resync()
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !lost {
			lost = true
			peers.Lost(err)
		}
		// Spread so that the servers of an event do not all come back in
		// the same instant after the database restarts.
		select {
		case <-time.After(pause/2 + rand.N(pause/2+1)):
		case <-ctx.Done():
			return ctx.Err()
		}
		pause = min(2*pause, reconnectMax)
	}
}

// listen opens one listening connection and hears on it until it fails or
// ctx is done; connected runs once it listens.
func (s *Store) listen(ctx context.Context, peers Peers, connected func()) error {
	cfg := s.pgConfig.Copy()
	cfg.RuntimeParams["application_name"] = ListenerName
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("listen: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+changesChannel); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	connected()
	for {
		wait, cancel := context.WithTimeout(ctx, listenIdle)
		n, err := conn.WaitForNotification(wait)
		cancel()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil && errors.Is(err, context.DeadlineExceeded):
			// Quiet for a while: a connection cut without a word (a
			// cable pulled) would wait for ever; a check fails on it.
			ping, cancel := context.WithTimeout(ctx, listenPing)
			err = conn.Ping(ping)
			cancel()
			if err != nil {
				return fmt.Errorf("listen: check: %w", err)
			}
			continue
		case err != nil:
			return fmt.Errorf("listen: %w", err)
		}
		var m notice
		if json.Unmarshal([]byte(n.Payload), &m) != nil || m.Server == s.server {
			continue
		}
		switch m.Kind {
		case noticeChange:
			peers.Changed(tournament.AuditEntry{ID: m.ID, TournamentID: m.TID, Action: m.Action, Version: m.Version})
		case noticeSettings:
			peers.Settings()
		}
	}
}

// ListenerName is the application_name of the listening connection, as
// pg_stat_activity shows it.
const ListenerName = "catanjudge listener"
