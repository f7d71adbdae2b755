package console

import (
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// pairingsPage is the view model of the pairings for the wall: every
// player by kana with their table (ByName), or every table with its
// players.
type pairingsPage struct {
	printPage
	ByName  bool
	Entries []pairingEntry // by tournament.CollationKey
	Tables  []pairingTable
	Byes    []personRef
}

type pairingEntry struct {
	Name     string
	Kana     string
	Table    int // 0 for a bye
	Seat     int // play order; 0 before the table is seated
	Color    string
	ColorTxt string
	order    string // tournament.CollationKey
}

type pairingTable struct {
	Number  int
	Players []seatLine
}

// PrintPairingsByName prints the round's pairing by kana, for players
// looking for their own name on the wall.
func (s *Pages) PrintPairingsByName(c *gin.Context) (render.Result, error) {
	return s.printPairings(c, true)
}

// PrintPairingsByTable prints the round's pairing table by table.
func (s *Pages) PrintPairingsByTable(c *gin.Context) (render.Result, error) {
	return s.printPairings(c, false)
}

func (s *Pages) printPairings(c *gin.Context, byName bool) (render.Result, error) {
	pr, err := s.loadPrintRound(c)
	if err != nil {
		return render.Result{}, err
	}
	title := "print.pairings_by_table"
	if byName {
		title = "print.pairings_by_name"
	}
	vm := pairingsPage{printPage: s.newPrintPage(c, pr, title), ByName: byName}
	for _, tv := range pr.rv.Tables {
		lines := s.seatLines(vm.Lang, tv)
		vm.Tables = append(vm.Tables, pairingTable{Number: tv.Table.Number, Players: lines})
		for _, l := range lines {
			vm.Entries = append(vm.Entries, pairingEntry{Name: l.Name, Kana: l.Kana, Table: tv.Table.Number, Seat: l.Seat, Color: l.Color, ColorTxt: l.ColorTxt,
				order: tournament.CollationKey(l.Kana, l.Name, l.ID)})
		}
	}
	for _, p := range pr.rv.Byes {
		vm.Byes = append(vm.Byes, personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
		vm.Entries = append(vm.Entries, pairingEntry{Name: p.Name, Kana: tournament.Hiragana(p.Kana), order: tournament.CollationKey(p.Kana, p.Name, p.ID)})
	}
	// The wall's list is ordered as players look for themselves: by
	// reading, アオキ with あおき.
	slices.SortFunc(vm.Entries, func(a, b pairingEntry) int { return strings.Compare(a.order, b.order) })
	return render.Show("print_pairings", vm), nil
}
