package game

import (
	"encoding/json"

	"github.com/catanjudge/catanjudge/referee"
)

// moveJSON is a move in the record format's JSON names (those of the JSON
// API), with only the fields the move sets: a list or a map given empty
// stays empty and absent stays absent, as Decode reads them apart.
type moveJSON struct {
	Do         string          `json:"do"`
	Player     string          `json:"player,omitempty"`
	Settlement string          `json:"settlement,omitempty"`
	City       string          `json:"city,omitempty"`
	Road       *[]string       `json:"road,omitempty"`
	Roads      *[][]string     `json:"roads,omitempty"`
	Dice       *[]int          `json:"dice,omitempty"`
	Cards      *map[string]int `json:"cards,omitempty"`
	Give       *map[string]int `json:"give,omitempty"`
	Get        *map[string]int `json:"get,omitempty"`
	Take       *map[string]int `json:"take,omitempty"`
	Hex        *hexJSON        `json:"hex,omitempty"`
	Rob        string          `json:"rob,omitempty"`
	Took       string          `json:"took,omitempty"`
	With       string          `json:"with,omitempty"`
	Card       string          `json:"card,omitempty"`
	Dev        string          `json:"dev,omitempty"`
	Resource   string          `json:"resource,omitempty"`
}

type hexJSON struct {
	Q int `json:"q"`
	R int `json:"r"`
}

// MarshalJSON writes m in the record format: {"do":"build","road":[...]},
// the fields m sets and no others.
func (m MoveSpec) MarshalJSON() ([]byte, error) {
	j := moveJSON{
		Do: m.Do, Player: m.Player, Settlement: m.Settlement, City: m.City,
		Road: given(m.Road, m.Road != nil), Roads: given(m.Roads, m.Roads != nil), Dice: given(m.Dice, m.Dice != nil),
		Cards: given(m.Cards, m.Cards != nil), Give: given(m.Give, m.Give != nil), Get: given(m.Get, m.Get != nil),
		Take: given(m.Take, m.Take != nil),
		Rob:  m.Rob, Took: m.Took, With: m.With, Card: m.Card, Dev: m.Dev, Resource: m.Resource,
	}
	if m.Hex != nil {
		j.Hex = &hexJSON{Q: m.Hex.Q, R: m.Hex.R}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a move MarshalJSON wrote.
func (m *MoveSpec) UnmarshalJSON(b []byte) error {
	var j moveJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*m = MoveSpec{
		Do: j.Do, Player: j.Player, Settlement: j.Settlement, City: j.City,
		Road: valueOf(j.Road), Roads: valueOf(j.Roads), Dice: valueOf(j.Dice),
		Cards: valueOf(j.Cards), Give: valueOf(j.Give), Get: valueOf(j.Get), Take: valueOf(j.Take),
		Rob: j.Rob, Took: j.Took, With: j.With, Card: j.Card, Dev: j.Dev, Resource: j.Resource,
	}
	if j.Hex != nil {
		m.Hex = &referee.Hex{Q: j.Hex.Q, R: j.Hex.R}
	}
	return nil
}

// given points at v when it is set, else is nil.
func given[T any](v T, set bool) *T {
	if !set {
		return nil
	}
	return &v
}

// valueOf is what p points at, or the zero value for nil.
func valueOf[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
