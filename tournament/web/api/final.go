package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// FinalJSON is a stage of a top-cut final as made: its round number, its
// tables and the cut that chose its players.
type FinalJSON struct {
	Number int              `json:"number"`
	Tables []finalTableJSON `json:"tables"`
	Cut    CutJSON          `json:"cut"`
}

type finalTableJSON struct {
	Number  int               `json:"number"`
	Players []tablePlayerJSON `json:"players"`
}

// CutJSON is a stage's cut: the players who advance, best first; the
// drawn order of those tied at the line (empty when nobody was drawn); and
// the draw's seed, which replays it.
type CutJSON struct {
	Advancing []int64 `json:"advancing"`
	Draw      []int64 `json:"draw"`
	Seed      uint64  `json:"seed"`
}

// MakeFinal makes the next stage of the tournament's top-cut final: 201
// with the stage, or a coded refusal (qualifying-not-complete,
// final-results-missing, final-already-made: 409; final-not-top-cut,
// final-too-few-players: 422).
func (s *Handlers) MakeFinal(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	r, err := s.svc.MakeFinal(c.Request.Context(), auth.Judge(c), tid)
	if err != nil {
		return 0, nil, err
	}
	v, err := s.svc.RoundView(c.Request.Context(), tid, r.Number)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, toFinalJSON(v), nil
}

func toFinalJSON(v tournament.RoundView) FinalJSON {
	out := FinalJSON{Number: v.Round.Number, Tables: []finalTableJSON{}, Cut: CutJSON{Advancing: []int64{}, Draw: []int64{}}}
	for _, tv := range v.Tables {
		t := finalTableJSON{Number: tv.Table.Number, Players: []tablePlayerJSON{}}
		for _, p := range tv.Players {
			t.Players = append(t.Players, tablePlayerJSON{ID: p.PlayerID, Name: p.Name, Kana: p.Kana, Seat: p.Seat, Color: string(p.Color)})
		}
		out.Tables = append(out.Tables, t)
	}
	if cut := v.Round.Cut; cut != nil {
		out.Cut.Advancing = append(out.Cut.Advancing, cut.Advancing...)
		out.Cut.Draw = append(out.Cut.Draw, cut.Draw...)
		out.Cut.Seed = cut.Seed
	}
	return out
}

// FinalStandingJSON is one line of the final results: From says which
// part decided it: "final" (the final table), "stage" (out at an earlier
// stage of the final) or "standings" (the qualifying standings).
type FinalStandingJSON struct {
	Rank   int    `json:"rank"`
	Player int64  `json:"player"`
	Name   string `json:"name"`
	Kana   string `json:"kana,omitempty"`
	From   string `json:"from"`
	// Stage, Place, Round and Table say where a line from the final was
	// decided: the stage (1 = the first), the place at that table, and the
	// table's round and number.
	Stage int `json:"stage,omitempty"`
	Place int `json:"place,omitempty"`
	Round int `json:"round,omitempty"`
	Table int `json:"table,omitempty"`
}

// The parts of the final results a line comes from.
const (
	fromFinal     = "final"
	fromStage     = "stage"
	fromStandings = "standings"
)

func toFinalStandingsJSON(fs []tournament.FinalStanding) []FinalStandingJSON {
	if fs == nil {
		return nil
	}
	out := make([]FinalStandingJSON, len(fs))
	for i, f := range fs {
		out[i] = FinalStandingJSON{Rank: f.Rank, Player: f.PlayerID, Name: f.Name, Kana: f.Kana, From: fromStandings}
		if f.Stage > 0 {
			out[i].From, out[i].Stage, out[i].Place, out[i].Round, out[i].Table = fromStage, f.Stage, f.Place, f.Round, f.Table
			if f.FromFinal() {
				out[i].From = fromFinal
			}
		}
	}
	return out
}
