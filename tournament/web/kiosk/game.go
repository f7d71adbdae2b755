package kiosk

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/gameview"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The board of a table whose game a scorekeeper records (a streamed or
// disputed table), for the room: on the shop's projector
// (?view=projector) or a phone. It shows what the players at the table
// see (gameview.Room): the pieces, the robber, the player to act, each
// player's VP without the one-point cards still face down, the hands as
// counts, the last moves without the cards drawn or taken. static/kiosk.js
// keeps it live from the event feed, swapping in the part the server
// renders after each move.

// recentMoves is how many of the last moves the room's board lists.
const recentMoves = 8

// kioskGamePage is the view model of a table's board on the kiosk.
type kioskGamePage struct {
	Lang      string
	Title     string
	Path      string // this page's path and query, for the language switch
	LiveURL   string // the live part, for kiosk.js
	TID       int64
	Name      string // the tournament's
	Round     int
	Table     int
	Projector bool
	Back      string // the kiosk
	// Missing says the table has no recorded game to show; the page
	// follows it until it has one.
	Missing string
	Final   bool // the round is a stage of the final: its table is 決勝卓
	gameview.View
}

// ShowGame shows a table's recorded game on the kiosk.
func (s *Pages) ShowGame(c *gin.Context) (render.Result, error) {
	vm, err := s.gamePage(c)
	if err != nil {
		return render.Result{}, err
	}
	return render.Show("kiosk_game", vm), nil
}

// ShowGameLive renders the live part of a table's board alone, for
// kiosk.js to swap in after a move.
func (s *Pages) ShowGameLive(c *gin.Context) (render.Result, error) {
	vm, err := s.gamePage(c)
	if err != nil {
		return render.Result{}, err
	}
	return render.Part("kiosk_game", "live", vm), nil
}

// gamePage reads the table's game as the kiosk shares it (live.State.Game)
// and lays it out for the room.
func (s *Pages) gamePage(c *gin.Context) (kioskGamePage, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return kioskGamePage{}, err
	}
	ctx := c.Request.Context()
	lv, err := s.live.Live(ctx, tid)
	if err != nil {
		return kioskGamePage{}, err
	}
	rv, err := s.live.Round(ctx, tid, n)
	if err != nil {
		return kioskGamePage{}, err
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	vm := kioskGamePage{Lang: lang, Path: c.Request.URL.RequestURI(), TID: tid, Name: lv.Tournament.Name, Round: n, Table: number,
		Projector: c.Query("view") == "projector", Back: route.Path(route.Kiosk, tid),
		Title: p.TextFor("kiosk.game_title", rv.Round.Mode == tournament.ModeFinal, map[string]any{"Name": lv.Tournament.Name, "N": n, "Table": number}),
		Final: rv.Round.Mode == tournament.ModeFinal}
	q := url.Values{}
	if vm.Projector {
		q.Set("view", "projector")
		vm.Back += "?" + q.Encode()
	}
	if lang := c.Query("lang"); lang == "ja" || lang == "en" {
		q.Set("lang", lang)
	}
	vm.LiveURL = route.Path(route.KioskGameLive, tid, n, number)
	if len(q) > 0 {
		vm.LiveURL += "?" + q.Encode()
	}
	g, err := s.live.Game(ctx, tid, n, number)
	if errors.Is(err, tournament.ErrConflict) {
		vm.Missing = p.Text("kiosk.game_missing", nil)
		return vm, nil
	}
	if err != nil {
		return kioskGamePage{}, err
	}
	var tv *tournament.TableView
	for i := range rv.Tables {
		if rv.Tables[i].Table.Number == number {
			tv = &rv.Tables[i]
		}
	}
	if tv == nil {
		return kioskGamePage{}, fmt.Errorf("round %d table %d: %w", n, number, tournament.ErrNotFound)
	}
	var seats []gameview.Seat
	for _, id := range g.Players {
		for _, sv := range tv.Players {
			if sv.PlayerID == id {
				seats = append(seats, gameview.Seat{ID: strconv.FormatInt(id, 10), Name: sv.Label, Color: string(sv.Color), ColorTxt: p.Text("color."+string(sv.Color), nil)})
			}
		}
	}
	vm.View = gameview.New(p, g, seats, gameview.Room, gameview.Options{ID: "game-board", Targets: drawing.Targets{}, Last: recentMoves})
	return vm, nil
}
