package recordfile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
)

// MaxBytes bounds a record file: a 2,000-player event of 30 rounds with
// every table's history fits in far less.
const MaxBytes = 256 << 20

// Read decodes a record file strictly: a field the format does not have
// is an error (a misspelt field would otherwise be read as left out), as
// is a format other than Format, more than MaxBytes, or anything after
// the document.
func Read(r io.Reader) (File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return File{}, fmt.Errorf("read the record: %w", err)
	}
	if len(data) > MaxBytes {
		return File{}, fmt.Errorf("the record is over %d MiB", MaxBytes>>20)
	}
	var head struct {
		Format *int `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return File{}, fmt.Errorf("the record is not JSON: %w", err)
	}
	switch {
	case head.Format == nil:
		return File{}, errors.New(`the record has no "format": a record file starts {"format": 1, ...}`)
	case *head.Format != Format:
		return File{}, fmt.Errorf("the record is of format %d; this program reads format %d", *head.Format, Format)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("the record: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return File{}, errors.New("the record: unexpected data after the JSON document")
	}
	return f, nil
}

// Record returns the record the file holds, and notes on how it was read
// (a ruleset named only, taken from the built-in presets). An error says
// what in the file cannot be a record: a ruleset that does not parse, a
// table numbered twice in a round, a clock event at a table the round
// does not have, a revision saved from a report the table does not have.
func (f File) Record() (tournament.Record, []string, error) {
	var notes []string
	rs, note, err := ruleset(f.Ruleset)
	if err != nil {
		return tournament.Record{}, nil, err
	}
	if note != "" {
		notes = append(notes, note)
	}
	t := f.Tournament
	r := tournament.Record{
		Tournament: tournament.Tournament{ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Ruleset: rs, Rounds: t.Rounds,
			GameMinutes: t.GameMinutes, SelfCheckIn: t.SelfCheckIn, SelfReport: t.SelfReport, CreatedAt: at(t.CreatedAt), Paired: len(f.Rounds)},
		Members: map[int64]string{},
	}
	if f.WrittenAt != nil {
		r.WrittenAt = *f.WrittenAt
	}
	if t.Closed != nil {
		r.Tournament.Closed = &tournament.Closure{Judge: t.Closed.Judge, At: t.Closed.At}
	}
	for _, p := range f.Players {
		player := tournament.Player{ID: p.ID, TournamentID: t.ID, Name: p.Name, Kana: p.Kana, CheckedIn: p.CheckedIn,
			LateEntryRound: p.LateEntryRound, DroppedRound: p.DroppedRound, FixedTable: p.FixedTable, KeepApart: sortedIDs(p.KeepApart),
			LateJoin: referee.LateJoin(p.LateJoin), Substitute: p.Substitute, NoShowRound: p.NoShowRound}
		if err := policiesOf(p, &player); err != nil {
			return tournament.Record{}, nil, err
		}
		r.Players = append(r.Players, player)
		if p.Member != "" {
			r.Members[p.ID] = p.Member
		}
	}
	slices.SortStableFunc(r.Players, func(a, b tournament.Player) int { return cmp.Compare(a.ID, b.ID) })
	var tableID int64
	for _, rj := range f.Rounds {
		rr, err := roundOf(rj, t.ID, &tableID)
		if err != nil {
			return tournament.Record{}, nil, fmt.Errorf("round %d: %w", rj.Number, err)
		}
		r.Rounds = append(r.Rounds, rr)
	}
	for _, p := range f.Penalties {
		pen := tournament.Penalty{TournamentID: t.ID, PlayerID: p.Player, Round: p.Round, Table: p.Table, Offence: p.Offence,
			Level: referee.Level(p.Level), Judge: p.Judge, At: p.At, Note: p.Note}
		if rv := p.Revoked; rv != nil {
			pen.Revoked = &tournament.Revocation{Judge: rv.Judge, At: rv.At, Reason: rv.Reason}
		}
		r.Penalties = append(r.Penalties, pen)
	}
	if f.Standings != nil {
		r.Standings = []tournament.Standing{}
		for _, s := range *f.Standings {
			r.Standings = append(r.Standings, tournament.Standing{Rank: s.Rank, PlayerID: s.Player, Firsts: s.Firsts, VP: s.VP, Share: s.Share,
				Points: s.Points, Played: s.Played, Byes: s.Byes})
		}
	}
	if f.Final != nil {
		r.Final = []tournament.FinalStanding{}
		for _, s := range *f.Final {
			r.Final = append(r.Final, tournament.FinalStanding{Rank: s.Rank, PlayerID: s.Player, Stage: s.Stage, Place: s.Place, Round: s.Round, Table: s.Table})
		}
	}
	if err := f.teamsOf(&r); err != nil {
		return tournament.Record{}, nil, err
	}
	return r, notes, nil
}

// ruleset reads the record's ruleset: a whole ruleset file, or the name
// (and version) of a built-in preset.
func ruleset(raw json.RawMessage) (referee.Ruleset, string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return referee.Ruleset{}, "", errors.New(`the record has no "ruleset"`)
	}
	var named map[string]json.RawMessage
	if err := json.Unmarshal(raw, &named); err != nil {
		return referee.Ruleset{}, "", fmt.Errorf("the record's ruleset: %w", err)
	}
	_, hasVersion := named["version"]
	if _, ok := named["name"]; ok && len(named) <= 2 && (len(named) == 1 || hasVersion) {
		var ref struct{ Name, Version string }
		if err := json.Unmarshal(raw, &ref); err != nil {
			return referee.Ruleset{}, "", fmt.Errorf("the record's ruleset: %w", err)
		}
		presets, err := config.LoadRulesets()
		if err != nil {
			return referee.Ruleset{}, "", err
		}
		rs, ok := presets.Get(ref.Name)
		switch {
		case !ok:
			return referee.Ruleset{}, "", fmt.Errorf("the record names the ruleset %q, which is not built in: give the ruleset whole", ref.Name)
		case ref.Version != "" && ref.Version != rs.Version:
			return referee.Ruleset{}, "", fmt.Errorf("the record names ruleset %s version %s; the built-in one is version %s: give the ruleset whole",
				ref.Name, ref.Version, rs.Version)
		}
		return rs.WithDefaults(), fmt.Sprintf("the ruleset is the built-in %s, version %s, which the record names", rs.Name, rs.Version), nil
	}
	rs, err := config.ParseRuleset(bytes.NewReader(raw))
	if err != nil {
		return referee.Ruleset{}, "", fmt.Errorf("the record's ruleset: %w", err)
	}
	return rs.WithDefaults(), "", nil
}

func at(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

func sortedIDs(ids []int64) []int64 {
	if len(ids) == 0 {
		return nil
	}
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// roundOf reads a round; each table gets the next ID of *tableID, which
// the round's clock events and reports refer to.
func roundOf(rj RoundJSON, tid int64, tableID *int64) (tournament.RecordRound, error) {
	rr := tournament.RecordRound{
		Round: tournament.Round{TournamentID: tid, Number: rj.Number, Mode: rj.Mode, Seed: rj.Seed, PairedBy: rj.PairedBy,
			PairedAt: at(rj.PairedAt), Byes: sortedIDs(rj.Byes)},
		Unscored: rj.Repeats == nil, Uncosted: rj.Cost == nil,
	}
	if rj.Repeats != nil {
		rr.Repeats = *rj.Repeats
	}
	if c := rj.Cost; c != nil {
		rr.Cost.Meetings, rr.Cost.Exposure, rr.Cost.Standings = c.Meetings, c.Exposure, c.Standings
	}
	for _, a := range rj.Amendments {
		rr.Amendments = append(rr.Amendments, tournament.Amendment{A: a.A, B: a.B, Table: a.Table, Reason: a.Reason, Judge: a.Judge, At: a.At})
	}
	if c := rj.Cut; c != nil {
		rr.Cut = &tournament.Cut{Stage: c.Stage, Advancing: nilIfEmpty(c.Advancing), Draw: nilIfEmpty(c.Draw), Seed: c.Seed}
	}
	ids := map[int]int64{}
	for _, tj := range rj.Tables {
		if _, twice := ids[tj.Number]; twice {
			return rr, fmt.Errorf("two tables are numbered %d", tj.Number)
		}
		*tableID++
		ids[tj.Number] = *tableID
		t, rt, err := tableOf(tj, *tableID)
		if err != nil {
			return rr, fmt.Errorf("table %d: %w", tj.Number, err)
		}
		rr.Round.Tables = append(rr.Round.Tables, t)
		rr.Tables = append(rr.Tables, rt)
	}
	for _, e := range rj.Clock {
		id, ok := ids[e.Table]
		if e.Table != 0 && !ok {
			return rr, fmt.Errorf("a clock event (%s) is at table %d, which the round does not have", e.Kind, e.Table)
		}
		rr.Clock = append(rr.Clock, tournament.ClockEvent{TableID: id, Kind: e.Kind, Seconds: e.Seconds, PlayerID: e.Player, Reason: e.Reason,
			Judge: e.Judge, At: e.At})
	}
	return rr, nil
}

func nilIfEmpty(ids []int64) []int64 {
	if len(ids) == 0 {
		return nil
	}
	return ids
}

func tableOf(tj TableJSON, id int64) (tournament.Table, tournament.RecordTable, error) {
	t := tournament.Table{ID: id, Number: tj.Number, Players: tj.Players}
	var rt tournament.RecordTable
	if s := tj.Seating; s != nil {
		seating := &tournament.Seating{Version: max(s.Version, 1), Auto: s.Auto, Seed: s.Seed, Judge: s.Judge, At: at(s.At)}
		for _, round := range s.Rolls {
			var rolls []tournament.Roll
			for _, r := range round {
				rolls = append(rolls, tournament.Roll{PlayerID: r.Player, CapsuleRoll: referee.CapsuleRoll{White: r.White, Blue: r.Blue}})
			}
			seating.Rolls = append(seating.Rolls, rolls)
		}
		for _, st := range s.Seats {
			seating.Seats = append(seating.Seats, tournament.Seat{PlayerID: st.Player, Order: st.Order, Color: referee.Color(st.Color)})
		}
		slices.SortFunc(seating.Seats, func(a, b tournament.Seat) int { return a.Order - b.Order })
		t.Seating = seating
	}
	if b := tj.Board; b != nil {
		var err error
		if t.Board, rt.Board, err = boardOf(*b); err != nil {
			return t, rt, fmt.Errorf("the board: %w", err)
		}
	}
	reports := map[int64]bool{}
	for _, rj := range tj.Reports {
		rep := tournament.Report{ID: rj.ID, TableID: id, Table: tj.Number, ReportedBy: rj.ReportedBy, Scores: scoresOf(rj.Scores),
			Declared: rj.Declared, Reason: rj.Reason, LateReason: rj.LateReason, Confirmed: nilIfEmpty(rj.Confirmed), DisputedBy: rj.DisputedBy,
			Status: rj.Status, Version: rj.Version, At: rj.At}
		if d := rj.Dispute; d != nil {
			rep.Dispute = &tournament.Dispute{Scores: scoresOf(d.Scores), Declared: d.Declared, Reason: d.Reason, LateReason: d.LateReason, Note: d.Note}
			if len(d.Scores) == 0 {
				rep.Dispute.Scores = nil
			}
		}
		reports[rj.ID] = true
		rt.Reports = append(rt.Reports, rep)
	}
	for _, res := range tj.Results {
		if res.Report != 0 && !reports[res.Report] {
			return t, rt, fmt.Errorf("revision %d was saved from report %d, which the table does not have", res.Version, res.Report)
		}
		rt.Revisions = append(rt.Revisions, tournament.Result{TableID: id, Version: res.Version, Scores: scoresOf(res.Scores), Declared: res.Declared,
			EndedBy: res.EndedBy, Judge: res.Judge, At: res.At, Reason: res.Reason, LateReason: res.LateReason, EndedEarly: res.EndedEarly,
			ReportID: res.Report, GameMoves: res.GameMoves})
	}
	if n := len(rt.Revisions); n > 0 {
		latest := rt.Revisions[n-1]
		t.Result, t.Revisions = &latest, n
	}
	if tj.Placings != nil {
		rt.Places = []tournament.Placing{}
		for _, p := range tj.Placings {
			rt.Places = append(rt.Places, tournament.Placing{PlayerID: p.Player, Place: p.Place, VP: p.VP, Reported: p.ReportedVP, Deducted: p.Deducted})
		}
	}
	for _, m := range tj.Game {
		rt.Moves = append(rt.Moves, tournament.GameMove{Number: m.Number, Move: m.Move, Judge: m.Judge, At: m.At})
	}
	t.Moves = len(rt.Moves)
	return t, rt, nil
}

func scoresOf(scores []ScoreJSON) []tournament.Score {
	var out []tournament.Score
	for _, s := range scores {
		sc := tournament.Score{PlayerID: s.Player, VP: s.VP}
		if b := s.Breakdown; b != nil {
			sc.Breakdown = &referee.Breakdown{Settlements: b.Settlements, Cities: b.Cities, LongestRoad: b.LongestRoad, LargestArmy: b.LargestArmy,
				PointCards: b.PointCards}
		}
		out = append(out, sc)
	}
	return out
}

// boardOf reads a board's facts (nil when the file gives no seed: the
// facts are not known) and the board it gives (nil when it gives no
// tiles).
func boardOf(b BoardJSON) (*tournament.BoardRecord, *referee.Board, error) {
	var rec *tournament.BoardRecord
	if b.Seed != nil {
		rec = &tournament.BoardRecord{Version: max(b.Version, 1), Roll: referee.CapsuleRoll{White: b.White, Blue: b.Blue}, Corner: b.Corner,
			RollAuto: b.RollAuto, Seed: *b.Seed, Judge: b.Judge, At: at(b.At)}
		for _, c := range b.Deal {
			rec.Deal = append(rec.Deal, referee.Chip{Hex: referee.Hex{Q: c.Q, R: c.R}, Number: c.Number})
		}
	}
	if len(b.Tiles) == 0 {
		return rec, nil, nil
	}
	var board referee.Board
	land := referee.LandHexes()
	seen := map[referee.Hex]bool{}
	for _, tj := range b.Tiles {
		h := referee.Hex{Q: tj.Q, R: tj.R}
		i := slices.Index(land, h)
		if i < 0 || seen[h] {
			return nil, nil, fmt.Errorf("tile (%d,%d) is off the land or given twice", tj.Q, tj.R)
		}
		seen[h] = true
		board.Tiles[i] = referee.Tile{Hex: h, Terrain: referee.Terrain(tj.Terrain), Number: tj.Number}
	}
	if len(seen) != len(land) {
		return nil, nil, fmt.Errorf("%d tiles, want the %d land hexes", len(seen), len(land))
	}
	if len(b.Harbors) > len(board.Harbors) {
		return nil, nil, fmt.Errorf("%d harbours, want %d", len(b.Harbors), len(board.Harbors))
	}
	for i, h := range b.Harbors {
		a, okA := game.ParseVertex(h.Edge[0])
		z, okZ := game.ParseVertex(h.Edge[1])
		if !okA || !okZ {
			return nil, nil, fmt.Errorf("harbour %d: %q and %q are not corners", i+1, h.Edge[0], h.Edge[1])
		}
		e, err := referee.NewEdge(a, z)
		if err != nil {
			return nil, nil, fmt.Errorf("harbour %d: %w", i+1, err)
		}
		board.Harbors[i] = referee.Harbor{Kind: referee.HarborKind(h.Kind), Edge: e}
	}
	if r := b.Robber; r != nil {
		board.Robber, board.HasRobber = referee.Hex{Q: r.Q, R: r.R}, true
	}
	return rec, &board, nil
}

// policiesOf sets the disqualification of pj on p, and says what of the
// events' policies in pj no ruleset knows: an effect or a way of joining
// late that is none of the referee's.
func policiesOf(pj PlayerJSON, p *tournament.Player) error {
	if d := pj.Disqualification; d != nil {
		if referee.CheckDQEffect(referee.DQEffect(d.Effect)) != nil {
			return fmt.Errorf("player %d: disqualification effect %q is none of %v", pj.ID, d.Effect, referee.DQEffects)
		}
		p.DQEffect, p.DQReason = referee.DQEffect(d.Effect), d.Reason
	}
	if p.LateJoin != "" && !slices.Contains(referee.LateJoins, p.LateJoin) {
		return fmt.Errorf("player %d: late_join %q is none of %v", pj.ID, pj.LateJoin, referee.LateJoins)
	}
	if pj.NoShowRound < 0 {
		return fmt.Errorf("player %d: no_show_round %d is not a round", pj.ID, pj.NoShowRound)
	}
	return nil
}
