// Package templates holds the site's html/template files (a layout, the
// partials every page may use, and one file per page under pages/) and,
// next to them, the messages they say in each language (locales/). The web
// packages parse them once at start-up, a set of pages per language.
package templates

import "embed"

// FS holds layout.html, partials/*.html and pages/*.html.
//
//go:embed layout.html partials/*.html pages/*.html
var FS embed.FS

// Locales holds the messages, one pair of files per feature:
// locales/<feature>.ja.toml and locales/<feature>.en.toml.
//
//go:embed locales/*.toml
var Locales embed.FS
