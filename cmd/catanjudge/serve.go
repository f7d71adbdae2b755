package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web"
)

// serve starts the HTTP server and blocks until ctx is done. ready, when not
// nil, receives the listening address (tests listen on port 0).
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready func(addr string)) error {
	cfg, err := config.Load(args, getenv, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	rulesets, err := config.LoadRulesets(cfg.Ruleset)
	if err != nil {
		return err
	}
	dsn, err := store.FileDSN(cfg.DataDir)
	if err != nil {
		return err
	}
	// The live pages hear of each change once it has committed.
	broker := web.NewBroker(0, 0)
	st, err := store.Open(ctx, dsn, store.WithAfterCommit(broker.Committed))
	if err != nil {
		return err
	}
	defer st.Close()
	passwordFile, err := web.SetUpJudgePassword(ctx, st, cfg.JudgePassword, cfg.DataDir)
	if err != nil {
		return err
	}
	handler, err := web.New(web.Deps{
		Rulesets: rulesets,
		APIToken: cfg.APIToken,
		Logger:   logger,
		Service:  tournament.NewService(st, rulesets, time.Now),
		Settings: st,
		Broker:   broker,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	url := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "Catan Judge is running at %s\n", url)
	switch {
	case passwordFile != "":
		fmt.Fprintf(stdout, "Judge login: open %s/judge/login — password in %s (set CATANJUDGE_JUDGE_PASSWORD to choose one)\n", url, passwordFile)
	case cfg.JudgePassword != "":
		fmt.Fprintf(stdout, "Judge login: open %s/judge/login — password from CATANJUDGE_JUDGE_PASSWORD\n", url)
	default:
		fmt.Fprintf(stdout, "Judge login: open %s/judge/login — password set on an earlier start (set CATANJUDGE_JUDGE_PASSWORD to choose a new one)\n", url)
	}
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
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
