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

// standingsTable is the 順位表: one line per player, by rank. The rank is
// a plain number, so the sheet sorts back into order; a shared rank says
// in its own column how many share it.
func standingsTable(d tournament.ExportData, lang string) table {
	cols := []text{hRank, hTied, hName, hKana, hFirsts, hTotalVP, hShare}
	points := slices.Contains(d.Tournament.Ruleset.StandingsOrder, referee.KeyPoints)
	if points {
		cols = append(cols, hPoints)
	}
	cols = append(cols, hPlayed, hPenalties, hDropped)
	st := d.Standings
	sharing := map[int]int{} // by rank, how many players hold it
	for _, s := range st {
		sharing[s.Rank]++
	}
	order := wordList(standingsKeyWords, d.Tournament.Ruleset.StandingsOrder, stepSep, lang)
	return table{name: sheetStandings, title: standingsTitle(d, lang), note: fmt.Sprintf(nStandingsOrder.in(lang), order) + nShare.in(lang),
		cols: cols, n: len(st), row: func(i int, v []any) {
			s := st[i]
			v[0] = s.Rank
			if n := sharing[s.Rank]; n > 1 {
				v[1] = tied(n)
			}
			v[2], v[3], v[4], v[5], v[6] = s.Name, orNil(tournament.Hiragana(s.Kana)), s.Firsts, s.VP, percent(s.Share)
			k := 7
			if points {
				v[k] = s.Points
				k++
			}
			v[k], v[k+1] = s.Played, s.Penalties
			if s.DroppedRound != 0 {
				v[k+2] = fromRound(s.DroppedRound)
			}
		}}
}

// standingsTitle says what results the standings count: the final
// standings of a closed tournament, the standings after the last round
// with every result in, or so far, with the results entered in a round
// still being played.
func standingsTitle(d tournament.ExportData, lang string) string {
	if q := qualifyingTitle(d, lang); q != "" {
		return q
	}
	if d.Tournament.Closed != nil {
		return tStandingsFinal.in(lang)
	}
	for i := len(d.Rounds) - 1; i >= 0; i-- {
		rv := d.Rounds[i]
		if len(rv.Tables) == 0 {
			continue
		}
		done := 0
		for _, tv := range rv.Tables {
			if tv.Result != nil {
				done++
			}
		}
		switch {
		case done == len(rv.Tables):
			return fmt.Sprintf(tStandingsAfter.in(lang), rv.Round.Number)
		case done > 0:
			return fmt.Sprintf(tStandingsLive.in(lang), rv.Round.Number)
		}
		// No result yet: the standings are those after the round before.
	}
	return sheetStandings.in(lang)
}

// wrapping marks the columns of cols headed by one of wrapped as the ones
// whose long text wraps.
func wrapping(cols []text, wrapped ...text) []bool {
	out := make([]bool, len(cols))
	for i, c := range cols {
		out[i] = slices.Contains(wrapped, c)
	}
	return out
}

// The parts of the final results a line comes from (finalTable).
var (
	vFromFinal     = text{"決勝卓", "final table"}
	vFromLeaders   = text{"首位卓", "leaders' table"}
	vFromStage     = text{"決勝の途中の段", "earlier final stage"}
	vFromStandings = text{"予選順位", "qualifying standings"}
)

// finalTable is the 最終順位, the first sheet once a final is played: every
// player's final rank, and which part decided it: the final table (its
// place, round and table), an earlier stage of the final, or the
// qualifying standings (the 順位表 sheet).
func finalTable(d tournament.ExportData, lang string) table {
	cols := []text{hRank, hTied, hName, hKana, hDecidedBy, hStage, hRound, hTable, hPlace}
	fs := d.Final
	sharing := map[int]int{} // by rank, how many players hold it
	for _, f := range fs {
		sharing[f.Rank]++
	}
	leaders := d.Tournament.Ruleset.WithDefaults().Event.Final == referee.LeadersTable
	return table{name: sheetFinal, note: nFinal.in(lang), cols: cols, n: len(fs), row: func(i int, v []any) {
		f := fs[i]
		v[0] = f.Rank
		if n := sharing[f.Rank]; n > 1 {
			v[1] = tied(n)
		}
		v[2], v[3] = f.Name, orNil(tournament.Hiragana(f.Kana))
		switch {
		case f.FromFinal() && leaders:
			v[4] = vFromLeaders.in(lang)
		case f.FromFinal():
			v[4] = vFromFinal.in(lang)
		case f.Stage > 0:
			v[4] = vFromStage.in(lang)
		default:
			v[4] = vFromStandings.in(lang)
		}
		v[5], v[6], v[7], v[8] = orNil(f.Stage), orNil(f.Round), orNil(f.Table), orNil(f.Place)
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
	// docs/rules.md, Penalties: a deduction shows as such, the sheet's VP, what
	// the penalties took off and what counts (6, 2, 4), with the penalties.
	// Then the sheet's VP breakdown, where it gave one (§11).
	cols := []text{hRound, hTable, hSeat, hColor, hPlayerNo, hPlayer, hReportedVP, hDeducted, hVP, hPlace, hEndedBy, hDeclared, hCorrected, hDeductedBy,
		hSettlements, hCities, hLongestRoad, hLargestArmy, hPointCards}
	rs := d.Tournament.Ruleset
	sep := "、"
	if lang == "en" {
		sep = "; "
	}
	// Printed at about full size: the round, table and player on every
	// page, the corrections, the reasons of the deductions and the VP
	// breakdown on pages of their own, long names wrapped.
	split, keep := slices.Index(cols, hCorrected), slices.Index(cols, hPlayer)+1
	return table{name: sheetResults, note: nResults.in(lang), cols: cols, wrap: wrapping(cols, hPlayer, hDeclared, hDeductedBy), wide: true, split: split, keep: keep, n: len(refs), row: func(i int, v []any) {
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
				v[14], v[15], v[16], v[17], v[18] = b.Settlements, b.Cities, held[b.LongestRoad].in(lang), held[b.LargestArmy].in(lang), b.PointCards
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
	sep := listSep.in(lang)
	cols := []text{hPlayerNo, hName, hKana, hCheckedIn, hLateEntry, hDropped, hFixedTable, hKeepApart}
	return table{name: sheetPlayers, note: nPlayers.in(lang), cols: cols, wrap: wrapping(cols, hKeepApart), n: len(d.Players), row: func(i int, v []any) {
		p := d.Players[i]
		var apart []string
		for _, o := range p.KeepApart {
			apart = append(apart, names[o])
		}
		v[0], v[1], v[2], v[3] = int(p.ID), p.Name, orNil(tournament.Hiragana(p.Kana)), checkedIn[p.CheckedIn].in(lang)
		if p.LateEntryRound != 0 {
			v[4] = fromRound(p.LateEntryRound)
		}
		if p.DroppedRound != 0 {
			v[5] = fromRound(p.DroppedRound)
		}
		v[6], v[7] = orNil(p.FixedTable), orNil(strings.Join(apart, sep))
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
	return table{name: sheetPenalties, note: nPenalties.in(lang), cols: cols, wrap: wrapping(cols, hOffence, hNote, hRevokedWhy), wide: true, n: len(d.Penalties), row: func(i int, v []any) {
		p := d.Penalties[i]
		offence, section := p.Offence, ""
		if o, ok := rs.Offence(p.Offence); ok {
			offence, section = o.NameJA, o.Section
			if lang == "en" {
				offence = o.NameEN
			}
		}
		v[0], v[1], v[2], v[3], v[4] = p.At.In(time.Local), orNil(p.Round), orNil(p.Table), int(p.PlayerID), names[p.PlayerID]
		v[5], v[6], v[7], v[8], v[9] = offence, orNil(section), levelName(p.Level, lang), judgeName(p.Judge, lang), orNil(p.Note)
		if p.Revoked != nil {
			v[10], v[11] = judgeName(p.Revoked.Judge, lang), orNil(p.Revoked.Reason)
		}
	}}
}

// Setting is one setting of a ruleset as the workbook's Settings sheet
// lists it: its label in the workbook's language, its name and value in
// the ruleset file, and its value said in the workbook's language.
type Setting struct {
	Label string
	Key   string // the setting's name in the ruleset file, e.g. "layout.harbors"
	Value any    // as the ruleset file has it: a number, a bool, or text (lists joined with ", ")
	Shown any    // in the workbook's language: the number, or words
}

// RulesetSettings lists every setting of rs but its penalty catalogue, in
// the ruleset file's order, labelled in lang: the Settings sheet's lines,
// and the console's ruleset page.
func RulesetSettings(rs referee.Ruleset, lang string) []Setting {
	file := func(items []string) string { return strings.Join(items, ", ") }
	ints := func(ns []int, sep string) string {
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = strconv.Itoa(n)
		}
		return strings.Join(s, sep)
	}
	keys := func(n int, at func(int) string) string {
		s := make([]string, n)
		for i := range s {
			s[i] = at(i)
		}
		return file(s)
	}
	num := func(label text, key string, v any) Setting { return Setting{label.in(lang), key, v, v} }
	said := func(label text, key string, v any, shown string) Setting {
		return Setting{label.in(lang), key, v, shown}
	}
	levels := make([]string, len(rs.Ladder))
	for i, l := range rs.Ladder {
		levels[i] = levelName(l, lang)
	}
	colours := make([]string, len(rs.Colors))
	for i, c := range rs.Colors {
		colours[i] = word(colors, c, lang)
	}
	out := []Setting{
		num(sRulesetName, "name", rs.Name),
		num(sRulesetVersion, "version", rs.Version),
		num(sRulesetMinutes, "game_minutes", rs.GameMinutes),
		num(sVPCap, "vp_cap", rs.VPCap),
		num(sWinVP, "win_vp", rs.WinVP),
		said(sDango, "dango", string(rs.Dango), word(dangoWords, rs.Dango, lang)),
		said(sLongestRoadTie, "longest_road_tie", string(rs.LongestRoadTie), word(longestRoadWords, rs.LongestRoadTie, lang)),
		said(sBankShortage, "bank_shortage", string(rs.BankShortage), word(bankWords, rs.BankShortage, lang)),
		said(sRobberOnDesert, "robber_on_desert", rs.RobberOnDesert, yesNo[rs.RobberOnDesert].in(lang)),
		said(sRequireBreakdown, "require_breakdown", rs.RequireBreakdown, yesNo[rs.RequireBreakdown].in(lang)),
		said(sColors, "colors", keys(len(rs.Colors), func(i int) string { return string(rs.Colors[i]) }), strings.Join(colours, listSep.in(lang))),
		said(sTerrain, "layout.terrain", keys(len(rs.Layout.Terrain), func(i int) string { return string(rs.Layout.Terrain[i]) }),
			wordList(terrainWords, rs.Layout.Terrain[:], listSep, lang)),
		said(sHarbors, "layout.harbors", keys(len(rs.Layout.Harbors), func(i int) string { return string(rs.Layout.Harbors[i]) }),
			wordList(harborWords, rs.Layout.Harbors[:], listSep, lang)),
		said(sOrder, "standings_order", keys(len(rs.StandingsOrder), func(i int) string { return string(rs.StandingsOrder[i]) }),
			wordList(standingsKeyWords, rs.StandingsOrder, stepSep, lang)),
		said(sPlacePoints, "placement_points", ints(rs.PlacementPoints, ", "), ints(rs.PlacementPoints, listSep.in(lang))),
		num(sByeFirsts, "bye.firsts", rs.Bye.Firsts),
		num(sByeVP, "bye.vp", rs.Bye.VP),
		num(sByeShare, "bye.share", percent(rs.Bye.Share)),
		num(sByePoints, "bye.points", rs.Bye.Points),
		said(sByePlayed, "bye.played", rs.Bye.Played, yesNo[rs.Bye.Played].in(lang)),
		said(sLadder, "ladder", keys(len(rs.Ladder), func(i int) string { return string(rs.Ladder[i]) }), strings.Join(levels, stepSep.in(lang))),
		said(sEscalateFrom, "escalate_from", string(rs.EscalateFrom), levelName(rs.EscalateFrom, lang)),
		num(sDeductVP, "deduct_vp", rs.DeductVP),
		said(sBoardMethod, "board.method", string(rs.Board.Method), word(boardWords, rs.Board.Method, lang)),
		num(sPlacementPace, "time.placement_seconds_per_settlement", rs.Timing.PlacementSeconds),
		num(sFinalTurn, "time.final_turn_seconds", rs.Timing.FinalTurnSeconds),
		num(sEndNotice, "time.end_notice_minutes", rs.Timing.EndNoticeMinutes),
		said(sRoundFormats, "event.rounds", keys(len(rs.Event.Rounds), func(i int) string { return string(rs.Event.Rounds[i]) }),
			wordList(roundWords, roundKeys(rs.Event.Rounds), listSep, lang)),
		said(sFinal, "event.final", string(rs.Event.Final), word(finalWords, rs.Event.Final, lang)),
		said(sCut, "event.cut", ints(rs.Event.Cut, ", "), ints(rs.Event.Cut, stepSep.in(lang))),
		said(sFinalTies, "event.final_ties", string(rs.Event.FinalTies), word(finalTiesWords, rs.Event.FinalTies, lang)),
		said(sSchedulePriority, "event.schedule_priority", string(rs.Event.SchedulePriority), word(schedulePriorityWords, rs.Event.SchedulePriority, lang)),
	}
	if rs.Board.Method == referee.SpiralBoard {
		chips := make([]string, len(rs.Board.Chips))
		for i, n := range rs.Board.Chips {
			chips[i] = string(rune('A'+i)) + strconv.Itoa(n)
		}
		out = append(out,
			said(sCorners, "board.corners", keys(len(rs.Board.Corners), func(i int) string { return string(rs.Board.Corners[i]) }),
				wordList(cornerWords, rs.Board.Corners[:], listSep, lang)),
			said(sChips, "board.chips", ints(rs.Board.Chips[:], ", "), strings.Join(chips, " ")))
	}
	return out
}

// roundKeys are round formats as the keys of roundWords.
func roundKeys(formats []referee.RoundFormat) []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = string(f)
	}
	return out
}

// setting is one line of the Settings sheet.
type setting struct {
	group text
	label string
	key   string // the setting's name in the ruleset file, or where it was recorded
	shown any    // the value in the workbook's language
	file  any    // the value as the ruleset file has it, when it differs
}

// settingsTable is the 設定 sheet: the tournament, the ruleset it ran
// under (name, version and every setting, in words and as the ruleset
// file names it), its penalty catalogue, and the seed of every draw, so
// each pairing, seating and board can be replayed. Seeds are text: they
// have more digits than an Excel number keeps.
func settingsTable(d tournament.ExportData, lang string) table {
	t, rs := d.Tournament, d.Tournament.Ruleset
	g := gTournament
	lines := []setting{
		{g, sName.in(lang), "tournament.name", t.Name, nil},
		{g, sDate.in(lang), "tournament.date", orNil(t.Date), nil},
		{g, sVenue.in(lang), "tournament.venue", orNil(t.Venue), nil},
		{g, sRounds.in(lang), "tournament.rounds", t.Rounds, nil},
		{g, sGameMinutes.in(lang), "tournament.game_minutes", t.GameMinutes, nil},
	}
	for _, st := range RulesetSettings(rs, lang) {
		l := setting{gRuleset, st.Label, st.Key, st.Shown, nil}
		if fmt.Sprint(st.Value) != fmt.Sprint(st.Shown) {
			l.file = fmt.Sprint(st.Value)
		}
		lines = append(lines, l)
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
			parts = append(parts, fmt.Sprintf(vRemedy.in(lang), word(remedyWords, o.Remedy, lang)))
		}
		file := fmt.Sprintf("section: %s, level: %s, escalates: %t", o.Section, o.Level, o.Escalates)
		if o.Remedy != "" {
			file += ", remedy: " + o.Remedy
		}
		lines = append(lines, setting{gOffences, name, "penalties." + o.Code, strings.Join(parts, partSep.in(lang)), file})
	}
	seed := func(u uint64) string { return strconv.FormatUint(u, 10) }
	for _, rv := range d.Rounds {
		n := rv.Round.Number
		key := "rounds." + strconv.Itoa(n)
		mode := word(roundWords, rv.Round.Mode, lang)
		lines = append(lines, setting{gSeeds, fmt.Sprintf(sPairingSeed.in(lang), n, mode), key + ".pairing_seed", seed(rv.Round.Seed), nil})
		if c := rv.Round.Cut; c != nil {
			// The draw at the cut line, replayed by referee.Cut from its seed.
			ids := func(ids []int64) string {
				out := make([]string, len(ids))
				for i, id := range ids {
					out[i] = strconv.FormatInt(id, 10)
				}
				return strings.Join(out, ", ")
			}
			lines = append(lines,
				setting{gSeeds, fmt.Sprintf(sCutAdvancing.in(lang), n), key + ".cut_advancing", ids(c.Advancing), nil},
				setting{gSeeds, fmt.Sprintf(sCutDraw.in(lang), n), key + ".cut_draw", orNil(ids(c.Draw)), nil},
				setting{gSeeds, fmt.Sprintf(sCutSeed.in(lang), n), key + ".cut_seed", seed(c.Seed), nil})
		}
		for _, tv := range rv.Tables {
			tn := tv.Table.Number
			tkey := key + ".tables." + strconv.Itoa(tn)
			if s := tv.Table.Seating; s != nil && s.Auto {
				lines = append(lines, setting{gSeeds, fmt.Sprintf(sSeatingSeed.in(lang), n, tn), tkey + ".seating_seed", seed(s.Seed), nil})
			}
			if b := tv.Table.Board; b != nil && b.Corner != 0 {
				// National rules: the corner die and the terrain shuffle.
				lines = append(lines,
					setting{gSeeds, fmt.Sprintf(sBoardCorner.in(lang), n, tn), tkey + ".board_corner", b.Corner, nil},
					setting{gSeeds, fmt.Sprintf(sTerrainSeed.in(lang), n, tn), tkey + ".board_seed", seed(b.Seed), nil})
			} else if b != nil {
				lines = append(lines,
					setting{gSeeds, fmt.Sprintf(sBoardRoll.in(lang), n, tn), tkey + ".board_roll", fmt.Sprintf(vRoll.in(lang), b.Roll.White, b.Roll.Blue), nil},
					setting{gSeeds, fmt.Sprintf(sBoardSeed.in(lang), n, tn), tkey + ".board_seed", seed(b.Seed), nil})
				if b.Deal != nil {
					lines = append(lines, setting{gSeeds, fmt.Sprintf(sHandDealt.in(lang), n, tn), tkey + ".deal", vHandDealt.in(lang), nil})
				}
			}
		}
	}
	cols := []text{hGroup, hSetting, hValue, hKey, hFileValue}
	return table{name: sheetSettings, note: nSettings.in(lang), cols: cols, wrap: wrapping(cols, hSetting, hValue, hFileValue), wide: true,
		n: len(lines), row: func(i int, v []any) {
			l := lines[i]
			// The values are text, all aligned alike, numbers too.
			shown := l.shown
			switch x := shown.(type) {
			case int:
				shown = strconv.Itoa(x)
			case percent:
				shown = strconv.FormatFloat(float64(x)*100, 'f', 2, 64) + "%"
			}
			v[0], v[1], v[2], v[3], v[4] = l.group.in(lang), l.label, shown, l.key, l.file
		}}
}
