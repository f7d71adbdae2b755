package tournament

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// RecordCheck is what CheckRecord found in a record.
type RecordCheck struct {
	// Disagreements are what the record says and its facts do not make
	// under its ruleset, each with its round and table where it has them:
	// the record does not check while there is one.
	Disagreements []Finding
	// Unchecked are what the record gives without the facts to derive it
	// from (seats without the rolls, a board without its dice and seed,
	// a round without its repeats): said, not failed.
	Unchecked []Finding
	Checked   CheckCounts
	// Repeats are the event's repeat meetings over its qualifying rounds,
	// the sum over pairs of (meetings − 1), and RoundRepeats each round's
	// share of them (0 for a stage of the final).
	Repeats      int
	RoundRepeats []int
	// RoundCosts are each round's pairing cost as its tables make it
	// (pairing.Score; zero for a stage of the final).
	RoundCosts []pairing.Cost
	// Threes and Byes count each player's 3-player tables and byes over
	// the qualifying rounds, by player ID (players without any left out).
	Threes, Byes map[int64]int
}

// Finding is one thing CheckRecord says of a record.
type Finding struct {
	Round, Table int // 0 when it is not of one round, or not of one table
	// What is the part of the record: "ruleset", "players", "pairing",
	// "seating", "board", "result", "placings", "repeats", "exposure",
	// "cut", "standings" or "final"; of a team event "teams" (team-mates
	// at one table) or "team standings".
	What string
	Text string
}

func (f Finding) String() string {
	var at []string
	if f.Round > 0 {
		at = append(at, fmt.Sprintf("round %d", f.Round))
	}
	if f.Table > 0 {
		at = append(at, fmt.Sprintf("table %d", f.Table))
	}
	at = append(at, f.What)
	return strings.Join(at, " ") + ": " + f.Text
}

// CheckCounts counts what CheckRecord derived again and compared.
type CheckCounts struct {
	Rounds, Tables, Seatings, Boards, Results, Revisions, Placings, Cuts int
	Standings, Final                                                     bool
	// TeamStandings says the team standings were derived and compared.
	TeamStandings bool
}

// CheckRecord derives again everything a record's facts decide, with the
// rules the server applies (the referee's, through the same steps as the
// use cases), and compares it with what the record says: that each
// table's players are the round's and everyone is placed once; the seats
// from the capsule rolls (and the rolls from the seed when the console
// rolled); each board from its dice and seed, a judge's deal by the dango
// rule; each table's placings from its latest score sheet and the
// penalties given in the game; the standings from the placings; each
// round's repeats and 3-player-table exposure from the rounds before it;
// each stage of the final from its cut's seed. It reads nothing else: it
// checks a record any program wrote, and one made by hand.
func CheckRecord(r Record) RecordCheck {
	c := &checker{r: r, out: RecordCheck{Threes: map[int64]int{}, Byes: map[int64]int{}}}
	c.run()
	return c.out
}

type checker struct {
	r   Record
	e   record
	out RecordCheck
}

func (c *checker) fail(n, table int, what, format string, args ...any) {
	c.out.Disagreements = append(c.out.Disagreements, Finding{Round: n, Table: table, What: what, Text: fmt.Sprintf(format, args...)})
}

func (c *checker) unchecked(n, table int, what, format string, args ...any) {
	c.out.Unchecked = append(c.out.Unchecked, Finding{Round: n, Table: table, What: what, Text: fmt.Sprintf(format, args...)})
}

// who names a player of the record: their label and ID.
func (c *checker) who(id int64) string {
	if l, ok := c.e.labels[id]; ok && l != "" {
		return fmt.Sprintf("%s (%d)", l, id)
	}
	return fmt.Sprintf("player %d", id)
}

func (c *checker) run() {
	rounds := make([]Round, len(c.r.Rounds))
	for i, rr := range c.r.Rounds {
		rounds[i] = rr.Round
	}
	c.e = eventRecord(c.r.Tournament, c.r.Players, rounds, c.r.Penalties)
	c.e.teams = c.r.Teams
	if err := c.r.Tournament.Ruleset.Validate(); err != nil {
		c.fail(0, 0, "ruleset", "%v: nothing the ruleset decides can be derived", err)
		return
	}
	c.e.t.Ruleset = c.e.t.Ruleset.WithDefaults()
	if !c.players() {
		return
	}
	c.teamSizes()
	sound, final := true, false
	for i, rr := range c.r.Rounds {
		c.out.Checked.Rounds++
		if rr.Number != i+1 {
			c.fail(rr.Number, 0, "pairing", "the record's round %d is numbered %d: rounds are numbered 1, 2, 3 … in order", i+1, rr.Number)
			return
		}
		if final && rr.Mode != ModeFinal {
			c.fail(rr.Number, 0, "pairing", "a %s round follows a stage of the final: the final's stages come after every qualifying round", rr.Mode)
			return
		}
		final = rr.Mode == ModeFinal
		c.out.RoundRepeats, c.out.RoundCosts = append(c.out.RoundRepeats, 0), append(c.out.RoundCosts, pairing.Cost{})
		if len(rr.Tables) != len(rr.Round.Tables) {
			c.fail(rr.Number, 0, "pairing", "the round has %d tables and the history of %d", len(rr.Round.Tables), len(rr.Tables))
			return
		}
		placed, sized := c.seated(rr)
		if !placed {
			sound = false
			continue
		}
		if sized {
			c.repeats(i, rr)
		}
		c.teamRound(rr)
		for k := range rr.Round.Tables {
			c.table(rr, k)
		}
		if rr.Mode == ModeFinal {
			c.cut(i, rr)
		}
	}
	if sound {
		c.standings()
		c.teamStandings()
		c.final()
	}
}

// eventRecord indexes a tournament's facts as Service.load does, for a
// use case or a check that decides from them.
func eventRecord(t Tournament, players []Player, rounds []Round, penalties []Penalty) record {
	e := record{t: t, players: players, rounds: rounds, penalties: penalties}
	e.byID = make(map[int64]int, len(players))
	for i, p := range players {
		e.byID[p.ID] = i
	}
	e.labels = Labels(players)
	e.sanctions = map[entry][]referee.Sanction{}
	e.gamePenalties = map[entry][]Penalty{}
	for _, p := range penalties {
		if p.Revoked == nil && p.Round != 0 {
			k := entry{p.Round, p.PlayerID}
			e.sanctions[k] = append(e.sanctions[k], referee.Sanction{Player: pid(p.PlayerID), Level: p.Level})
			e.gamePenalties[k] = append(e.gamePenalties[k], p)
		}
	}
	return e
}

// players checks that every player is named once and every reference to
// a player names one; false when the record cannot be read further.
func (c *checker) players() bool {
	ok := true
	seen := map[int64]bool{}
	for _, p := range c.r.Players {
		switch {
		case p.ID <= 0:
			c.fail(0, 0, "players", "%s has ID %d: a player's ID is a positive number", p.Name, p.ID)
			ok = false
		case seen[p.ID]:
			c.fail(0, 0, "players", "two players have ID %d", p.ID)
			ok = false
		}
		seen[p.ID] = true
	}
	for _, p := range c.r.Players {
		for _, o := range p.KeepApart {
			if !seen[o] || o == p.ID {
				c.fail(0, 0, "players", "%s is kept apart from player %d, who is not another player of the event", c.who(p.ID), o)
			}
		}
	}
	for _, pen := range c.r.Penalties {
		if !seen[pen.PlayerID] {
			c.fail(pen.Round, pen.Table, "players", "a penalty (%s) is given to player %d, who is not a player of the event", pen.Level, pen.PlayerID)
			ok = false
		}
	}
	return ok
}

// seated checks that round rr seats its players once each, players of
// the event who play the round (placed), at tables numbered 1, 2, … of 3
// or 4 players as pairing.Sizes splits them (sized; a final's stage seats
// its cut).
func (c *checker) seated(rr RecordRound) (placed, sized bool) {
	n, ok, sized := rr.Number, true, true
	at := map[int64]int{} // player → table, -1 for a bye
	place := func(id int64, table int) {
		where := "a bye"
		if table > 0 {
			where = fmt.Sprintf("table %d", table)
		}
		switch prev, twice := at[id]; {
		case !c.known(id):
			c.fail(n, max(table, 0), "players", "player %d at %s is not a player of the event", id, where)
			ok = false
		case twice:
			other := "a bye"
			if prev > 0 {
				other = fmt.Sprintf("table %d", prev)
			}
			c.fail(n, max(table, 0), "players", "%s is at %s and at %s: a player is placed once a round", c.who(id), other, where)
			ok = false
		default:
			if p, _ := c.e.player(id); !p.Active(n) && rr.Mode != ModeFinal {
				c.fail(n, max(table, 0), "players", "%s is at %s but plays rounds %s", c.who(id), where, activeRounds(p))
			}
		}
		at[id] = table
	}
	for i, t := range rr.Round.Tables {
		if t.Number != i+1 {
			c.fail(n, t.Number, "pairing", "the round's table %d is numbered %d: tables are numbered 1, 2, 3 … in order", i+1, t.Number)
			ok = false
		}
		if len(t.Players) < 3 || len(t.Players) > 4 {
			c.fail(n, t.Number, "pairing", "the table seats %d players: a table seats 3 or 4", len(t.Players))
			sized = false
		}
		for _, id := range t.Players {
			place(id, t.Number)
		}
	}
	for _, id := range rr.Byes {
		place(id, -1)
	}
	if !ok || !sized || rr.Mode == ModeFinal {
		return ok, sized
	}
	sizes, byes, err := pairing.Sizes(len(at))
	if err != nil {
		c.fail(n, 0, "pairing", "%v", err)
		return ok, false
	}
	var got []int
	for _, t := range rr.Round.Tables {
		got = append(got, len(t.Players))
	}
	slices.SortFunc(got, func(a, b int) int { return b - a })
	if !slices.Equal(got, sizes) || len(rr.Byes) != byes {
		c.fail(n, 0, "pairing", "%d players sit at tables of %s with %d byes, as many tables of 4 as can be (pairing.Sizes); the round has %s and %d",
			len(at), sizesText(sizes), byes, sizesText(got), len(rr.Byes))
		return ok, false
	}
	return ok, true
}

func (c *checker) known(id int64) bool {
	_, ok := c.e.byID[id]
	return ok
}

// activeRounds says which rounds a player plays, for a message.
func activeRounds(p Player) string {
	from := max(p.LateEntryRound, 1)
	if p.DroppedRound == 0 {
		return fmt.Sprintf("%d on (entered late)", from)
	}
	if p.DroppedRound <= from {
		return "none (dropped before entering)"
	}
	return fmt.Sprintf("%d to %d (dropped after round %d)", from, p.DroppedRound-1, p.DroppedRound-1)
}

func sizesText(sizes []int) string {
	parts := make([]string, len(sizes))
	for i, s := range sizes {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, ", ")
}

// repeats counts round i's repeat meetings and 3-player-table exposure
// against the rounds before it (pairing.Score, as the draw counted them)
// and compares them with the round's record. A stage of the final is not
// a pairing: its players come from the cut.
func (c *checker) repeats(i int, rr RecordRound) {
	if rr.Mode == ModeFinal {
		return
	}
	n := rr.Number
	var who []int64
	for _, t := range rr.Round.Tables {
		who = append(who, t.Players...)
		if len(t.Players) == 3 {
			for _, id := range t.Players {
				c.out.Threes[id]++
			}
		}
	}
	who = append(who, rr.Byes...)
	for _, id := range rr.Byes {
		c.out.Byes[id]++
	}
	req := pairing.Request{}
	// The meetings, 3-player tables and byes before the round, as a
	// pairing request gives them (record.request); the players' requests
	// (fixed tables, keep-apart) are as they are now, not as they were.
	in := map[int64]bool{}
	for _, id := range who {
		in[id] = true
	}
	for _, p := range c.e.players {
		if in[p.ID] {
			req.Players = append(req.Players, pairing.Player{ID: pid(p.ID)})
		}
	}
	for _, er := range c.e.rounds[:i] {
		for _, t := range er.Tables {
			req.History = append(req.History, pids(t.Players))
		}
		for _, b := range er.Byes {
			req.History = append(req.History, []string{pid(b)})
		}
	}
	tables := make([][]string, len(rr.Round.Tables))
	for k, t := range rr.Round.Tables {
		tables[k] = pids(t.Players)
	}
	scored, err := pairing.Score(req, tables, pids(rr.Byes))
	if err != nil {
		c.fail(n, 0, "pairing", "%v", c.e.named(err))
		return
	}
	c.out.RoundRepeats[i], c.out.RoundCosts[i] = scored.Repeats, scored.Cost
	c.out.Repeats += scored.Repeats
	switch {
	case rr.Unscored:
		c.unchecked(n, 0, "repeats", "the record gives no repeats; the tables make %d", scored.Repeats)
	case scored.Repeats != rr.Repeats:
		c.fail(n, 0, "repeats", "the round records %d repeat meetings; its tables and the rounds before make %d", rr.Repeats, scored.Repeats)
	}
	if rr.Uncosted {
		c.unchecked(n, 0, "exposure", "the record gives no pairing cost; the tables make meetings %d, exposure %d",
			scored.Cost.Meetings, scored.Cost.Exposure)
		return
	}
	if scored.Cost.Meetings != rr.Cost.Meetings {
		c.fail(n, 0, "repeats", "the round records meetings cost %d; its tables and the rounds before make %d", rr.Cost.Meetings, scored.Cost.Meetings)
	}
	if scored.Cost.Exposure != rr.Cost.Exposure {
		c.fail(n, 0, "exposure", "the round records 3-player-table and bye exposure %d; its tables and the rounds before make %d",
			rr.Cost.Exposure, scored.Cost.Exposure)
	}
}

// cut derives the stage of the final that round i is (record.cut, as
// MakeFinal made it) from the rounds before it and the cut's seed.
func (c *checker) cut(i int, rr RecordRound) {
	n := rr.Number
	rs := c.e.t.Ruleset
	if rs.Event.Final != referee.TopCut {
		c.fail(n, 0, "cut", "the round is a stage of a final, but ruleset %s has no top-cut final (its final is %q)", rs.Name, rs.Event.Final)
		return
	}
	if rr.Cut == nil {
		c.fail(n, 0, "cut", "the stage of the final records no cut: who advanced, the draw and its seed")
		return
	}
	before := c.e.after(i)
	stage := len(before.finals()) + 1
	if rr.Cut.Stage != stage {
		c.fail(n, 0, "cut", "the cut records stage %d; it is stage %d of the final", rr.Cut.Stage, stage)
	}
	advancing, draw, tables, err := before.cut(rs.Event.Stages(), rr.Cut.Seed)
	if err != nil {
		c.fail(n, 0, "cut", "the cut cannot be made from the rounds before it: %v", err)
		return
	}
	c.out.Checked.Cuts++
	if got := fromPIDs(advancing); !slices.Equal(got, rr.Cut.Advancing) {
		c.fail(n, 0, "cut", "the cut records %s advancing; the standings and the seed %d advance %s", c.list(rr.Cut.Advancing), rr.Cut.Seed, c.list(got))
	}
	if got := fromPIDs(draw); !slices.Equal(got, rr.Cut.Draw) {
		c.fail(n, 0, "cut", "the cut records the draw %s; the seed %d draws %s", c.list(rr.Cut.Draw), rr.Cut.Seed, c.list(got))
	}
	for k, want := range tables {
		if k >= len(rr.Round.Tables) {
			c.fail(n, k+1, "cut", "the stage has no table %d; the cut seats %s there", k+1, c.list(fromPIDs(want)))
			continue
		}
		if t := rr.Round.Tables[k]; !slices.Equal(t.Players, fromPIDs(want)) {
			c.fail(n, t.Number, "cut", "the table seats %s; the cut seats %s there (referee.SeatFinal)", c.list(t.Players), c.list(fromPIDs(want)))
		}
	}
	if len(rr.Round.Tables) > len(tables) {
		c.fail(n, 0, "cut", "the stage has %d tables; the cut seats %d", len(rr.Round.Tables), len(tables))
	}
}

func (c *checker) list(ids []int64) string {
	if len(ids) == 0 {
		return "nobody"
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = c.who(id)
	}
	return strings.Join(names, ", ")
}

// standings derives the standings from the placings (record.standings)
// and compares them with the record's.
func (c *checker) standings() {
	if c.r.Standings == nil {
		c.unchecked(0, 0, "standings", "the record gives no standings")
		return
	}
	got, err := c.e.standings()
	if err != nil {
		c.fail(0, 0, "standings", "the standings cannot be derived: %v", err)
		return
	}
	c.out.Checked.Standings = true
	want := map[int64]Standing{}
	for _, s := range c.r.Standings {
		want[s.PlayerID] = s
	}
	for _, g := range got {
		w, ok := want[g.PlayerID]
		delete(want, g.PlayerID)
		if !ok {
			c.fail(0, 0, "standings", "%s is not in the record's standings; the placings rank them %d", c.who(g.PlayerID), g.Rank)
			continue
		}
		if d := standingDiff(w, g); d != "" {
			c.fail(0, 0, "standings", "%s: %s", c.who(g.PlayerID), d)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(want)) {
		c.fail(0, 0, "standings", "player %d is in the record's standings but not a player of the event", id)
	}
}

// standingDiff says how the record's line w differs from the derived g.
func standingDiff(w, g Standing) string {
	var d []string
	for _, f := range []struct {
		name      string
		rec, made int
	}{{"rank", w.Rank, g.Rank}, {"1st places", w.Firsts, g.Firsts}, {"VP", w.VP, g.VP}, {"placement points", w.Points, g.Points},
		{"games played", w.Played, g.Played}, {"byes", w.Byes, g.Byes}} {
		if f.rec != f.made {
			d = append(d, fmt.Sprintf("%s %d, the placings make %d", f.name, f.rec, f.made))
		}
	}
	// A share written in decimal by another program may differ in its last
	// digits: 1e-6 is far below the 4 decimals every page shows.
	if math.Abs(w.Share-g.Share) > 1e-6 {
		d = append(d, fmt.Sprintf("VP share %.4f, the placings make %.4f", w.Share, g.Share))
	}
	return strings.Join(d, "; ")
}

// final derives the final results (record.finalStandings) and compares
// them with the record's.
func (c *checker) final() {
	if c.r.Final == nil {
		c.unchecked(0, 0, "final", "the record gives no final results")
		return
	}
	got, err := c.e.finalStandings()
	if err != nil {
		c.fail(0, 0, "final", "the final results cannot be derived: %v", err)
		return
	}
	c.out.Checked.Final = true
	key := func(f FinalStanding) string {
		return fmt.Sprintf("rank %d, stage %d, place %d", f.Rank, f.Stage, f.Place)
	}
	want := map[int64]FinalStanding{}
	for _, f := range c.r.Final {
		want[f.PlayerID] = f
	}
	if len(got) == 0 && len(want) > 0 {
		c.fail(0, 0, "final", "the record gives final results, but the final is not played")
		return
	}
	for _, g := range got {
		w, ok := want[g.PlayerID]
		switch {
		case !ok:
			c.fail(0, 0, "final", "%s is not in the record's final results; the final ranks them %s", c.who(g.PlayerID), key(g))
		case key(w) != key(g):
			c.fail(0, 0, "final", "%s: the record says %s; the final makes %s", c.who(g.PlayerID), key(w), key(g))
		}
	}
	if len(got) > 0 && len(want) > len(got) {
		c.fail(0, 0, "final", "the record's final results list %d players; the event has %d", len(want), len(got))
	}
}
