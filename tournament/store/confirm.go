package store

import (
	"context"
	"fmt"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// ConfirmResult implements tournament.Store: the version check runs in the
// write transaction, so of two confirmations, or a confirmation and a
// correction, sent at once, the second decides from what the first wrote.
func (s *Store) ConfirmResult(ctx context.Context, tableID int64, version int, conf tournament.Confirmation, at time.Time, c tournament.Change) error {
	return s.tableTx(ctx, fmt.Sprintf("confirm result of table %d", tableID), tableID, func(tx *Tx) error {
		tid, err := tx.lockTable(tableID)
		if err != nil {
			return err
		}
		latest, err := latestResults(tx.DB, []int64{tableID})
		if err != nil {
			return err
		}
		cur, ok := latest[tableID]
		switch {
		case !ok || cur.Version != version:
			return tournament.Conflict("stale-result", fmt.Sprintf("version %d is no longer the latest (%d)", version, cur.Version),
				map[string]any{"Version": version, "Current": cur.Version})
		case !cur.Pending():
			return tournament.Conflict("result-confirmed", fmt.Sprintf("version %d waits for no confirmation", version),
				map[string]any{"Version": version, "Judge": cur.ConfirmedBy})
		}
		stamp := at.UTC()
		if err := tx.Model(&resultRow{}).Where("table_id = ? AND version = ?", tableID, version).Updates(map[string]any{
			"confirmed_by": conf.Judge, "confirmed_at": &stamp, "confirm_reason": conf.Reason,
		}).Error; err != nil {
			return err
		}
		return tx.audit(tid, c)
	})
}
