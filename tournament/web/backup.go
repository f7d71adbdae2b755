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
func (s *Server) downloadBackup(c *gin.Context) error {
	dir, err := os.MkdirTemp("", "catanjudge-backup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	name := "catanjudge-" + time.Now().Format("20060102-150405") + ".db"
	path := filepath.Join(dir, name)
	if err := s.deps.Service.Backup(c.Request.Context(), path); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	s.log.Info("backup downloaded", "id", c.GetString(requestIDKey), "judge", c.GetString(judgeKey), "bytes", info.Size())
	c.Header("Cache-Control", "no-store")
	c.DataFromReader(http.StatusOK, info.Size(), "application/vnd.sqlite3", f, map[string]string{
		"Content-Disposition": `attachment; filename="` + name + `"`,
	})
	return nil
}

// download adapts a handler that sends a file from the console: its error,
// before anything is sent, is shown as a page.
func (s *Server) download(h func(c *gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			s.failPage(c, err)
		}
	}
}
