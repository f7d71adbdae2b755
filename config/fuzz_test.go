package config

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfigFile throws arbitrary config files at Load: a file it
// accepts is one JSON object, and the settings it gives are usable (an
// address, a data folder, a public URL that is empty or http(s) with a
// host); anything else is an error, never a panic.
func FuzzLoadConfigFile(f *testing.F) {
	path := filepath.Join(f.TempDir(), "catanjudge.json")
	f.Add([]byte(`{"addr":"0.0.0.0:8080","data":"/var/lib/catanjudge","api_token":"3f9c2a7d1e8b4c6a0f5d2e9b7c1a4d8e","public_url":"http://192.168.1.20:8080/"}`))
	f.Add([]byte(`{"ruleset":"house.json","judge_password":"カタン"}`))
	f.Add([]byte(`{"addr":""}`))
	f.Add([]byte(`{"public_url":"192.168.1.20"}`))
	f.Add([]byte(`{"adr":"x"}`))
	f.Add([]byte(`{"addr":"a"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load([]string{"--config", path}, env(nil), io.Discard)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("Load(%q) = an empty error", data)
			}
			return
		}
		if !json.Valid(data) {
			t.Errorf("Load accepted %q, which is not one JSON value", data)
		}
		if cfg.Addr == "" || cfg.DataDir == "" || cfg.ConfigFile != path {
			t.Errorf("Load(%q) = %+v, want an address, a data folder and the file", data, cfg)
		}
		if cfg.APIToken != "" && len(cfg.APIToken) < MinAPITokenLength {
			t.Errorf("Load(%q) API token of %d characters, want none or at least %d", data, len(cfg.APIToken), MinAPITokenLength)
		}
		if cfg.PublicURL != "" {
			u, err := url.Parse(cfg.PublicURL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.HasSuffix(cfg.PublicURL, "/") {
				t.Errorf("Load(%q) public URL = %q, want http(s)://host without a final slash", data, cfg.PublicURL)
			}
		}
	})
}
