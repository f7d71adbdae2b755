package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// PlayerInput is what a judge enters for a player.
type PlayerInput struct {
	Name string
	Kana string // reading, for sorting and search; optional
	// CheckedIn registers the player checked in (AddPlayer), as the desk
	// does on the day; an edit leaves the check-in to CheckIn.
	CheckedIn bool
	// Member is the member number the player gave, "" for none
	// (AddPlayer): a known one names their person of the registry.
	Member string
	// Person is the judge's word on whom the player is in the registry
	// (AddPlayer); an edit leaves the person as it is.
	Person PersonChoice
	// Division is the event's division the player registers in
	// (AddPlayer, divisions.go): "" for the tournament registered through.
	Division string
}

func (in PlayerInput) check() (PlayerInput, error) {
	var err error
	if in.Name, err = fieldPlayerName.clean(in.Name); err != nil {
		return in, err
	}
	if in.Name == "" {
		return in, invalid("player-name-missing", "the player needs a name", nil)
	}
	if in.Kana, err = fieldKana.clean(in.Kana); err != nil {
		return in, err
	}
	in.Member, err = checkMember(in.Member)
	return in, err
}

// PlayerEdit is the edit form of a player: name and kana, fixed table and
// keep-apart requests, saved together by EditPlayer.
type PlayerEdit struct {
	PlayerInput
	FixedTable int     // 0 for none
	KeepApart  []int64 // the players to keep apart from, in any order
	// Base is the player as the form showed them, before the judge's
	// edit: only the fields the judge changed from it are saved, and a
	// field another judge changed since is not overwritten (a conflict).
	// Nil takes the player as read now.
	Base *PlayerEdit
}

// Players lists a tournament's players by reading, as CollationKey orders
// them.
func (s *Service) Players(ctx context.Context, tournamentID int64) ([]Player, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.Players(), nil
}

// Attendance counts a tournament's players as the desk sees them.
type Attendance struct {
	Registered int // every player
	Active     int // not dropped
	CheckedIn  int // checked in and not dropped: whom the next pairing takes
	Dropped    int
}

// CountAttendance counts the players ps of a tournament.
func CountAttendance(ps []Player) Attendance {
	a := Attendance{Registered: len(ps)}
	for _, p := range ps {
		if p.DroppedRound != 0 {
			a.Dropped++
			continue
		}
		a.Active++
		if p.CheckedIn {
			a.CheckedIn++
		}
	}
	return a
}

// GetPlayer returns a player of a tournament.
func (s *Service) GetPlayer(ctx context.Context, tournamentID, id int64) (Player, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	return snap.Player(id)
}

// storedPlayer reads a player of a tournament from the store, for a change
// decided from them.
func (s *Service) storedPlayer(ctx context.Context, tournamentID, id int64) (Player, error) {
	p, err := s.store.Player(ctx, id)
	if err != nil {
		return Player{}, err
	}
	return p, p.checkIn(tournamentID)
}

// checkIn reports a player who is not one of the tournament's players as
// not found: a tournament's pages and API reach only its own players.
func (p Player) checkIn(tournamentID int64) error {
	if p.TournamentID != tournamentID {
		return fmt.Errorf("player %d of tournament %d: %w", p.ID, tournamentID, ErrNotFound)
	}
	return nil
}

// AddPlayer registers a player. Once round 1 is paired, the player is a late
// entry who plays from the first open round (see DropPlayer): a round that
// is paired but has not started includes them once it is re-paired. The
// player is linked to their person of the registry as in.Person says
// (PersonIndex.Register): the person chosen, else the member number's or
// the one person of the same name and reading, else a new person, or, when
// the choice asks, a *PersonQuestion if someone may be them.
func (s *Service) AddPlayer(ctx context.Context, judge string, tournamentID int64, in PlayerInput) (Player, error) {
	if err := checkJudge(judge); err != nil {
		return Player{}, err
	}
	in, err := in.check()
	if err != nil {
		return Player{}, err
	}
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	if tournamentID, err = t.registerIn(in.Division); err != nil {
		return Player{}, err
	}
	prog, err := s.store.Progress(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	p := Player{TournamentID: tournamentID, Name: in.Name, Kana: in.Kana, CheckedIn: in.CheckedIn}
	if prog.Paired > 0 {
		p.LateEntryRound = prog.OpenRound()
	}
	row := ImportRow{Name: in.Name, Kana: in.Kana, Member: in.Member, Person: in.Person}
	x, err := s.personIndex(ctx, []ImportRow{row})
	if err != nil {
		return Player{}, err
	}
	if p.PersonID, p.Person, err = x.Register(tournamentID, in.Name, in.Kana, in.Member, in.Person); err != nil {
		return Player{}, err
	}
	if p.CheckedIn {
		if err := s.checkAttempts(ctx, tournamentID, p.PersonID); err != nil {
			return Player{}, err
		}
	}
	p.issueCode()
	if err := s.store.AddPlayer(ctx, &p, prog, s.change(judge, "player.add", "player "+p.Name, nil, &p)); err != nil {
		return Player{}, err
	}
	return p, nil
}

// EditPlayer saves a player's edit form as one change: name, kana, fixed
// table and keep-apart requests are all saved, or, when one is refused,
// none; a form that changes nothing saves nothing. The check-in is left as
// it is.
func (s *Service) EditPlayer(ctx context.Context, judge string, tournamentID, id int64, in PlayerEdit) (Player, error) {
	checked, err := in.check()
	if err != nil {
		return Player{}, err
	}
	if err := checkTableNumber(in.FixedTable); err != nil {
		return Player{}, err
	}
	var base func(*Player)
	if b := in.Base; b != nil {
		// The store writes what changed from the base, and refuses a field
		// changed since by another judge: the form never reverts it.
		base = func(p *Player) {
			p.Name, p.Kana, p.FixedTable, p.KeepApart = strings.TrimSpace(b.Name), strings.TrimSpace(b.Kana), b.FixedTable, sortedIDs(b.KeepApart)
		}
	}
	return s.updatePlayerFrom(ctx, judge, tournamentID, id, "player.edit", nil, base, func(p *Player) error {
		if checked.Name == p.Name && checked.Kana == p.Kana && in.FixedTable == p.FixedTable && slices.Equal(sortedIDs(in.KeepApart), p.KeepApart) {
			return errUnchanged
		}
		all, err := s.store.Players(ctx, p.TournamentID)
		if err != nil {
			return err
		}
		if err := checkFixedTable(all, *p, in.FixedTable); err != nil {
			return err
		}
		others, err := checkKeepApart(all, *p, in.KeepApart)
		if err != nil {
			return err
		}
		p.Name, p.Kana, p.FixedTable, p.KeepApart = checked.Name, checked.Kana, in.FixedTable, others
		return nil
	})
}

// CheckIn records that a player is present (or, with in false, undoes it).
// Only checked-in players are paired.
func (s *Service) CheckIn(ctx context.Context, judge string, tournamentID, id int64, in bool) (Player, error) {
	return s.updatePlayer(ctx, judge, tournamentID, id, "player.check_in", nil, func(p *Player) error {
		if in && !p.CheckedIn {
			if err := s.checkAttempts(ctx, tournamentID, p.PersonID); err != nil {
				return err
			}
		}
		p.CheckedIn = in
		return nil
	})
}

// CheckInPlayers checks in (or, with in false, out) each of the players
// ids of the tournament: the desk's bulk check-in. Every ID must be a
// player of the tournament, or nothing is changed; players already so, and
// players who dropped, are left as they are. Each check-in is its own
// change in the audit log, as from the players' rows; it returns the
// players it changed, and on an error those it changed before it.
func (s *Service) CheckInPlayers(ctx context.Context, judge string, tournamentID int64, ids []int64, in bool) ([]Player, error) {
	if err := checkJudge(judge); err != nil {
		return nil, err
	}
	todo := make([]int64, 0, len(ids))
	for _, id := range ids {
		p, err := s.store.Player(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := p.checkIn(tournamentID); err != nil {
			return nil, err
		}
		if p.DroppedRound == 0 && p.CheckedIn != in && !slices.Contains(todo, id) {
			todo = append(todo, id)
		}
	}
	var done []Player
	for _, id := range todo {
		p, err := s.CheckIn(ctx, judge, tournamentID, id, in)
		if err != nil {
			return done, err
		}
		done = append(done, p)
	}
	return done, nil
}

// DropPlayer drops a player from the tournament. The drop takes effect from
// the latest paired round if that round has not started anywhere (no seating,
// no result, no clock), so re-pairing it with RepairRound leaves the player
// out; otherwise from the next round to be paired. Their recorded games stay
// in everyone's standings.
func (s *Service) DropPlayer(ctx context.Context, judge string, tournamentID, id int64) (Player, error) {
	if _, err := s.storedPlayer(ctx, tournamentID, id); err != nil {
		return Player{}, err
	}
	prog, err := s.store.Progress(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	return s.updatePlayer(ctx, judge, tournamentID, id, "player.drop", &prog, func(p *Player) error {
		if p.DroppedRound != 0 {
			return invalid("already-dropped", fmt.Sprintf("%s already dropped from round %d", describe(*p), p.DroppedRound),
				map[string]any{"Player": p.Name, "Round": p.DroppedRound})
		}
		p.DroppedRound = prog.OpenRound()
		return nil
	})
}

// DeletePlayer removes a mistaken registration: a player who never
// played, sat out a round or was given a penalty. The deletion is audited
// with the registration as it was. A player with any of those on record
// is refused with a conflict (ErrConflict): their games stay in everyone's
// standings, so they are dropped (DropPlayer) instead.
func (s *Service) DeletePlayer(ctx context.Context, judge string, tournamentID, id int64) (Player, error) {
	if err := checkJudge(judge); err != nil {
		return Player{}, err
	}
	p, err := s.storedPlayer(ctx, tournamentID, id)
	if err != nil {
		return Player{}, err
	}
	c := s.change(judge, "player.delete", describe(p), snapshot(p), nil)
	if err := s.store.DeletePlayer(ctx, id, c); err != nil {
		return Player{}, err
	}
	return p, nil
}

// CheckDelete reports why DeletePlayer would refuse to remove a player:
// the conflict it would return (ErrConflict), or nil when it would remove
// them. The console offers the deletion only when it would work.
func (s *Service) CheckDelete(ctx context.Context, tournamentID, id int64) error {
	p, err := s.GetPlayer(ctx, tournamentID, id)
	if err != nil {
		return err
	}
	e, err := s.load(ctx, p.TournamentID)
	if err != nil {
		return err
	}
	for _, r := range e.rounds {
		in := slices.Contains(r.Byes, id) || slices.ContainsFunc(r.Tables, func(t Table) bool { return slices.Contains(t.Players, id) }) ||
			slices.ContainsFunc(r.Amendments, func(a Amendment) bool { return a.A == id || a.B == id })
		if in {
			return Conflict("player-in-pairing", fmt.Sprintf("%s is in the pairing of round %d: drop them instead", describe(p), r.Number),
				map[string]any{"Player": e.label(p), "Round": r.Number})
		}
	}
	n := 0
	for _, x := range e.penalties {
		if x.PlayerID == id {
			n++
		}
	}
	if n > 0 {
		return Conflict("player-has-penalty", fmt.Sprintf("%s has %d penalties on record: drop them instead", describe(p), n),
			map[string]any{"Player": e.label(p), "Count": n})
	}
	return nil
}

// started reports whether anything was recorded at a round's tables or on
// its clock (events): from then on its pairing stands.
func started(r Round, events []ClockEvent) bool {
	return len(events) > 0 || slices.ContainsFunc(r.Tables, func(t Table) bool { return t.Seating != nil || t.Latest() != nil })
}

// ReinstatePlayer undoes a drop (or the drop of a revoked disqualification),
// and a disqualification (Disqualify) with it: its effect on the games
// played goes too.
func (s *Service) ReinstatePlayer(ctx context.Context, judge string, tournamentID, id int64) (Player, error) {
	return s.updatePlayer(ctx, judge, tournamentID, id, "player.reinstate", nil, func(p *Player) error {
		if p.DroppedRound == 0 {
			return invalid("not-dropped", describe(*p)+" has not dropped", map[string]any{"Player": p.Name})
		}
		p.DroppedRound, p.DQEffect, p.DQReason = 0, "", ""
		return nil
	})
}

// MaxFixedPerTable is the most players that can be fixed to one table: a
// table seats at most 4 (§2).
const MaxFixedPerTable = 4

// checkTableNumber reports a fixed table that is no table number at all.
func checkTableNumber(table int) error {
	if table < 0 || table > 100 {
		return invalid("fixed-table-out-of-range", fmt.Sprintf("table %d is not a table number", table),
			map[string]any{"Table": table, "Min": 0, "Max": 100})
	}
	return nil
}

// checkFixedTable checks that player p of a tournament with the players
// all can be fixed to table (0 for none), as the pairing will need it: a
// table seats at most 4 (§2), and the players still in the tournament
// fill only pairing.Sizes' tables (at least table 1, for the first
// players registered).
func checkFixedTable(all []Player, p Player, table int) error {
	if table == 0 || table == p.FixedTable {
		return nil
	}
	active := 0
	var there []string
	for _, o := range all {
		if o.DroppedRound != 0 && o.ID != p.ID {
			continue
		}
		active++
		if o.ID != p.ID && o.FixedTable == table {
			there = append(there, o.Name)
		}
	}
	if len(there) >= MaxFixedPerTable {
		slices.Sort(there)
		return invalid("fixed-table-full",
			fmt.Sprintf("table %d already has %d players fixed to it (%s); %s cannot be", table, len(there), strings.Join(there, ", "), describe(p)),
			map[string]any{"Player": labelIn(all, p), "Table": table, "Players": there, "Max": MaxFixedPerTable})
	}
	tables := 1
	if sizes, _, err := pairing.Sizes(active); err == nil {
		tables = len(sizes)
	}
	if table > tables {
		return invalid("fixed-table-beyond-players",
			fmt.Sprintf("%d players fill tables 1 to %d; %s cannot be fixed to table %d", active, tables, describe(p), table),
			map[string]any{"Player": labelIn(all, p), "Table": table, "Tables": tables, "Count": active})
	}
	return nil
}

// checkKeepApart checks the players p is to be kept apart from, among the
// tournament's players all, and returns them sorted.
func checkKeepApart(all []Player, p Player, others []int64) ([]int64, error) {
	players := map[int64]bool{}
	for _, o := range all {
		players[o.ID] = true
	}
	others = sortedIDs(others)
	for _, o := range others {
		switch {
		case o == p.ID:
			return nil, invalid("keep-apart-self", describe(p)+" cannot be kept apart from themselves",
				map[string]any{"Player": labelIn(all, p)})
		case !players[o]:
			return nil, notInTournament(o)
		}
	}
	return others, nil
}

// notInTournament reports a player id that is not one of the tournament's players.
func notInTournament(id int64) error {
	return invalid("player-not-in-tournament", fmt.Sprintf("player %d is not in this tournament", id), map[string]any{"ID": id})
}

// updatePlayer applies edit to a player and stores it with its audit
// entry. The store writes only the fields edit changed, and refuses them
// when another change replaced them since the player was read; from is the
// tournament's progress the edit was decided from, if it was.
func (s *Service) updatePlayer(ctx context.Context, judge string, tournamentID, id int64, action string, from *Progress, edit func(*Player) error) (Player, error) {
	return s.updatePlayerFrom(ctx, judge, tournamentID, id, action, from, nil, edit)
}

// errUnchanged is an edit that changes nothing: nothing is written.
var errUnchanged = errors.New("unchanged")

// updatePlayerFrom is updatePlayer for an edit decided on the player as a
// form showed them: base, when not nil, sets those values on the player as
// read, and the store compares the edit with them rather than with what it
// reads now.
func (s *Service) updatePlayerFrom(ctx context.Context, judge string, tournamentID, id int64, action string, from *Progress, base func(*Player), edit func(*Player) error) (Player, error) {
	if err := checkJudge(judge); err != nil {
		return Player{}, err
	}
	p, err := s.store.Player(ctx, id)
	if err != nil {
		return Player{}, err
	}
	if err := p.checkIn(tournamentID); err != nil {
		return Player{}, err
	}
	stored, read := snapshot(p), p
	if base != nil {
		read.KeepApart = slices.Clone(p.KeepApart)
		base(&read)
	}
	p.KeepApart = slices.Clone(p.KeepApart)
	if err := edit(&p); errors.Is(err, errUnchanged) {
		return p, nil
	} else if err != nil {
		return Player{}, s.relabel(ctx, p, err)
	}
	if err := s.store.UpdatePlayer(ctx, read, p, from, s.change(judge, action, describe(p), stored, p)); err != nil {
		return Player{}, err
	}
	return p, nil
}
