package recordfile

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Generator is the name of this program at a build's version, as its
// record files give it ("catanjudge v1.2"); an empty version names the
// program alone.
func Generator(version string) string {
	if version == "" {
		return "catanjudge"
	}
	return "catanjudge " + version
}

// FromRecord returns the file of a record, as generator (the writing
// program, "catanjudge v1.2") writes it.
func FromRecord(r tournament.Record, generator string) (File, error) {
	rs, err := json.Marshal(config.FileOf(r.Tournament.Ruleset))
	if err != nil {
		return File{}, fmt.Errorf("record: the ruleset: %w", err)
	}
	t := r.Tournament
	f := File{
		Format: Format, Generator: generator, WrittenAt: timeOf(r.WrittenAt), Ruleset: rs,
		Tournament: TournamentJSON{ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Rounds: t.Rounds, GameMinutes: t.GameMinutes,
			SelfCheckIn: t.SelfCheckIn, SelfReport: t.SelfReport, CreatedAt: timeOf(t.CreatedAt)},
		Players: []PlayerJSON{}, Rounds: []RoundJSON{}, Penalties: []PenaltyJSON{},
	}
	if t.Closed != nil {
		f.Tournament.Closed = &ActionJSON{Judge: t.Closed.Judge, At: t.Closed.At.UTC()}
	}
	for _, p := range r.Players {
		pj := PlayerJSON{ID: p.ID, Name: p.Name, Kana: p.Kana, Member: r.Members[p.ID], CheckedIn: p.CheckedIn,
			LateEntryRound: p.LateEntryRound, DroppedRound: p.DroppedRound, FixedTable: p.FixedTable, KeepApart: p.KeepApart,
			LateJoin: string(p.LateJoin), Substitute: p.Substitute, NoShowRound: p.NoShowRound}
		if p.DQEffect != "" {
			pj.Disqualification = &DisqualificationJSON{Effect: string(p.DQEffect), Reason: p.DQReason}
		}
		f.Players = append(f.Players, pj)
	}
	for _, rr := range r.Rounds {
		f.Rounds = append(f.Rounds, roundJSON(rr))
	}
	for _, p := range r.Penalties {
		pj := PenaltyJSON{Player: p.PlayerID, Round: p.Round, Table: p.Table, Offence: p.Offence, Level: string(p.Level),
			Judge: p.Judge, At: p.At.UTC(), Note: p.Note}
		if rv := p.Revoked; rv != nil {
			pj.Revoked = &RevocationJSON{Judge: rv.Judge, At: rv.At.UTC(), Reason: rv.Reason}
		}
		f.Penalties = append(f.Penalties, pj)
	}
	if r.Standings != nil {
		st := []StandingJSON{}
		for _, s := range r.Standings {
			st = append(st, StandingJSON{Rank: s.Rank, Player: s.PlayerID, Firsts: s.Firsts, VP: s.VP, Share: s.Share, Points: s.Points,
				Played: s.Played, Byes: s.Byes})
		}
		f.Standings = &st
	}
	if r.Final != nil {
		fin := []FinalJSON{}
		for _, s := range r.Final {
			fin = append(fin, FinalJSON{Rank: s.Rank, Player: s.PlayerID, Stage: s.Stage, Place: s.Place, Round: s.Round, Table: s.Table})
		}
		f.Final = &fin
	}
	teamsJSON(r, &f)
	return f, nil
}

// Write writes f as indented JSON, the form a person reads and a diff
// compares.
func Write(w io.Writer, f File) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

func timeOf(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

func roundJSON(rr tournament.RecordRound) RoundJSON {
	r := rr.Round
	out := RoundJSON{Number: r.Number, Mode: r.Mode, Seed: r.Seed, PairedBy: r.PairedBy, PairedAt: timeOf(r.PairedAt),
		Tables: []TableJSON{}, Byes: r.Byes}
	if !rr.Unscored {
		repeats := r.Repeats
		out.Repeats = &repeats
	}
	if !rr.Uncosted {
		out.Cost = &CostJSON{Meetings: r.Cost.Meetings, Exposure: r.Cost.Exposure, Standings: r.Cost.Standings}
	}
	for _, a := range r.Amendments {
		out.Amendments = append(out.Amendments, AmendmentJSON{A: a.A, B: a.B, Table: a.Table, Reason: a.Reason, Judge: a.Judge, At: a.At.UTC()})
	}
	if c := r.Cut; c != nil {
		out.Cut = &CutJSON{Stage: c.Stage, Advancing: nonNil(c.Advancing), Draw: nonNil(c.Draw), Seed: c.Seed}
	}
	numbers := map[int64]int{}
	for i, t := range r.Tables {
		numbers[t.ID] = t.Number
		out.Tables = append(out.Tables, tableJSON(t, rr.Tables[i]))
	}
	for _, e := range rr.Clock {
		out.Clock = append(out.Clock, ClockEventJSON{Kind: e.Kind, Table: numbers[e.TableID], Seconds: e.Seconds, Player: e.PlayerID,
			Reason: e.Reason, Judge: e.Judge, At: e.At.UTC()})
	}
	return out
}

func nonNil(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

func tableJSON(t tournament.Table, rt tournament.RecordTable) TableJSON {
	out := TableJSON{Number: t.Number, Players: t.Players}
	if s := t.Seating; s != nil {
		sj := &SeatingJSON{Version: s.Version, Auto: s.Auto, Seed: s.Seed, Judge: s.Judge, At: timeOf(s.At), Seats: []SeatJSON{}}
		for _, round := range s.Rolls {
			var rolls []RollJSON
			for _, r := range round {
				rolls = append(rolls, RollJSON{Player: r.PlayerID, White: r.White, Blue: r.Blue})
			}
			sj.Rolls = append(sj.Rolls, rolls)
		}
		for _, st := range s.Seats {
			sj.Seats = append(sj.Seats, SeatJSON{Player: st.PlayerID, Order: st.Order, Color: string(st.Color)})
		}
		out.Seating = sj
	}
	if t.Board != nil || rt.Board != nil {
		out.Board = boardJSON(t.Board, rt.Board)
	}
	for _, res := range rt.Revisions {
		out.Results = append(out.Results, RevisionJSON{Version: res.Version, Scores: scoresJSON(res.Scores), Declared: res.Declared,
			EndedBy: res.EndedBy, Judge: res.Judge, At: res.At.UTC(), Reason: res.Reason, LateReason: res.LateReason,
			EndedEarly: res.EndedEarly, Report: res.ReportID, GameMoves: res.GameMoves})
	}
	for _, p := range rt.Places {
		out.Placings = append(out.Placings, PlacingJSON{Player: p.PlayerID, Place: p.Place, VP: p.VP, ReportedVP: p.Reported, Deducted: p.Deducted})
	}
	for _, rep := range rt.Reports {
		rj := ReportJSON{ID: rep.ID, ReportedBy: rep.ReportedBy, Scores: scoresJSON(rep.Scores), Declared: rep.Declared, Reason: rep.Reason,
			LateReason: rep.LateReason, Confirmed: nonNil(rep.Confirmed), DisputedBy: rep.DisputedBy, Status: rep.Status, Version: rep.Version,
			At: rep.At.UTC()}
		if d := rep.Dispute; d != nil {
			rj.Dispute = &DisputeJSON{Scores: scoresJSON(d.Scores), Declared: d.Declared, Reason: d.Reason, LateReason: d.LateReason, Note: d.Note}
			if len(d.Scores) == 0 {
				rj.Dispute.Scores = nil
			}
		}
		out.Reports = append(out.Reports, rj)
	}
	for _, m := range rt.Moves {
		out.Game = append(out.Game, GameMoveJSON{Number: m.Number, Move: m.Move, Judge: m.Judge, At: m.At.UTC()})
	}
	return out
}

func scoresJSON(scores []tournament.Score) []ScoreJSON {
	out := []ScoreJSON{}
	for _, sc := range scores {
		sj := ScoreJSON{Player: sc.PlayerID, VP: sc.VP}
		if b := sc.Breakdown; b != nil {
			sj.Breakdown = &BreakdownJSON{Settlements: b.Settlements, Cities: b.Cities, LongestRoad: b.LongestRoad, LargestArmy: b.LargestArmy,
				PointCards: b.PointCards}
		}
		out = append(out, sj)
	}
	return out
}

// boardJSON is a board's facts (rec, nil when not known) and the board
// they make (b, nil when not given).
func boardJSON(rec *tournament.BoardRecord, b *referee.Board) *BoardJSON {
	out := &BoardJSON{}
	if rec != nil {
		seed := rec.Seed
		out.Version, out.White, out.Blue, out.Corner, out.RollAuto, out.Seed = rec.Version, rec.Roll.White, rec.Roll.Blue, rec.Corner, rec.RollAuto, &seed
		out.Judge, out.At = rec.Judge, timeOf(rec.At)
		for _, c := range rec.Deal {
			out.Deal = append(out.Deal, ChipJSON{Q: c.Hex.Q, R: c.Hex.R, Number: c.Number})
		}
	}
	if b != nil {
		for _, t := range b.Tiles {
			out.Tiles = append(out.Tiles, TileJSON{Q: t.Hex.Q, R: t.Hex.R, Terrain: string(t.Terrain), Number: t.Number})
		}
		for _, h := range b.Harbors {
			out.Harbors = append(out.Harbors, HarborJSON{Kind: string(h.Kind), Edge: [2]string{h.Edge.A.String(), h.Edge.B.String()}})
		}
		if b.HasRobber {
			out.Robber = &HexJSON{Q: b.Robber.Q, R: b.Robber.R}
		}
	}
	return out
}
