package console

import (
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Late entries, substitutes and no-shows (issue 30): the round page's
// card says what the ruleset does with late players and what it did in
// this round, and offers to enter those waiting; on the latest round it
// seats a substitute at a table of 3 and takes a player who did not come
// from their table. The service decides; the card shows its view.

// lateCard is the round page's card of late players.
type lateCard struct {
	Policy  string      // the ruleset's late_entry, in words
	Lines   []string    // what happened in the round, a line per late player
	Waiting []personRef // the checked-in players the round does not have
	// Button says what entering them does: join the round, or start from
	// the next one.
	Button string
	// Subs are the substitutes, Short the tables of 3 a substitute can
	// sit in at, Seats the players of the tables of 4 not played yet
	// (value "table:player"), for the no-show form.
	Subs  []personRef
	Short []int
	Seats []seatOption
	// NoShowPolicy and SubPolicy say the ruleset's no_show and
	// substitutes; Error a refusal of one of the card's forms.
	NoShowPolicy, SubPolicy string
	Error                   string
	// Open says the forms are offered: the latest round, not a final.
	Open bool
}

// seatOption is a player at a table, as the no-show form lists them.
type seatOption struct {
	Value, Label string
}

// lateCard builds the round page's card of round rv, nil when there is
// nothing to say or offer (a final, an earlier round without late
// players).
func (s *Pages) lateCard(c *gin.Context, lang string, t tournament.Tournament, rv tournament.RoundView, errMsg string) (*lateCard, error) {
	v, err := s.svc.LateView(c.Request.Context(), t.ID, rv.Round.Number)
	if err != nil {
		return nil, err
	}
	n := rv.Round.Number
	text := func(id string, data map[string]any) string { return s.i18n.Text(lang, id, data) }
	card := &lateCard{Error: errMsg,
		Policy:       text("late.policy", map[string]any{"Join": text("late.join."+string(v.Join), nil), "Missed": text("late.missed."+string(v.Missed), nil)}),
		NoShowPolicy: text("late.no_show_policy", map[string]any{"Missed": text("late.missed."+string(t.NoShowEffect()), nil)}),
		SubPolicy:    text("late.sub_policy."+string(t.Ruleset.WithDefaults().Substitutes.Count), map[string]any{"Place": t.Ruleset.WithDefaults().Substitutes.Place, "VP": t.Ruleset.WithDefaults().Substitutes.VP}),
	}
	for _, l := range v.Entries {
		data := map[string]any{"Name": rv.Labels[l.Player.ID], "Table": l.Table, "From": l.From, "Missed": text("late.missed."+string(v.Missed), nil)}
		if data["Name"] == "" {
			data["Name"] = l.Player.Name
		}
		card.Lines = append(card.Lines, text("late.line."+string(l.How), data))
	}
	card.Open = v.Open
	if v.Open {
		for _, p := range v.Waiting {
			card.Waiting = append(card.Waiting, personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
		}
		card.Button = text("late.button_join", map[string]any{"N": n})
		if !v.JoinsRound() {
			card.Button = text("late.button_next", map[string]any{"N": n + 1})
		}
		for _, p := range v.Subs {
			card.Subs = append(card.Subs, personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
		}
		s.fillTableForms(lang, card, rv)
	}
	if len(card.Lines) == 0 && !v.Open {
		return nil, nil
	}
	return card, nil
}

// fillTableForms lists what the substitute and no-show forms offer:
// round rv's tables of 3 and the players of its tables of 4 that have no
// result.
func (s *Pages) fillTableForms(lang string, card *lateCard, rv tournament.RoundView) {
	for _, tv := range rv.Tables {
		if tv.Table.Latest() != nil {
			continue
		}
		switch len(tv.Table.Players) {
		case 3:
			card.Short = append(card.Short, tv.Table.Number)
		case 4:
			for _, id := range tv.Table.Players {
				card.Seats = append(card.Seats, seatOption{Value: strconv.Itoa(tv.Table.Number) + ":" + strconv.FormatInt(id, 10),
					Label: s.i18n.Text(lang, "late.seat", map[string]any{"Table": tv.Table.Number, "Name": rv.Labels[id]})})
			}
		}
	}
}

// SeatLate enters the players the judge ticked in the round.
func (s *Pages) SeatLate(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	var ids []int64
	for _, v := range c.PostFormArray("player") {
		if id, err := strconv.ParseInt(v, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	l, err := s.svc.SeatLate(c.Request.Context(), auth.Judge(c), tid, n, ids)
	if err != nil {
		return s.lateRefused(c, n, err)
	}
	flash := "flash.late_seated"
	if len(l.Seated) == 0 {
		flash = "flash.late_next"
	}
	return render.SeeOther(route.Path(route.Round, tid, n)+"#late", flash), nil
}

// SitIn seats the chosen substitute at the chosen table of 3.
func (s *Pages) SitIn(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	table, _ := strconv.Atoi(c.PostForm("table"))
	id, _ := strconv.ParseInt(c.PostForm("player"), 10, 64)
	if _, err := s.svc.SitIn(c.Request.Context(), auth.Judge(c), tid, n, table, id); err != nil {
		return s.lateRefused(c, n, err)
	}
	return render.SeeOther(route.Path(route.Round, tid, n)+"#late", "flash.sat_in"), nil
}

// NoShow takes the chosen player from their table.
func (s *Pages) NoShow(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	tab, who, _ := strings.Cut(c.PostForm("seat"), ":")
	table, _ := strconv.Atoi(tab)
	id, _ := strconv.ParseInt(who, 10, 64)
	if _, err := s.svc.NoShow(c.Request.Context(), auth.Judge(c), tid, n, table, id); err != nil {
		return s.lateRefused(c, n, err)
	}
	return render.SeeOther(route.Path(route.Round, tid, n)+"#late", "flash.no_show"), nil
}

// lateRefused shows the round page with the card's refusal, or the error
// page for an error that is not one.
func (s *Pages) lateRefused(c *gin.Context, n int, err error) (render.Result, error) {
	status, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	return s.roundPage(c, status, n, roundForms{LateError: msg})
}

// MarkSubstitute marks the player a substitute, or a player again, from
// their page.
func (s *Pages) MarkSubstitute(c *gin.Context) (render.Result, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return render.Result{}, err
	}
	on := c.PostForm("substitute") == "1"
	if _, err := s.svc.MarkSubstitute(c.Request.Context(), auth.Judge(c), tid, pid, on); err != nil {
		return render.Result{}, err
	}
	flash := "flash.substitute_off"
	if on {
		flash = "flash.substitute_on"
	}
	return render.SeeOther(route.Path(route.Player, tid, pid), flash), nil
}
