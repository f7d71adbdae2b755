// Package templates holds the judge console's html/template files: a layout,
// the partials every page may use, and one file per page under pages/.
// The web package parses them once at start-up.
package templates

import "embed"

// FS holds layout.html, partials/*.html and pages/*.html.
//
//go:embed layout.html partials/*.html pages/*.html
var FS embed.FS
