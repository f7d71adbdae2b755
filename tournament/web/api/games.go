package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// A table's recorded game: the moves as POST /api/v1/referee/game takes
// them (the players named by their ids as strings, in play order), entered
// one at a time, each played by the rules engine on the table's board
// under the tournament's ruleset before it is stored. Moves are numbered
// from 1; a move is entered on the number of moves the client saw
// ("expected"), so that two scorekeepers never interleave moves unawares.

// gameMoveRequest is a move to enter: a move of the referee's game API,
// and the number of moves of the record it was entered on.
type gameMoveRequest struct {
	MoveJSON
	Expected *int `json:"expected"`
}

// GameMoveJSON is one move of a table's record: its number, who entered
// it when, and the move.
type GameMoveJSON struct {
	Number int           `json:"number"`
	Judge  string        `json:"judge"`
	At     time.Time     `json:"at"`
	Move   game.MoveSpec `json:"move"` // in the record format (MoveSpec.MarshalJSON)
}

// gameVoidJSON is a development card that stood with no effect (§8 エ,
// §9): the number of its move and the rule.
type gameVoidJSON struct {
	Move    int    `json:"move"`
	Code    string `json:"code"`
	Section string `json:"section"`
	Message string `json:"message"`
}

// gameAwardJSON is who holds a 2-point card and why, as the position API
// says it, the reason's "move" being the number of the move whose change
// it was (null when the position as it stands is the reason).
type gameAwardJSON struct {
	Holder  *string `json:"holder"`
	Code    string  `json:"code"`
	Section string  `json:"section"`
	Move    *int    `json:"move"`
	Message string  `json:"message"`
}

type gameEvaluationJSON struct {
	Players     []playerEvaluationJSON `json:"players"`
	LongestRoad gameAwardJSON          `json:"longest_road"`
	LargestArmy gameAwardJSON          `json:"largest_army"`
}

// GameJSON is a table's recorded game: its players in play order, its
// moves, the cards voided, the game the moves reach (as the referee's
// game API says it) and the evaluation of the position they built.
type GameJSON struct {
	Players    []string           `json:"players"`
	Moves      []GameMoveJSON     `json:"moves"`
	Voided     []gameVoidJSON     `json:"voided"`
	State      GameStateJSON      `json:"state"`
	Evaluation gameEvaluationJSON `json:"evaluation"`
}

// gameChangeJSON answers a move entered or undone: the record's number of
// moves now, the move entered when it was voided, and the game.
type gameChangeJSON struct {
	Moves      int                `json:"moves"`
	Voided     *gameVoidJSON      `json:"voided"`
	State      GameStateJSON      `json:"state"`
	Evaluation gameEvaluationJSON `json:"evaluation"`
}

// ShowGame answers GET .../tables/{t}/game.
func (s *Handlers) ShowGame(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	g, err := s.svc.Game(c.Request.Context(), tid, n, number)
	if err != nil {
		return 0, nil, err
	}
	p := s.i18n.In(s.i18n.Lang(c))
	out := GameJSON{Players: make([]string, len(g.Players)), Moves: []GameMoveJSON{}, Voided: []gameVoidJSON{},
		State: GameStateToJSON(g.State()), Evaluation: s.gameEvaluationToJSON(p, g)}
	for i, id := range g.Players {
		out.Players[i] = strconv.FormatInt(id, 10)
	}
	for _, m := range g.Moves {
		out.Moves = append(out.Moves, GameMoveJSON{Number: m.Number, Judge: m.Judge, At: m.At, Move: m.Move})
	}
	for _, v := range g.Played.Voided {
		out.Voided = append(out.Voided, voidJSON(p, v))
	}
	return http.StatusOK, out, nil
}

// AppendMove answers POST .../tables/{t}/game/moves: 201 with the game.
func (s *Handlers) AppendMove(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req gameMoveRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	if req.Expected == nil {
		return 0, nil, &problem.BadRequest{ID: "error.missing", Data: map[string]any{"Field": "expected"}, Detail: "expected missing"}
	}
	g, voided, err := s.svc.AppendMove(c.Request.Context(), auth.Judge(c), tid, n, number,
		tournament.MoveInput{Move: req.spec(), Expected: *req.Expected})
	if err != nil {
		return 0, nil, err
	}
	out := s.gameChange(c, g)
	if voided != nil {
		v := voidJSON(s.i18n.In(s.i18n.Lang(c)), voided)
		out.Voided = &v
	}
	return http.StatusCreated, out, nil
}

// UndoMove answers DELETE .../tables/{t}/game/moves/{number}: the move
// goes when it is the record's last.
func (s *Handlers) UndoMove(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	last, err := strconv.Atoi(c.Param("move"))
	if err != nil || last < 1 {
		return 0, nil, problem.ErrNoRoute
	}
	g, err := s.svc.UndoMove(c.Request.Context(), auth.Judge(c), tid, n, number, last)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.gameChange(c, g), nil
}

type gameResultRequest struct {
	Moves      *int   `json:"moves"`
	Version    int    `json:"version"`
	Reason     string `json:"reason"`
	LateReason string `json:"late_reason"`
}

// SaveGameResult answers POST .../tables/{t}/game/result: the result
// saved from the record, answered as a score sheet's save.
func (s *Handlers) SaveGameResult(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req gameResultRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	if req.Moves == nil {
		return 0, nil, &problem.BadRequest{ID: "error.missing", Data: map[string]any{"Field": "moves"}, Detail: "moves missing"}
	}
	tr, err := s.svc.SaveGameResult(c.Request.Context(), auth.Judge(c), tid, n, number, tournament.GameResultInput{
		Moves: *req.Moves, Version: req.Version, Reason: req.Reason, LateReason: req.LateReason})
	if err != nil {
		return 0, nil, err
	}
	res := toResultJSON(tr.Result, tr.Places)
	return http.StatusOK, gin.H{"placings": res.Scores, "version": res.Version, "ended_by": res.EndedBy, "game_moves": tr.Result.GameMoves}, nil
}

func (s *Handlers) gameChange(c *gin.Context, g tournament.Game) gameChangeJSON {
	p := s.i18n.In(s.i18n.Lang(c))
	return gameChangeJSON{Moves: len(g.Moves), State: GameStateToJSON(g.State()), Evaluation: s.gameEvaluationToJSON(p, g)}
}

// voidJSON says a voided card, its move numbered from 1.
func voidJSON(p i18n.Printer, v *game.Error) gameVoidJSON {
	return gameVoidJSON{Move: v.Index + 1, Code: v.Code, Section: v.Section, Message: problem.Violation(p, v.Violation)}
}

// gameEvaluationToJSON writes the evaluation of a recorded game, its
// reasons in p's language, the players by id, each reason's move numbered
// from 1.
func (s *Handlers) gameEvaluationToJSON(p i18n.Printer, g tournament.Game) gameEvaluationJSON {
	names := map[int64]string{} // the API names players by id
	ev := g.Evaluation
	award := func(a game.Award) gameAwardJSON {
		out := gameAwardJSON{Code: a.Why.Code, Section: a.Why.Section,
			Message: problem.Violation(p, tournament.ReasonOf(a.Why).Violation(names))}
		if a.Holder >= 0 {
			out.Holder = &ev.Players[a.Holder].Player
		}
		if a.Why.Index >= 0 {
			move := a.Why.Index + 1
			out.Move = &move
		}
		return out
	}
	return gameEvaluationJSON{Players: playersToJSON(ev), LongestRoad: award(ev.LongestRoad), LargestArmy: award(ev.LargestArmy)}
}
