// Package rating rates players from the placings of multi-player games by
// the Plackett–Luce model of Weng and Lin's Bayesian approximation ("A
// Bayesian Approximation Method for Online Ranking", JMLR 12, 2011,
// Algorithm 4), the model OpenSkill publishes. A game is any number of
// players (a Catan table of 3 or 4) with their places; players who share
// a place are a tie, which the model takes as it stands rather than
// breaking it. Everything is computed from its inputs: no clock, no
// randomness, so a replay of the same games gives the same ratings to the
// last bit.
package rating

import (
	"fmt"
	"math"
)

// Rating is a player's skill as a normal belief: Mu its mean, Sigma its
// standard deviation (the model's uncertainty).
type Rating struct {
	Mu, Sigma float64
}

// Ordinal is the rating a player is ranked by: Mu − 3σ, the skill the
// model is 99.7% sure the player has at least. A new player's is 0.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model holds the model's parameters.
type Model struct {
	Mu, Sigma float64 // a new player's rating
	// Beta is the spread of a performance around the skill: how far luck
	// carries one game.
	Beta float64
	// Kappa is the floor of a variance's shrink factor, so that σ stays
	// positive however surprising a game.
	Kappa float64
	// Tau is added to every σ (in quadrature) before a game, so that a
	// rating keeps moving after many games: skill drifts.
	Tau float64
	// LimitSigma keeps a game from raising a player's σ (which Tau would
	// do when the game tells little).
	LimitSigma bool
}

// Default is the model with OpenSkill's defaults: μ 25, σ 25/3, β 25/6,
// κ 0.0001, τ 25/300.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New returns a new player's rating.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Rate returns the ratings of the players of one game after it, in the
// order given: players[i] placed places[i] (1 is first; equal places are
// a tie). A game needs two players or more.
func (m Model) Rate(players []Rating, places []int) ([]Rating, error) {
	teams := make([][]Rating, len(players))
	for i, p := range players {
		teams[i] = []Rating{p}
	}
	out, err := m.RateTeams(teams, places)
	if err != nil {
		return nil, err
	}
	rated := make([]Rating, len(out))
	for i, t := range out {
		rated[i] = t[0]
	}
	return rated, nil
}

// RateTeams returns the ratings of teams of players after one game in
// which teams[i] placed ranks[i] (lower is better; equal ranks tie), in
// the order given. A team's skill is the sum of its players'; a player's
// share of the team's update is their share of its variance. Catan is
// played alone (every team one player); teams are kept for the model as
// published, whose test vectors rate teams.
func (m Model) RateTeams(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if len(teams) < 2 {
		return nil, fmt.Errorf("rate: a game needs 2 teams or more, not %d", len(teams))
	}
	if len(ranks) != len(teams) {
		return nil, fmt.Errorf("rate: %d ranks for %d teams", len(ranks), len(teams))
	}
	type team struct{ mu, sigma2 float64 }
	// τ first: every σ widens a little before the game (σ² + τ²).
	widened := make([][]Rating, len(teams))
	ts := make([]team, len(teams))
	for i, players := range teams {
		if len(players) == 0 {
			return nil, fmt.Errorf("rate: team %d has no player", i+1)
		}
		widened[i] = make([]Rating, len(players))
		for j, p := range players {
			if !(p.Sigma > 0) || math.IsInf(p.Sigma, 0) || math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) {
				return nil, fmt.Errorf("rate: team %d player %d: rating %v is not a belief", i+1, j+1, p)
			}
			w := Rating{Mu: p.Mu, Sigma: math.Sqrt(p.Sigma*p.Sigma + m.Tau*m.Tau)}
			widened[i][j] = w
			ts[i].mu += w.Mu
			ts[i].sigma2 += w.Sigma * w.Sigma
		}
	}
	// Algorithm 4: c² is the total variance of the game's performances.
	var c2 float64
	for _, t := range ts {
		c2 += t.sigma2 + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	// sumQ[q] is Σ exp(μ_s/c) over the teams s not placed above q (those
	// still in the running when q's place is drawn); ties[q] counts the
	// teams sharing q's rank, which share that draw.
	exp := make([]float64, len(ts))
	for i, t := range ts {
		exp[i] = math.Exp(t.mu / c)
	}
	sumQ := make([]float64, len(ts))
	ties := make([]float64, len(ts))
	for q := range ts {
		for s := range ts {
			if ranks[s] >= ranks[q] {
				sumQ[q] += exp[s]
			}
			if ranks[s] == ranks[q] {
				ties[q]++
			}
		}
	}
	out := make([][]Rating, len(teams))
	for i, t := range ts {
		var omega, delta float64
		for q := range ts {
			if ranks[q] > ranks[i] {
				continue
			}
			p := exp[i] / sumQ[q] // the chance i is drawn at q's place
			delta += p * (1 - p) / ties[q]
			if q == i {
				omega += (1 - p) / ties[q]
			} else {
				omega -= p / ties[q]
			}
		}
		gamma := math.Sqrt(t.sigma2) / c
		omega *= t.sigma2 / c
		delta *= gamma * t.sigma2 / c2
		out[i] = make([]Rating, len(widened[i]))
		for j, w := range widened[i] {
			share := w.Sigma * w.Sigma / t.sigma2
			sigma := w.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa))
			if m.LimitSigma {
				sigma = math.Min(sigma, teams[i][j].Sigma)
			}
			out[i][j] = Rating{Mu: w.Mu + share*omega, Sigma: sigma}
		}
	}
	return out, nil
}
