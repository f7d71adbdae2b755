package season

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// DefaultAttempts is how many events of a qualification a person may use
// as attempts unless the season says otherwise: the national
// championship's district events allow a player three.
const DefaultAttempts = 3

// maxAttempts bounds a season's attempts.
const maxAttempts = 100

// Qualification is a season whose events are attempts at qualifying (for a
// final, a prize): how many a person may use, which events count, what
// result qualifies, and whether a real name is required.
type Qualification struct {
	// Attempts is how many of the season's counting events a person may
	// enter; entering one more is refused at check-in.
	Attempts int
	// Rank is the final rank in a counting event, or better, that
	// qualifies (1: winning it).
	Rank int
	// RealName requires the person's real name on record before they
	// check in to a counting event (for prizes and the final).
	RealName bool
	// Events are the events that count as attempts (Event.ID); empty, every
	// event of the season.
	Events []string
}

// Check reports a qualification that cannot be kept, as a Violation.
func (q Qualification) Check() error {
	if q.Attempts < 1 || q.Attempts > maxAttempts {
		return referee.NewViolation("qualification-attempts-out-of-range", fmt.Sprintf("attempts %d: 1 to %d", q.Attempts, maxAttempts),
			map[string]any{"Attempts": q.Attempts, "Max": maxAttempts})
	}
	if q.Rank < 1 || q.Rank > maxFormulaRanks {
		return referee.NewViolation("qualification-rank-out-of-range", fmt.Sprintf("qualifying rank %d: 1 to %d", q.Rank, maxFormulaRanks),
			map[string]any{"Rank": q.Rank, "Max": maxFormulaRanks})
	}
	return nil
}

// Counts reports whether event id is an attempt of the qualification.
func (q Qualification) Counts(id string) bool {
	return len(q.Events) == 0 || slices.Contains(q.Events, id)
}

// NextAttempt is the attempt a person makes entering one more counting
// event after used: used+1, or, when they used every attempt allowed, the
// Violation attempts-used, which refuses the check-in.
func (q Qualification) NextAttempt(used int) (int, error) {
	if used >= q.Attempts {
		return 0, referee.NewViolation("attempts-used",
			fmt.Sprintf("%d attempts used of the %d a season allows: no further qualifying event", used, q.Attempts),
			map[string]any{"Used": used, "Attempts": q.Attempts})
	}
	return used + 1, nil
}

// Attempt is one counting event a person entered.
type Attempt struct {
	Event  string
	Date   string
	Number int // 1 for the person's first attempt of the season
	Rank   int // the final rank, 0 while the event has none
	// Over says the attempt is past the allowed (entered before the rule
	// held, or imported): it does not qualify.
	Over bool
}

// Entry is a person's line in the qualification ledger.
type Entry struct {
	Player   int64
	Attempts []Attempt // in the order played
	Used     int       // attempts that count (Over excluded)
	Left     int       // attempts left
	// Qualified is the first counting attempt ranked q.Rank or better;
	// nil when none is.
	Qualified *Attempt
}

// Ledger is each person's attempts at the qualification, in the order the
// events were played (by date), by player ID. entrants are, per event ID,
// the people who took part in it (checked in or played); an event not
// counting (Counts) is left out.
func (q Qualification) Ledger(events []Event, entrants map[string][]int64) []Entry {
	ordered := slices.Clone(events)
	slices.SortStableFunc(ordered, func(a, b Event) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.ID, b.ID))
	})
	byPlayer := map[int64]*Entry{}
	for _, e := range ordered {
		if !q.Counts(e.ID) {
			continue
		}
		rank := map[int64]int{}
		for _, r := range e.Ranks {
			rank[r.Player] = r.Rank
		}
		people := slices.Clone(entrants[e.ID])
		slices.Sort(people)
		for _, p := range slices.Compact(people) {
			en := byPlayer[p]
			if en == nil {
				en = &Entry{Player: p}
				byPlayer[p] = en
			}
			a := Attempt{Event: e.ID, Date: e.Date, Number: len(en.Attempts) + 1, Rank: rank[p], Over: len(en.Attempts) >= q.Attempts}
			en.Attempts = append(en.Attempts, a)
			if !a.Over {
				en.Used++
			}
			if en.Qualified == nil && !a.Over && a.Rank > 0 && a.Rank <= q.Rank {
				qualified := a
				en.Qualified = &qualified
			}
		}
	}
	out := make([]Entry, 0, len(byPlayer))
	for _, p := range ranksOf(byPlayer) {
		en := *byPlayer[p]
		en.Left = max(0, q.Attempts-en.Used)
		out = append(out, en)
	}
	return out
}
