package tournament

import (
	"context"
	"fmt"
	"time"
)

// Device is a table device (issue 27): a link a judge opens for one table
// of one round, for a phone or tablet left at the table. It opens that
// table's turn page, and its record page when the judge said so, and no
// other page of the console. The link's token is kept as a hash to find
// it by, and sealed (by the web layer, with the servers' keys) so that
// the table's page can show its QR code again.
type Device struct {
	ID           int64
	TournamentID int64
	Round, Table int
	// Record says the device opens the table's record page too.
	Record   bool
	OpenedBy string
	At       time.Time
	Expires  time.Time
	// Revoked is when a judge ended the table's devices; nil while open.
	Revoked *time.Time
	Sealed  []byte
}

// DeviceTTL is how long a table device's link lasts: a long event day.
const DeviceTTL = 12 * time.Hour

// Open reports whether the device still opens its pages at now.
func (d Device) Open(now time.Time) bool { return d.Revoked == nil && now.Before(d.Expires) }

// Actor is the name the audit log gives what the device records: the
// table and the account that opened it, within the judge name's length.
func (d Device) Actor() string {
	name := []rune(fmt.Sprintf("%d-%d卓端末 %s", d.Round, d.Table, d.OpenedBy))
	if len(name) > MaxJudgeNameRunes {
		name = name[:MaxJudgeNameRunes]
	}
	return string(name)
}

// DeviceInput is a device a judge opens: the hash its token is found by,
// the token sealed, and whether it opens the record page too.
type DeviceInput struct {
	Hash   []byte
	Sealed []byte
	Record bool
}

// OpenDevice opens a device for table number of round n: it lasts
// DeviceTTL unless revoked. Audited as table.device.
func (s *Service) OpenDevice(ctx context.Context, judge string, tournamentID int64, n, number int, in DeviceInput) (Device, error) {
	if err := checkJudge(judge); err != nil {
		return Device{}, err
	}
	if _, _, err := s.tableFacts(ctx, tournamentID, n, number); err != nil {
		return Device{}, err
	}
	now := s.now().UTC()
	d := Device{TournamentID: tournamentID, Round: n, Table: number, Record: in.Record, OpenedBy: judge, At: now,
		Expires: now.Add(DeviceTTL), Sealed: in.Sealed}
	after := map[string]any{"round": n, "table": number, "record": in.Record, "expires": d.Expires}
	if err := s.store.AddDevice(ctx, &d, in.Hash, s.change(judge, "table.device", tableSubject(n, number), nil, after)); err != nil {
		return Device{}, err
	}
	return d, nil
}

// RevokeDevices ends every device open at table number of round n, on
// every server at once (each reads the device on every request). Audited
// as table.device_revoke; revoking none changes nothing.
func (s *Service) RevokeDevices(ctx context.Context, judge string, tournamentID int64, n, number int) error {
	if err := checkJudge(judge); err != nil {
		return err
	}
	if _, _, err := s.tableFacts(ctx, tournamentID, n, number); err != nil {
		return err
	}
	now := s.now().UTC()
	after := map[string]any{"round": n, "table": number}
	return s.store.RevokeDevices(ctx, tournamentID, n, number, now, s.change(judge, "table.device_revoke", tableSubject(n, number), nil, after))
}

// TableDevices lists the devices open at table number of round n now,
// newest first.
func (s *Service) TableDevices(ctx context.Context, tournamentID int64, n, number int) ([]Device, error) {
	ds, err := s.store.Devices(ctx, tournamentID, n, number)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := ds[:0]
	for _, d := range ds {
		if d.Open(now) {
			out = append(out, d)
		}
	}
	return out, nil
}
