package kiosk

import (
	"cmp"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// playerPage is the view model of a player's page in an event (issue 18):
// the tables they played round by round, from the event's record the
// kiosk keeps until the next change.
type playerPage struct {
	Lang     string
	Title    string
	Heading  string // under the tournament's name
	Path     string
	TID      int64
	Name     string // the tournament's
	Player   string // the player's name
	Kana     string // the player's reading
	PersonID int64  // their person of the registry, for every event they played; 0 for none
	Finished bool
	// Rank says where they stand: the final rank once the tournament is
	// finished, else after the rounds complete; "" before a game counts.
	Rank      string
	Standing  *kioskStanding
	Rounds    []playerRound
	Penalties []string // the penalties players see, given outside a round
}

// playerRound is one round of the player's page.
type playerRound struct {
	Number    int
	Label     string // 第2回戦, or the final's stage
	Table     int
	Bye       bool
	Out       bool // a stage of the final they did not reach
	Seat      int
	Color     string
	ColorTxt  string
	Place     int
	VP        int
	Sum       string // a deduction as such: "6 − 2 = 4"
	Breakdown string
	Ended     string
	Rank      int // after the round; 0 when none yet
	Players   []kioskSeat
	Penalties []string
}

// ShowPlayer shows a player's page in an event: their table, seat,
// colour, place and VP round by round, the penalties players are shown,
// and their standing after each round.
func (s *Pages) ShowPlayer(c *gin.Context) (render.Result, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return render.Result{}, err
	}
	res, err := s.live.Results(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	h, ok := res.PlayerHistory(pid)
	if !ok {
		return render.Result{}, problem.ErrNoRoute
	}
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	vm := playerPage{
		Lang: lang, Path: c.Request.URL.RequestURI(), TID: tid, Name: res.Tournament.Name,
		Player: h.Player.Name, Kana: tournament.Hiragana(h.Player.Kana), PersonID: h.Player.PersonID, Heading: p.Text("player_page.heading", nil),
		Title:    p.Text("player_page.title", map[string]any{"Name": h.Player.Name, "Tournament": res.Tournament.Name}),
		Finished: res.Tournament.Closed != nil,
	}
	if h.Rank > 0 {
		vm.Rank = p.Text("player_page.rank", map[string]any{"Rank": h.Rank, "Final": vm.Finished})
	}
	if st := h.Standing; st != nil {
		vm.Standing = &kioskStanding{Rank: st.Rank, Name: st.Label, Firsts: st.Firsts, VP: st.VP, Share: i18n.Share(st.Share), Played: st.Played}
	}
	rs := res.Tournament.Ruleset
	for _, x := range h.Penalties {
		vm.Penalties = append(vm.Penalties, penaltyText(p, rs, x))
	}
	for _, r := range h.Rounds {
		vm.Rounds = append(vm.Rounds, playerRoundOf(p, rs, r, pid))
	}
	return render.Show("kiosk_player", vm), nil
}

// playerRoundOf lays out round r of player pid's page.
func playerRoundOf(p i18n.Printer, rs referee.Ruleset, r tournament.PlayerRound, pid int64) playerRound {
	out := playerRound{Number: r.Number, Label: p.Text("nav.round", map[string]any{"N": r.Number}), Table: r.Table, Bye: r.Bye,
		Out: r.Final && r.Table == 0, Seat: r.Seat, Color: string(r.Color), Rank: r.Rank}
	if r.Final {
		out.Label = p.Text("kiosk.final_round", map[string]any{"N": r.Number})
	}
	if r.Color != "" {
		out.ColorTxt = p.Text("color."+string(r.Color), nil)
	}
	if pl := r.Placing; pl != nil {
		out.Place, out.VP, out.Sum = pl.Place, pl.VP, pl.Sum()
	}
	out.Breakdown = sheet.Said(p, r.Breakdown)
	if r.Result != nil {
		out.Ended = p.Text("score.ended_"+r.Result.EndedBy, nil)
	}
	for _, x := range r.Penalties {
		out.Penalties = append(out.Penalties, penaltyText(p, rs, x))
	}
	for _, sv := range r.Players {
		seat := kioskSeat{ID: sv.PlayerID, Name: sv.Label, Seat: sv.Seat, Color: string(sv.Color), Me: sv.PlayerID == pid,
			Declared: r.Result != nil && r.Result.Declared == sv.PlayerID}
		if sv.Color != "" {
			seat.ColorTxt = p.Text("color."+string(sv.Color), nil)
		}
		for _, pl := range r.Places {
			if pl.PlayerID == sv.PlayerID {
				seat.Place, seat.VP, seat.Sum = pl.Place, pl.VP, pl.Sum()
			}
		}
		out.Players = append(out.Players, seat)
	}
	if r.Result != nil {
		slices.SortStableFunc(out.Players, func(a, b kioskSeat) int { return cmp.Compare(a.Place, b.Place) })
	}
	return out
}

// penaltyText names a penalty players see: its level and offence, never
// the judge's note.
func penaltyText(p i18n.Printer, rs referee.Ruleset, x tournament.Penalty) string {
	offence := x.Offence
	if o, ok := rs.Offence(x.Offence); ok {
		offence = o.NameJA
		if p.Lang == "en" {
			offence = o.NameEN
		}
		offence += " " + o.Section
	}
	return p.Text("player_page.penalty", map[string]any{"Level": p.Level(x.Level), "Offence": offence})
}
