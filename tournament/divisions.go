package tournament

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/catanjudge/catanjudge/referee"
)

// Divisions in one event (issue 30): a children's division (小学生の部)
// beside the open event. A division is a tournament of its own, linked to
// the event's main tournament: its own players, rounds, pairing, standings,
// round clocks and final, each the use case a tournament has, run on the
// division's ID. Pairing only within a division thus holds by
// construction: a round pairs the players of its own tournament. The main
// tournament is the event's first division ("" names it while unnamed); a
// tournament no division was added to is as it always was.

// Division is one division of an event: its name and the tournament that
// holds it.
type Division struct {
	Name         string
	TournamentID int64
}

// DivisionStore is the Store's part of the divisions.
type DivisionStore interface {
	// AddDivision inserts division d of the event of main tournament m,
	// under m's lock, marks m the event's main (EventID) if it was not,
	// sets d.ID and d.CreatedAt, and moves the version of every division
	// of the event, so that each shows the new one. It is a conflict when
	// a division of d's name was added meanwhile (division-name-taken).
	AddDivision(ctx context.Context, m Tournament, d *Tournament, c Change) error
	// NameDivision names tournament t's division, moving the version of
	// every division of its event. It is a conflict when another division
	// of the event took the name meanwhile.
	NameDivision(ctx context.Context, t Tournament, name string, c Change) error
}

// maxDivisionName is the longest division name, in characters.
const maxDivisionName = 40

// IsDivision says the tournament is a division added to an event's main
// tournament (not the main one itself).
func (t Tournament) IsDivision() bool { return t.EventID != 0 && t.EventID != t.ID }

// DivisionNamed returns the ID of the tournament of the event's division
// name: "" is the tournament itself. An unknown name is a coded not found
// (unknown-division), never an empty list of its players or standings.
func (t Tournament) DivisionNamed(name string) (int64, error) {
	id, v := t.division(name)
	if v != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotFound, v)
	}
	return id, nil
}

// division finds the tournament of the event's division name, or says
// the event has none of that name.
func (t Tournament) division(name string) (int64, *referee.Violation) {
	name = strings.TrimSpace(name)
	if name == "" || name == t.Division {
		return t.ID, nil
	}
	for _, d := range t.Divisions {
		if d.Name == name {
			return d.TournamentID, nil
		}
	}
	return 0, referee.NewViolation("unknown-division", fmt.Sprintf("tournament %d has no division %q", t.ID, name),
		map[string]any{"Division": name, "Divisions": t.divisionNames()})
}

// registerIn is the tournament a player registered through tournament t
// with division name joins: a division that is not the event's is
// invalid input (unknown-division), and nothing is registered.
func (t Tournament) registerIn(name string) (int64, error) {
	id, v := t.division(name)
	if v != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalid, v)
	}
	return id, nil
}

// divisionNames lists the event's divisions' names, "、"-joined, for a
// message.
func (t Tournament) divisionNames() string {
	names := make([]string, 0, len(t.Divisions))
	for _, d := range t.Divisions {
		if d.Name != "" {
			names = append(names, d.Name)
		}
	}
	return strings.Join(names, "、")
}

// checkDivisionName trims a new division's name and refuses an empty or
// long one, or one another division of the event has.
func (t Tournament) checkDivisionName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", invalid("division-name-missing", "a division needs a name", nil)
	case utf8.RuneCountInString(name) > maxDivisionName:
		return "", invalid("division-name-too-long", fmt.Sprintf("a division's name has at most %d characters", maxDivisionName),
			map[string]any{"Max": maxDivisionName})
	case name == t.Division:
		return "", invalid("division-name-taken", fmt.Sprintf("the event has a division %q already", name), map[string]any{"Division": name})
	}
	for _, d := range t.Divisions {
		if d.Name == name {
			return "", invalid("division-name-taken", fmt.Sprintf("the event has a division %q already", name), map[string]any{"Division": name})
		}
	}
	return name, nil
}

// AddDivision adds a division named name to the event of main tournament
// mainID, with the main's settings (ruleset, rounds, game time, date,
// venue, shop, self check-in and reports, the two-person rule) copied in;
// each can then be set for the division alone. The division's tournament
// is named after the event and the division. A division is added to the
// main tournament only, while the event is open.
func (s *Service) AddDivision(ctx context.Context, judge string, mainID int64, name string) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	m, err := s.store.Tournament(ctx, mainID)
	if err != nil {
		return Tournament{}, err
	}
	if err := m.checkOpen(); err != nil {
		return Tournament{}, err
	}
	if m.IsDivision() {
		return Tournament{}, invalid("division-of-division",
			fmt.Sprintf("tournament %d is a division of tournament %d: add the division there", m.ID, m.EventID),
			map[string]any{"Division": m.Division})
	}
	if name, err = m.checkDivisionName(name); err != nil {
		return Tournament{}, err
	}
	d := Tournament{
		Name: strings.TrimSpace(m.Name + " " + name), Date: m.Date, Venue: m.Venue, Shop: m.Shop,
		Ruleset: m.Ruleset, Rounds: m.Rounds, GameMinutes: m.GameMinutes,
		SelfCheckIn: m.SelfCheckIn, SelfReport: m.SelfReport, ConfirmResults: m.ConfirmResults,
		EventID: m.ID, Division: name, CreatedAt: s.now().UTC(),
	}
	c := s.change(judge, "tournament.division_add", "division "+name, nil, divisionJSON{Name: name, Tournament: d.Name})
	if err := s.store.AddDivision(ctx, m, &d, c); err != nil {
		return Tournament{}, err
	}
	return s.store.Tournament(ctx, d.ID)
}

// NameDivision names (or renames) the division a tournament is: the main
// tournament's own, or an added one's. The name follows AddDivision's
// rules.
func (s *Service) NameDivision(ctx context.Context, judge string, id int64, name string) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	if err := t.checkOpen(); err != nil {
		return Tournament{}, err
	}
	if strings.TrimSpace(name) == t.Division {
		return t, nil
	}
	others := t
	others.Division = ""
	if name, err = others.checkDivisionName(name); err != nil {
		return Tournament{}, err
	}
	c := s.change(judge, "tournament.division_name", "division "+name, divisionJSON{Name: t.Division}, divisionJSON{Name: name})
	if err := s.store.NameDivision(ctx, t, name, c); err != nil {
		return Tournament{}, err
	}
	return s.store.Tournament(ctx, id)
}

// checkDeletable refuses deleting the main tournament of an event while
// it has other divisions: they would be left without their event. Each
// division is deleted first (as any tournament that never started).
func (t Tournament) checkDeletable() error {
	if t.IsDivision() || len(t.Divisions) < 2 {
		return nil
	}
	return MainHasDivisions(t.ID, len(t.Divisions)-1)
}

// MainHasDivisions is the refusal to delete main tournament id while it
// has n other divisions (the service checks first; the store again under
// the lock).
func MainHasDivisions(id int64, n int) error {
	return Conflict("division-main-has-divisions",
		fmt.Sprintf("tournament %d is the main of an event with %d other divisions: delete them first", id, n),
		map[string]any{"N": n})
}

// divisionJSON is a division as the audit log keeps it.
type divisionJSON struct {
	Name       string `json:"name"`
	Tournament string `json:"tournament,omitempty"`
}
