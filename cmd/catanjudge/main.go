// Command catanjudge runs the Catan Judge tournament server.
//
// Usage:
//
//	catanjudge serve [--addr 127.0.0.1:8080] [--data ./data] [--ruleset FILE] [--config FILE]
//	catanjudge serve [--database postgres://...] ...
//	catanjudge backup [--data ./data] [--config FILE] BACKUP-FILE
//	catanjudge migrate [--data ./data] [--config FILE] --to postgres://...
//	catanjudge version
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "catanjudge:", err)
		os.Exit(1)
	}
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, getenv, stdout, stderr, nil)
	case "backup":
		return backup(ctx, args, getenv, stdout, stderr)
	case "migrate":
		return migrate(ctx, args, getenv, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "catanjudge", version)
		return nil
	case "help":
		fmt.Fprintln(stdout, "usage: catanjudge [serve|backup|migrate|version] [flags]; catanjudge serve -h lists the flags")
		return nil
	}
	return fmt.Errorf("unknown command %q (want serve, backup, migrate or version)", cmd)
}
