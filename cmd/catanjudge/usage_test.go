package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
)

// TestBareCommandPrintsUsage runs catanjudge as a newcomer would, with no
// command, with -h and with a mistake: each prints the commands, and none
// starts a server or makes a data folder where it was run.
func TestBareCommandPrintsUsage(t *testing.T) {
	t.Chdir(t.TempDir())
	noenv := func(string) string { return "" }
	for _, tc := range []struct {
		name      string
		args      []string
		wantErr   error
		toStdout  bool
		wantWords []string
	}{
		{"no command", nil, errUsage, false, nil},
		{"help", []string{"help"}, nil, true, nil},
		{"--help", []string{"--help"}, nil, true, nil},
		{"-h", []string{"-h"}, nil, true, nil},
		{"unknown command", []string{"start"}, errUsage, false, []string{`unknown command "start"`}},
		{"flags first", []string{"--addr", "127.0.0.1:0"}, errUsage, false, []string{"a command comes before the flags", "catanjudge serve --addr"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // a server started by mistake stops at once
			err := run(ctx, tc.args, noenv, &stdout, &stderr)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("run(%q) = %v, want %v", tc.args, err, tc.wantErr)
			}
			out := stderr.String()
			if tc.toStdout {
				out = stdout.String()
			}
			for _, want := range append(tc.wantWords, "usage: catanjudge COMMAND", "serve", "backup", "migrate", "version", "-h\" lists a command's flags") {
				if !strings.Contains(out, want) {
					t.Errorf("run(%q) printed\n%s\nwant it to say %q", tc.args, out, want)
				}
			}
			if _, err := os.Stat("data"); err == nil {
				t.Errorf("run(%q) made a data folder where it was run", tc.args)
			}
		})
	}
}

// TestServeHelpListsFlags checks that serve -h prints its flags and is
// not an error.
func TestServeHelpListsFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"serve", "-h"}, func(string) string { return "" }, &stdout, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("serve -h = %v, want flag.ErrHelp (exit 0)", err)
	}
	for _, want := range []string{"usage: catanjudge serve", "-addr", "-data", "-database", "-public-url"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("serve -h printed\n%s\nwant %q", stderr.String(), want)
		}
	}
}
