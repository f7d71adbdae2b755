// Package i18n says the site's words in the request's language: Japanese
// first, English as a switch. The messages live next to the templates
// (templates.Locales); a Printer is a language's words, bound into the
// templates of that language when they are parsed.
package i18n

import (
	"fmt"
	"io/fs"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/gin-gonic/gin"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Languages are the site's languages, the default first: the users are
// Japanese.
var Languages = []string{"ja", "en"}

// Translator holds the messages of every language.
type Translator struct {
	localizers map[string]*goi18n.Localizer
	matcher    language.Matcher
	zone       *time.Location
}

// New loads the messages of locales (each file <feature>.<lang>.toml) and
// shows times in zone, the shop's (nil for the server's own).
func New(locales fs.FS, zone *time.Location) (*Translator, error) {
	b := goi18n.NewBundle(language.Japanese)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	files, err := fs.Glob(locales, "locales/*.toml")
	if err != nil {
		return nil, fmt.Errorf("list locales: %w", err)
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(locales, f); err != nil {
			return nil, fmt.Errorf("load %s: %w", f, err)
		}
	}
	if zone == nil {
		zone = time.Local
	}
	t := &Translator{localizers: map[string]*goi18n.Localizer{}, zone: zone,
		matcher: language.NewMatcher([]language.Tag{language.Japanese, language.English})}
	for _, l := range Languages {
		t.localizers[l] = goi18n.NewLocalizer(b, l)
	}
	return t, nil
}

// Lang picks the request's language: ?lang=, then the lang cookie, then
// Accept-Language, then Japanese.
func (t *Translator) Lang(c *gin.Context) string {
	cookie, _ := c.Cookie("lang")
	for _, v := range []string{c.Query("lang"), cookie} {
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

// Text returns the message id in lang, filled from data; a missing message
// falls back to its id so a gap shows rather than breaks a page.
func (t *Translator) Text(lang, id string, data map[string]any) string {
	msg, _ := t.Lookup(lang, id, data)
	return msg
}

// Lookup is Text that also reports whether lang has the message.
func (t *Translator) Lookup(lang, id string, data map[string]any) (string, bool) {
	loc, ok := t.localizers[lang]
	if !ok {
		loc = t.localizers["ja"]
	}
	msg, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: t.actor(lang, data)})
	if err != nil {
		return id, false
	}
	return msg, true
}

// actor names the API token as such where a message names a judge
// (.Judge): "APIトークン", not 「api さん」. The message reads .API to
// leave out the honorific.
func (t *Translator) actor(lang string, data map[string]any) map[string]any {
	if j, ok := data["Judge"].(string); !ok || j != tournament.APIActor {
		return data
	}
	out := maps.Clone(data)
	out["Judge"], out["API"] = t.Text(lang, "actor.api", nil), true
	return out
}

// In returns lang's words.
func (t *Translator) In(lang string) Printer { return Printer{Lang: lang, t: t} }

// Printer says things in one language.
type Printer struct {
	Lang string
	t    *Translator
}

// Text returns the message id, filled from data (Translator.Text).
func (p Printer) Text(id string, data map[string]any) string { return p.t.Text(p.Lang, id, data) }

// T returns the message id filled from args, name and value pairs: the
// templates' {{t "score.place" "N" .Place}}.
func (p Printer) T(id string, args ...any) (string, error) {
	if len(args)%2 != 0 {
		return "", fmt.Errorf("t %s: odd number of arguments", id)
	}
	var data map[string]any
	if len(args) > 0 {
		data = make(map[string]any, len(args)/2)
		for i := 0; i < len(args); i += 2 {
			k, ok := args[i].(string)
			if !ok {
				return "", fmt.Errorf("t %s: argument %d is not a name", id, i)
			}
			data[k] = args[i+1]
		}
	}
	return p.Text(id, data), nil
}

// Level names a penalty level (§14).
func (p Printer) Level(l referee.Level) string {
	if p.Lang == "en" {
		return l.NameEN()
	}
	return l.NameJA()
}

// List joins items as the language lists them: 青木、井上 or Aoki, Inoue.
func (p Printer) List(items []string) string {
	if p.Lang == "en" {
		return strings.Join(items, ", ")
	}
	return strings.Join(items, "、")
}

// Winners names who won the event (tournament.Service.Winners), as List
// lists them.
func (p Printer) Winners(winners []tournament.Winner) string {
	var names []string
	for _, w := range winners {
		names = append(names, w.Label)
	}
	return p.List(names)
}

// Players lists the players ids names, in order, as List lists them,
// by their names in standings.
func (p Printer) Players(ids []int64, standings []tournament.Standing) string {
	names := make(map[int64]string, len(standings))
	for _, st := range standings {
		names[st.PlayerID] = st.Label
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = names[id]
	}
	return p.List(out)
}

// FinalFrom says which part of the event decided a line of the final
// results: the final table (the last round's leaders' table when leaders),
// an earlier stage of the final, or the qualifying standings.
func (p Printer) FinalFrom(f tournament.FinalStanding, leaders bool) string {
	switch {
	case f.FromFinal() && leaders:
		return p.Text("final.from_leaders", map[string]any{"Round": f.Round, "Place": f.Place})
	case f.FromFinal():
		return p.Text("final.from_final", map[string]any{"Place": f.Place})
	case f.Stage > 0:
		return p.Text("final.from_stage", map[string]any{"Stage": f.Stage, "Table": f.Table, "Place": f.Place})
	}
	return p.Text("final.from_standings", nil)
}

// StandingsOrder says how a ruleset ranks the standings: "1位の回数 →
// 勝利点合計 → 勝利点シェア".
func (p Printer) StandingsOrder(rs referee.Ruleset) string {
	keys := make([]string, len(rs.StandingsOrder))
	for i, k := range rs.StandingsOrder {
		keys[i] = p.Text("standings.key_"+string(k), nil)
	}
	return strings.Join(keys, " → ")
}

// Time shows a recorded time in the shop's zone, to the minute; "" for none.
func (p Printer) Time(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(p.t.zone).Format("2006-01-02 15:04")
}

// Clock shows a recorded time of day in the shop's zone, to the second.
func (p Printer) Clock(t time.Time) string { return t.In(p.t.zone).Format("15:04:05") }

// Stamp shows a recorded time in the shop's zone, to the second.
func (p Printer) Stamp(t time.Time) string { return t.In(p.t.zone).Format("2006-01-02 15:04:05") }

// Lookup is Text that also reports whether the language has the message.
func (p Printer) Lookup(id string, data map[string]any) (string, bool) {
	return p.t.Lookup(p.Lang, id, data)
}

// Share writes a VP share in the one format docs/glossary.md gives it: a
// percentage with two decimals, 0.375 as "37.50%".
func Share(x float64) string { return strconv.FormatFloat(x*100, 'f', 2, 64) + "%" }
