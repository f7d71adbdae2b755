package tournament

import "context"

// Backup writes a consistent copy of every tournament to path, a file that
// must not exist yet, while the judges keep saving: each save is in the copy
// whole or not at all. The copy opens with store.Open as it is.
func (s *Service) Backup(ctx context.Context, path string) error {
	return s.store.Backup(ctx, path)
}

// Check reads the whole database and reports a damaged one: the health
// check's question, whether the judges' pages can be served.
func (s *Service) Check(ctx context.Context) error {
	return s.store.Check(ctx)
}
