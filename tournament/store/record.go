package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// Members implements tournament.Store.
func (s *Store) Members(ctx context.Context, tournamentID int64) (map[int64]string, error) {
	var rows []struct {
		ID     int64
		Member string
	}
	err := s.db.WithContext(ctx).Table("players").Select("players.id AS id, people.member AS member").
		Joins("JOIN people ON people.id = players.person_id").
		Where("players.tournament_id = ? AND people.member IS NOT NULL", tournamentID).Scan(&rows).Error
	if err != nil {
		return nil, wrap(fmt.Sprintf("members of tournament %d", tournamentID), err)
	}
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Member
	}
	return out, nil
}

// ImportRecord implements tournament.Store. It writes nothing into r but
// the new tournament's ID once the transaction has committed, so that a
// transaction tried again starts from r as given.
func (s *Store) ImportRecord(ctx context.Context, r *tournament.Record, c tournament.Change) error {
	var tid int64
	err := s.tx(ctx, "import record", func(tx *Tx) error {
		im := &importer{tx: tx, at: c.At, players: map[int64]int64{}, reports: map[int64]int64{}}
		var err error
		if tid, err = im.tournament(r.Tournament); err != nil {
			return err
		}
		if err := tx.audit(tid, c); err != nil {
			return err
		}
		if err := im.people(r.Players); err != nil {
			return err
		}
		for _, rr := range r.Rounds {
			if err := im.round(rr); err != nil {
				return fmt.Errorf("round %d: %w", rr.Number, err)
			}
		}
		if err := im.penalties(r.Penalties); err != nil {
			return err
		}
		if err := im.teams(r.Teams); err != nil {
			return err
		}
		if im.bad != 0 {
			return fmt.Errorf("%w: the record names player %d, who is not one of its players", tournament.ErrInvalid, im.bad)
		}
		if cl := r.Tournament.Closed; cl != nil {
			return tx.Model(&tournamentRow{}).Where("id = ?", tid).Updates(map[string]any{"closed_at": cl.At.UTC(), "closed_by": cl.Judge}).Error
		}
		return nil
	})
	if err == nil {
		r.Tournament.ID = tid
	}
	return err
}

// importer writes one record, rewriting the record's IDs to the new rows'.
type importer struct {
	tx  *Tx
	at  time.Time
	tid int64
	// players and reports map the record's IDs to the new ones; bad is
	// the first player ID the record names that is none of its players.
	players, reports map[int64]int64
	bad              int64
}

// player is the new ID of the record's player id (0 stays 0).
func (im *importer) player(id int64) int64 {
	if id == 0 {
		return 0
	}
	n, ok := im.players[id]
	if !ok && im.bad == 0 {
		im.bad = id
	}
	return n
}

func (im *importer) playerList(ids []int64) []int64 {
	if ids == nil {
		return nil
	}
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = im.player(id)
	}
	return out
}

func (im *importer) scores(scores []tournament.Score) []tournament.Score {
	out := slices.Clone(scores)
	for i := range out {
		out[i].PlayerID = im.player(out[i].PlayerID)
	}
	return out
}

// playerName rewrites a player as a recorded game's move names them: by
// their ID in decimal, "" for the player whose turn it is.
func (im *importer) playerName(s string) string {
	id, err := strconv.ParseInt(s, 10, 64)
	if s == "" || err != nil {
		return s
	}
	return strconv.FormatInt(im.player(id), 10)
}

func (im *importer) tournament(t tournament.Tournament) (int64, error) {
	t.ID, t.Closed, t.Archived = 0, nil, nil
	// A division's record is a tournament of its own named division: the
	// event it was of is not this server's.
	t.EventID, t.Divisions = 0, nil
	if t.CreatedAt.IsZero() {
		t.CreatedAt = im.at
	}
	row, err := newTournamentRow(t)
	if err != nil {
		return 0, err
	}
	if err := insertTournament(im.tx, &row); err != nil {
		return 0, err
	}
	im.tid = row.ID
	return row.ID, im.tx.lock(row.ID)
}

// people writes the players with the registry's side of each (joinPeople),
// then their keep-apart requests.
func (im *importer) people(players []tournament.Player) error {
	ps := make([]*tournament.Player, len(players))
	for i, p := range players {
		p.TournamentID, p.ID = im.tid, 0
		if p.Person != nil {
			person := *p.Person
			p.Person = &person
		}
		ps[i] = &p
	}
	if err := joinPeople(im.tx, ps, im.at); err != nil {
		return err
	}
	rows := make([]playerRow, len(ps))
	for i, p := range ps {
		rows[i] = newPlayerRow(*p)
	}
	if len(rows) > 0 {
		if err := im.tx.Omit(clause.Associations).CreateInBatches(&rows, importBatch).Error; err != nil {
			return err
		}
	}
	for i, p := range players {
		im.players[p.ID] = rows[i].ID
	}
	// A request holds both ways: it is one row, whichever player lists it.
	seen := map[[2]int64]bool{}
	var pairs []keepApartRow
	for _, p := range players {
		for _, o := range p.KeepApart {
			a, b := im.player(p.ID), im.player(o)
			k := [2]int64{min(a, b), max(a, b)}
			if a == b || seen[k] {
				continue
			}
			seen[k] = true
			pairs = append(pairs, keepApartRow{TournamentID: im.tid, PlayerID: k[0], OtherID: k[1]})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	return im.tx.Omit(clause.Associations).CreateInBatches(&pairs, importBatch).Error
}

func (im *importer) round(rr tournament.RecordRound) error {
	r := rr.Round
	var cut *tournament.Cut
	if r.Cut != nil {
		c := *r.Cut
		c.Advancing, c.Draw = im.playerList(c.Advancing), im.playerList(c.Draw)
		cut = &c
	}
	text, err := encodeCut(cut)
	if err != nil {
		return err
	}
	row := roundRow{
		TournamentID: im.tid, Number: r.Number, Mode: r.Mode, Seed: int64(r.Seed), Cut: text,
		CostMeetings: r.Cost.Meetings, CostExposure: r.Cost.Exposure, CostStandings: r.Cost.Standings,
		Repeats: r.Repeats, PairedBy: r.PairedBy, PairedAt: r.PairedAt.UTC(),
	}
	if err := im.tx.Omit(clause.Associations).Create(&row).Error; err != nil {
		return err
	}
	paired := tournament.Round{ID: row.ID, Number: r.Number, Byes: im.playerList(r.Byes)}
	for _, t := range r.Tables {
		paired.Tables = append(paired.Tables, tournament.Table{Number: t.Number, Players: im.playerList(t.Players)})
	}
	if err := insertPairing(im.tx.DB, &paired, nil); err != nil {
		return err
	}
	tables := map[int64]int64{} // the record's table IDs to the new ones
	for i, t := range r.Tables {
		tables[t.ID] = paired.Tables[i].ID
		if err := im.table(paired.Tables[i].ID, t, rr.Tables[i]); err != nil {
			return fmt.Errorf("table %d: %w", t.Number, err)
		}
	}
	for _, a := range r.Amendments {
		am := amendmentRow{RoundID: row.ID, AID: im.player(a.A), BID: nullID(im.player(a.B)), TableNumber: a.Table,
			Reason: a.Reason, Judge: a.Judge, At: a.At.UTC()}
		if err := im.tx.Omit(clause.Associations).Create(&am).Error; err != nil {
			return err
		}
	}
	for _, e := range rr.Clock {
		table := int64(0)
		if e.TableID != 0 {
			var ok bool
			if table, ok = tables[e.TableID]; !ok {
				return fmt.Errorf("%w: a clock event names table %d, not one of the round's", tournament.ErrInvalid, e.TableID)
			}
		}
		ev := clockEventRow{RoundID: row.ID, TableID: nullID(table), Kind: e.Kind, Seconds: e.Seconds, PlayerID: im.player(e.PlayerID),
			Reason: e.Reason, Judge: e.Judge, At: e.At.UTC()}
		if err := im.tx.Omit(clause.Associations).Create(&ev).Error; err != nil {
			return err
		}
	}
	return nil
}

// table writes the seating, the board, the reports, the recorded game and
// the result revisions of a table, as new row id.
func (im *importer) table(id int64, t tournament.Table, rt tournament.RecordTable) error {
	cols := map[string]any{}
	if t.Seating != nil {
		s := *t.Seating
		s.Rolls = slices.Clone(s.Rolls)
		for i, round := range s.Rolls {
			s.Rolls[i] = slices.Clone(round)
			for k := range round {
				s.Rolls[i][k].PlayerID = im.player(round[k].PlayerID)
			}
		}
		s.Seats = slices.Clone(s.Seats)
		for i := range s.Seats {
			s.Seats[i].PlayerID = im.player(s.Seats[i].PlayerID)
		}
		text, err := encodeSeating(s)
		if err != nil {
			return err
		}
		cols["seating"] = text
	}
	if t.Board != nil {
		text, err := encodeBoard(*t.Board)
		if err != nil {
			return err
		}
		cols["board"] = text
	}
	if len(cols) > 0 {
		if err := im.tx.Model(&tableRow{}).Where("id = ?", id).Updates(cols).Error; err != nil {
			return err
		}
	}
	for _, rep := range rt.Reports {
		if err := im.report(id, rep); err != nil {
			return err
		}
	}
	for _, m := range rt.Moves {
		spec := m.Move
		spec.Player, spec.Rob, spec.With = im.playerName(spec.Player), im.playerName(spec.Rob), im.playerName(spec.With)
		text, err := encodeMove(spec)
		if err != nil {
			return err
		}
		row := gameMoveRow{TableID: id, Number: m.Number, Move: text, Judge: m.Judge, At: m.At.UTC()}
		if err := im.tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
	}
	for _, res := range rt.Revisions {
		if err := im.revision(id, res); err != nil {
			return err
		}
	}
	return nil
}

func (im *importer) report(tableID int64, rep tournament.Report) error {
	old := rep.ID
	rep.ID, rep.TournamentID, rep.TableID = 0, im.tid, tableID
	rep.ReportedBy, rep.Declared, rep.DisputedBy = im.player(rep.ReportedBy), im.player(rep.Declared), im.player(rep.DisputedBy)
	rep.Scores, rep.Confirmed = im.scores(rep.Scores), im.playerList(rep.Confirmed)
	if d := rep.Dispute; d != nil {
		rep.Dispute = &tournament.Dispute{Scores: im.scores(d.Scores), Declared: im.player(d.Declared), Reason: d.Reason,
			LateReason: d.LateReason, Note: d.Note}
	}
	row, err := newReportRow(rep)
	if err != nil {
		return err
	}
	if err := im.tx.Omit(clause.Associations).Create(&row).Error; err != nil {
		return err
	}
	im.reports[old] = row.ID
	return nil
}

func (im *importer) revision(tableID int64, res tournament.Result) error {
	report := int64(0)
	if res.ReportID != 0 {
		var ok bool
		if report, ok = im.reports[res.ReportID]; !ok {
			return fmt.Errorf("%w: revision %d was saved from report %d, which the table does not have", tournament.ErrInvalid, res.Version, res.ReportID)
		}
	}
	row := resultRow{TableID: tableID, Version: res.Version, DeclaredID: nullID(im.player(res.Declared)), EndedBy: res.EndedBy,
		Judge: res.Judge, At: res.At.UTC(), Reason: res.Reason, LateReason: res.LateReason, EndedEarly: res.EndedEarly,
		ReportID: report, GameMoves: res.GameMoves}
	if err := im.tx.Omit(clause.Associations).Create(&row).Error; err != nil {
		return err
	}
	scores := make([]scoreRow, len(res.Scores))
	for i, sc := range im.scores(res.Scores) {
		scores[i] = newScoreRow(row.ID, i, sc)
	}
	if len(scores) == 0 {
		return nil
	}
	return im.tx.Omit(clause.Associations).Create(&scores).Error
}

func (im *importer) penalties(ps []tournament.Penalty) error {
	for _, p := range ps {
		row := penaltyRow{TournamentID: im.tid, PlayerID: im.player(p.PlayerID), Round: p.Round, TableNumber: p.Table,
			Offence: p.Offence, Level: string(p.Level), Judge: p.Judge, At: p.At.UTC(), Note: p.Note}
		if rv := p.Revoked; rv != nil {
			at := rv.At.UTC()
			row.RevokedBy, row.RevokedAt, row.RevokeReason = rv.Judge, &at, rv.Reason
		}
		if err := im.tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
	}
	return nil
}
