package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// ExportWorkbook sends the tournament as an Excel workbook: standings,
// results, players, penalties (with the judges' notes, hence judges only)
// and settings. The tournament records no language of its own, so the
// workbook is in the request's: ?lang=, the lang cookie, then
// Accept-Language, as every page. The workbook is built in memory first, so
// a failure is a clean error rather than half a file.
func (s *Handlers) ExportWorkbook(c *gin.Context) {
	tid, err := route.ID(c, "id")
	if err != nil {
		s.Fail(c, err)
		return
	}
	d, err := s.svc.ExportData(c.Request.Context(), tid)
	if err != nil {
		s.Fail(c, err)
		return
	}
	var buf bytes.Buffer
	if err := export.Workbook(&buf, d, s.i18n.Lang(c)); err != nil {
		s.Fail(c, err)
		return
	}
	c.Header("Content-Disposition", attachment(d.Tournament.Name+".xlsx", fmt.Sprintf("tournament-%d.xlsx", tid)))
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, export.ContentType, buf.Bytes())
}

// attachment is a Content-Disposition for a download named name, which
// may be Japanese: an ASCII fallback for old clients, then the name
// itself as RFC 5987 UTF-8 (filename*), which browsers prefer.
func attachment(name, fallback string) string {
	name = strings.Map(func(r rune) rune {
		// Characters no file system accepts, and controls, become "_".
		if strings.ContainsRune(`/\:*?"<>|`, r) || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, name)
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, fallback, encodeRFC5987(name))
}

// encodeRFC5987 percent-encodes s as an RFC 5987 value: UTF-8 bytes
// outside attr-char become %XX.
func encodeRFC5987(s string) string {
	const attrChar = "!#$&+-.^_`|~"
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte(attrChar, c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
