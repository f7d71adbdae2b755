package console

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// scoresPage is the view model of the score sheets: one A4 page per table,
// for the players to fill in and sign (§12: players write their score on a
// score sheet and hand it to the judge).
type scoresPage struct {
	printPage
	Minutes int // §12 game time
	VPCap   int // §11
	WinVP   int // §11
	// RequireBreakdown says the ruleset wants each player's VP breakdown
	// (§11) on the sheet; it is printed either way, for the table to add up.
	RequireBreakdown bool
	Sheets           []scoreSheet
}

type scoreSheet struct {
	Number  int
	Players []seatLine
	Seated  bool
	Dense   bool // long names: set smaller, so the table still takes one page
}

// boardsPage is the view model of the board sheets: one A4 page per
// table with the board to set up (§3): the capsule roll that turns it, the
// chips to deal, and the drawing.
type boardsPage struct {
	printPage
	DangoRule string
	Sheets    []boardSheet
}

type boardSheet struct {
	Number    int
	Players   []seatLine
	Dense     bool       // long names: set smaller, so the table still takes one page
	Board     *boardView // nil until the table's board is set up
	Roll      referee.CapsuleRoll
	Spiral    spiralText // a spiral board's corner die, corner and terrain seed
	Seed      string     // the seed of the console's deal, to replay it
	HandDealt bool
	Redeals   int
	Chips     []chipRow // the deal, laid out like the board: 3, 4, 5, 4, 3
}

type chipRow struct{ Cells []chipCell }

type chipCell struct {
	Terrain   string // translated
	TerrainID string // CSS class
	Number    int    // 0 on the desert
	Red       bool   // 6 and 8 (§3 ウ)
}

// PrintScoreSheets prints a score sheet per table of the round, or only
// ?table=.
func (s *Pages) PrintScoreSheets(c *gin.Context) (render.Result, error) {
	pr, only, err := s.loadPrintTables(c)
	if err != nil {
		return render.Result{}, err
	}
	rs := pr.t.Ruleset
	vm := scoresPage{printPage: s.newPrintPage(c, pr, "print.scores"), Minutes: pr.t.GameMinutes, VPCap: rs.VPCap, WinVP: rs.WinVP,
		RequireBreakdown: rs.RequireBreakdown}
	for _, tv := range pr.rv.Tables {
		if only != 0 && tv.Table.Number != only {
			continue
		}
		lines := s.seatLines(vm.Lang, tv)
		vm.Sheets = append(vm.Sheets, scoreSheet{Number: tv.Table.Number, Players: lines, Seated: tv.Table.Seating != nil, Dense: longNames(lines)})
	}
	return render.Show("print_scores", vm), nil
}

// PrintBoardSheets prints a board sheet per table of the round, or only
// ?table=.
func (s *Pages) PrintBoardSheets(c *gin.Context) (render.Result, error) {
	pr, only, err := s.loadPrintTables(c)
	if err != nil {
		return render.Result{}, err
	}
	vm := boardsPage{printPage: s.newPrintPage(c, pr, "print.boards")}
	vm.DangoRule = s.i18n.Text(vm.Lang, "dango."+string(pr.t.Ruleset.Dango), nil)
	for _, tv := range pr.rv.Tables {
		if only != 0 && tv.Table.Number != only {
			continue
		}
		vm.Sheets = append(vm.Sheets, s.newBoardSheet(vm.Lang, tv))
	}
	return render.Show("print_boards", vm), nil
}

// loadPrintTables reads the round and ?table=, which must be one of its tables.
func (s *Pages) loadPrintTables(c *gin.Context) (printRound, int, error) {
	only, err := onlyTable(c)
	if err != nil {
		return printRound{}, 0, err
	}
	pr, err := s.loadPrintRound(c)
	if err != nil {
		return printRound{}, 0, err
	}
	if only != 0 && (only > len(pr.rv.Tables) || pr.rv.Tables[only-1].Table.Number != only) {
		return printRound{}, 0, problem.ErrNoRoute
	}
	return pr, only, nil
}

func (s *Pages) newBoardSheet(lang string, tv tournament.TableView) boardSheet {
	bs := boardSheet{Number: tv.Table.Number, Players: s.seatLines(lang, tv)}
	bs.Dense = longNames(bs.Players)
	if tv.Board == nil || tv.Table.Board == nil {
		return bs
	}
	bv := s.newBoardView("board-drawing-"+strconv.Itoa(tv.Table.Number), lang, *tv.Board, nil)
	rec := tv.Table.Board
	bs.Board, bs.Roll, bs.HandDealt, bs.Redeals = &bv, rec.Roll, rec.Deal != nil, tv.Board.Redeals
	bs.Spiral = s.spiralText(lang, *tv.Board)
	if !bs.HandDealt {
		bs.Seed = strconv.FormatUint(rec.Seed, 10)
	}
	lastR := math.MinInt
	for _, h := range referee.LandHexes() {
		if h.R != lastR {
			bs.Chips = append(bs.Chips, chipRow{})
			lastR = h.R
		}
		t, _ := tv.Board.TileAt(h)
		row := &bs.Chips[len(bs.Chips)-1]
		row.Cells = append(row.Cells, chipCell{
			Terrain:   s.i18n.Text(lang, "terrain."+string(t.Terrain), nil),
			TerrainID: string(t.Terrain),
			Number:    t.Number,
			Red:       referee.RedNumber(t.Number),
		})
	}
	return bs
}

// denseName is the longest name, or reading, a sheet sets at its full
// size: past it a name takes more than two lines in its column.
const denseName = 18

// longNames says whether a table's sheet must set its names smaller to
// keep the table on one A4 page.
func longNames(lines []seatLine) bool {
	for _, l := range lines {
		if utf8.RuneCountInString(l.Name) > denseName || utf8.RuneCountInString(l.Kana) > 2*denseName {
			return true
		}
	}
	return false
}
