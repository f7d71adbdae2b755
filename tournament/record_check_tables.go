package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// table checks table k of round rr: its seating, its board and its score
// sheets.
func (c *checker) table(rr RecordRound, k int) {
	t, rt := rr.Round.Tables[k], rr.Tables[k]
	c.out.Checked.Tables++
	if t.Seating != nil {
		c.seating(rr.Number, t)
	}
	if t.Board != nil || rt.Board != nil {
		c.board(rr.Number, t, rt)
	}
	c.results(rr.Number, t, rt)
}

// seating derives the table's play order and colours from its capsule
// rolls (referee.SeatTable, §3 オ, カ), and the rolls from the seed when the
// console rolled for the table (referee.RollSeating).
func (c *checker) seating(n int, t Table) {
	s, rs := t.Seating, c.e.t.Ruleset
	var seated []int64
	var orders []int
	for _, st := range s.Seats {
		seated, orders = append(seated, st.PlayerID), append(orders, st.Order)
	}
	slices.Sort(orders)
	if !sameMembers(seated, t.Players) {
		c.fail(n, t.Number, "seating", "the seats are %s; the table's players are %s", c.list(seated), c.list(t.Players))
		return
	}
	for i, o := range orders {
		if o != i+1 {
			c.fail(n, t.Number, "seating", "the seats are numbered %v: a table plays in the order 1, 2, 3 …", orders)
			return
		}
	}
	if len(s.Rolls) == 0 {
		c.unchecked(n, t.Number, "seating", "the seats are given without the capsule rolls that decided them")
		return
	}
	c.out.Checked.Seatings++
	if !sameMembers(rollers(s.Rolls[0]), t.Players) {
		c.fail(n, t.Number, "seating", "the first capsule rolls are %s: one for each player at the table", c.list(rollers(s.Rolls[0])))
		return
	}
	var rolls [][]referee.Roll
	for _, round := range s.Rolls {
		var rr []referee.Roll
		for _, r := range round {
			rr = append(rr, referee.Roll{Player: pid(r.PlayerID), CapsuleRoll: r.CapsuleRoll})
		}
		rolls = append(rolls, rr)
	}
	seats, err := referee.SeatTable(rs, rolls)
	if te := (*referee.TieError)(nil); errors.As(err, &te) {
		c.fail(n, t.Number, "seating", "the capsule rolls leave %s tied: they must roll again before the seats are decided", c.list(fromPIDs(te.Players())))
		return
	}
	if err != nil {
		c.fail(n, t.Number, "seating", "the capsule rolls: %v", c.e.named(err))
		return
	}
	for _, want := range seats {
		i := slices.IndexFunc(s.Seats, func(st Seat) bool { return st.Order == want.Order })
		got := s.Seats[i]
		if got.PlayerID != fromPID(want.Player) || got.Color != want.Color {
			c.fail(n, t.Number, "seating", "seat %d is %s (%s); the capsule rolls put %s (%s) there", want.Order,
				c.who(got.PlayerID), got.Color, c.who(fromPID(want.Player)), want.Color)
		}
	}
	if s.Auto {
		seeded, _, err := referee.RollSeating(rs, pids(t.Players), s.Seed)
		if err != nil || !sameRolls(seeded, rolls) {
			c.fail(n, t.Number, "seating", "the console rolled for the table from seed %d, which rolls %s; the record gives %s",
				s.Seed, rollsText(seeded), rollsText(rolls))
		}
	}
}

func sameRolls(a, b [][]referee.Roll) bool {
	return slices.EqualFunc(a, b, func(x, y []referee.Roll) bool { return slices.Equal(x, y) })
}

func rollsText(rounds [][]referee.Roll) string {
	var parts []string
	for _, round := range rounds {
		var rr []string
		for _, r := range round {
			rr = append(rr, fmt.Sprintf("%s:%d+%d", r.Player, r.White, r.Blue))
		}
		parts = append(parts, strings.Join(rr, " "))
	}
	return "[" + strings.Join(parts, " | ") + "]"
}

// board derives the table's board from its dice and seed (boardOf, as the
// console sets it up: §3 イ, ウ with the dango rule, or the national
// rules' spiral), checks a judge's deal by the dango rule (§3 ウ), and
// compares the board the record gives.
func (c *checker) board(n int, t Table, rt RecordTable) {
	rs := c.e.t.Ruleset
	if t.Board == nil {
		c.unchecked(n, t.Number, "board", "the board is given without the dice and the seed that set it up")
		if rs.Board.Method == referee.CapsuleBoard {
			c.deal(n, t.Number, 0, rt.Board.Chips(), "the board's chips")
		}
		return
	}
	made, err := boardOf(rs, *t.Board)
	if err != nil {
		c.fail(n, t.Number, "board", "the board cannot be set up from its dice and seed: %v", err)
		return
	}
	c.out.Checked.Boards++
	if t.Board.Deal != nil {
		c.deal(n, t.Number, t.Board.Roll.White, t.Board.Deal, "the judge's deal")
	}
	if rt.Board == nil {
		return
	}
	what := fmt.Sprintf("the dice and the seed %d", t.Board.Seed)
	if t.Board.Deal != nil {
		what = "the judge's deal"
	}
	for _, tile := range made.Tiles {
		got, _ := rt.Board.TileAt(tile.Hex)
		if got.Terrain != tile.Terrain {
			c.fail(n, t.Number, "board", "hex %v is %s; %s make it %s", tile.Hex, cmp.Or(string(got.Terrain), "missing"), what, tile.Terrain)
		}
		if got.Number != tile.Number {
			c.fail(n, t.Number, "board", "the chip on %v is %s; %s put %s there", tile.Hex, chipText(got.Number), what, chipText(tile.Number))
		}
	}
	if rt.Board.Harbors != made.Harbors {
		c.fail(n, t.Number, "board", "the harbours are not those %s set up", what)
	}
	if rt.Board.HasRobber != made.HasRobber || rt.Board.Robber != made.Robber {
		c.fail(n, t.Number, "board", "the robber is on %v; the board starts it on %v (§3 エ)", rt.Board.Robber, made.Robber)
	}
}

func chipText(n int) string {
	if n == 0 {
		return "no chip"
	}
	return fmt.Sprint(n)
}

// deal checks number chips as dealt by the dango rule (referee.CheckDeal,
// §3 ウ): the 18 chips, one on each land hex but the desert, no red chips
// clumped as the ruleset's dango policy forbids.
func (c *checker) deal(n, table, white int, chips []referee.Chip, what string) {
	check, err := referee.CheckDeal(c.e.t.Ruleset, white, chips)
	if err != nil {
		c.fail(n, table, "board", "%s: %v", what, err)
		return
	}
	if check.Redeal {
		c.fail(n, table, "board", "%s clumps red chips on %s: the dango rule (§3 ウ) has them collected and dealt again", what,
			strings.Join(clumpTexts(check.Clumps), "; "))
	}
}

// clumpTexts writes each clump of red chips as its hexes, "(0,1) (1,1)".
func clumpTexts(clumps [][]referee.Hex) []string {
	var out []string
	for _, cl := range clumps {
		var hs []string
		for _, h := range cl {
			hs = append(hs, h.String())
		}
		out = append(out, strings.Join(hs, " "))
	}
	return out
}

// results checks every revision of the table's score sheet (its players,
// its declared winner, its breakdowns by referee.CheckSheet, that it
// places) and derives the placings of the latest with the penalties given
// in the game (record.placings).
func (c *checker) results(n int, t Table, rt RecordTable) {
	if len(rt.Revisions) == 0 {
		if len(rt.Places) > 0 {
			c.fail(n, t.Number, "placings", "the record places the table, which has no score sheet")
		}
		return
	}
	c.out.Checked.Results++
	ok := true
	for i, rev := range rt.Revisions {
		c.out.Checked.Revisions++
		if rev.Version != i+1 {
			c.fail(n, t.Number, "result", "revision %d of the score sheet is numbered %d: revisions are numbered 1, 2, 3 … in order", i+1, rev.Version)
		}
		var ids []int64
		for _, sc := range rev.Scores {
			ids = append(ids, sc.PlayerID)
		}
		in := ResultInput{Scores: rev.Scores, Declared: rev.Declared}
		if err := c.e.checkLines(n, t, in); err != nil {
			c.fail(n, t.Number, "result", "revision %d scores %s; the table's players are %s", rev.Version, c.list(ids), c.list(t.Players))
			ok = false
			continue
		}
		if byTime := rev.Declared == 0; byTime != (rev.EndedBy == EndedByTime) {
			c.fail(n, t.Number, "result", "revision %d ends by %q, with %s declaring victory", rev.Version, rev.EndedBy, declaredText(c, rev.Declared))
		}
		if _, err := c.e.checkSheet(in); err != nil {
			c.fail(n, t.Number, "result", "revision %d: %v", rev.Version, err)
			ok = false
			continue
		}
		if _, err := c.e.place(n, rev); err != nil {
			c.fail(n, t.Number, "result", "revision %d cannot be placed: %v", rev.Version, c.e.named(err))
			ok = false
		}
	}
	latest := rt.Revisions[len(rt.Revisions)-1]
	switch {
	case !ok:
		return
	case rt.Places == nil:
		c.unchecked(n, t.Number, "placings", "the record gives no placings of the latest score sheet (revision %d)", latest.Version)
		return
	}
	made, err := c.e.placings(n, latest)
	if err != nil {
		c.fail(n, t.Number, "placings", "%v", c.e.named(err))
		return
	}
	c.out.Checked.Placings++
	given := map[int64]Placing{}
	for _, p := range rt.Places {
		given[p.PlayerID] = p
	}
	for _, m := range made {
		g, found := given[m.PlayerID]
		switch {
		case !found:
			c.fail(n, t.Number, "placings", "%s is not placed; revision %d places them %d with %d VP", c.who(m.PlayerID), latest.Version, m.Place, m.VP)
		case g.Place != m.Place || g.VP != m.VP:
			c.fail(n, t.Number, "placings", "%s is placed %d with %d VP; revision %d of the score sheet and the penalties place them %d with %d VP",
				c.who(m.PlayerID), g.Place, g.VP, latest.Version, m.Place, m.VP)
		case g.Reported != m.Reported || g.Deducted != m.Deducted:
			c.fail(n, t.Number, "placings", "%s's VP are %d on the sheet, %d taken off; revision %d of the score sheet says %d and the penalties take off %d",
				c.who(m.PlayerID), g.Reported, g.Deducted, latest.Version, m.Reported, m.Deducted)
		}
	}
	if len(given) > len(made) {
		c.fail(n, t.Number, "placings", "the record places %d players at the table of %d", len(given), len(made))
	}
}

func declaredText(c *checker, id int64) string {
	if id == 0 {
		return "nobody"
	}
	return c.who(id)
}
