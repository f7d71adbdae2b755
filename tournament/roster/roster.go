// Package roster reads the list of players an organizer brings: an Excel
// workbook (.xlsx) or a CSV file, as Japanese Excel saves them (UTF-8 with
// or without a BOM, Shift_JIS, or UTF-16 "Unicode text"), with a header row
// that names the columns in Japanese or English.
//
// It only reads: tournament.Service.PlanImport decides which rows are new,
// already registered or refused, and ImportPlayers registers them.
package roster

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/width"

	"github.com/catanjudge/catanjudge/tournament"
)

// MaxRows is the most players one file may list.
const MaxRows = 20000

// Roster is what a file holds: the players' rows and how the file was read.
type Roster struct {
	Rows     []tournament.ImportRow
	Format   string   // "xlsx" or "csv"
	Encoding string   // a CSV file's text encoding: "UTF-8", "Shift_JIS" or "UTF-16"
	Sheet    string   // the workbook sheet read
	Ignored  []string // header cells that name no column this package reads
}

// The codes of the errors Read returns, which the web layer translates.
const (
	CodeEmpty      = "empty"      // no header row
	CodeNoName     = "no_name"    // the header names no name column
	CodeXLS        = "xls"        // an old binary .xls workbook
	CodeWorkbook   = "workbook"   // a workbook excelize cannot open
	CodeEncoding   = "encoding"   // CSV text in none of the encodings read
	CodeCSV        = "csv"        // a CSV line that does not parse
	CodeTooMany    = "too_many"   // more than MaxRows rows
	CodeTooWide    = "too_wide"   // a value beyond column MaxColumns
	CodeTooLarge   = "too_large"  // a workbook that unpacks to more than a roster could hold
	CodeDuplicate  = "duplicate"  // two header cells name the same column
	CodeUnreadable = "unreadable" // anything else
)

// Error is a file Read cannot read, with the line at fault when there is one.
type Error struct {
	Code   string
	Line   int    // 0 when the error is about the whole file
	Column string // the column named twice (CodeDuplicate), or the one too far (CodeTooWide: "XFD", "65")
	Err    error  // the underlying error, for the log
}

func (e *Error) Error() string {
	msg := "roster: " + e.Code
	if e.Line > 0 {
		msg += fmt.Sprintf(" at line %d", e.Line)
	}
	if e.Column != "" {
		msg += " (" + e.Column + ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// The columns this package reads, and the header names each goes by, folded
// by key: width-folded, lower-case, without spaces, underscores or hyphens.
const (
	colName       = "name"
	colKana       = "kana"
	colFixedTable = "fixed_table"
	colMember     = "member"
)

var columns = map[string]string{}

func init() {
	for col, names := range map[string][]string{
		colName:       {"名前", "氏名", "お名前", "選手名", "選手", "参加者", "参加者名", "プレイヤー名", "name", "player", "playername", "fullname"},
		colKana:       {"ふりがな", "フリガナ", "よみ", "ヨミ", "よみがな", "ヨミガナ", "読み", "読み仮名", "かな", "カナ", "kana", "reading", "furigana", "yomi"},
		colFixedTable: {"固定卓", "卓指定", "指定卓", "fixed_table", "fixed table", "fixedtable", "table"},
		colMember:     {"会員番号", "会員ID", "会員", "メンバー番号", "member", "member_no", "membernumber", "memberno", "memberid", "membership"},
	} {
		for _, n := range names {
			columns[key(n)] = col
		}
	}
}

// key folds a header cell for matching: ＮＡＭＥ, Name and "name " are the same.
func key(s string) string {
	s = strings.ToLower(width.Fold.String(strings.TrimSpace(s)))
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '　', '_', '-', '\t':
			return -1
		}
		return r
	}, s)
}

// Read reads the players of an uploaded file, recognized by its content.
// In a workbook it reads the first sheet whose header row names a name
// column: the first non-empty row, or the one under a title and a note of
// one cell each, as Catan Judge's own export has them. Rows with every cell empty are skipped; every other row is
// returned with its line number for the preview, bad ones included. A file
// with a value beyond column MaxColumns, more than MaxRows players, or (a
// workbook) more parts, cells or strings than a roster could hold is
// refused before its rows are read.
func Read(data []byte) (Roster, error) {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return readWorkbook(data)
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}):
		return Roster{}, &Error{Code: CodeXLS}
	}
	return readCSV(data)
}

func readWorkbook(data []byte) (Roster, error) {
	// A small upload must not unzip into gigabytes, nor make excelize
	// allocate a row of 16,384 cells: the bounds are checked first.
	if err := checkWorkbook(data); err != nil {
		return Roster{}, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: maxUnzipped, UnzipXMLSizeLimit: maxUnzipped})
	if err != nil {
		return Roster{}, &Error{Code: CodeWorkbook, Err: err}
	}
	defer f.Close()
	var first error
	for _, sheet := range f.GetSheetList() {
		r, err := readSheet(f, sheet)
		if err == nil {
			r.Format, r.Sheet = "xlsx", sheet
			return r, nil
		}
		// An empty sheet says less about the file than one with a header.
		if e := (*Error)(nil); first == nil || errors.As(first, &e) && e.Code == CodeEmpty {
			first = err
		}
	}
	if first == nil {
		first = &Error{Code: CodeEmpty}
	}
	return Roster{}, first
}

// readSheet reads one worksheet's rows as a stream.
func readSheet(f *excelize.File, sheet string) (Roster, error) {
	next, done, err := sheetRows(f, sheet)
	if err != nil {
		return Roster{}, err
	}
	defer done()
	return readRows(next)
}

// sheetRows streams one worksheet's records with their line numbers, and
// io.EOF at the end; done closes the stream.
func sheetRows(f *excelize.File, sheet string) (next func() ([]string, int, error), done func(), err error) {
	rows, err := f.Rows(sheet)
	if err != nil {
		return nil, nil, &Error{Code: CodeWorkbook, Err: err}
	}
	line := 0
	next = func() ([]string, int, error) {
		// Rows yields every row from row 1, empty ones included.
		if !rows.Next() {
			if err := rows.Error(); err != nil {
				return nil, 0, &Error{Code: CodeWorkbook, Err: err}
			}
			return nil, 0, io.EOF
		}
		line++
		rec, err := rows.Columns()
		if err != nil {
			return nil, 0, &Error{Code: CodeWorkbook, Line: line, Err: err}
		}
		return rec, line, nil
	}
	return next, func() { rows.Close() }, nil
}

func readCSV(data []byte) (Roster, error) {
	next, enc, err := csvRows(data)
	if err != nil {
		return Roster{}, err
	}
	r, err := readRows(next)
	if err != nil {
		return Roster{}, err
	}
	r.Format, r.Encoding = "csv", enc
	return r, nil
}

// csvRows streams a CSV (or tab-separated) file's records with their line
// numbers, and io.EOF at the end, and says the text's encoding.
func csvRows(data []byte) (func() ([]string, int, error), string, error) {
	text, enc, err := decode(data)
	if err != nil {
		return nil, "", err
	}
	cr := csv.NewReader(strings.NewReader(text))
	cr.FieldsPerRecord = -1
	if head, _, _ := strings.Cut(text, "\n"); strings.Contains(head, "\t") && !strings.Contains(head, ",") {
		// Excel's "Unicode text" and copies from a sheet are tab-separated.
		cr.Comma = '\t'
	}
	next := func() ([]string, int, error) {
		rec, err := cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, 0, &Error{Code: CodeCSV, Line: pe.StartLine, Err: err}
			}
			return nil, 0, err
		}
		line, _ := cr.FieldPos(0)
		// As in a workbook: a value beyond the last column a roster uses
		// is a stray cell, not a player's.
		for i := len(rec) - 1; i >= MaxColumns; i-- {
			if strings.TrimSpace(rec[i]) != "" {
				return nil, 0, &Error{Code: CodeTooWide, Line: line, Column: strconv.Itoa(i + 1)}
			}
		}
		return rec, line, nil
	}
	return next, enc, nil
}

// decode returns a CSV file's text: UTF-8 (a BOM is dropped), UTF-16 with a
// BOM, or else Shift_JIS, which Japanese Excel writes for "CSV (comma
// delimited)".
func decode(data []byte) (string, string, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		out, err := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Bytes(data)
		if err != nil || !utf8.Valid(out) {
			return "", "", &Error{Code: CodeEncoding, Err: err}
		}
		return string(out), "UTF-16", nil
	}
	if utf8.Valid(data) {
		return string(data), "UTF-8", nil
	}
	out, err := japanese.ShiftJIS.NewDecoder().Bytes(data)
	if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
		return "", "", &Error{Code: CodeEncoding, Err: err}
	}
	return string(out), "Shift_JIS", nil
}

// maxTitleRows is how many rows of a single cell may stand above the
// header row: a title and a note, as in Catan Judge's own workbook.
const maxTitleRows = 2

// readRows reads the header row, then the players, from next, which
// returns each record with its line number and io.EOF at the end. The
// header row is the first non-blank one, or, after up to maxTitleRows
// rows of a single cell naming no column (a title), the one that names
// the name column.
func readRows(next func() ([]string, int, error)) (Roster, error) {
	var r Roster
	var early [][]string // the non-blank rows read for the header
	for len(early) <= maxTitleRows {
		rec, _, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return r, wrapErr(err)
		}
		if blank(rec) {
			continue
		}
		early = append(early, rec)
		if !title(rec) {
			break
		}
	}
	if len(early) == 0 {
		return r, &Error{Code: CodeEmpty}
	}
	head := early[0]
	if last := early[len(early)-1]; slices.ContainsFunc(last, func(h string) bool { return columns[key(h)] == colName }) {
		head = last
	}
	at := map[string]int{}
	for i, h := range head {
		col, ok := columns[key(h)]
		switch {
		case !ok:
			if strings.TrimSpace(h) != "" {
				r.Ignored = append(r.Ignored, strings.TrimSpace(h))
			}
		case at[col] != 0:
			return r, &Error{Code: CodeDuplicate, Column: strings.TrimSpace(h)}
		default:
			at[col] = i + 1
		}
	}
	if at[colName] == 0 {
		return r, &Error{Code: CodeNoName}
	}
	cell := func(rec []string, col string) string {
		i := at[col] - 1
		if i < 0 || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	for {
		rec, line, err := next()
		if err == io.EOF {
			return r, nil
		}
		if err != nil {
			return r, wrapErr(err)
		}
		if blank(rec) {
			continue
		}
		if len(r.Rows) == MaxRows {
			return r, &Error{Code: CodeTooMany, Line: line}
		}
		row := tournament.ImportRow{Line: line, Name: cell(rec, colName), Kana: cell(rec, colKana), Member: cell(rec, colMember)}
		if t := cell(rec, colFixedTable); t != "" {
			n, err := strconv.Atoi(width.Fold.String(t))
			if err != nil || n < 0 {
				row.Problem = tournament.ProblemFixedTable
			}
			row.FixedTable = n
		}
		r.Rows = append(r.Rows, row)
	}
}

// title reports a row of one cell that names no column: a title or a
// note above the header.
func title(rec []string) bool {
	n := 0
	for _, v := range rec {
		if strings.TrimSpace(v) == "" {
			continue
		}
		if _, ok := columns[key(v)]; ok {
			return false
		}
		n++
	}
	return n == 1
}

func blank(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

func wrapErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: CodeUnreadable, Err: err}
}
