package web

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
)

// Read-your-writes across servers. Behind a load balancer a judge's save
// lands on one server and the page after it on another, which may not
// have heard of the save yet (the notice is on its way). Each client keeps
// the versions of the tournaments it has seen (tournament.Seen) in a
// cookie, or for a script in a header of the same form: every response
// that showed or made a newer version than the client had says so, and a
// request asks for at least what its client has seen, which a server that
// knows of nothing as new checks with the store (tournament.Snapshots). A
// client is never shown a tournament older than it has seen.

const (
	// seenCookie keeps the versions seen in a browser; seenHeader carries
	// them for a script, in requests and in the responses that raise them.
	seenCookie = "catanjudge_seen"
	seenHeader = "Catanjudge-Seen"
	// maxSeen bounds the tournaments one client's versions name: the
	// latest tournaments (by ID) are kept.
	maxSeen = 8
)

// seenVersions carries what the client has seen into the request's
// context, and gives the client the versions the response raised.
func (s *site) seenVersions(c *gin.Context) {
	v := parseSeen(c.GetHeader(seenHeader))
	if ck, err := c.Request.Cookie(seenCookie); err == nil {
		for tid, n := range parseSeen(ck.Value) {
			v[tid] = max(v[tid], n)
		}
	}
	seen := tournament.NewSeen(v)
	c.Request = c.Request.WithContext(tournament.WithSeen(c.Request.Context(), seen))
	c.Writer = &seenWriter{ResponseWriter: c.Writer, seen: seen, tls: c.Request.TLS != nil}
	c.Next()
}

// parseSeen reads "tid:version.tid:version"; what does not parse is
// ignored, as a client that has seen nothing.
func parseSeen(s string) map[int64]int64 {
	out := map[int64]int64{}
	for i, part := range strings.Split(s, ".") {
		if i >= maxSeen {
			break
		}
		a, b, ok := strings.Cut(part, ":")
		tid, err1 := strconv.ParseInt(a, 10, 64)
		n, err2 := strconv.ParseInt(b, 10, 64)
		if ok && err1 == nil && err2 == nil && tid > 0 && n > 0 {
			out[tid] = max(out[tid], n)
		}
	}
	return out
}

// formatSeen writes versions as parseSeen reads them, the latest
// tournaments' alone.
func formatSeen(v map[int64]int64) string {
	tids := make([]int64, 0, len(v))
	for tid := range v {
		tids = append(tids, tid)
	}
	slices.SortFunc(tids, func(a, b int64) int { return cmp.Compare(b, a) })
	if len(tids) > maxSeen {
		tids = tids[:maxSeen]
	}
	parts := make([]string, len(tids))
	for i, tid := range tids {
		parts[i] = strconv.FormatInt(tid, 10) + ":" + strconv.FormatInt(v[tid], 10)
	}
	return strings.Join(parts, ".")
}

// seenWriter adds the versions seen to the response's headers as they are
// written, when the request raised them.
type seenWriter struct {
	gin.ResponseWriter
	seen *tournament.Seen
	tls  bool
	done bool
}

func (w *seenWriter) tell() {
	if w.done {
		return
	}
	w.done = true
	if !w.seen.Changed() || w.ResponseWriter.Written() {
		return
	}
	value := formatSeen(w.seen.Versions())
	w.Header().Set(seenHeader, value)
	http.SetCookie(w.ResponseWriter, &http.Cookie{
		Name: seenCookie, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: w.tls,
	})
}

func (w *seenWriter) WriteHeader(code int) {
	w.tell()
	w.ResponseWriter.WriteHeader(code)
}

func (w *seenWriter) WriteHeaderNow() {
	w.tell()
	w.ResponseWriter.WriteHeaderNow()
}

func (w *seenWriter) Write(b []byte) (int, error) {
	w.tell()
	return w.ResponseWriter.Write(b)
}

func (w *seenWriter) WriteString(s string) (int, error) {
	w.tell()
	return w.ResponseWriter.WriteString(s)
}

func (w *seenWriter) Flush() {
	w.tell()
	w.ResponseWriter.Flush()
}
