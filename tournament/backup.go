package tournament

import "context"

// Backuper is a Store that can copy its whole database into a file, for the
// console's backup button. The SQLite store is one; on PostgreSQL its Backup
// refuses and says to use pg_dump instead.
type Backuper interface {
	// Backup writes a consistent copy of the whole database to path, a
	// file that must not exist yet (ErrConflict when it does).
	Backup(ctx context.Context, path string) error
}

// Backup writes a consistent copy of every tournament to path, a file that
// must not exist yet, while the judges keep saving: each save is in the copy
// whole or not at all. The copy opens with store.Open as it is. A store
// that is not a Backuper refuses with the violation backup-unsupported.
func (s *Service) Backup(ctx context.Context, path string) error {
	b, ok := s.store.(Backuper)
	if !ok {
		return invalid("backup-unsupported", "this server's database cannot be backed up from here", nil)
	}
	return b.Backup(ctx, path)
}

// Check reads the whole database and reports a damaged one: the health
// check's question, whether the judges' pages can be served.
func (s *Service) Check(ctx context.Context) error {
	return s.store.Check(ctx)
}
