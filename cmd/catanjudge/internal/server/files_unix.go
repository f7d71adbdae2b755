//go:build unix

package server

import (
	"log/slog"
	"syscall"
)

// warnFileLimit warns when the server may open fewer files than the live
// feeds it may hold need: a screen following the kiosk holds two
// connections (its feed, and the one its page loads come on), and the
// database and the judges need some besides. Go raises the soft limit to
// the hard one at start-up; the hard one is the system's to raise
// (docs/deploy.md).
func warnFileLimit(log *slog.Logger, feeds int) {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) != nil {
		return
	}
	if need := filesFor(feeds); l.Cur < need {
		log.Warn("the server may open fewer files than the live feeds it may hold need: raise its limit (LimitNOFILE, ulimit -n; docs/deploy.md) or lower --max-feeds",
			"open_files", l.Cur, "max_feeds", feeds, "needed", need)
	}
}
