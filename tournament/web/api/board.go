package api

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

type HexJSON struct {
	Q int `json:"q"`
	R int `json:"r"`
}

type tileJSON struct {
	Q       int    `json:"q"`
	R       int    `json:"r"`
	Terrain string `json:"terrain"`
	Number  int    `json:"number"`
	Robber  bool   `json:"robber"`
}

type harborJSON struct {
	Vertices [2]string `json:"vertices"`
	Kind     string    `json:"kind"`
}

type BoardJSON struct {
	Method  string       `json:"method"`           // capsule or spiral
	White   int          `json:"white,omitempty"`  // capsule: the capsule roll
	Blue    int          `json:"blue,omitempty"`   //
	Corner  int          `json:"corner,omitempty"` // spiral: the corner die
	Start   string       `json:"start,omitempty"`  // spiral: the corner it names
	Seed    uint64       `json:"seed"`
	Ruleset string       `json:"ruleset"`
	Version string       `json:"ruleset_version"`
	Redeals int          `json:"redeals"`
	Hexes   []tileJSON   `json:"hexes"`
	Harbors []harborJSON `json:"harbors"`
}

func boardToJSON(b referee.Board) BoardJSON {
	out := BoardJSON{
		Method: string(b.Method), White: b.Roll.White, Blue: b.Roll.Blue, Corner: b.Corner, Start: string(b.Start), Seed: b.Seed,
		Ruleset: b.RulesetName, Version: b.RulesetVersion, Redeals: b.Redeals,
	}
	for _, t := range b.Tiles {
		out.Hexes = append(out.Hexes, tileJSON{
			Q: t.Hex.Q, R: t.Hex.R, Terrain: string(t.Terrain), Number: t.Number,
			Robber: b.HasRobber && b.Robber == t.Hex,
		})
	}
	for _, h := range b.Harbors {
		out.Harbors = append(out.Harbors, harborJSON{Vertices: [2]string{h.Edge.A.String(), h.Edge.B.String()}, Kind: string(h.Kind)})
	}
	return out
}

// SetUpBoard sets up a board by the ruleset's method: by §3 from
// ?white=&blue=&seed=, or by the national rules' spiral from
// ?corner=&seed=. Dice of the other method are refused.
func (s *Handlers) SetUpBoard(c *gin.Context) (int, any, error) {
	rs, err := s.ruleset(c.Query("ruleset"))
	if err != nil {
		return 0, nil, err
	}
	seed, err := querySeed(c)
	if err != nil {
		return 0, nil, err
	}
	// Dice of the other method are refused before those of the ruleset's
	// are required: the message says which dice it takes.
	given := func(name string) int {
		if c.Query(name) == "" {
			return 0
		}
		return 1
	}
	if err := referee.CheckDice(rs, referee.BoardDice{Roll: referee.CapsuleRoll{White: given("white"), Blue: given("blue")}, Corner: given("corner")}); err != nil {
		return 0, nil, err
	}
	var dice referee.BoardDice
	if rs.Board.Method == referee.SpiralBoard {
		dice.Corner, err = queryInt(c, "corner", 1, 6)
	} else if dice.Roll.White, err = queryInt(c, "white", 1, 6); err == nil {
		dice.Roll.Blue, err = queryInt(c, "blue", 1, 6)
	}
	if err != nil {
		return 0, nil, err
	}
	b, err := referee.SetUpBoard(rs, dice, seedOr(seed))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, boardToJSON(b), nil
}

// querySeed reads the optional ?seed=, nil when not given.
func querySeed(c *gin.Context) (*uint64, error) {
	v := c.Query("seed")
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return nil, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": "seed"}, Detail: err.Error()}
	}
	return &n, nil
}

// queryInt reads a required integer query parameter within [lo, hi].
func queryInt(c *gin.Context, name string, lo, hi int) (int, error) {
	v := c.Query(name)
	if v == "" {
		return 0, &problem.BadRequest{ID: "error.missing", Data: map[string]any{"Field": name}, Detail: name + " missing"}
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, &problem.BadRequest{ID: "error.number", Data: map[string]any{"Field": name}, Detail: err.Error()}
	}
	if n < lo || n > hi {
		return 0, &problem.BadRequest{ID: "error.range", Data: map[string]any{"Field": name, "Min": lo, "Max": hi}, Detail: name + " out of range"}
	}
	return n, nil
}

type ChipJSON struct {
	Q      int `json:"q"`
	R      int `json:"r"`
	Number int `json:"number"`
}

type DealCheckRequest struct {
	Ruleset string     `json:"ruleset"`
	White   int        `json:"white"` // 0 when the capsule roll is not known
	Numbers []ChipJSON `json:"numbers"`
}

type dealCheckResponse struct {
	Redeal bool        `json:"redeal"`
	Clumps [][]HexJSON `json:"clumps"`
}

// CheckDeal checks a judge-entered physical chip deal against the dango rule (§3 ウ).
func (s *Handlers) CheckDeal(c *gin.Context) (int, any, error) {
	var req DealCheckRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	rs, err := s.ruleset(req.Ruleset)
	if err != nil {
		return 0, nil, err
	}
	chips := make([]referee.Chip, len(req.Numbers))
	for i, n := range req.Numbers {
		chips[i] = referee.Chip{Hex: referee.Hex{Q: n.Q, R: n.R}, Number: n.Number}
	}
	dc, err := referee.CheckDeal(rs, req.White, chips)
	if err != nil {
		return 0, nil, err
	}
	out := dealCheckResponse{Redeal: dc.Redeal, Clumps: [][]HexJSON{}}
	for _, clump := range dc.Clumps {
		hs := make([]HexJSON, len(clump))
		for i, h := range clump {
			hs[i] = HexJSON{Q: h.Q, R: h.R}
		}
		out.Clumps = append(out.Clumps, hs)
	}
	return http.StatusOK, out, nil
}
