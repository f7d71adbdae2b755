package web_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// readCounter counts every read of the store, by method: each method of
// tournament.Store that reads.
type readCounter struct {
	*store.Store
	mu sync.Mutex
	n  map[string]int
}

func (c *readCounter) count(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[method]++
}

// take returns the reads counted since the last take, and their total.
func (c *readCounter) take() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, total := c.n, 0
	for _, n := range out {
		total += n
	}
	c.n = nil
	return out, total
}

func (c *readCounter) Tournament(ctx context.Context, id int64) (tournament.Tournament, error) {
	c.count("Tournament")
	return c.Store.Tournament(ctx, id)
}

func (c *readCounter) Tournaments(ctx context.Context) ([]tournament.Tournament, error) {
	c.count("Tournaments")
	return c.Store.Tournaments(ctx)
}

func (c *readCounter) Progress(ctx context.Context, id int64) (tournament.Progress, error) {
	c.count("Progress")
	return c.Store.Progress(ctx, id)
}

func (c *readCounter) Player(ctx context.Context, id int64) (tournament.Player, error) {
	c.count("Player")
	return c.Store.Player(ctx, id)
}

func (c *readCounter) Players(ctx context.Context, id int64) ([]tournament.Player, error) {
	c.count("Players")
	return c.Store.Players(ctx, id)
}

func (c *readCounter) Round(ctx context.Context, id int64, n int) (tournament.Round, error) {
	c.count("Round")
	return c.Store.Round(ctx, id, n)
}

func (c *readCounter) Rounds(ctx context.Context, id int64) ([]tournament.Round, error) {
	c.count("Rounds")
	return c.Store.Rounds(ctx, id)
}

func (c *readCounter) Revisions(ctx context.Context, id int64) ([]tournament.Result, error) {
	c.count("Revisions")
	return c.Store.Revisions(ctx, id)
}

func (c *readCounter) GameMoves(ctx context.Context, id int64) ([]tournament.GameMove, error) {
	c.count("GameMoves")
	return c.Store.GameMoves(ctx, id)
}

func (c *readCounter) Rulings(ctx context.Context, id int64) ([]tournament.Ruling, error) {
	c.count("Rulings")
	return c.Store.Rulings(ctx, id)
}

func (c *readCounter) Penalty(ctx context.Context, id int64) (tournament.Penalty, error) {
	c.count("Penalty")
	return c.Store.Penalty(ctx, id)
}

func (c *readCounter) Penalties(ctx context.Context, id int64) ([]tournament.Penalty, error) {
	c.count("Penalties")
	return c.Store.Penalties(ctx, id)
}

func (c *readCounter) ClockEvents(ctx context.Context, id int64) ([]tournament.ClockEvent, error) {
	c.count("ClockEvents")
	return c.Store.ClockEvents(ctx, id)
}

func (c *readCounter) Report(ctx context.Context, id int64) (tournament.Report, error) {
	c.count("Report")
	return c.Store.Report(ctx, id)
}

func (c *readCounter) Reports(ctx context.Context, id int64) ([]tournament.Report, error) {
	c.count("Reports")
	return c.Store.Reports(ctx, id)
}

func (c *readCounter) TableReports(ctx context.Context, id int64) ([]tournament.Report, error) {
	c.count("TableReports")
	return c.Store.TableReports(ctx, id)
}

func (c *readCounter) MatchPeople(ctx context.Context, names, kanas, members []string) ([]tournament.PersonEntry, error) {
	c.count("MatchPeople")
	return c.Store.MatchPeople(ctx, names, kanas, members)
}

func (c *readCounter) People(ctx context.Context, q tournament.PeopleQuery) ([]tournament.PersonEntry, int, error) {
	c.count("People")
	return c.Store.People(ctx, q)
}

func (c *readCounter) Person(ctx context.Context, id int64) (tournament.PersonEntry, error) {
	c.count("Person")
	return c.Store.Person(ctx, id)
}

func (c *readCounter) PersonEvents(ctx context.Context, id int64, offset, limit int) ([]tournament.PersonEvent, int, error) {
	c.count("PersonEvents")
	return c.Store.PersonEvents(ctx, id, offset, limit)
}

func (c *readCounter) AuditLog(ctx context.Context, id int64) ([]tournament.AuditEntry, error) {
	c.count("AuditLog")
	return c.Store.AuditLog(ctx, id)
}

func (c *readCounter) Table(ctx context.Context, id int64, n, number int) (tournament.TableFacts, error) {
	c.count("Table")
	return c.Store.Table(ctx, id, n, number)
}

func (c *readCounter) Event(ctx context.Context, id int64) (tournament.EventRecord, error) {
	c.count("Event")
	return c.Store.Event(ctx, id)
}

func (c *readCounter) Calls(ctx context.Context, id int64) ([]tournament.Call, error) {
	c.count("Calls")
	return c.Store.Calls(ctx, id)
}

func (c *readCounter) Version(ctx context.Context, id int64) (int64, error) {
	c.count("Version")
	return c.Store.Version(ctx, id)
}

// maxSaveReads is the most reads of the store a table's score save may
// make, whatever the event's size: the table's facts, and its players'
// report when the sheet comes from one.
const maxSaveReads = 2

// A table's score sheet saved reads the store a fixed number of times,
// the same in a shop's 40-player event as in a 1,000-player one of eight
// rounds: through the judges' page (the POST writes and goes back to the
// sheet, building no page) and through the JSON API; so does a board set
// from the judges' page. A page read after a
// change reads the store once for that change, however many pages and
// readers ask: the judges' round, table and score pages, the standings,
// the players, the navigation, the kiosk, the players' pages and the API.
func TestSavesReadTheTableAndPagesReadOncePerChange(t *testing.T) {
	got := map[int][2]map[string]int{}
	for _, players := range []int{40, 1000} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			broker := live.NewBroker(0, 0)
			st := &readCounter{Store: tournamenttest.NewStore(t, store.WithAfterCommit(broker.Committed))}
			env := webtest.New(t, webtest.OnStore(st, st.Store, broker))
			ev, err := tournamenttest.RecordEvent(env.Ctx, st, env.Service, players, 8, 7)
			if err != nil {
				t.Fatal(err)
			}
			tid, round := ev.Tournament.ID, ev.Rounds[7]
			b := env.Browser()
			b.Login("山田")
			base := fmt.Sprintf("/judge/t/%d/rounds/8/tables/", tid)
			form := url.Values{"version": {"0"}, "action": {"save"}, "declared": {"time"}, "reason": {"ジャッジが終了"}}
			for i, id := range round.Tables[0].Players {
				form.Add("player", webtest.Itoa(id))
				form.Set(fmt.Sprintf("vp_%d", id), fmt.Sprint(8-i))
			}
			st.take()
			res := b.Post(base+"1/score", form)
			if res.Status != http.StatusSeeOther || res.Location != base+"1/score" {
				t.Fatalf("POST the score sheet = %d (Location %q), want 303 back to it\n%s", res.Status, res.Location, res.Body)
			}
			page, n := st.take()
			if n > maxSaveReads {
				t.Errorf("the sheet's POST read the store %d times (%v), want at most %d", n, page, maxSaveReads)
			}
			body := `{"version":0,"declared":null,"reason":"ジャッジが終了","scores":[`
			for i, id := range round.Tables[1].Players {
				body += fmt.Sprintf(`%s{"player":%d,"vp":%d}`, map[bool]string{true: ",", false: ""}[i > 0], id, 8-i)
			}
			body += "]}"
			rec := webtest.Do(env.Handler, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/8/tables/2/result", tid), body, "Authorization", "Bearer test-token")
			if rec.Code != http.StatusOK {
				t.Fatalf("PUT the result = %d %s", rec.Code, rec.Body)
			}
			api, n := st.take()
			if n > maxSaveReads {
				t.Errorf("the API's PUT read the store %d times (%v), want at most %d", n, api, maxSaveReads)
			}
			// A board set from the judges' page after those changes, the
			// snapshot not yet read again: the POST reads its table, not
			// the event.
			res = b.Post(base+"3/board", url.Values{"white": {"3"}, "blue": {"5"}})
			if res.Status != http.StatusSeeOther || res.Location != base+"3#board" {
				t.Fatalf("POST the board = %d (Location %q), want 303 back to the table\n%s", res.Status, res.Location, res.Body)
			}
			board, n := st.take()
			if n > maxSaveReads || board["Event"] > 0 {
				t.Errorf("the board's POST read the store %d times (%v), want its table alone", n, board)
			}
			got[players] = [2]map[string]int{page, api}
			t.Logf("%d players: the POST read %v, the PUT %v, the board's POST %v", players, page, api, board)

			// Every page after the change: the first reads the snapshot,
			// the others share it.
			kiosk := fmt.Sprintf("/kiosk/%d", tid)
			paths := []string{
				fmt.Sprintf("/judge/t/%d", tid), fmt.Sprintf("/judge/t/%d/rounds/8", tid), base + "1", base + "1/score",
				fmt.Sprintf("/judge/t/%d/standings", tid), fmt.Sprintf("/judge/t/%d/players", tid),
				kiosk, kiosk + "/live", kiosk + "/rounds/8/tables/1", fmt.Sprintf("/results/%d", tid),
				fmt.Sprintf("/kiosk/%d/players/%d", tid, ev.Players[0].ID),
				fmt.Sprintf("/api/v1/tournaments/%d/rounds/8", tid), fmt.Sprintf("/api/v1/tournaments/%d/standings", tid),
			}
			for range 5 {
				for _, p := range paths {
					if res := b.Get(p); res.Status != http.StatusOK {
						t.Fatalf("GET %s = %d\n%s", p, res.Status, res.Body)
					}
				}
			}
			reads, _ := st.take()
			t.Logf("%d page loads after the change read %v", 5*len(paths), reads)
			if reads["Event"] != 1 {
				t.Errorf("%d page loads after a change read the snapshot %d times, want once", 5*len(paths), reads["Event"])
			}
			// What a page shows of one table beyond the snapshot (its
			// revisions, for the score page) is read once per change too.
			delete(reads, "Event")
			for m, n := range reads {
				if n > 1 {
					t.Errorf("%d page loads after a change read %s %d times, want once at most", 5*len(paths), m, n)
				}
			}
			if strings.Contains(fmt.Sprint(slices.Sorted(maps.Keys(reads))), "Rounds") {
				t.Errorf("a page read every round itself: %v", reads)
			}
		})
	}
	if fmt.Sprint(got[40]) != fmt.Sprint(got[1000]) {
		t.Errorf("a save's reads differ with the event's size: 40 players %v, 1,000 players %v", got[40], got[1000])
	}
}
