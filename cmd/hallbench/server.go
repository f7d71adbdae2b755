package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// The server of the hall: the site as cmd/catanjudge serves it, on SQLite
// in a temporary folder with its real durability (a sync per commit), the
// judges' password set, the live feed wired, the requests logged as the
// server logs them (to a file). It runs in a child process (this program
// with -serve); its parent asks it for its memory ("mem") and, at the end,
// for the tournament's audit log ("audit TID"), which names every change
// the screens heard of by its version.

const (
	token    = "hallbench-api-token-0123456789"
	password = "hallbench-judges"
)

// auditLine is one change of the audit log, as the parent reads it.
type auditLine struct {
	ID      int64     `json:"id"`
	Action  string    `json:"action"`
	Subject string    `json:"subject"`
	At      time.Time `json:"at"`
}

func serveHall(profile string, stdin io.Reader, stdout io.Writer) error {
	ctx := context.Background()
	stopProfile, err := bench.Profile(profile)
	if err != nil {
		return err
	}
	defer stopProfile()
	site, err := bench.OpenSite(ctx, "hallbench-", 0)
	if err != nil {
		return err
	}
	defer site.Close()
	st, broker, dir := site.Store, site.Broker, site.Dir
	if _, err := auth.SetUpHead(ctx, st, password, dir); err != nil {
		return err
	}
	rulesets := site.Rulesets
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelInfo}))
	svc := tournament.NewService(st, rulesets, time.Now)
	h, err := web.New(web.Deps{Rulesets: rulesets, Service: svc, Settings: st, Cards: st, APIToken: token, Broker: broker, Logger: logger})
	if err != nil {
		return err
	}
	return site.ServeChild(h, stdin, stdout, nil, func(line string) string {
		var tid int64
		if _, err := fmt.Sscanf(line, "audit %d", &tid); err != nil {
			return `{"error":"unknown command"}`
		}
		entries, err := svc.AuditLog(ctx, tid)
		if err != nil {
			return `{"error":"audit"}`
		}
		out := make([]auditLine, 0, len(entries))
		for _, e := range entries {
			out = append(out, auditLine{ID: e.ID, Action: e.Action, Subject: e.Subject, At: e.At})
		}
		data, _ := json.Marshal(out)
		return string(data)
	})
}
