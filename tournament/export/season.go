package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
)

// The season workbook's words.
var (
	sheetSeason        = text{"シーズン順位", "Season standings"}
	sheetSeasonEvents  = text{"対象大会", "Events"}
	sheetQualification = text{"予選参加記録", "Qualification"}
	hPointsSeason      = text{"ポイント", "Points"}
	hEvents            = text{"参加大会数", "Events"}
	hCounted           = text{"算入した成績", "Results counted"}
	hOthers            = text{"算入しない成績", "Results not counted"}
	hDate              = text{"日付", "Date"}
	hShop              = text{"店舗", "Shop"}
	hEvent             = text{"大会", "Event"}
	hImported          = text{"取り込み", "Imported"}
	hRealName          = text{"本名", "Real name"}
	hAttempts          = text{"予選参加", "Attempts"}
	hLeft              = text{"残り", "Left"}
	hQualifiedBy       = text{"通過した成績", "Qualified by"}
	wImported          = text{"過去の成績表から", "from a results sheet"}
	wResult            = text{"%s %d位 %sポイント", "%s: #%d, %s pts"}
	wAttempt           = text{"%d回目 %s", "#%d %s"}
	wQualified         = text{"%s %d位", "%s: #%d"}
	wOver              = text{"（上限超え）", " (over the limit)"}
	nPlacement         = text{"大会ごとの順位点（%s）、同順位は該当する順位の点を等分。", "Placement points per event (%s); shared places split the points they span."}
	nZeroSum           = text{"卓ごとのゼロサム（4人卓 %s、3人卓 %s、平均との勝利点差×%d）。", "Zero-sum per table (tables of 4: %s; of 3: %s; %d per VP above the table's average)."}
	nBest              = text{"各自の上位%d大会を合計。", " Each person's best %d events count."}
	nAll               = text{"全大会を合計。", " Every event counts."}
	nSeasonEvents      = text{"シーズンに数える終了済みの大会（日付順）。", "The season's finished events, by date."}
	nQualification     = text{"予選参加は%d回まで。%d位以内で通過。本名はジャッジのみ閲覧。", "At most %d attempts; rank %d or better qualifies. Real names are for judges only."}
)

// SeasonData is what a season's workbook shows: its standings, and for
// the judges its qualification ledger (nil for a league alone).
type SeasonData struct {
	Standings     tournament.SeasonStandings
	Qualification *tournament.QualificationLedger
}

// SeasonWorkbook writes a season to w as an .xlsx workbook in lang: its
// standings, its events and, for a qualification, its ledger, each sheet
// titled with the season and its dates, set up to print on A4.
func SeasonWorkbook(w io.Writer, d SeasonData, lang string) error {
	f := excelize.NewFile()
	defer f.Close()
	st, err := newStyles(f, lang)
	if err != nil {
		return err
	}
	se := d.Standings.Season
	sheets := []table{seasonTable(d.Standings, lang), seasonEventsTable(d.Standings, lang)}
	if d.Qualification != nil {
		sheets = append(sheets, qualificationTable(*d.Qualification, lang))
	}
	for i, t := range sheets {
		name := t.name.in(lang)
		if i == 0 {
			err = f.SetSheetName(f.GetSheetName(0), name)
		} else {
			_, err = f.NewSheet(name)
		}
		if err != nil {
			return fmt.Errorf("export: sheet %s: %w", name, err)
		}
		t.title = strings.Join([]string{se.Name, dateIn(se.From, lang) + " – " + dateIn(se.To, lang), name}, titleSep.in(lang))
		if err := writeTable(f, name, t, st, lang, se.Name); err != nil {
			return fmt.Errorf("export: sheet %s: %w", name, err)
		}
	}
	if err := f.SetDocProps(&excelize.DocProperties{Title: se.Name, Creator: "Catan Judge"}); err != nil {
		return fmt.Errorf("export: properties: %w", err)
	}
	if err := f.Write(w); err != nil {
		return fmt.Errorf("export: write workbook: %w", err)
	}
	return nil
}

func dateIn(date, lang string) string {
	if d, err := time.Parse(time.DateOnly, date); err == nil {
		return d.Format(dateFormat.in(lang))
	}
	return date
}

// FormulaNote says a season's formula in words, as the season's page and
// sheet explain their points.
func FormulaNote(f season.Formula, lang string) string {
	ints := func(xs []int) string {
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, "/")
	}
	var out string
	if f.Kind == season.KindZeroSum {
		out = fmt.Sprintf(nZeroSum.in(lang), ints(f.Uma4), ints(f.Uma3), f.VP)
	} else {
		out = fmt.Sprintf(nPlacement.in(lang), ints(f.Points))
	}
	if f.Best > 0 {
		return out + fmt.Sprintf(nBest.in(lang), f.Best)
	}
	return out + nAll.in(lang)
}

func seasonTable(s tournament.SeasonStandings, lang string) table {
	sharing := map[int]int{}
	for _, l := range s.Lines {
		sharing[l.Rank]++
	}
	cols := []text{hRank, hTied, hName, hKana, hPointsSeason, hEvents, hCounted, hOthers}
	return table{name: sheetSeason, note: FormulaNote(s.Season.Formula, lang), cols: cols, wrap: wrapping(cols, hCounted, hOthers), wide: true,
		n: len(s.Lines), row: func(i int, v []any) {
			l := s.Lines[i]
			v[0] = l.Rank
			if n := sharing[l.Rank]; n > 1 {
				v[1] = tied(n)
			}
			v[2], v[3], v[4], v[5] = l.Person.Name, orNil(l.Person.Kana), tournament.RoundPoints(l.Points), l.Events
			var counted, others []string
			for _, r := range l.Results {
				line := fmt.Sprintf(wResult.in(lang), r.Event.Name, r.Rank, fmt.Sprint(tournament.RoundPoints(r.Points)))
				if r.Counted {
					counted = append(counted, line)
				} else {
					others = append(others, line)
				}
			}
			v[6], v[7] = orNil(strings.Join(counted, "\n")), orNil(strings.Join(others, "\n"))
		}}
}

func seasonEventsTable(s tournament.SeasonStandings, lang string) table {
	return table{name: sheetSeasonEvents, note: nSeasonEvents.in(lang), cols: []text{hDate, hShop, hEvent, hImported}, n: len(s.Events),
		row: func(i int, v []any) {
			e := s.Events[i]
			v[0], v[1], v[2] = e.Day(), orNil(e.Shop), e.Name
			if e.Imported != "" {
				v[3] = wImported.in(lang)
			}
		}}
}

func qualificationTable(q tournament.QualificationLedger, lang string) table {
	cols := []text{hName, hRealName, hAttempts, hLeft, hQualifiedBy}
	return table{name: sheetQualification, note: fmt.Sprintf(nQualification.in(lang), q.Rule.Attempts, q.Rule.Rank), cols: cols,
		wrap: wrapping(cols, hAttempts), wide: true, n: len(q.People), row: func(i int, v []any) {
			en := q.People[i]
			v[0] = en.Person.Name
			if en.RealName != nil {
				v[1] = en.RealName.Name
			}
			var attempts []string
			for _, a := range en.Attempts {
				line := fmt.Sprintf(wAttempt.in(lang), a.Number, a.Event.Name)
				if a.Over {
					line += wOver.in(lang)
				}
				attempts = append(attempts, line)
			}
			v[2], v[3] = strings.Join(attempts, "\n"), en.Left
			if a := en.Qualified; a != nil {
				v[4] = fmt.Sprintf(wQualified.in(lang), a.Event.Name, a.Rank)
			}
		}}
}
