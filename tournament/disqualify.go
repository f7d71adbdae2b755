package tournament

import (
	"context"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// DisqualifyInput is a disqualification as the judge decides it.
type DisqualifyInput struct {
	Reason string // required
	// Effect is the disqualification's effect on the games the player
	// played; "" takes the ruleset's (referee.Ruleset.Disqualification).
	Effect referee.DQEffect
}

// GameRef names a table of a round.
type GameRef struct {
	Round, Table int
}

// DQPreview is what a disqualification would do, for the judge to read
// before confirming it.
type DQPreview struct {
	Player  Player
	Reason  string           // the reason, cleaned
	Effect  referee.DQEffect // the effect chosen, or the ruleset's
	Ruleset referee.DQEffect // the ruleset's effect
	// DropFrom is the first round the player would no longer play.
	DropFrom int
	// Games are the tables with a result at which the player played, in
	// the qualifying rounds: the games the effect acts on.
	Games []GameRef
}

// PreviewDisqualify says what Disqualify would do with in, refusing what
// it would refuse, without changing anything.
func (s *Service) PreviewDisqualify(ctx context.Context, tournamentID, playerID int64, in DisqualifyInput) (DQPreview, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return DQPreview{}, err
	}
	p, ok := e.player(playerID)
	if !ok {
		return DQPreview{}, notInTournament(playerID)
	}
	pv := DQPreview{Player: p, Ruleset: e.t.Ruleset.WithDefaults().Disqualification, DropFrom: p.DroppedRound}
	if pv.Reason, pv.Effect, err = checkDisqualify(e.t, p, in); err != nil {
		return DQPreview{}, err
	}
	if pv.DropFrom == 0 {
		prog, err := s.store.Progress(ctx, tournamentID)
		if err != nil {
			return DQPreview{}, err
		}
		pv.DropFrom = prog.OpenRound()
	}
	for _, r := range e.qualifying() {
		for _, t := range r.Tables {
			if t.Result != nil && slices.Contains(t.Players, p.ID) {
				pv.Games = append(pv.Games, GameRef{Round: r.Number, Table: t.Number})
			}
		}
	}
	return pv, nil
}

// checkDisqualify checks a disqualification of p in tournament t, and
// returns its reason, cleaned, and its effect: the judge's, or the
// ruleset's when in leaves it out.
func checkDisqualify(t Tournament, p Player, in DisqualifyInput) (string, referee.DQEffect, error) {
	reason, err := fieldReason.clean(in.Reason)
	if err != nil {
		return "", "", err
	}
	if reason == "" {
		return "", "", invalid("dq-reason-missing", "a disqualification needs a reason", nil)
	}
	if err := t.checkOpen(); err != nil {
		return "", "", err
	}
	effect := in.Effect
	if effect == "" {
		effect = t.Ruleset.WithDefaults().Disqualification
	}
	if err := referee.CheckDQEffect(effect); err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if p.DQEffect != "" {
		return "", "", invalid("already-disqualified", describe(p)+" is already disqualified",
			map[string]any{"Player": p.Name, "Effect": string(p.DQEffect)})
	}
	return reason, effect, nil
}

// Disqualify disqualifies a player, with a reason, and with the effect
// on the games they played that the judge chose or the ruleset's
// (referee.Disqualified; docs/rules.md, Penalties): the standings count
// those games so from then on, and the audit keeps the effect. The
// player is dropped as DropPlayer drops them, unless they dropped before.
// A disqualified player is disqualified once: ReinstatePlayer undoes it.
func (s *Service) Disqualify(ctx context.Context, judge string, tournamentID, playerID int64, in DisqualifyInput) (Player, error) {
	if err := checkJudge(judge); err != nil {
		return Player{}, err
	}
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	p, err := s.store.Player(ctx, playerID)
	if err != nil {
		return Player{}, err
	}
	if err := p.checkIn(tournamentID); err != nil {
		return Player{}, err
	}
	reason, effect, err := checkDisqualify(t, p, in)
	if err != nil {
		return Player{}, err
	}
	prog, err := s.store.Progress(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	read, before := p, snapshot(p)
	p.KeepApart = slices.Clone(p.KeepApart)
	p.DQEffect, p.DQReason = effect, reason
	if p.DroppedRound == 0 {
		p.DroppedRound = prog.OpenRound()
	}
	c := s.change(judge, "player.disqualify", fmt.Sprintf("%s (%s): %s", describe(p), effect, reason), before, p)
	if err := s.store.UpdatePlayer(ctx, read, p, &prog, c); err != nil {
		return Player{}, err
	}
	return p, nil
}

// disqualified returns the effect of each disqualified player's
// disqualification, by the referee's player ID; nil when nobody is.
func (e record) disqualified() map[string]referee.DQEffect {
	var dq map[string]referee.DQEffect
	for _, p := range e.players {
		if p.DQEffect != "" {
			if dq == nil {
				dq = map[string]referee.DQEffect{}
			}
			dq[pid(p.ID)] = p.DQEffect
		}
	}
	return dq
}
