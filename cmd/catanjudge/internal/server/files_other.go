//go:build !unix

package server

import "log/slog"

// warnFileLimit has no limit to check where the system keeps none like
// Unix's RLIMIT_NOFILE.
func warnFileLimit(*slog.Logger, int) {}
