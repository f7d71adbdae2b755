package console

import (
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The printables: pairings for the wall, a score sheet and a board sheet
// per table. Each is its own document ("print", templates/partials/
// print_layout.html) with static/print.css, laid out on A4 by @page and
// one sheet per page; on screen they show as the paper will look, with a
// print button.

// printPage is what every printable's view model starts with.
type printPage struct {
	Lang     string
	Title    string // the document's title, translated
	Path     string // this page's path and query, for the language switch
	Back     string // the console page this printable belongs to
	BackText string // the link's words, when not the round's page
	Name     string // the tournament's name
	Date     string
	N        int    // the round
	Kiosk    string // the kiosk's address, printed under its QR code
	QR       string // the QR code image of Kiosk
	Loopback bool   // Kiosk is an address of this machine: phones cannot open it

	Final bool // the round is a stage of the final: named 決勝
}

// printRound is what a printable reads: the tournament and round n's view.
type printRound struct {
	t  tournament.Tournament
	rv tournament.RoundView
}

func (s *Pages) loadPrintRound(c *gin.Context) (printRound, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return printRound{}, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return printRound{}, err
	}
	rv, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return printRound{}, err
	}
	return printRound{t: t, rv: rv}, nil
}

// newPrintPage fills the part every printable has; titleID names the
// printable ("print.scores", ...).
func (s *Pages) newPrintPage(c *gin.Context, pr printRound, titleID string) printPage {
	n := pr.rv.Round.Number
	final := pr.rv.Round.Mode == tournament.ModeFinal
	p := s.printPageOf(c, pr.t, n, s.i18n.In(s.i18n.Lang(c)).ForRound(titleID, final), route.Path(route.Round, pr.t.ID, n))
	p.Final = final
	return p
}

// printPageOf is the printable of tournament t titled titleID (given N,
// the round n, and Name), going back to back.
func (s *Pages) printPageOf(c *gin.Context, t tournament.Tournament, n int, titleID, back string) printPage {
	lang := s.i18n.Lang(c)
	p := printPage{
		Lang:  lang,
		Title: s.i18n.Text(lang, titleID, map[string]any{"N": n, "Name": t.Name}),
		Path:  c.Request.URL.RequestURI(),
		Back:  back,
		Name:  t.Name,
		Date:  t.Date,
		N:     n,
		Kiosk: s.kioskURL(t.ID),
		// The kiosk's own QR route (kiosk.go) draws the same address.
		QR: route.Path(route.KioskQR, t.ID),
	}
	p.Loopback = route.Unreachable(p.Kiosk)
	return p
}

// onlyTable reads ?table=, which prints one table's sheet; 0 prints all.
func onlyTable(c *gin.Context) (int, error) {
	v := c.Query("table")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": "table"}, Detail: "table=" + v}
	}
	return n, nil
}

// seatLines are a table's players as the printables list them: in play
// order with colours once seated, else in pairing order.
func (s *Pages) seatLines(lang string, tv tournament.TableView) []seatLine {
	var out []seatLine
	for _, p := range tv.Players {
		l := seatLine{ID: p.PlayerID, Name: p.Label, Kana: tournament.ReadingBeside(p.Label, p.Name, p.Kana), Seat: p.Seat, Color: string(p.Color)}
		if p.Color != "" {
			l.ColorTxt = s.i18n.Text(lang, "color."+string(p.Color), nil)
		}
		out = append(out, l)
	}
	return out
}
