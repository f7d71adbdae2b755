package web

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
)

// pairingsPage is the view model of the pairings for the wall: every
// player by kana with their table (ByName), or every table with its
// players.
type pairingsPage struct {
	printPage
	ByName  bool
	Entries []pairingEntry // by kana, then name
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
}

type pairingTable struct {
	Number  int
	Players []seatLine
}

// printPairingsByName prints the round's pairing by kana, for players
// looking for their own name on the wall.
func (s *Server) printPairingsByName(c *gin.Context) {
	s.printPairings(c, true)
}

// printPairingsByTable prints the round's pairing table by table.
func (s *Server) printPairingsByTable(c *gin.Context) {
	s.printPairings(c, false)
}

func (s *Server) printPairings(c *gin.Context, byName bool) {
	pr, err := s.loadPrintRound(c)
	if err != nil {
		s.failPage(c, err)
		return
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
			vm.Entries = append(vm.Entries, pairingEntry{Name: l.Name, Kana: l.Kana, Table: tv.Table.Number, Seat: l.Seat, Color: l.Color, ColorTxt: l.ColorTxt})
		}
	}
	for _, p := range pr.rv.Byes {
		vm.Byes = append(vm.Byes, personRef{ID: p.ID, Name: p.Name, Kana: p.Kana})
		vm.Entries = append(vm.Entries, pairingEntry{Name: p.Name, Kana: p.Kana})
	}
	slices.SortStableFunc(vm.Entries, func(a, b pairingEntry) int {
		return cmp.Or(cmp.Compare(kanaKey(a.Kana, a.Name), kanaKey(b.Kana, b.Name)), cmp.Compare(a.Name, b.Name))
	})
	s.renderPrint(c, "print_pairings", vm)
}

// kanaKey orders the wall's list as players look for themselves: by
// reading, katakana as hiragana (アオキ with あおき), and by name for a
// player registered without a reading.
func kanaKey(kana, name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'ァ' && r <= 'ヶ' {
			return r - 'ァ' + 'ぁ'
		}
		return r
	}, cmp.Or(kana, name))
}
