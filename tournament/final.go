package tournament

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// Cut records how the players of a stage of a top-cut final were chosen,
// so that it replays exactly: from the qualifying standings (stage 1, by
// referee.Cut) or from the tables of the stage before (by referee.Advance),
// with the seed of the draw that separated players tied at the line.
type Cut struct {
	Stage int // 1 for the cut from the standings, 2 for the next stage, ...
	// Advancing are the players of the stage, best first: in standings
	// order, the drawn players last in drawn order (stage 1); by their
	// qualifying standings after that.
	Advancing []int64
	// Draw is the drawn order of the players tied at the line, to show
	// with the seed; nil when nobody had to be drawn.
	Draw []int64
	Seed uint64
}

// FinalStanding is one player's line in an event's final results
// (referee.FinalResults): the final table's players by their places in
// it, then those out at earlier stages, then everyone else by the
// qualifying standings.
type FinalStanding struct {
	Rank     int
	PlayerID int64
	Name     string
	Kana     string
	Label    string // the name, told apart from the same names (Labels)
	// Stage is how far the player went in the final (its last stage is the
	// final table, Stages); 0 for a player ranked by the qualifying standings.
	Stage, Stages int
	// Place is the player's place at their table in that stage, at table
	// Table of round Round; all 0 for Stage 0.
	Place, Round, Table int
}

// FromFinal reports whether the line was decided at the final table.
func (f FinalStanding) FromFinal() bool { return f.Stage > 0 && f.Stage == f.Stages }

// qualifying returns the rounds of the event before its final: every round
// but the final's stages (Mode ModeFinal).
func (e record) qualifying() []Round {
	i := slices.IndexFunc(e.rounds, func(r Round) bool { return r.Mode == ModeFinal })
	if i < 0 {
		return e.rounds
	}
	return e.rounds[:i]
}

// finals returns the final's stages made so far, in order.
func (e record) finals() []Round {
	return e.rounds[len(e.qualifying()):]
}

// makeFinal makes the next stage of a top-cut final (the ruleset's
// EventFormat.Cut) once every qualifying round is played: the top players
// of the qualifying standings for the first stage, a tie at the cut line
// settled by a seeded draw (referee.Cut); for each later stage, the best
// placed of each table of the stage before (referee.Advance). Dropped
// players do not go on. The stage is a new round of Mode ModeFinal, seated
// by referee.SeatFinal, with its Cut recorded.
func (s *Service) makeFinal(ctx context.Context, judge string, tournamentID int64) (Round, error) {
	e, err := s.loadOpen(ctx, judge, tournamentID)
	if err != nil {
		return Round{}, err
	}
	r, err := s.nextFinal(e, judge)
	if err != nil {
		return Round{}, err
	}
	subject := fmt.Sprintf("round %d (final stage %d of %d)", r.Number, r.Cut.Stage, len(e.t.Ruleset.WithDefaults().Event.Stages()))
	if err := s.store.AddRound(ctx, &r, s.change(judge, "final.make", subject, nil, &r)); err != nil {
		return Round{}, err
	}
	return r, nil
}

// nextFinal is the next stage of the event's top-cut final as MakeFinal
// makes it, not yet stored.
func (s *Service) nextFinal(e record, judge string) (Round, error) {
	stages, err := e.nextStage()
	if err != nil {
		return Round{}, err
	}
	n := len(e.rounds) + 1
	cut := Cut{Stage: len(e.finals()) + 1, Seed: s.seed()}
	advancing, draw, tables, err := e.cut(stages, cut.Seed)
	if err != nil {
		return Round{}, err
	}
	cut.Advancing, cut.Draw = fromPIDs(advancing), fromPIDs(draw)
	r := Round{
		TournamentID: e.t.ID,
		Number:       n,
		Mode:         ModeFinal,
		Seed:         cut.Seed,
		PairedBy:     judge,
		PairedAt:     s.now().UTC(),
		Cut:          &cut,
	}
	for i, t := range tables {
		r.Tables = append(r.Tables, Table{Number: i + 1, Players: fromPIDs(t)})
	}
	return r, nil
}

// cut chooses the players of the final's next stage after the rounds of
// e (the qualifying rounds and the stages made so far), as MakeFinal
// makes it from seed: the stage's players best first, the drawn order of
// the players tied at the line (nil when nobody was drawn), and its
// tables (referee.SeatFinal). CheckRecord asks it of a record's cuts.
func (e record) cut(stages []referee.Stage, seed uint64) (advancing, draw []string, tables [][]string, err error) {
	rs := e.t.Ruleset.WithDefaults()
	qual, finals := e.qualifying(), e.finals()
	n := len(e.rounds) + 1
	standings, err := e.standingsOf(qual)
	if err != nil {
		return nil, nil, nil, e.named(err)
	}
	if len(finals) >= len(stages) {
		return nil, nil, nil, Conflict("final-already-made", fmt.Sprintf("the final is already made (round %d)", finals[len(finals)-1].Number),
			map[string]any{"Round": finals[len(finals)-1].Number})
	}
	if len(finals) == 0 {
		var active []referee.Standing
		for _, st := range standings {
			if p, ok := e.player(fromPID(st.Player)); ok && p.Active(n) {
				active = append(active, st)
			}
		}
		if len(active) < stages[0].Players {
			return nil, nil, nil, invalid("final-too-few-players", fmt.Sprintf("the final takes the top %d, but %d players are still in the tournament", stages[0].Players, len(active)),
				map[string]any{"Cut": stages[0].Players, "Count": len(active)})
		}
		if advancing, draw, err = referee.Cut(active, stages[0].Players, seed); err != nil {
			return nil, nil, nil, e.named(err)
		}
	} else {
		prev := finals[len(finals)-1]
		for _, tb := range prev.Tables {
			if tb.Result == nil {
				return nil, nil, nil, Conflict("final-results-missing", fmt.Sprintf("round %d table %d has no result yet", prev.Number, tb.Number),
					map[string]any{"Round": prev.Number, "Table": tb.Number})
			}
			ps, err := e.place(prev.Number, *tb.Result)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("round %d table %d: %w", prev.Number, tb.Number, err)
			}
			adv, d, err := referee.Advance(referee.Game{Placings: ps}, stages[len(finals)-1].Advance, standings, rs.Event.FinalTies, seed)
			if err != nil {
				return nil, nil, nil, e.named(err)
			}
			advancing, draw = append(advancing, adv...), append(draw, d...)
		}
		// The players of a later stage are seated best first by their
		// qualifying standings, as the first stage's.
		order := map[string]int{}
		for i, st := range standings {
			order[st.Player] = i
		}
		slices.SortStableFunc(advancing, func(a, b string) int { return cmp.Compare(order[a], order[b]) })
	}
	tables, err = referee.SeatFinal(advancing)
	return advancing, draw, tables, err
}

// nextStage returns the stages of the event's top-cut final when
// MakeFinal can make the next one now, or why it cannot: the ruleset has
// no top cut, every stage is made, a qualifying round is not paired, or a
// table has no result.
func (e record) nextStage() ([]referee.Stage, error) {
	rs := e.t.Ruleset.WithDefaults()
	if rs.Event.Final != referee.TopCut {
		return nil, invalid("final-not-top-cut", fmt.Sprintf("ruleset %s has no top-cut final (its final is %q)", rs.Name, rs.Event.Final),
			map[string]any{"Ruleset": rs.Name, "Final": string(rs.Event.Final)})
	}
	stages := rs.Event.Stages()
	qual, finals := e.qualifying(), e.finals()
	if len(finals) >= len(stages) {
		return nil, Conflict("final-already-made", fmt.Sprintf("the final is already made (round %d)", finals[len(finals)-1].Number),
			map[string]any{"Round": finals[len(finals)-1].Number})
	}
	if len(qual) < e.t.Rounds {
		return nil, Conflict("qualifying-not-complete", fmt.Sprintf("%d of %d qualifying rounds are paired", len(qual), e.t.Rounds),
			map[string]any{"Paired": len(qual), "Rounds": e.t.Rounds})
	}
	for _, r := range e.rounds {
		for _, tb := range r.Tables {
			if tb.Result == nil {
				return nil, Conflict("final-results-missing", fmt.Sprintf("round %d table %d has no result yet", r.Number, tb.Number),
					map[string]any{"Round": r.Number, "Table": tb.Number})
			}
		}
	}
	return stages, nil
}

// FinalView is an event's final as the console shows it.
type FinalView struct {
	Format referee.FinalFormat
	Stages []referee.Stage // a top cut's stages, from the ruleset (referee.EventFormat.Stages)
	Made   []Round         // the stages made so far, in order, with their cuts
	// Ready is nil when MakeFinal would make the next stage now, else why
	// it would not (its refusal).
	Ready   error
	Results []FinalStanding // FinalStandings: nil until the final is played
}

// Final returns the event's final: the format, the stages made with their
// cuts, whether the next can be made now, and the final results.
func (s *Service) Final(ctx context.Context, tournamentID int64) (FinalView, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return FinalView{}, err
	}
	return snap.Final()
}

// final computes the event's FinalView.
func (e record) final() (FinalView, error) {
	rs := e.t.Ruleset.WithDefaults()
	v := FinalView{Format: rs.Event.Final, Stages: rs.Event.Stages(), Made: e.finals()}
	if err := e.t.checkOpen(); err != nil {
		v.Ready = err
	} else if _, err := e.nextStage(); err != nil {
		v.Ready = err
	}
	var err error
	if v.Results, err = e.finalStandings(); err != nil {
		return FinalView{}, err
	}
	return v, nil
}

// FinalStandings returns the event's final results once its final is
// played (referee.FinalResults), or nil before: for a top cut, once every
// stage is made and the final table has its result; for the leaders'
// table, once every round is paired and the last round's table 1 has its
// result. Without a final, nil.
func (s *Service) FinalStandings(ctx context.Context, tournamentID int64) ([]FinalStanding, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.FinalStandings()
}

// finalStandings computes FinalStandings for the event.
func (e record) finalStandings() ([]FinalStanding, error) {
	rs := e.t.Ruleset.WithDefaults()
	var played []Round // the rounds of the final's stages, in order
	qual := e.qualifying()
	switch rs.Event.Final {
	case referee.TopCut:
		played = e.finals()
		if len(played) == 0 || len(played) != len(rs.Event.Stages()) {
			return nil, nil
		}
	case referee.LeadersTable:
		// docs/rules.md (national rules): the winner of the last round's table 1 (the
		// leaders' table of a Swiss round) is champion.
		if len(qual) < e.t.Rounds || len(qual) == 0 || len(qual[len(qual)-1].Tables) == 0 {
			return nil, nil
		}
		last := qual[len(qual)-1]
		last.Tables = last.Tables[:1]
		played = []Round{last}
	default:
		return nil, nil
	}
	final := played[len(played)-1]
	if len(final.Tables) != 1 || final.Tables[0].Result == nil {
		return nil, nil
	}
	standings, err := e.standingsOf(qual)
	if err != nil {
		return nil, e.named(err)
	}
	stages := make([][]referee.Game, len(played))
	type seat struct{ round, table int }
	at := map[int64]seat{}
	for k, r := range played {
		for _, tb := range r.Tables {
			if tb.Result == nil {
				return nil, nil
			}
			ps, err := e.place(r.Number, *tb.Result)
			if err != nil {
				return nil, fmt.Errorf("round %d table %d: %w", r.Number, tb.Number, err)
			}
			stages[k] = append(stages[k], referee.Game{Placings: ps})
			for _, id := range tb.Players {
				at[id] = seat{r.Number, tb.Number}
			}
		}
	}
	fs, err := referee.FinalResults(rs.Event.FinalTies, standings, stages)
	if err != nil {
		return nil, e.named(err)
	}
	out := make([]FinalStanding, len(fs))
	for i, f := range fs {
		id := fromPID(f.Player)
		p, _ := e.player(id)
		out[i] = FinalStanding{Rank: f.Rank, PlayerID: id, Name: p.Name, Kana: p.Kana, Label: e.labels[id], Stage: f.Stage, Stages: len(played), Place: f.Place}
		if f.Stage > 0 {
			out[i].Round, out[i].Table = at[id].round, at[id].table
		}
	}
	slices.SortStableFunc(out, func(a, b FinalStanding) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(CollationKey(a.Kana, a.Name, a.PlayerID), CollationKey(b.Kana, b.Name, b.PlayerID)))
	})
	return out, nil
}
