// Package server is what catanjudge serve does: it opens the store, sets
// up the judges' sign-in, and serves the web on the address the flags and
// the environment name until its context ends. The command and the tests
// that drive a real server (the browser tests among them) start it here.
package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

// Version is the version the pages, the API and the record files name:
// set at build time with -ldflags "-X
// github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server.Version=...".
var Version = "dev"

// Serve starts the HTTP server and blocks until ctx is done. ready, when not
// nil, receives the listening address (tests listen on port 0).
func Serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready func(addr string)) error {
	return ServeWith(ctx, args, getenv, stdout, stderr, ready, time.Now)
}

// ServeWith is Serve with the clock the tournaments' use cases read (the
// round clock, the times recorded): tests move one by hand.
func ServeWith(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready func(addr string), now func() time.Time) error {
	cfg, err := config.Load(args, getenv, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	rulesets, err := config.LoadRulesets(cfg.Ruleset)
	if err != nil {
		return err
	}
	dsn, err := databaseOf(cfg)
	if err != nil {
		return err
	}
	// The live pages hear of each change once it has committed, on feeds
	// capped by --max-feeds.
	feeds := cmp.Or(cfg.MaxFeeds, config.DefaultMaxFeeds)
	broker := live.NewBroker(0, feeds)
	warnFileLimit(logger, feeds)
	st, err := store.Open(ctx, dsn, store.WithAfterCommit(broker.Committed))
	if err != nil {
		return err
	}
	defer st.Close()
	passwordFile, err := auth.SetUpHead(ctx, st, cfg.JudgePassword, cfg.DataDir)
	if err != nil {
		return err
	}
	sessionKeys, err := sessionKeysOf(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	defer ln.Close()
	// The QR codes point where the organizer said, or where the server
	// listens: never at the Host a request names, which a rebinding name
	// or a proxy chooses.
	publicURL := kioskBase(cfg.PublicURL, ln.Addr())
	var reread func(context.Context) error
	// The service's snapshots hear of this server's commits from the
	// store, before the broker tells the live pages.
	svc := tournament.NewService(st, rulesets, now)
	handler, err := web.New(web.Deps{
		Rulesets:       rulesets,
		APIToken:       cfg.APIToken,
		PublicURL:      publicURL,
		Logger:         logger,
		Service:        svc,
		Settings:       st,
		SessionKeys:    sessionKeys,
		Cards:          st,
		Broker:         broker,
		Reread:         func(f func(context.Context) error) { reread = f },
		TrustedProxies: cfg.TrustedProxies,
		Version:        Version,
	})
	if err != nil {
		return err
	}
	if st.Engine() == "PostgreSQL" {
		// Other servers may share the database: hear what they commit,
		// until the server stops (and before the store closes).
		peers, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			listenToPeers(peers, st, svc.Snapshots(), broker, reread, logger)
		}()
		defer func() {
			stop()
			<-done
		}()
	}
	srv := newHTTPServer(ctx, handler)
	url := "http://" + localAddr(ln.Addr())
	fmt.Fprintf(stdout, "Catan Judge is running at %s\n", url)
	if cfg.Database != "" {
		fmt.Fprintf(stdout, "Data: the PostgreSQL database %s (back it up with pg_dump: README, Backups)\n", store.Redact(cfg.Database))
		if cfg.SessionKey == "" {
			fmt.Fprintln(stdout, "Judges' sessions: this server's own; give every server the same CATANJUDGE_SESSION_KEY (openssl rand -base64 32) so that a judge logged in on one is logged in on all (docs/deploy.md)")
		}
	}
	printLogin(stdout, url, cfg, passwordFile)
	printShopAddresses(stdout, ln.Addr(), cfg.PublicURL, publicURL)
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		// The live feeds end with ctx and no handler outlives a request's
		// limits, so what is left is connections that never sent a request:
		// a browser's preconnected sockets, which net/http counts as busy
		// for their first 5 seconds. Close them rather than fail the stop.
		logger.Warn("connections still open at shutdown: closing them")
		err = srv.Close()
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// databaseOf is the database of cfg: its PostgreSQL URL, or else the SQLite
// file in its data folder (created, private to this user, if missing).
func databaseOf(cfg config.Config) (string, error) {
	if cfg.Database != "" {
		return cfg.Database, nil
	}
	return store.FileDSN(cfg.DataDir)
}

// printLogin tells the head judge where to log in, with which account
// and where its password is: the other accounts are made on the staff page.
func printLogin(stdout io.Writer, url string, cfg config.Config, passwordFile string) {
	login := url + "/judge/login"
	switch {
	case passwordFile != "":
		// The password was generated on a first start and kept, readable
		// by this user only, in the data folder.
		password, err := os.ReadFile(passwordFile)
		if err != nil {
			fmt.Fprintf(stdout, "Judge login: %s — name %s, password in %s\n", login, tournament.FirstHead, passwordFile)
			return
		}
		fmt.Fprintf(stdout, "Judge login: %s — name %s, password %s (kept in %s; set CATANJUDGE_JUDGE_PASSWORD to choose one); add the other judges on the staff page, %s/judge/staff\n",
			login, tournament.FirstHead, strings.TrimSpace(string(password)), passwordFile, url)
	case cfg.JudgePassword != "":
		fmt.Fprintf(stdout, "Judge login: %s — name %s, the password from CATANJUDGE_JUDGE_PASSWORD\n", login, tournament.FirstHead)
	default:
		fmt.Fprintf(stdout, "Judge login: %s — your staff account (the head account %s has the password set on an earlier start; set CATANJUDGE_JUDGE_PASSWORD to choose a new one)\n", login, tournament.FirstHead)
	}
}

// maxHeaderBytes bounds a request's header: a browser sends a few
// kilobytes (the session and language cookies are small), and a slow
// client sending more holds memory until ReadHeaderTimeout.
const maxHeaderBytes = 16 << 10

// newHTTPServer returns the server of handler with the limits every
// connection gets.
func newHTTPServer(ctx context.Context, handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		// Bodies are small (1 MiB at most); a slow sender does not hold a
		// connection. The live feed is a GET and only writes.
		ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
}

// printShopAddresses tells the judge the address players' phones can use
// and the one the QR codes carry: the public URL when set, else this
// machine's network addresses when the server listens on all of them, else
// a hint that only this machine can connect.
func printShopAddresses(stdout io.Writer, addr net.Addr, publicURL, qrURL string) {
	if publicURL != "" {
		fmt.Fprintf(stdout, "Players' phones: %s/kiosk/1 (the kiosk QR codes use %s)\n", publicURL, publicURL)
		return
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return
	}
	if tcp.IP.IsLoopback() {
		all := net.JoinHostPort("0.0.0.0", strconv.Itoa(tcp.Port))
		fmt.Fprintf(stdout, "Only this machine can connect. For players' phones on the shop network, start with --addr %s (make run ADDR=%s).\n", all, all)
		return
	}
	for _, u := range shopURLs(tcp) {
		fmt.Fprintf(stdout, "On the shop network: %s\n", u)
	}
	fmt.Fprintf(stdout, "The kiosk QR codes use %s (--public-url sets another)\n", qrURL)
}

// shopURLs are the addresses phones on the shop network can reach a server
// listening on tcp at: its own address, or this machine's IPv4 network
// addresses when it listens on all of them.
func shopURLs(tcp *net.TCPAddr) []string {
	port := strconv.Itoa(tcp.Port)
	if !tcp.IP.IsUnspecified() {
		return []string{"http://" + net.JoinHostPort(tcp.IP.String(), port)}
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range addrs {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.IsLoopback() || ip.IP.To4() == nil {
			continue
		}
		out = append(out, "http://"+net.JoinHostPort(ip.IP.String(), port))
	}
	return out
}

// kioskBase is the address the kiosk's QR codes carry: publicURL when the
// organizer set one, else the address the server listens on, with this
// machine's first network address in place of "every interface" (and
// loopback when it has none).
func kioskBase(publicURL string, addr net.Addr) string {
	if publicURL != "" {
		return publicURL
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	if urls := shopURLs(tcp); len(urls) > 0 {
		return urls[0]
	}
	return "http://" + localAddr(addr)
}

// localAddr is the address to open on this machine: the listening address,
// with loopback in place of "every interface".
func localAddr(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return addr.String()
}

// sessionKeysOf returns the keys that sign the judges' session cookies:
// those derived from the key every server of an event shares, or else this
// server's own in its data folder. Either way they live outside the
// database: a backup must not be able to sign a judge's cookie.
func sessionKeysOf(cfg config.Config) ([]byte, error) {
	if cfg.SessionKey == "" {
		return auth.LoadSessionKeys(cfg.DataDir)
	}
	secret, err := config.DecodeSessionKey(cfg.SessionKey)
	if err != nil {
		return nil, err
	}
	return auth.SharedSessionKeys(secret)
}

// listenToPeers tells the snapshots and then broker of the changes the
// other servers on st's PostgreSQL database commit, until ctx is done: the
// pages here show a save made through any server, read once per change,
// and the live pages are told of it. While the connection that hears them
// is lost, no snapshot is known to be current (each read checks the
// store's version) and nothing is shared; once it is back every snapshot
// is checked once, and every live page fetches its state afresh.
// Word of a setting changed or a session ended elsewhere, or of a
// connection (re)made, has the sessions read again (reread), off the
// listener's goroutine, one read for many words. It returns once ctx is
// done and all of that has stopped.
func listenToPeers(ctx context.Context, st *store.Store, snaps *tournament.Snapshots, broker *live.Broker, reread func(context.Context) error, logger *slog.Logger) {
	settings := make(chan struct{}, 1)
	changed := func() {
		select {
		case settings <- struct{}{}:
		default:
		}
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-settings:
				if err := reread(ctx); err != nil && ctx.Err() == nil {
					logger.Error("read the sessions again", "err", err)
					// Try again a little later: the database may be down.
					select {
					case <-time.After(time.Second):
						changed()
					case <-ctx.Done():
					}
				}
			}
		}
	})
	_ = st.Listen(ctx, store.Peers{
		Changed: func(e tournament.AuditEntry) {
			snaps.Committed(e)
			broker.Committed(e)
		},
		Settings: changed,
		Lost: func(err error) {
			logger.Warn("lost the database connection that hears the other servers; connecting again", "err", err)
			snaps.Lost()
			broker.Lost()
		},
		Resync: func() {
			snaps.Resync()
			broker.Resync()
			changed()
		},
	})
}

// filesFor is how many files a server holding feeds live feeds may need
// open: two connections a screen (its feed, and its page loads) and a
// thousand more for the judges, the database and the rest.
func filesFor(feeds int) uint64 { return 2*uint64(feeds) + 1000 }
