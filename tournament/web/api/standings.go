package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

type TournamentStandingJSON struct {
	Rank   int     `json:"rank"`
	Player int64   `json:"player"`
	Name   string  `json:"name"`
	Kana   string  `json:"kana,omitempty"`
	Firsts int     `json:"firsts"`
	VP     int     `json:"vp"`
	Share  float64 `json:"share"`
	Points int     `json:"points"`
	Played int     `json:"played"`
	// DroppedRound is the first round the player no longer plays; 0 while active.
	DroppedRound int `json:"dropped_round"`
	// Disqualified is the effect of the player's disqualification on the
	// games they played ("keep", "remove", "void"); absent for none.
	Disqualified string `json:"disqualified,omitempty"`
}

func (s *Handlers) ShowStandings(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	// The kiosk's standings, shared through the cache like the rest of
	// what it shows.
	if tid, err = s.divisionNamed(c, tid); err != nil {
		return 0, nil, err
	}
	live, err := s.live.Live(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, StandingsJSON{Final: toFinalStandingsJSON(live.Final), Standings: toStandingsJSON(live.Standings)}, nil
}

// StandingsJSON is the standings, with the final results first once a
// final is played.
type StandingsJSON struct {
	Final     []FinalStandingJSON      `json:"final,omitempty"`
	Standings []TournamentStandingJSON `json:"standings"`
}

func toStandingsJSON(st []tournament.Standing) []TournamentStandingJSON {
	out := make([]TournamentStandingJSON, len(st))
	for i, x := range st {
		out[i] = TournamentStandingJSON{
			Rank: x.Rank, Player: x.PlayerID, Name: x.Name, Kana: x.Kana, Firsts: x.Firsts, VP: x.VP,
			Share: roundShare(x.Share), Points: x.Points, Played: x.Played, DroppedRound: x.DroppedRound,
			Disqualified: string(x.Disqualified),
		}
	}
	return out
}
