// Package static holds the judge console's stylesheet and its one small
// script, served under /static/.
package static

import "embed"

// FS holds the files served under /static/.
//
//go:embed *.css *.js *.svg
var FS embed.FS
