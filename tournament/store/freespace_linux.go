package store

import (
	"path/filepath"
	"syscall"
)

// freeSpace returns the bytes free to this user on the disk of file.
func freeSpace(file string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(file), &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}
