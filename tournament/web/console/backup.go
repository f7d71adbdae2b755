package console

import (
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/gin-gonic/gin"
)

// downloadBackup sends a consistent copy of the whole database as a
// download. The copy is made into a private temporary folder first and sent
// from there, so a failed copy is a clean error page, never half a file.
func (s *Pages) downloadBackup(c *gin.Context) error {
	dir, err := os.MkdirTemp("", "catanjudge-backup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	name := "catanjudge-" + time.Now().Format("20060102-150405") + ".db"
	path := filepath.Join(dir, name)
	if err := s.svc.Backup(c.Request.Context(), path); err != nil {
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
	s.log.Info("backup downloaded", "id", problem.RequestID(c), "judge", auth.Judge(c), "bytes", info.Size())
	c.Header("Cache-Control", "no-store")
	c.DataFromReader(http.StatusOK, info.Size(), "application/vnd.sqlite3", f, map[string]string{
		"Content-Disposition": `attachment; filename="` + name + `"`,
	})
	return nil
}

// DownloadBackup sends the backup; an error before anything is sent is
// shown as a page.
func (s *Pages) DownloadBackup(c *gin.Context) {
	if err := s.downloadBackup(c); err != nil {
		s.pages.Fail(c, err)
	}
}
