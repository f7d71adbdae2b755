package web

import (
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/gin-gonic/gin"
)

// downloadBackup sends a consistent copy of the whole database as a
// download. The copy is made into a private temporary folder first and sent
// from there, so a failed copy is a clean error page, never half a file.
func (s *Server) downloadBackup(c *gin.Context) {
	dir, err := os.MkdirTemp("", "catanjudge-backup-")
	if err != nil {
		s.failPage(c, err)
		return
	}
	defer os.RemoveAll(dir)
	name := "catanjudge-" + time.Now().Format("20060102-150405") + ".db"
	path := filepath.Join(dir, name)
	if err := s.deps.Service.Backup(c.Request.Context(), path); err != nil {
		s.failPage(c, err)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		s.failPage(c, err)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		s.failPage(c, err)
		return
	}
	s.log.Info("backup downloaded", "id", c.GetString(requestIDKey), "judge", c.GetString(judgeKey), "bytes", info.Size())
	c.Header("Cache-Control", "no-store")
	c.DataFromReader(http.StatusOK, info.Size(), "application/vnd.sqlite3", f, map[string]string{
		"Content-Disposition": `attachment; filename="` + name + `"`,
	})
}
