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
	cols := []text{hRound, hTable, hSeat, hColor, hPlayerNo, hPlayer, hVP, hPlace, hEndedBy, hDeclared, hCorrected}
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
				v[6], v[7] = pl.VP, pl.Place
			}
		}
		if e, ok := endedBy[tv.Result.EndedBy]; ok {
			v[8] = e.in(lang)
		}
		if tv.Result.Declared != 0 {
			v[9] = names[tv.Result.Declared]
		}
		v[10] = max(tv.Table.Revisions, tv.Result.Version) - 1
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
	g, r := gTournament, gRuleset
	lines := []setting{
		{g, sName.in(lang), "tournament.name", t.Name},
		{g, sDate.in(lang), "tournament.date", orNil(t.Date)},
		{g, sVenue.in(lang), "tournament.venue", orNil(t.Venue)},
		{g, sRounds.in(lang), "tournament.rounds", t.Rounds},
		{g, sGameMinutes.in(lang), "tournament.game_minutes", t.GameMinutes},
		{r, sRulesetName.in(lang), "name", rs.Name},
		{r, sRulesetVersion.in(lang), "version", rs.Version},
		{r, sRulesetMinutes.in(lang), "game_minutes", rs.GameMinutes},
		{r, sVPCap.in(lang), "vp_cap", rs.VPCap},
		{r, sWinVP.in(lang), "win_vp", rs.WinVP},
		{r, sDango.in(lang), "dango", string(rs.Dango)},
		{r, sLongestRoadTie.in(lang), "longest_road_tie", string(rs.LongestRoadTie)},
		{r, sBankShortage.in(lang), "bank_shortage", string(rs.BankShortage)},
		{r, sRobberOnDesert.in(lang), "robber_on_desert", rs.RobberOnDesert},
		{r, sColors.in(lang), "colors", strs(len(rs.Colors), func(i int) string { return string(rs.Colors[i]) })},
		{r, sTerrain.in(lang), "layout.terrain", strs(len(rs.Layout.Terrain), func(i int) string { return string(rs.Layout.Terrain[i]) })},
		{r, sHarbors.in(lang), "layout.harbors", strs(len(rs.Layout.Harbors), func(i int) string { return string(rs.Layout.Harbors[i]) })},
		{r, sOrder.in(lang), "standings_order", strs(len(rs.StandingsOrder), func(i int) string { return string(rs.StandingsOrder[i]) })},
		{r, sPlacePoints.in(lang), "placement_points", ints(rs.PlacementPoints)},
		{r, sByeFirsts.in(lang), "bye.firsts", rs.Bye.Firsts},
		{r, sByeVP.in(lang), "bye.vp", rs.Bye.VP},
		{r, sByeShare.in(lang), "bye.share", percent(rs.Bye.Share)},
		{r, sByePoints.in(lang), "bye.points", rs.Bye.Points},
		{r, sByePlayed.in(lang), "bye.played", rs.Bye.Played},
		{r, sLadder.in(lang), "ladder", strs(len(rs.Ladder), func(i int) string { return string(rs.Ladder[i]) })},
		{r, sEscalateFrom.in(lang), "escalate_from", string(rs.EscalateFrom)},
		{r, sDeductVP.in(lang), "deduct_vp", rs.DeductVP},
		{r, sBoardMethod.in(lang), "board.method", string(rs.Board.Method)},
		{r, sPlacementPace.in(lang), "time.placement_seconds_per_settlement", rs.Timing.PlacementSeconds},
		{r, sFinalTurn.in(lang), "time.final_turn_seconds", rs.Timing.FinalTurnSeconds},
		{r, sEndNotice.in(lang), "time.end_notice_minutes", rs.Timing.EndNoticeMinutes},
		{r, sRoundFormats.in(lang), "event.rounds", strs(len(rs.Event.Rounds), func(i int) string { return string(rs.Event.Rounds[i]) })},
		{r, sFinal.in(lang), "event.final", string(rs.Event.Final)},
		{r, sCut.in(lang), "event.cut", ints(rs.Event.Cut)},
		{r, sFinalTies.in(lang), "event.final_ties", string(rs.Event.FinalTies)},
	}
	if rs.Board.Method == referee.SpiralBoard {
		lines = append(lines,
			setting{r, sCorners.in(lang), "board.corners", strs(len(rs.Board.Corners), func(i int) string { return string(rs.Board.Corners[i]) })},
			setting{r, sChips.in(lang), "board.chips", ints(rs.Board.Chips[:])})
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
