package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// orNil leaves an empty cell for an empty text or a zero number.
func orNil[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}

// standingsTable is the 順位表: one line per player, by rank.
func standingsTable(d tournament.ExportData, lang string) table {
	cols := []text{hRank, hName, hKana, hFirsts, hTotalVP, hShare}
	points := slices.Contains(d.Tournament.Ruleset.StandingsOrder, referee.KeyPoints)
	if points {
		cols = append(cols, hPoints)
	}
	cols = append(cols, hPlayed, hPenalties, hDropped)
	st := d.Standings
	return table{name: sheetStandings, cols: cols, n: len(st), row: func(i int, v []any) {
		s := st[i]
		v[0] = s.Rank
		if (i > 0 && st[i-1].Rank == s.Rank) || (i+1 < len(st) && st[i+1].Rank == s.Rank) {
			v[0] = sharedRank(s.Rank)
		}
		v[1], v[2], v[3], v[4], v[5] = s.Name, orNil(s.Kana), s.Firsts, s.VP, percent(s.Share)
		k := 6
		if points {
			v[k] = s.Points
			k++
		}
		v[k], v[k+1], v[k+2] = s.Played, s.Penalties, orNil(s.DroppedRound)
	}}
}

// seatRef is one player at one table of one round, a line of the results.
type seatRef struct{ round, table, seat int32 }

// resultsTable is the 対戦結果: one line per player per game, every table
// of every round, with empty result cells for a game not recorded yet.
func resultsTable(d tournament.ExportData, lang string) table {
	var refs []seatRef
	for r, rv := range d.Rounds {
		for t, tv := range rv.Tables {
			for s := range tv.Players {
				refs = append(refs, seatRef{int32(r), int32(t), int32(s)})
			}
		}
	}
	names := make(map[int64]string, len(d.Players))
	for _, p := range d.Players {
		names[p.ID] = p.Name
	}
	// RULINGS.md, Penalties: a deduction shows as such, the sheet's VP, what
	// the penalties took off and what counts (6, 2, 4), with the penalties.
	// Then the sheet's VP breakdown, where it gave one (§11).
	cols := []text{hRound, hTable, hSeat, hColor, hPlayerNo, hPlayer, hReportedVP, hDeducted, hVP, hPlace, hEndedBy, hDeclared, hCorrected, hDeductedBy,
		hSettlements, hCities, hLongestRoad, hLargestArmy, hPointCards}
	rs := d.Tournament.Ruleset
	sep := "、"
	if lang == "en" {
		sep = "; "
	}
	return table{name: sheetResults, cols: cols, n: len(refs), row: func(i int, v []any) {
		ref := refs[i]
		rv := &d.Rounds[ref.round]
		tv := &rv.Tables[ref.table]
		p := tv.Players[ref.seat]
		v[0], v[1], v[2] = rv.Round.Number, tv.Table.Number, orNil(p.Seat)
		if c, ok := colors[p.Color]; ok {
			v[3] = c.in(lang)
		} else {
			v[3] = orNil(string(p.Color))
		}
		v[4], v[5] = int(p.PlayerID), p.Name
		if tv.Result == nil {
			return
		}
		for _, pl := range tv.Places {
			if pl.PlayerID == p.PlayerID {
				v[6], v[7], v[8], v[9] = pl.Reported, orNil(pl.Deducted), pl.VP, pl.Place
				var why []string
				for _, x := range pl.Penalties {
					name := x.Offence
					if o, ok := rs.Offence(x.Offence); ok {
						name = text{o.NameJA, o.NameEN}.in(lang)
					}
					why = append(why, levelName(x.Level, lang)+": "+name)
				}
				v[13] = orNil(strings.Join(why, sep))
			}
		}
		if e, ok := endedBy[tv.Result.EndedBy]; ok {
			v[10] = e.in(lang)
		}
		if tv.Result.Declared != 0 {
			v[11] = names[tv.Result.Declared]
		}
		v[12] = max(tv.Table.Revisions, tv.Result.Version) - 1
		for _, sc := range tv.Result.Scores {
			if b := sc.Breakdown; sc.PlayerID == p.PlayerID && b != nil {
				v[14], v[15], v[16], v[17], v[18] = b.Settlements, b.Cities, b.LongestRoad, b.LargestArmy, b.PointCards
			}
		}
	}}
}

// playersTable is the 選手 sheet: every player by kana, with their requests.
func playersTable(d tournament.ExportData, lang string) table {
	names := make(map[int64]string, len(d.Players))
	for _, p := range d.Players {
		names[p.ID] = p.Name
	}
	sep := "、"
	if lang == "en" {
		sep = ", "
	}
	cols := []text{hPlayerNo, hName, hKana, hCheckedIn, hLateEntry, hDropped, hFixedTable, hKeepApart}
	return table{name: sheetPlayers, cols: cols, n: len(d.Players), row: func(i int, v []any) {
		p := d.Players[i]
		var apart []string
		for _, o := range p.KeepApart {
			apart = append(apart, names[o])
		}
		v[0], v[1], v[2], v[3] = int(p.ID), p.Name, orNil(p.Kana), p.CheckedIn
		v[4], v[5], v[6], v[7] = orNil(p.LateEntryRound), orNil(p.DroppedRound), orNil(p.FixedTable), orNil(strings.Join(apart, sep))
	}}
}

// penaltiesTable is the ペナルティ sheet: every penalty, oldest first,
// with its rulebook section and level; revoked ones say by whom and why.
func penaltiesTable(d tournament.ExportData, lang string) table {
	names := make(map[int64]string, len(d.Players))
	for _, p := range d.Players {
		names[p.ID] = p.Name
	}
	rs := d.Tournament.Ruleset
	cols := []text{hAt, hRound, hTable, hPlayerNo, hPlayer, hOffence, hSection, hLevel, hJudge, hNote, hRevokedBy, hRevokedWhy}
	return table{name: sheetPenalties, cols: cols, n: len(d.Penalties), row: func(i int, v []any) {
		p := d.Penalties[i]
		offence, section := p.Offence, ""
		if o, ok := rs.Offence(p.Offence); ok {
			offence, section = o.NameJA, o.Section
			if lang == "en" {
				offence = o.NameEN
			}
		}
		v[0], v[1], v[2], v[3], v[4] = p.At.In(time.Local), orNil(p.Round), orNil(p.Table), int(p.PlayerID), names[p.PlayerID]
		v[5], v[6], v[7], v[8], v[9] = offence, orNil(section), levelName(p.Level, lang), p.Judge, orNil(p.Note)
		if p.Revoked != nil {
			v[10], v[11] = p.Revoked.Judge, orNil(p.Revoked.Reason)
		}
	}}
}

// Setting is one setting of a ruleset as the workbook's Settings sheet
// lists it: its label in the workbook's language, its name in the ruleset
// file, and its value.
type Setting struct {
	Label string
	Key   string // the setting's name in the ruleset file, e.g. "layout.harbors"
	Value any    // a number, a bool, or text (lists joined with ", ")
}

// RulesetSettings lists every setting of rs but its penalty catalogue, in
// the ruleset file's order, labelled in lang: the Settings sheet's lines,
// and the console's ruleset page.
func RulesetSettings(rs referee.Ruleset, lang string) []Setting {
	list := func(items []string) string { return strings.Join(items, ", ") }
	ints := func(ns []int) string {
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = strconv.Itoa(n)
		}
		return list(s)
	}
	strs := func(n int, at func(int) string) string {
		s := make([]string, n)
		for i := range s {
			s[i] = at(i)
		}
		return list(s)
	}
	out := []Setting{
		{sRulesetName.in(lang), "name", rs.Name},
		{sRulesetVersion.in(lang), "version", rs.Version},
		{sRulesetMinutes.in(lang), "game_minutes", rs.GameMinutes},
		{sVPCap.in(lang), "vp_cap", rs.VPCap},
		{sWinVP.in(lang), "win_vp", rs.WinVP},
		{sDango.in(lang), "dango", string(rs.Dango)},
		{sLongestRoadTie.in(lang), "longest_road_tie", string(rs.LongestRoadTie)},
		{sBankShortage.in(lang), "bank_shortage", string(rs.BankShortage)},
		{sRobberOnDesert.in(lang), "robber_on_desert", rs.RobberOnDesert},
		{sRequireBreakdown.in(lang), "require_breakdown", rs.RequireBreakdown},
		{sColors.in(lang), "colors", strs(len(rs.Colors), func(i int) string { return string(rs.Colors[i]) })},
		{sTerrain.in(lang), "layout.terrain", strs(len(rs.Layout.Terrain), func(i int) string { return string(rs.Layout.Terrain[i]) })},
		{sHarbors.in(lang), "layout.harbors", strs(len(rs.Layout.Harbors), func(i int) string { return string(rs.Layout.Harbors[i]) })},
		{sOrder.in(lang), "standings_order", strs(len(rs.StandingsOrder), func(i int) string { return string(rs.StandingsOrder[i]) })},
		{sPlacePoints.in(lang), "placement_points", ints(rs.PlacementPoints)},
		{sByeFirsts.in(lang), "bye.firsts", rs.Bye.Firsts},
		{sByeVP.in(lang), "bye.vp", rs.Bye.VP},
		{sByeShare.in(lang), "bye.share", percent(rs.Bye.Share)},
		{sByePoints.in(lang), "bye.points", rs.Bye.Points},
		{sByePlayed.in(lang), "bye.played", rs.Bye.Played},
		{sLadder.in(lang), "ladder", strs(len(rs.Ladder), func(i int) string { return string(rs.Ladder[i]) })},
		{sEscalateFrom.in(lang), "escalate_from", string(rs.EscalateFrom)},
		{sDeductVP.in(lang), "deduct_vp", rs.DeductVP},
		{sBoardMethod.in(lang), "board.method", string(rs.Board.Method)},
		{sPlacementPace.in(lang), "time.placement_seconds_per_settlement", rs.Timing.PlacementSeconds},
		{sFinalTurn.in(lang), "time.final_turn_seconds", rs.Timing.FinalTurnSeconds},
		{sEndNotice.in(lang), "time.end_notice_minutes", rs.Timing.EndNoticeMinutes},
		{sRoundFormats.in(lang), "event.rounds", strs(len(rs.Event.Rounds), func(i int) string { return string(rs.Event.Rounds[i]) })},
		{sFinal.in(lang), "event.final", string(rs.Event.Final)},
		{sCut.in(lang), "event.cut", ints(rs.Event.Cut)},
		{sFinalTies.in(lang), "event.final_ties", string(rs.Event.FinalTies)},
	}
	if rs.Board.Method == referee.SpiralBoard {
		out = append(out,
			Setting{sCorners.in(lang), "board.corners", strs(len(rs.Board.Corners), func(i int) string { return string(rs.Board.Corners[i]) })},
			Setting{sChips.in(lang), "board.chips", ints(rs.Board.Chips[:])})
	}
	return out
}

// setting is one line of the Settings sheet.
type setting struct {
	group text
	label string
	key   string // the setting's name in the ruleset file, or where it was recorded
	value any
}

// settingsTable is the 設定 sheet: the tournament, the ruleset it ran
// under (name, version and every setting, named as in the ruleset file),
// its penalty catalogue, and the seed of every draw, so each pairing,
// seating and board can be replayed. Seeds are text: they have more digits
// than an Excel number keeps.
func settingsTable(d tournament.ExportData, lang string) table {
	t, rs := d.Tournament, d.Tournament.Ruleset
	g := gTournament
	lines := []setting{
		{g, sName.in(lang), "tournament.name", t.Name},
		{g, sDate.in(lang), "tournament.date", orNil(t.Date)},
		{g, sVenue.in(lang), "tournament.venue", orNil(t.Venue)},
		{g, sRounds.in(lang), "tournament.rounds", t.Rounds},
		{g, sGameMinutes.in(lang), "tournament.game_minutes", t.GameMinutes},
	}
	for _, st := range RulesetSettings(rs, lang) {
		lines = append(lines, setting{gRuleset, st.Label, st.Key, st.Value})
	}
	for _, o := range rs.Penalties {
		name := o.NameJA
		if lang == "en" {
			name = o.NameEN
		}
		parts := []string{o.Section, levelName(o.Level, lang)}
		if o.Escalates {
			parts = append(parts, vEscalates.in(lang))
		}
		if o.Remedy != "" {
			parts = append(parts, fmt.Sprintf(vRemedy.in(lang), o.Remedy))
		}
		lines = append(lines, setting{gOffences, name, "penalties." + o.Code, strings.Join(parts, " · ")})
	}
	for _, rv := range d.Rounds {
		n := rv.Round.Number
		key := "rounds." + strconv.Itoa(n)
		seed := func(u uint64) string { return strconv.FormatUint(u, 10) }
		lines = append(lines, setting{gSeeds, fmt.Sprintf(sPairingSeed.in(lang), n, rv.Round.Mode), key + ".pairing_seed", seed(rv.Round.Seed)})
		for _, tv := range rv.Tables {
			tn := tv.Table.Number
			tkey := key + ".tables." + strconv.Itoa(tn)
			if s := tv.Table.Seating; s != nil && s.Auto {
				lines = append(lines, setting{gSeeds, fmt.Sprintf(sSeatingSeed.in(lang), n, tn), tkey + ".seating_seed", seed(s.Seed)})
			}
			if b := tv.Table.Board; b != nil && b.Corner != 0 {
				// National rules: the corner die and the terrain shuffle.
				lines = append(lines,
					setting{gSeeds, fmt.Sprintf(sBoardCorner.in(lang), n, tn), tkey + ".board_corner", b.Corner},
					setting{gSeeds, fmt.Sprintf(sTerrainSeed.in(lang), n, tn), tkey + ".board_seed", seed(b.Seed)})
			} else if b != nil {
				lines = append(lines,
					setting{gSeeds, fmt.Sprintf(sBoardRoll.in(lang), n, tn), tkey + ".board_roll", fmt.Sprintf(vRoll.in(lang), b.Roll.White, b.Roll.Blue)},
					setting{gSeeds, fmt.Sprintf(sBoardSeed.in(lang), n, tn), tkey + ".board_seed", seed(b.Seed)})
				if b.Deal != nil {
					lines = append(lines, setting{gSeeds, fmt.Sprintf(sHandDealt.in(lang), n, tn), tkey + ".deal", vHandDealt.in(lang)})
				}
			}
		}
	}
	cols := []text{hGroup, hSetting, hKey, hValue}
	return table{name: sheetSettings, cols: cols, n: len(lines), row: func(i int, v []any) {
		l := lines[i]
		v[0], v[1], v[2], v[3] = l.group.in(lang), l.label, l.key, l.value
	}}
}
