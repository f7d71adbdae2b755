package render

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// ServerTime is the header that carries the server's time, in
// milliseconds since 1970, beside a page whose clocks count down to
// deadlines (data-deadline): clock.js counts from it, whatever the
// device's own clock says, and however long ago the page was rendered.
const ServerTime = "X-Server-Time"

// Shared is a page rendered once and answered as the same bytes to every
// request that asks for it, until its tournament changes or the clock it
// shows reaches a point where it looks different (Until; between two such
// points only the countdowns move, and clock.js moves them). Its ETag is a
// hash of the bytes, so that a page asking again with If-None-Match is
// answered 304, with nothing to send or swap in, when nothing it shows
// changed. Its gzip encoding is made once too, on the first request that
// accepts it. A Shared is read-only once made: every request shares it.
type Shared struct {
	body  []byte
	etag  string // quoted, strong
	until time.Time
	gz    *encoded
}

// encoded is a Shared's gzip encoding, made once.
type encoded struct {
	once sync.Once
	body []byte
}

// Share renders r (a page or its part, as Show and Part make it) in lang
// once, for every request: until is when it goes stale with the time
// (zero: only with the next change).
func (e *Engine) Share(lang string, r Result, until time.Time) (Shared, error) {
	body, err := e.render(lang, r)
	if err != nil {
		return Shared{}, err
	}
	sum := sha256.Sum256(body)
	return Shared{body: body, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`, until: until, gz: &encoded{}}, nil
}

// Fresh says b still shows the state it was rendered from at now.
func (b Shared) Fresh(now time.Time) bool { return b.until.IsZero() || now.Before(b.until) }

// Plain is b without its gzip encoding, for a page rendered for one
// request: compressing it would cost more than sending it.
func (b Shared) Plain() Shared {
	b.gz = nil
	return b
}

// Len is the size of b's page, unencoded.
func (b Shared) Len() int { return len(b.body) }

// JSON is b's page as a JSON string (quoted, escaped; <, > and & as
// themselves: the live feed's JSON that carries it is read by a script,
// never parsed as HTML).
func (b Shared) JSON() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// A string always encodes.
	_ = enc.Encode(string(b.body))
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// Serve answers the shared page b, as of now, the server's time (At).
func Serve(b Shared, now time.Time) Result {
	return Result{status: http.StatusOK, shared: &b, now: now}
}

// write answers b: 304 when the request holds its ETag already, else its
// bytes, gzipped when the client accepts it. The page may be kept by the
// browser but must be asked for again each time (no-cache): it changes
// with every change of the tournament.
func (b *Shared) write(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	gz := b.gz != nil && acceptsGzip(c.GetHeader("Accept-Encoding"))
	etag := b.etag
	if gz {
		// Another encoding is another representation: its own ETag.
		etag = strings.TrimSuffix(b.etag, `"`) + `-gz"`
	}
	h.Set("ETag", etag)
	if b.matches(c.GetHeader("If-None-Match")) {
		c.Status(http.StatusNotModified)
		return
	}
	body := b.body
	if gz {
		body = b.gzipped()
		h.Set("Content-Encoding", "gzip")
	}
	c.Data(http.StatusOK, "text/html; charset=utf-8", body)
}

// matches says the If-None-Match header names b in either encoding (a
// weak comparison, as RFC 9110 has for If-None-Match: a proxy that
// compresses makes a strong ETag weak).
func (b *Shared) matches(header string) bool {
	if header == "" {
		return false
	}
	plain := strings.Trim(b.etag, `"`)
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == b.etag || tag == `"`+plain+`-gz"` {
			return true
		}
	}
	return false
}

// gzipped is b's gzip encoding, made by the first request that asks.
func (b *Shared) gzipped() []byte {
	b.gz.once.Do(func() {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		_, _ = w.Write(b.body)
		_ = w.Close()
		b.gz.body = buf.Bytes()
	})
	return b.gz.body
}

// acceptsGzip says an Accept-Encoding header accepts gzip: named (or *)
// without q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return !strings.HasPrefix(q, "q=0") || strings.HasPrefix(q, "q=0.") && strings.Trim(q[4:], "0") != ""
	}
	return false
}
