// Package config loads the server's settings and the rulesets it offers.
//
// Settings come from, in order of precedence, command-line flags, CATANJUDGE_*
// environment variables, a JSON config file (--config or CATANJUDGE_CONFIG),
// and built-in defaults. Nothing here is global: Load returns a value.
package config

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Config is the server's settings.
type Config struct {
	Addr    string // listen address, e.g. 127.0.0.1:8080
	DataDir string // folder for the database and the judge password file
	// Database is the PostgreSQL database of several servers sharing one
	// event, as a postgres:// URL; empty keeps the SQLite file in DataDir.
	Database      string
	Ruleset       string // a ruleset file to offer besides the built-in presets
	APIToken      string // bearer token accepted by every write API; empty disables it
	JudgePassword string // sets the judge password at start-up when not empty
	// SessionKey is the secret every server of one event signs the judges'
	// session cookies with (CATANJUDGE_SESSION_KEY, at least 32 random
	// bytes in base64), so that a judge logged in on one server is logged
	// in on all. It is read from the environment only, never from the
	// config file or the database, which a backup may carry. Empty keeps
	// the keys of the data folder (one server).
	SessionKey string
	// TrustedProxies are the reverse proxies in front of the server
	// (addresses or CIDR ranges), whose X-Forwarded-For header names the
	// client: --trusted-proxies or CATANJUDGE_TRUSTED_PROXIES, comma-separated.
	TrustedProxies []string
	// PublicURL is the address players' phones reach the server at, e.g.
	// http://192.168.1.20:8080, for the kiosk's QR code; empty uses the
	// address each request came in on.
	PublicURL string
	// MaxFeeds is the most live feeds (the kiosks' event streams) the
	// server holds at once, over every client: --max-feeds,
	// CATANJUDGE_MAX_FEEDS or "max_feeds"; 0 for the default,
	// DefaultMaxFeeds.
	MaxFeeds   int
	ConfigFile string
}

// DefaultMaxFeeds is the live feeds a server holds at once unless told
// otherwise: a hall of 500 players with 5,000 screens, twice over.
const DefaultMaxFeeds = 10_000

// maxMaxFeeds bounds the setting: each feed is a connection (a file
// descriptor) and some 30 KB of memory held.
const maxMaxFeeds = 1_000_000

// Defaults returns the built-in defaults.
func Defaults() Config {
	return Config{Addr: "127.0.0.1:8080", DataDir: "./data"}
}

type fileConfig struct {
	Addr          *string `json:"addr"`
	Data          *string `json:"data"`
	Database      *string `json:"database"`
	Ruleset       *string `json:"ruleset"`
	APIToken      *string `json:"api_token"`
	JudgePassword *string `json:"judge_password"`
	PublicURL     *string `json:"public_url"`
	MaxFeeds      *int    `json:"max_feeds"`
}

// Load parses args (without the program name and subcommand) and getenv into a Config.
func Load(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	fset := flag.NewFlagSet("catanjudge serve", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: catanjudge serve [flags]")
		fset.PrintDefaults()
	}
	addr := fset.String("addr", "", "listen address (env CATANJUDGE_ADDR, default 127.0.0.1:8080)")
	data := fset.String("data", "", "data folder (env CATANJUDGE_DATA, default ./data)")
	database := fset.String("database", "", "a postgres:// URL to keep the data in PostgreSQL, shared by several servers (env CATANJUDGE_DATABASE; default the SQLite file in the data folder)")
	ruleset := fset.String("ruleset", "", "an extra ruleset file to offer (env CATANJUDGE_RULESET)")
	file := fset.String("config", "", "a JSON config file (env CATANJUDGE_CONFIG)")
	trusted := fset.String("trusted-proxies", "", "reverse proxies in front of the server, comma-separated addresses or CIDR ranges, whose X-Forwarded-For names the client (env CATANJUDGE_TRUSTED_PROXIES)")
	publicURL := fset.String("public-url", "", "the address players' phones use, for the kiosk QR code (env CATANJUDGE_PUBLIC_URL)")
	maxFeeds := fset.String("max-feeds", "", fmt.Sprintf("the most live feeds (kiosk event streams) held at once over all clients (env CATANJUDGE_MAX_FEEDS, default %d)", DefaultMaxFeeds))
	if err := fset.Parse(args); err != nil {
		return Config{}, err
	}
	if fset.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fset.Arg(0))
	}
	cfg := Defaults()
	cfg.ConfigFile = first(*file, getenv("CATANJUDGE_CONFIG"))
	if cfg.ConfigFile != "" {
		if err := cfg.applyFile(cfg.ConfigFile); err != nil {
			return Config{}, err
		}
	}
	cfg.Addr = first(*addr, getenv("CATANJUDGE_ADDR"), cfg.Addr)
	cfg.DataDir = first(*data, getenv("CATANJUDGE_DATA"), cfg.DataDir)
	cfg.Database = first(*database, getenv("CATANJUDGE_DATABASE"), cfg.Database)
	cfg.Ruleset = first(*ruleset, getenv("CATANJUDGE_RULESET"), cfg.Ruleset)
	cfg.APIToken = first(getenv("CATANJUDGE_API_TOKEN"), cfg.APIToken)
	cfg.JudgePassword = first(getenv("CATANJUDGE_JUDGE_PASSWORD"), cfg.JudgePassword)
	cfg.SessionKey = getenv("CATANJUDGE_SESSION_KEY")
	if proxies := first(*trusted, getenv("CATANJUDGE_TRUSTED_PROXIES")); proxies != "" {
		cfg.TrustedProxies = nil
		for _, p := range strings.Split(proxies, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
				return Config{}, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR range like 10.0.0.0/24", p)
			}
			cfg.TrustedProxies = append(cfg.TrustedProxies, p)
		}
	}
	cfg.PublicURL = strings.TrimRight(first(*publicURL, getenv("CATANJUDGE_PUBLIC_URL"), cfg.PublicURL), "/")
	if n := first(*maxFeeds, getenv("CATANJUDGE_MAX_FEEDS")); n != "" {
		v, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil {
			return Config{}, fmt.Errorf("the live feeds' cap (--max-feeds, CATANJUDGE_MAX_FEEDS) %q is not a whole number", n)
		}
		if err := checkMaxFeeds(v); err != nil {
			return Config{}, err
		}
		cfg.MaxFeeds = v
	}
	if cfg.Addr == "" || cfg.DataDir == "" {
		return Config{}, errors.New("addr and data must not be empty")
	}
	if err := checkAPIToken(cfg.APIToken); err != nil {
		return Config{}, err
	}
	if err := checkDatabase(cfg.Database); err != nil {
		return Config{}, err
	}
	if err := checkSessionKey(cfg.SessionKey); err != nil {
		return Config{}, err
	}
	if cfg.PublicURL != "" {
		if u, err := url.Parse(cfg.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Config{}, fmt.Errorf("public URL %q must look like http://192.168.1.20:8080", cfg.PublicURL)
		}
	}
	return cfg, nil
}

func (c *Config) applyFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var fc fileConfig
	if err := dec.Decode(&fc); err != nil {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("config file %s: unexpected data after the JSON object", path)
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Addr, fc.Addr)
	set(&c.DataDir, fc.Data)
	set(&c.Database, fc.Database)
	set(&c.Ruleset, fc.Ruleset)
	set(&c.APIToken, fc.APIToken)
	set(&c.JudgePassword, fc.JudgePassword)
	set(&c.PublicURL, fc.PublicURL)
	if fc.MaxFeeds != nil {
		if err := checkMaxFeeds(*fc.MaxFeeds); err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
		c.MaxFeeds = *fc.MaxFeeds
	}
	return nil
}

// checkMaxFeeds refuses a cap on the live feeds that is not a count of
// connections a server can hold.
func checkMaxFeeds(n int) error {
	if n < 1 || n > maxMaxFeeds {
		return fmt.Errorf("the live feeds' cap (--max-feeds, CATANJUDGE_MAX_FEEDS, max_feeds) is %d; it must be from 1 to %d (default %d)", n, maxMaxFeeds, DefaultMaxFeeds)
	}
	return nil
}

// MinAPITokenLength is the shortest API token the server starts with: 24
// characters from a random source cannot be guessed at the rate wrong
// tokens are allowed.
const MinAPITokenLength = 24

// checkAPIToken refuses a token that is short enough to guess, or that an
// HTTP header cannot carry as it is; empty disables the token.
func checkAPIToken(token string) error {
	if token == "" {
		return nil
	}
	const howTo = "make one with: openssl rand -hex 24"
	if n := len(token); n < MinAPITokenLength {
		return fmt.Errorf("the API token (CATANJUDGE_API_TOKEN) has %d characters; it needs at least %d: %s", n, MinAPITokenLength, howTo)
	}
	for _, r := range token {
		if r <= ' ' || r > '~' {
			return fmt.Errorf("the API token (CATANJUDGE_API_TOKEN) may hold only letters, digits and ASCII punctuation, no spaces: %s", howTo)
		}
	}
	return nil
}

// MinSessionKeyBytes is the fewest random bytes a shared session key holds.
const MinSessionKeyBytes = 32

// checkSessionKey refuses a shared session key that is not base64 or too
// short to be secret; the message never repeats the key.
func checkSessionKey(key string) error {
	if key == "" {
		return nil
	}
	const howTo = "make one with: openssl rand -base64 32"
	b, err := DecodeSessionKey(key)
	if err != nil {
		return fmt.Errorf("the session key (CATANJUDGE_SESSION_KEY) is not base64: %s", howTo)
	}
	if len(b) < MinSessionKeyBytes {
		return fmt.Errorf("the session key (CATANJUDGE_SESSION_KEY) holds %d bytes; it needs at least %d: %s", len(b), MinSessionKeyBytes, howTo)
	}
	return nil
}

// DecodeSessionKey returns the bytes of a session key in base64, padded
// or not, standard or URL-safe.
func DecodeSessionKey(key string) ([]byte, error) {
	key = strings.TrimRight(strings.TrimSpace(key), "=")
	if b, err := base64.RawStdEncoding.DecodeString(key); err == nil {
		return b, nil
	}
	return base64.RawURLEncoding.DecodeString(key)
}

// checkDatabase refuses a database that is neither empty (the SQLite file
// in the data folder) nor a PostgreSQL URL; the message never repeats the
// URL, which may hold a password.
func checkDatabase(dsn string) error {
	if dsn == "" {
		return nil
	}
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return errors.New("the database (--database, CATANJUDGE_DATABASE) must be a PostgreSQL URL like postgres://catanjudge:PASSWORD@db.local:5432/catanjudge, or empty for the SQLite file in the data folder")
	}
	return nil
}

// first returns the first non-empty value.
func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
