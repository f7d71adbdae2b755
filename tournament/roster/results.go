package roster

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/width"

	"github.com/catanjudge/catanjudge/tournament"
)

// A results sheet (issue 29) is the record of past events a shop kept
// before the software: one line per player per table, with the event's
// date, shop and name, the round and the table, the player and their VP.
// ReadResults reads it into the events it holds, in the order their lines
// come; tournament.Service.PlanPastEvents checks them.

// The codes of a results sheet's errors, beside those of a roster.
const (
	CodeNoResults = "no_results" // the header names no name or no VP column
	CodeBadValue  = "bad_value"  // a date missing, or a round, a table or VP that is no number
)

// The results sheet's own columns; the name, kana and member columns are
// a roster's.
const (
	colDate  = "date"
	colShop  = "shop"
	colEvent = "event"
	colRound = "round"
	colTable = "table"
	colVP    = "vp"
)

var resultColumns = map[string]string{}

func init() {
	for col, names := range map[string][]string{
		colDate:  {"日付", "開催日", "date", "day"},
		colShop:  {"店舗", "店舗名", "店", "shop", "store"},
		colEvent: {"大会名", "大会", "event", "tournament"},
		colRound: {"回戦", "ラウンド", "round"},
		colTable: {"卓", "卓番号", "table"},
		colVP:    {"勝利点", "得点", "点数", "vp", "points", "score"},
	} {
		for _, n := range names {
			resultColumns[key(n)] = col
		}
	}
}

// resultColumn is the column a results sheet's header cell names: its
// own, or a roster's name, kana and member columns.
func resultColumn(h string) (string, bool) {
	if col, ok := resultColumns[key(h)]; ok {
		return col, true
	}
	col, ok := columns[key(h)]
	return col, ok && col != colFixedTable
}

// ReadResults reads the past events of an uploaded results sheet, a
// workbook's first sheet that names the name and VP columns, or a CSV
// file, as Read reads a roster.
func ReadResults(data []byte) ([]tournament.PastEvent, error) {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		if err := checkWorkbook(data); err != nil {
			return nil, err
		}
		f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: maxUnzipped, UnzipXMLSizeLimit: maxUnzipped})
		if err != nil {
			return nil, &Error{Code: CodeWorkbook, Err: err}
		}
		defer f.Close()
		for _, sheet := range f.GetSheetList() {
			next, done, err := sheetRows(f, sheet)
			if err != nil {
				return nil, err
			}
			events, err := readResults(next)
			done()
			if e := (*Error)(nil); !errors.As(err, &e) || e.Code != CodeNoResults && e.Code != CodeEmpty {
				return events, err
			}
		}
		return nil, &Error{Code: CodeNoResults}
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}):
		return nil, &Error{Code: CodeXLS}
	}
	next, _, err := csvRows(data)
	if err != nil {
		return nil, err
	}
	return readResults(next)
}

// readResults reads the header row, the first that is not blank, then the
// lines, grouped by event (date, shop, name) and table (round, table).
func readResults(next func() ([]string, int, error)) ([]tournament.PastEvent, error) {
	var head []string
	for head == nil {
		rec, _, err := next()
		if err == io.EOF {
			return nil, &Error{Code: CodeEmpty}
		}
		if err != nil {
			return nil, wrapErr(err)
		}
		if !blank(rec) {
			head = rec
		}
	}
	at := map[string]int{}
	for i, h := range head {
		if col, ok := resultColumn(h); ok {
			if at[col] != 0 {
				return nil, &Error{Code: CodeDuplicate, Column: strings.TrimSpace(h)}
			}
			at[col] = i + 1
		}
	}
	if at[colName] == 0 || at[colVP] == 0 || at[colDate] == 0 {
		return nil, &Error{Code: CodeNoResults}
	}
	cell := func(rec []string, col string) string {
		if i := at[col] - 1; i >= 0 && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	number := func(rec []string, col string, def, line int) (int, error) {
		v := width.Fold.String(cell(rec, col))
		if v == "" && def > 0 {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, &Error{Code: CodeBadValue, Line: line, Column: col}
		}
		return n, nil
	}
	var events []tournament.PastEvent
	eventAt, tableAt := map[[3]string]int{}, map[[2]int]int{}
	rows := 0
	for {
		rec, line, err := next()
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return nil, wrapErr(err)
		}
		if blank(rec) {
			continue
		}
		if rows++; rows > MaxRows {
			return nil, &Error{Code: CodeTooMany, Line: line}
		}
		ek := [3]string{width.Fold.String(cell(rec, colDate)), cell(rec, colShop), cell(rec, colEvent)}
		if ek[0] == "" {
			return nil, &Error{Code: CodeBadValue, Line: line, Column: colDate}
		}
		round, err := number(rec, colRound, 1, line)
		if err != nil {
			return nil, err
		}
		table, err := number(rec, colTable, 1, line)
		if err != nil {
			return nil, err
		}
		vp, err := number(rec, colVP, 0, line)
		if err != nil {
			return nil, err
		}
		i, ok := eventAt[ek]
		if !ok {
			i, eventAt[ek] = len(events), len(events)
			events = append(events, tournament.PastEvent{Date: ek[0], Shop: ek[1], Name: ek[2], Source: tournament.ImportedFromSheet, Line: line})
		}
		tk := [2]int{i, round*100000 + table}
		j, ok := tableAt[tk]
		if !ok {
			j, tableAt[tk] = len(events[i].Tables), len(events[i].Tables)
			events[i].Tables = append(events[i].Tables, tournament.PastGame{Round: round, Table: table})
		}
		events[i].Tables[j].Scores = append(events[i].Tables[j].Scores, tournament.PastScore{
			Name: cell(rec, colName), Kana: cell(rec, colKana), Member: cell(rec, colMember), VP: vp, Line: line})
	}
}
