package web

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/BurntSushi/toml"
	"github.com/gin-gonic/gin"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed locales/*.toml
var locales embed.FS

// The users are Japanese: Japanese is the default, English a switch.
var supported = []language.Tag{language.Japanese, language.English}

type translator struct {
	bundle  *i18n.Bundle
	matcher language.Matcher
}

func newTranslator() (*translator, error) {
	b := i18n.NewBundle(language.Japanese)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	// Every feature keeps its messages in its own pair of files,
	// <feature>.ja.toml and <feature>.en.toml; the suffix names the language.
	files, err := fs.Glob(locales, "locales/*.toml")
	if err != nil {
		return nil, fmt.Errorf("list locales: %w", err)
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(locales, f); err != nil {
			return nil, fmt.Errorf("load %s: %w", f, err)
		}
	}
	return &translator{bundle: b, matcher: language.NewMatcher(supported)}, nil
}

// lang picks the request's language: ?lang=, then the lang cookie, then
// Accept-Language, then Japanese.
func (t *translator) lang(c *gin.Context) string {
	for _, v := range []string{c.Query("lang"), cookie(c, "lang")} {
		if v == "ja" || v == "en" {
			return v
		}
	}
	tags, _, err := language.ParseAcceptLanguage(c.GetHeader("Accept-Language"))
	if err != nil || len(tags) == 0 {
		return "ja"
	}
	tag, _, _ := t.matcher.Match(tags...)
	if base, _ := tag.Base(); base.String() == "en" {
		return "en"
	}
	return "ja"
}

func cookie(c *gin.Context, name string) string {
	v, err := c.Cookie(name)
	if err != nil {
		return ""
	}
	return v
}

// text returns the message id in lang, filled from data; a missing message
// falls back to its id so a gap shows rather than breaks a page.
func (t *translator) text(lang, id string, data map[string]any) string {
	loc := i18n.NewLocalizer(t.bundle, lang)
	msg, err := loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil {
		return id
	}
	return msg
}
