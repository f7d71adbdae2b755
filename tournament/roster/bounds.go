package roster

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/xuri/excelize/v2"
	"golang.org/x/net/html/charset"
)

// The bounds of a file, checked before anything is allocated for its rows.
// A roster has a handful of columns and MaxRows players; an organizer's
// workbook may hold a few more columns and some formatting. excelize
// allocates a string for every column up to a row's last value, so a
// single value in the last column (XFD) costs 16,384 strings per row: the
// bounds are checked on the worksheets' XML as a stream, before excelize
// reads a row.
const (
	// MaxColumns is the last column a value may be in (BL).
	MaxColumns = 64
	// maxUnzipped bounds what a workbook unpacks to, all parts together.
	maxUnzipped = 16 << 20
	// maxRowElements and maxCells bound a workbook's rows and cells,
	// empty ones included (formatting makes some).
	maxRowElements = 4 * MaxRows
	maxCells       = 20 * MaxRows
	// maxStrings bounds the shared strings, which excelize reads at once:
	// a name and a kana per player, and some more.
	maxStrings = 3 * MaxRows
	// maxElements bounds the other XML elements of one part (the styles
	// and the like, a few thousand in a real workbook), which excelize
	// reads at once.
	maxElements = 50_000
)

// checkWorkbook reads every part of the workbook data as a stream and
// refuses, with an *Error, one that unpacks to more than maxUnzipped,
// holds more rows, cells, shared strings or elements than a roster could,
// or a value beyond column MaxColumns. Every part is read, whatever its
// name: excelize finds the worksheets through the workbook's relations.
// A part that is not XML stops being read where its XML ends, as excelize
// would stop.
func checkWorkbook(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return &Error{Code: CodeWorkbook, Err: err}
	}
	sc := &scan{in: limitedReader{left: maxUnzipped}}
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return &Error{Code: CodeWorkbook, Err: err}
		}
		sc.in.r = rc
		err = sc.part()
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// limitedReader reads from r until left bytes have been read over every
// part, then fails with errUnzippedTooLarge.
type limitedReader struct {
	r    io.Reader
	left int64
}

var errUnzippedTooLarge = errors.New("the workbook unpacks to more than the limit")

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errUnzippedTooLarge
	}
	p = p[:min(int64(len(p)), l.left)]
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// scan counts what the parts of a workbook hold, over all of them.
type scan struct {
	in                      limitedReader
	rows, cells, sheetElems int
	strings, stringElems    int
}

// tooLarge is a workbook holding more of what than a roster could.
func tooLarge(what string) error {
	return &Error{Code: CodeTooLarge, Err: fmt.Errorf("more %s than a roster holds", what)}
}

// part checks one part of a workbook.
func (sc *scan) part() error {
	d := xml.NewDecoder(&sc.in)
	d.CharsetReader = charset.NewReaderLabel
	var (
		inStrings              bool // in the shared strings
		inSheet, inRow, inCell bool
		row, col               int // the current row and cell, as excelize numbers them
		rowHasValue, cellValue bool
		valued, elements       int
	)
	for {
		tok, err := d.Token()
		switch {
		case errors.Is(err, errUnzippedTooLarge):
			return &Error{Code: CodeTooLarge, Err: err}
		case err != nil:
			return nil // the end of the part, or of its XML
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			if inSheet {
				if sc.sheetElems++; sc.sheetElems > 4*maxCells {
					return tooLarge("worksheet elements")
				}
			}
			if inStrings {
				if sc.stringElems++; sc.stringElems > 4*maxStrings {
					return tooLarge("shared string elements")
				}
			}
			switch {
			case name == "sst":
				inStrings = true
			case name == "sheetData":
				inSheet, row = true, 0
			case inSheet && name == "row":
				if sc.rows++; sc.rows > maxRowElements {
					return tooLarge("rows")
				}
				row++
				if n, err := strconv.Atoi(attr(t, "r")); err == nil && n > 0 {
					row = n
				}
				inRow, col, rowHasValue = true, 0, false
			case inRow && name == "c":
				if sc.cells++; sc.cells > maxCells {
					return tooLarge("cells")
				}
				col++
				if c, _, err := excelize.CellNameToCoordinates(attr(t, "r")); err == nil {
					col = c
				}
				inCell, cellValue = true, false
			case inCell && (name == "v" || name == "f" || name == "is"):
				cellValue = true
			case inSheet:
			case inStrings && name == "si":
				if sc.strings++; sc.strings > maxStrings {
					return tooLarge("shared strings")
				}
			case inStrings:
			default:
				if elements++; elements > maxElements {
					return tooLarge("elements")
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "sst":
				inStrings = false
			case "sheetData":
				inSheet, inRow, inCell = false, false, false
			case "row":
				// The header row and MaxRows players.
				if inRow && rowHasValue {
					if valued++; valued > MaxRows+1 {
						return &Error{Code: CodeTooMany, Line: row}
					}
				}
				inRow, inCell = false, false
			case "c":
				if inCell && cellValue {
					if col > MaxColumns {
						name, _ := excelize.ColumnNumberToName(col)
						return &Error{Code: CodeTooWide, Line: row, Column: name}
					}
					rowHasValue = true
				}
				inCell = false
			}
		}
	}
}

// attr returns the value of t's attribute name, or "".
func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
