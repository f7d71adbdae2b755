package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// The judges of a simulated event: the head judge pairs and decides, the
// floor judges seat, set up and save sheets.
const (
	headJudge  = "審判長"
	floorJudge = "フロア審判"
)

// simEvent is one simulated event under way.
type simEvent struct {
	ctx   context.Context
	svc   *tournament.Service
	rs    referee.Ruleset
	rng   *rand.Rand // every choice of the simulation
	at    time.Time  // the service's clock
	tid   int64
	codes map[int64]string // the players' codes, for their reports
}

// now is the simulation's clock: it moves a tenth of a second per reading,
// so that every recorded moment differs and follows the one before, and
// jumps where the simulation waits (a game's time).
func (s *simEvent) now() time.Time {
	s.at = s.at.Add(100 * time.Millisecond)
	return s.at
}

// surnames and given names of the simulated players, with their readings.
var (
	surnames = [][2]string{{"佐藤", "さとう"}, {"鈴木", "すずき"}, {"高橋", "たかはし"}, {"田中", "たなか"}, {"伊藤", "いとう"},
		{"渡辺", "わたなべ"}, {"山本", "やまもと"}, {"中村", "なかむら"}, {"小林", "こばやし"}, {"加藤", "かとう"},
		{"吉田", "よしだ"}, {"山田", "やまだ"}, {"佐々木", "ささき"}, {"山口", "やまぐち"}, {"松本", "まつもと"},
		{"井上", "いのうえ"}, {"木村", "きむら"}, {"林", "はやし"}, {"斎藤", "さいとう"}, {"清水", "しみず"}}
	givenNames = [][2]string{{"翔太", "しょうた"}, {"美咲", "みさき"}, {"大輔", "だいすけ"}, {"陽菜", "はるな"}, {"健", "けん"},
		{"葵", "あおい"}, {"拓海", "たくみ"}, {"結衣", "ゆい"}, {"蓮", "れん"}, {"さくら", "さくら"}, {"悠真", "ゆうま"},
		{"七海", "ななみ"}, {"湊", "みなと"}, {"凛", "りん"}, {"陸", "りく"}, {"花", "はな"}}
)

// playEvent plays the event on st and returns its record.
func playEvent(ctx context.Context, st *store.Store, rs referee.Ruleset, players, rounds int, seed uint64) (tournament.Record, error) {
	s := &simEvent{ctx: ctx, rs: rs.WithDefaults(), rng: rand.New(rand.NewPCG(seed, 0x73696d)), codes: map[int64]string{},
		at: time.Date(2025, 6, 1, 1, 0, 0, 0, time.UTC)}
	seeds := rand.New(rand.NewPCG(seed, 0x73656564))
	s.svc = tournament.NewService(st, rulesetsOf(rs), s.now, tournament.WithSeeds(seeds.Uint64))
	t, err := s.svc.CreateTournament(ctx, headJudge, tournament.TournamentInput{
		Name: fmt.Sprintf("シミュレーション大会 %d人 %d回戦 (seed %d)", players, rounds, seed), Date: "2025-06-01", Venue: "テスト会場",
		Ruleset: rs.Name, Rounds: rounds, SelfReport: tournament.SelfReportApprove,
	})
	if err != nil {
		return tournament.Record{}, err
	}
	s.tid = t.ID
	// One player enters late, after round 1; a few check in late: one
	// after round 1 is paired (it is paired again), the others after it
	// starts (they play from round 2).
	lateEntry, lateCheckIns := players > 8, min(players/10, 3)
	before := players
	if lateEntry {
		before--
	}
	var lateIDs []int64
	for i := range before {
		p, err := s.enter(i, i >= before-lateCheckIns)
		if err != nil {
			return tournament.Record{}, err
		}
		if !p.CheckedIn {
			lateIDs = append(lateIDs, p.ID)
		}
	}
	if err := s.requests(); err != nil {
		return tournament.Record{}, err
	}
	for n := 1; n <= rounds; n++ {
		if err := s.round(n, lateIDs); err != nil {
			return tournament.Record{}, fmt.Errorf("round %d: %w", n, err)
		}
		if n == 1 && lateEntry {
			// The late entry plays from round 2.
			if _, err := s.enter(players-1, false); err != nil {
				return tournament.Record{}, err
			}
		}
		if err := s.drop(n, rounds); err != nil {
			return tournament.Record{}, err
		}
	}
	if err := s.final(); err != nil {
		return tournament.Record{}, fmt.Errorf("the final: %w", err)
	}
	if _, err := s.svc.CloseTournament(ctx, headJudge, s.tid); err != nil {
		return tournament.Record{}, err
	}
	return s.svc.Record(ctx, s.tid)
}

// enter registers player i, checked in unless late.
func (s *simEvent) enter(i int, late bool) (tournament.Player, error) {
	sn, gn := surnames[s.rng.IntN(len(surnames))], givenNames[s.rng.IntN(len(givenNames))]
	in := tournament.PlayerInput{Name: sn[0] + " " + gn[0], Kana: sn[1] + " " + gn[1], CheckedIn: !late,
		// Two people of one name are two people: the simulation says so.
		Person: tournament.PersonChoice{New: true}}
	if i%5 == 0 {
		in.Member = fmt.Sprintf("SIM-%04d", i+1)
	}
	p, err := s.svc.AddPlayer(s.ctx, floorJudge, s.tid, in)
	if err != nil {
		return p, err
	}
	s.codes[p.ID] = p.Code
	return p, nil
}

// requests keeps two pairs of players apart and fixes one to table 1.
func (s *simEvent) requests() error {
	ps, err := s.svc.Players(s.ctx, s.tid)
	if err != nil || len(ps) < 8 {
		return err
	}
	for _, pair := range [][2]int{{0, 1}, {2, 5}} {
		p := ps[pair[0]]
		edit := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana}, FixedTable: p.FixedTable,
			KeepApart: append(p.KeepApart, ps[pair[1]].ID)}
		if _, err := s.svc.EditPlayer(s.ctx, headJudge, s.tid, p.ID, edit); err != nil {
			return err
		}
	}
	p := ps[len(ps)-1]
	_, err = s.svc.EditPlayer(s.ctx, headJudge, s.tid, p.ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana},
		FixedTable: 1, KeepApart: p.KeepApart})
	return err
}

// round plays qualifying round n: paired (and paired again in round 1,
// once the late check-ins came before it started), a swap, each table
// seated and set up, the penalties, the clock, the sheets and reports, a
// correction.
func (s *simEvent) round(n int, lateIDs []int64) error {
	r, err := s.svc.PairNextRound(s.ctx, headJudge, s.tid)
	if err != nil {
		return err
	}
	if n == 1 && len(lateIDs) > 0 {
		if _, err := s.svc.CheckIn(s.ctx, floorJudge, s.tid, lateIDs[0], true); err != nil {
			return err
		}
		if r, err = s.svc.RepairRound(s.ctx, headJudge, s.tid, 1); err != nil {
			return err
		}
	}
	if err := s.swap(n, r); err != nil {
		return err
	}
	if r, err = s.roundOf(n); err != nil {
		return err
	}
	for _, t := range r.Tables {
		if err := s.setUp(n, t); err != nil {
			return fmt.Errorf("table %d: %w", t.Number, err)
		}
	}
	if _, err := s.svc.ClockAction(s.ctx, headJudge, s.tid, n, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		return err
	}
	if n == 1 {
		// The rest of the late check-ins came after the round started:
		// they play from round 2.
		for _, id := range lateIDs[min(1, len(lateIDs)):] {
			if _, err := s.svc.CheckIn(s.ctx, floorJudge, s.tid, id, true); err != nil {
				return err
			}
		}
	}
	if err := s.penalties(n, r); err != nil {
		return err
	}
	return s.play(n, r)
}

func (s *simEvent) roundOf(n int) (tournament.Round, error) {
	v, err := s.svc.RoundView(s.ctx, s.tid, n)
	return v.Round, err
}

// swap trades two players of different tables, as a judge does before a
// round starts; a swap the pairing's rules refuse (a keep-apart pair, a
// fixed table) is left undone, as a judge would.
func (s *simEvent) swap(n int, r tournament.Round) error {
	if len(r.Tables) < 2 || s.rng.IntN(3) == 0 {
		return nil
	}
	a, b := r.Tables[0], r.Tables[len(r.Tables)-1]
	pa, pb := a.Players[s.rng.IntN(len(a.Players))], b.Players[s.rng.IntN(len(b.Players))]
	_, err := s.svc.SwapPlayers(s.ctx, headJudge, s.tid, n, pa, pb, "同じ店舗の常連同士を離す")
	if errors.Is(err, tournament.ErrInvalid) || errors.Is(err, referee.ErrInvalid) {
		return nil
	}
	return err
}

// setUp seats a table (the console rolls, or the players roll and the
// judge enters the rolls) and sets up its board (the console deals, or a
// judge enters the chips dealt by hand).
func (s *simEvent) setUp(n int, t tournament.Table) error {
	in := tournament.SeatingInput{Auto: s.rng.IntN(2) == 0}
	if !in.Auto {
		ids := make([]string, len(t.Players))
		for i, id := range t.Players {
			ids[i] = strconv.FormatInt(id, 10)
		}
		rolls, _, err := referee.RollSeating(s.rs, ids, s.rng.Uint64())
		if err != nil {
			return err
		}
		for _, round := range rolls {
			var rr []tournament.Roll
			for _, r := range round {
				id, _ := strconv.ParseInt(r.Player, 10, 64)
				rr = append(rr, tournament.Roll{PlayerID: id, CapsuleRoll: r.CapsuleRoll})
			}
			in.Rolls = append(in.Rolls, rr)
		}
	}
	if _, err := s.svc.SetSeating(s.ctx, floorJudge, s.tid, n, t.Number, in); err != nil {
		return err
	}
	tb, err := s.svc.SetBoard(s.ctx, floorJudge, s.tid, n, t.Number, tournament.BoardInput{Auto: true})
	if err != nil || s.rs.Board.Method != referee.CapsuleBoard || s.rng.IntN(4) != 0 {
		return err
	}
	// The chips dealt by hand: a deal the dango rule takes, on the same roll.
	hand, err := referee.NewBoard(s.rs, tb.Board.Roll, s.rng.Uint64())
	if err != nil {
		return err
	}
	_, err = s.svc.SetDeal(s.ctx, floorJudge, s.tid, n, t.Number, tournament.DealInput{Chips: hand.Chips()})
	return err
}

// penalties gives a few penalties in round n: a warning given twice (the
// second escalates), now and then a game loss, and one given by mistake
// and revoked.
func (s *simEvent) penalties(n int, r tournament.Round) error {
	if len(s.rs.Penalties) == 0 || len(r.Tables) == 0 {
		return nil
	}
	t := r.Tables[s.rng.IntN(len(r.Tables))]
	who := t.Players[s.rng.IntN(len(t.Players))]
	offence := s.rs.Penalties[s.rng.IntN(len(s.rs.Penalties))].Code
	for range 1 + s.rng.IntN(2) {
		if _, err := s.svc.RecordPenalty(s.ctx, headJudge, s.tid, tournament.PenaltyInput{PlayerID: who, Round: n, Offence: offence, Note: "巡回中に確認"}); err != nil {
			return err
		}
	}
	if s.rng.IntN(3) == 0 {
		other := r.Tables[s.rng.IntN(len(r.Tables))]
		p, err := s.svc.RecordPenalty(s.ctx, headJudge, s.tid, tournament.PenaltyInput{PlayerID: other.Players[0], Round: n, Offence: offence,
			Level: referee.GameLoss, Note: "審判の指示に従わない"})
		if err != nil {
			return err
		}
		if s.rng.IntN(2) == 0 {
			_, err = s.svc.RevokePenalty(s.ctx, headJudge, s.tid, p.ID, "別の卓の選手と取り違えた")
			return err
		}
	}
	return nil
}

// play ends round n's games: declared wins saved at once, then the time
// signal, the games ended by time saved by a judge or reported by the
// players (confirmed, accepted), and now and then a correction.
func (s *simEvent) play(n int, r tournament.Round) error {
	declared := map[int]bool{}
	for _, t := range r.Tables {
		if s.rng.IntN(5) < 3 {
			declared[t.Number] = true
			if err := s.sheet(n, t, true); err != nil {
				return err
			}
		}
	}
	s.at = s.at.Add(time.Duration(s.rs.GameMinutes+90) * time.Minute)
	for _, t := range r.Tables {
		if declared[t.Number] {
			continue
		}
		if s.rng.IntN(4) == 0 {
			if err := s.report(n, t); err != nil {
				return err
			}
			continue
		}
		if err := s.sheet(n, t, false); err != nil {
			return err
		}
	}
	if s.rng.IntN(3) == 0 {
		return s.correct(n, r.Tables[s.rng.IntN(len(r.Tables))])
	}
	return nil
}

// correct corrects a miscount on table t's sheet: one player who did not
// declare victory had a VP more or less.
func (s *simEvent) correct(n int, t tournament.Table) error {
	v, err := s.svc.RoundView(s.ctx, s.tid, n)
	if err != nil {
		return err
	}
	res := v.Tables[t.Number-1].Result
	scores := slices.Clone(res.Scores)
	i := slices.IndexFunc(scores, func(sc tournament.Score) bool { return sc.PlayerID != res.Declared })
	if scores[i].VP >= 9 {
		scores[i].VP--
	} else {
		scores[i].VP++
	}
	scores[i].Breakdown = nil
	_, err = s.svc.SaveResult(s.ctx, floorJudge, s.tid, n, t.Number, tournament.ResultInput{Scores: scores, Declared: res.Declared,
		Version: res.Version, Reason: "集計の誤り"})
	return err
}

// scores draws a table's score sheet: a declared winner with 10 or more
// VP, or a game ended by time (a player now and then over the cap of
// 10, §11), sometimes a line with its VP breakdown.
func (s *simEvent) scores(t tournament.Table, declare bool) ([]tournament.Score, int64) {
	var scores []tournament.Score
	for _, id := range t.Players {
		vp := 2 + s.rng.IntN(8)
		if !declare && s.rng.IntN(20) == 0 {
			vp = 11
		}
		scores = append(scores, tournament.Score{PlayerID: id, VP: vp})
	}
	var winner int64
	if declare {
		w := s.rng.IntN(len(scores))
		scores[w].VP, winner = s.rs.WinVP+s.rng.IntN(2), scores[w].PlayerID
	}
	if i := s.rng.IntN(len(scores)); s.rng.IntN(4) == 0 && scores[i].VP <= 9 {
		vp := scores[i].VP
		cities := (vp - 1) / 2
		scores[i].Breakdown = &referee.Breakdown{Settlements: vp - 2*cities, Cities: cities}
	}
	return scores, winner
}

// sheet saves a judge's first score sheet of table t.
func (s *simEvent) sheet(n int, t tournament.Table, declare bool) error {
	scores, winner := s.scores(t, declare)
	_, err := s.svc.SaveResult(s.ctx, floorJudge, s.tid, n, t.Number, tournament.ResultInput{Scores: scores, Declared: winner})
	return err
}

// report has a player report table t's game, ended by time, the others
// confirm it and a judge accept it.
func (s *simEvent) report(n int, t tournament.Table) error {
	scores, _ := s.scores(t, false)
	by := t.Players[0]
	rep, err := s.svc.ReportResult(s.ctx, s.tid, n, t.Number, by, s.codes[by], tournament.ReportInput{Scores: scores})
	if err != nil {
		return err
	}
	for _, id := range t.Players[1:] {
		if rep, err = s.svc.ConfirmReport(s.ctx, s.tid, rep.ID, id, s.codes[id]); err != nil {
			return err
		}
	}
	_, err = s.svc.AcceptReport(s.ctx, headJudge, s.tid, rep.ID)
	return err
}

// drop drops a player now and then after round n, while enough remain
// for the final.
func (s *simEvent) drop(n, rounds int) error {
	if n == rounds || s.rng.IntN(3) != 0 {
		return nil
	}
	ps, err := s.svc.Players(s.ctx, s.tid)
	if err != nil {
		return err
	}
	var active []tournament.Player
	for _, p := range ps {
		if p.DroppedRound == 0 && p.CheckedIn {
			active = append(active, p)
		}
	}
	if len(active) <= 8 {
		return nil
	}
	_, err = s.svc.DropPlayer(s.ctx, headJudge, s.tid, active[s.rng.IntN(len(active))].ID)
	return err
}

// final makes each stage of a top-cut final and plays it: every table
// seated and set up, won by a declaration.
func (s *simEvent) final() error {
	if s.rs.Event.Final != referee.TopCut {
		return nil
	}
	v, err := s.svc.Final(s.ctx, s.tid)
	if err != nil {
		return err
	}
	for range v.Stages {
		if v, err = s.svc.Final(s.ctx, s.tid); err != nil {
			return err
		}
		if v.Ready != nil {
			// Too few players left for the cut: the event ends without it.
			return nil
		}
		r, err := s.svc.MakeFinal(s.ctx, headJudge, s.tid)
		if err != nil {
			return err
		}
		for _, t := range r.Tables {
			if err := s.setUp(r.Number, t); err != nil {
				return err
			}
		}
		if _, err := s.svc.ClockAction(s.ctx, headJudge, s.tid, r.Number, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
			return err
		}
		for _, t := range r.Tables {
			if err := s.sheet(r.Number, t, true); err != nil {
				return err
			}
		}
	}
	return nil
}
