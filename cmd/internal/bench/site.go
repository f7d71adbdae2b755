package bench

import (
	"cmp"
	"context"
	"io"
	"net/http"
	"os"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

// Site is what a bench's server serves from, as cmd/catanjudge's does: a
// sqlite database (a sync per commit) in a temporary folder of its own,
// the live broker its commits feed, and the rulesets.
type Site struct {
	Dir      string
	Store    *store.Store
	Broker   *live.Broker
	Rulesets *config.Rulesets
}

// OpenSite opens a Site in a new temporary folder named for prefix; its
// broker holds maxFeeds live feeds, the server's default when 0.
func OpenSite(ctx context.Context, prefix string, maxFeeds int) (*Site, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	s := &Site{Dir: dir, Broker: live.NewBroker(0, cmp.Or(maxFeeds, config.DefaultMaxFeeds))}
	if s.Rulesets, err = config.LoadRulesets(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	dsn, err := store.FileDSN(dir)
	if err == nil {
		s.Store, err = store.Open(ctx, dsn, store.WithAfterCommit(s.Broker.Committed))
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Close closes the database and removes its folder.
func (s *Site) Close() {
	s.Store.Close()
	os.RemoveAll(s.Dir)
}

// ServeChild serves h on a free loopback port and answers the bench that
// started this process (StartChild), saying more on its ready line and
// answering its other lines with answer, until the end of stdin.
func (s *Site) ServeChild(h http.Handler, stdin io.Reader, stdout io.Writer, more []string, answer func(string) string) error {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	base, stopServing, err := Serve(ctx, h)
	if err != nil {
		return err
	}
	defer stopServing()
	ServeChild(stdin, stdout, base, more, s.Broker.Subscribers, answer)
	return nil
}
