// Command catanjudge runs the Catan Judge tournament server.
//
// Usage (a bare catanjudge prints it and starts nothing):
//
//	catanjudge serve [--addr 127.0.0.1:8080] [--data ./data] [--ruleset FILE] [--config FILE]
//	catanjudge serve [--database postgres://...] ...
//	catanjudge backup [--data ./data] [--config FILE] BACKUP-FILE
//	catanjudge migrate [--data ./data] [--config FILE] --to postgres://...
//	catanjudge check RECORD-FILE
//	catanjudge import-record [--data ./data] [--config FILE] [--judge NAME] RECORD-FILE
//	catanjudge simulate --players N --rounds R --seed S [--ruleset NAME|FILE] [--out FILE]
//	catanjudge version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		// The usage was asked for and printed.
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "catanjudge:", err)
		os.Exit(1)
	}
}

// errUsage is returned when the command line names no command, or one
// that does not exist, once the usage has been printed.
var errUsage = errors.New("usage")

// commands are the subcommands, in the order the usage lists them.
var commands = []struct {
	name, summary string
	run           func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error
}{
	{"serve", "start the server (make run does this): judges' console, kiosk, projector and JSON API", func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
		return server.Serve(ctx, args, getenv, stdout, stderr, nil)
	}},
	{"backup", "copy the data folder's database to a file, while the server runs", backup},
	{"migrate", "copy the data folder's database into an empty PostgreSQL database", migrate},
	// The record file of an event (docs/record.md).
	{"check", "check a record file: derive every round again from its facts and print each disagreement", checkRecord},
	{"import-record", "restore a record file as a new tournament of the data folder's database", importRecord},
	{"simulate", "play a random event through the service on a throwaway database and write its record file", simulate},
	{"version", "print the version", func(_ context.Context, _ []string, _ func(string) string, stdout, _ io.Writer) error {
		fmt.Fprintln(stdout, "catanjudge", server.Version)
		return nil
	}},
}

// usage prints what catanjudge does and its commands.
func usage(w io.Writer) {
	fmt.Fprintln(w, "Catan Judge: a tournament server for Catan events.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: catanjudge COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\"catanjudge COMMAND -h\" lists a command's flags. Start a server on this machine with:")
	fmt.Fprintln(w, "  catanjudge serve --addr 127.0.0.1:8080 --data ./data")
}

// run runs the command args name. With no command it prints the usage and
// does nothing else: a bare catanjudge must not start a server and make a
// data folder wherever it happens to be run.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return errUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], getenv, stdout, stderr)
		}
	}
	if strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "catanjudge: a command comes before the flags (catanjudge serve %s ...)\n\n", args[0])
	} else {
		fmt.Fprintf(stderr, "catanjudge: unknown command %q\n\n", args[0])
	}
	usage(stderr)
	return errUsage
}
