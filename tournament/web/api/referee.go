package api

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
)

// The stateless referee API: JSON in, JSON out, nothing stored. Player ids
// are whatever strings the caller chooses.

type rollJSON struct {
	Player string `json:"player"`
	White  int    `json:"white"`
	Blue   int    `json:"blue"`
}

type seatJSON struct {
	Player string `json:"player"`
	Seat   int    `json:"seat"`
	Color  string `json:"color"`
}

type seatingRequest struct {
	Ruleset string       `json:"ruleset"`
	Rounds  [][]rollJSON `json:"rounds"`
	// Players and Seed roll the capsule dice from a seeded source instead.
	Players []string `json:"players"`
	Seed    *uint64  `json:"seed"`
}

type seatingResponse struct {
	Order  []seatJSON   `json:"order"`
	Rounds [][]rollJSON `json:"rounds"`
	Seed   *uint64      `json:"seed,omitempty"`
}

func (s *Handlers) OrderSeats(c *gin.Context) (int, any, error) {
	var req seatingRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	rs, err := s.ruleset(req.Ruleset)
	if err != nil {
		return 0, nil, err
	}
	var (
		rounds [][]referee.Roll
		seats  []referee.Seat
	)
	if len(req.Rounds) == 0 && len(req.Players) > 0 {
		seed := seedOr(req.Seed)
		req.Seed = &seed
		rounds, seats, err = referee.RollSeating(rs, req.Players, seed)
	} else {
		rounds = rollsFromJSON(req.Rounds)
		seats, err = referee.SeatTable(rs, rounds)
	}
	if err != nil {
		return 0, nil, err
	}
	out := seatingResponse{Order: seatsJSON(seats), Rounds: rollsJSON(rounds), Seed: req.Seed}
	return http.StatusOK, out, nil
}

func rollsFromJSON(in [][]rollJSON) [][]referee.Roll {
	out := make([][]referee.Roll, len(in))
	for i, round := range in {
		for _, r := range round {
			out[i] = append(out[i], referee.Roll{Player: r.Player, CapsuleRoll: referee.CapsuleRoll{White: r.White, Blue: r.Blue}})
		}
	}
	return out
}

func rollsJSON(in [][]referee.Roll) [][]rollJSON {
	out := make([][]rollJSON, len(in))
	for i, round := range in {
		out[i] = make([]rollJSON, len(round))
		for j, r := range round {
			out[i][j] = rollJSON{Player: r.Player, White: r.White, Blue: r.Blue}
		}
	}
	return out
}

func seatsJSON(seats []referee.Seat) []seatJSON {
	out := make([]seatJSON, len(seats))
	for i, st := range seats {
		out[i] = seatJSON{Player: st.Player, Seat: st.Order, Color: string(st.Color)}
	}
	return out
}

type scoreJSON struct {
	Player string `json:"player"`
	VP     int    `json:"vp"`
}

type placingJSON struct {
	Player string `json:"player"`
	VP     int    `json:"vp"`
	Place  int    `json:"place"`
}

type gameJSON struct {
	Scores   []scoreJSON `json:"scores"`
	Declared *string     `json:"declared"`
}

type placingsRequest struct {
	Ruleset string `json:"ruleset"`
	gameJSON
}

func (g gameJSON) scores() []referee.Score {
	out := make([]referee.Score, len(g.Scores))
	for i, sc := range g.Scores {
		out[i] = referee.Score{Player: sc.Player, VP: sc.VP}
	}
	return out
}

func (g gameJSON) declared() string {
	if g.Declared == nil {
		return ""
	}
	return *g.Declared
}

func placingsJSON(ps []referee.Placing) []placingJSON {
	out := make([]placingJSON, len(ps))
	for i, p := range ps {
		out[i] = placingJSON{Player: p.Player, VP: p.VP, Place: p.Place}
	}
	return out
}

func (s *Handlers) PlaceTable(c *gin.Context) (int, any, error) {
	var req placingsRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	rs, err := s.ruleset(req.Ruleset)
	if err != nil {
		return 0, nil, err
	}
	ps, err := referee.Place(rs, req.scores(), req.declared())
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gin.H{"placings": placingsJSON(ps)}, nil
}

type standingsRequest struct {
	Ruleset string     `json:"ruleset"`
	Games   []gameJSON `json:"games"`
	Byes    []string   `json:"byes"`
}

type standingJSON struct {
	Rank   int     `json:"rank"`
	Player string  `json:"player"`
	Firsts int     `json:"firsts"`
	VP     int     `json:"vp"`
	Share  float64 `json:"share"`
	Points int     `json:"points"`
	Played int     `json:"played"`
}

func (s *Handlers) RankGames(c *gin.Context) (int, any, error) {
	var req standingsRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	rs, err := s.ruleset(req.Ruleset)
	if err != nil {
		return 0, nil, err
	}
	games := make([]referee.Game, len(req.Games))
	var players []string
	for i, g := range req.Games {
		ps, err := referee.Place(rs, g.scores(), g.declared())
		if err != nil {
			return 0, nil, err
		}
		games[i] = referee.Game{Placings: ps}
		for _, p := range ps {
			players = append(players, p.Player)
		}
	}
	players = append(players, req.Byes...)
	slices.Sort(players)
	players = slices.Compact(players)
	st, err := referee.Standings(rs, games, req.Byes, players)
	if err != nil {
		return 0, nil, err
	}
	out := make([]standingJSON, len(st))
	for i, x := range st {
		out[i] = standingJSON{Rank: x.Rank, Player: x.Player, Firsts: x.Firsts, VP: x.VP, Share: roundShare(x.Share), Points: x.Points, Played: x.Played}
	}
	return http.StatusOK, gin.H{"standings": out}, nil
}

// roundShare keeps four decimals, as the API shows shares (0.8586).
func roundShare(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}
