package tournamenttest

import (
	"fmt"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// LargeEvent is a synthetic finished event under rs of players (a multiple
// of 4) over rounds, for benchmarks: every table seated, set up and
// recorded, with a penalty at one table in ten.
func LargeEvent(rs referee.Ruleset, players, rounds int) tournament.ExportData {
	at := time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)
	d := tournament.ExportData{Tournament: tournament.Tournament{ID: 1, Name: "全国大会", Ruleset: rs, Rounds: rounds, GameMinutes: 7}}
	for i := range players {
		d.Players = append(d.Players, tournament.Player{ID: int64(i + 1), TournamentID: 1, Name: fmt.Sprintf("選手%05d", i+1), Kana: fmt.Sprintf("せんしゅ%05d", i+1), CheckedIn: true})
		d.Standings = append(d.Standings, tournament.Standing{Rank: i + 1, PlayerID: int64(i + 1), Name: d.Players[i].Name, Label: d.Players[i].Name, Kana: d.Players[i].Kana, Firsts: i % 4, VP: 50 - i%30, Share: 0.25 * float64(rounds), Played: rounds})
	}
	for n := 1; n <= rounds; n++ {
		rv := tournament.RoundView{Round: tournament.Round{Number: n, Mode: tournament.ModeSwiss, Seed: uint64(n) * 0x9E3779B97F4A7C15}}
		for t := range players / 4 {
			tv := tournament.TableView{Table: tournament.Table{Number: t + 1, Revisions: 1,
				Seating: &tournament.Seating{Auto: true, Seed: uint64(t)},
				Board:   &tournament.BoardRecord{Roll: referee.CapsuleRoll{White: 1 + t%6, Blue: 1 + n%6}, Seed: uint64(t * n)}}}
			res := &tournament.Result{Version: 1, EndedBy: tournament.EndedByTime}
			for s := range 4 {
				id := int64((t*4+s+n*7)%players + 1)
				tv.Players = append(tv.Players, tournament.SeatView{PlayerID: id, Name: d.Players[id-1].Name, Label: d.Players[id-1].Name, Seat: s + 1, Color: rs.Colors[s]})
				tv.Places = append(tv.Places, tournament.Placing{PlayerID: id, VP: 9 - s, Place: s + 1})
			}
			tv.Result = res
			rv.Tables = append(rv.Tables, tv)
			if t%10 == 0 {
				d.Penalties = append(d.Penalties, tournament.Penalty{PlayerID: tv.Players[0].PlayerID, Round: n, Table: t + 1, Offence: "note-taking", Level: referee.Warning, Judge: "山田", At: at, Note: "メモ"})
			}
		}
		d.Rounds = append(d.Rounds, rv)
	}
	return d
}

// HeapPeak samples the live heap every 5 ms until stopped and reports the
// largest sample, for benchmarks of peak memory.
func HeapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		mu   sync.Mutex
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	read := func() {
		metrics.Read(sample)
		mu.Lock()
		peak = max(peak, sample[0].Value.Uint64())
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		read()
		return peak
	}
}
