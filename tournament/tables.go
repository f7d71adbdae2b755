package tournament

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// table returns table number of round n.
func (e record) table(n, number int) (Round, Table, error) {
	r, err := e.round(n)
	if err != nil {
		return Round{}, Table{}, err
	}
	t, err := tableOf(r, number)
	return r, t, err
}

// tableOf returns table number of round r.
func tableOf(r Round, number int) (Table, error) {
	i := slices.IndexFunc(r.Tables, func(t Table) bool { return t.Number == number })
	if i < 0 {
		return Table{}, fmt.Errorf("round %d table %d: %w", r.Number, number, ErrNotFound)
	}
	return r.Tables[i], nil
}

// tableFacts reads what a change at table number of round n decides from
// (Store.Table), in one call whatever the event's size: a record of the
// tournament, that round with the table alone, the table's players, their
// penalties in the round and the round's clock.
func (s *Service) tableFacts(ctx context.Context, tournamentID int64, n, number int) (record, Table, error) {
	f, err := s.store.Table(ctx, tournamentID, n, number)
	if err != nil {
		return record{}, Table{}, err
	}
	e := newRecord(f.Tournament, f.Players, []Round{f.Round}, f.Penalties)
	e.clocks = map[int64][]ClockEvent{f.Round.ID: f.Clock}
	_, t, err := e.table(n, number)
	return e, t, err
}

func tableSubject(n, number int) string { return fmt.Sprintf("round %d table %d", n, number) }

// SeatingInput is a table's capsule rolls for the play order (§3 オ), or
// Auto to let the console roll for the table.
type SeatingInput struct {
	// Rolls holds one roll of every player at the table, then one round of
	// re-rolls after another for the groups still tied.
	Rolls [][]Roll
	Auto  bool
	// Version is the version of the table's seating the judge decided on
	// (0 for none), as the form showed it: a seating recorded since is not
	// replaced (StaleError). Nil replaces whatever is recorded.
	Version *int
}

// tableFor reads the facts of table number of round n for a judge's
// change to its seating, its board or its deal: one the table's result or
// recorded game has not locked.
func (s *Service) tableFor(ctx context.Context, judge string, tournamentID int64, n, number int) (record, Table, error) {
	e, t, err := s.openTable(ctx, judge, tournamentID, n, number)
	if err != nil {
		return record{}, Table{}, err
	}
	if err := t.checkUnlocked(n); err != nil {
		return record{}, Table{}, err
	}
	return e, t, nil
}

// openTable reads the facts of table number of round n (tableFacts) for a
// judge's change at it, in an open tournament.
func (s *Service) openTable(ctx context.Context, judge string, tournamentID int64, n, number int) (record, Table, error) {
	if err := checkJudge(judge); err != nil {
		return record{}, Table{}, err
	}
	e, t, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return record{}, Table{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return record{}, Table{}, err
	}
	return e, t, nil
}

// checkUnlocked refuses a change of the seating, the board or the deal of
// table t of round n once it has a result, or a recorded game: the game
// was played on them. The store checks it again in the transaction that
// writes the change.
func (t Table) checkUnlocked(n int) error {
	if t.Latest() != nil {
		return Conflict("table-has-result", fmt.Sprintf("%s already has a result", tableSubject(n, t.Number)),
			map[string]any{"Round": n, "Table": t.Number})
	}
	if t.Moves > 0 {
		return Conflict("table-has-game", fmt.Sprintf("%s has %d moves of its game recorded", tableSubject(n, t.Number), t.Moves),
			map[string]any{"Round": n, "Table": t.Number, "Moves": t.Moves})
	}
	return nil
}

// setSeating decides a table's play order and colours (§3 オ, カ) from the
// capsule rolls, or rolls for the table from a recorded seed. Rolls that
// leave a tie are refused with an error wrapping ErrInvalid and a
// *referee.TieError naming who must re-roll. Refused once the table has a result.
func (s *Service) setSeating(ctx context.Context, judge string, tournamentID int64, n, number int, in SeatingInput) (Table, error) {
	e, t, err := s.tableFor(ctx, judge, tournamentID, n, number)
	if err != nil {
		return Table{}, err
	}
	rs := e.t.Ruleset
	seating := Seating{Auto: in.Auto, Judge: judge, At: s.now().UTC()}
	var rolls [][]referee.Roll
	var seats []referee.Seat
	if in.Auto {
		seating.Seed = s.seed()
		rolls, seats, err = referee.RollSeating(rs, pids(t.Players), seating.Seed)
	} else {
		if len(in.Rolls) == 0 || !sameMembers(rollers(in.Rolls[0]), t.Players) {
			return Table{}, invalid("first-rolls-mismatch",
				"the first capsule rolls must be one for each player at "+tableSubject(n, number),
				map[string]any{"Round": n, "Table": number})
		}
		for _, round := range in.Rolls {
			var rr []referee.Roll
			// The rolls are kept in the table's order, however posted.
			for _, r := range tableOrder(round, t.Players) {
				rr = append(rr, referee.Roll{Player: pid(r.PlayerID), CapsuleRoll: r.CapsuleRoll})
			}
			rolls = append(rolls, rr)
		}
		seats, err = referee.SeatTable(rs, rolls)
	}
	if err != nil {
		if te := (*referee.TieError)(nil); errors.As(err, &te) {
			return Table{}, tieError(te)
		}
		return Table{}, fmt.Errorf("%s: %w", tableSubject(n, number), e.named(err))
	}
	for _, round := range rolls {
		var rr []Roll
		for _, r := range round {
			rr = append(rr, Roll{PlayerID: fromPID(r.Player), CapsuleRoll: r.CapsuleRoll})
		}
		seating.Rolls = append(seating.Rolls, rr)
	}
	for _, st := range seats {
		seating.Seats = append(seating.Seats, Seat{PlayerID: fromPID(st.Player), Order: st.Order, Color: st.Color})
	}
	c := s.change(judge, "table.seat", tableSubject(n, number), t.Seating, &seating)
	if err := s.store.SetSeating(ctx, t.ID, &seating, in.Version, c); err != nil {
		return Table{}, err
	}
	t.Seating = &seating
	return t, nil
}

func rollers(rolls []Roll) []int64 {
	out := make([]int64, len(rolls))
	for i, r := range rolls {
		out[i] = r.PlayerID
	}
	return out
}

// tableOrder is rolls in the order of the table's players; a roll of
// someone else's last, as posted.
func tableOrder(rolls []Roll, players []int64) []Roll {
	at := func(r Roll) int {
		if i := slices.Index(players, r.PlayerID); i >= 0 {
			return i
		}
		return len(players)
	}
	out := slices.Clone(rolls)
	slices.SortStableFunc(out, func(a, b Roll) int { return at(a) - at(b) })
	return out
}

// sameMembers reports whether a and b hold the same IDs, each once.
func sameMembers(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b) && len(slices.Compact(a)) == len(b)
}

// BoardInput is the dice that set up a table's board, as the ruleset's
// method takes them: the capsule roll that turns the board (§3 イ), or the
// die that chooses the spiral's corner (national rules); or Auto to let the
// console roll.
type BoardInput struct {
	Roll   referee.CapsuleRoll // referee.CapsuleBoard
	Corner int                 // referee.SpiralBoard
	Auto   bool
	// Version is the version of the table's board the judge decided on, as
	// SeatingInput.Version.
	Version *int
}

// DealInput is the number chips of a physical board as the judge entered
// them (§3 ウ).
type DealInput struct {
	Chips []referee.Chip
	// Version is the version of the table's board the deal was entered on,
	// as SeatingInput.Version; nil takes the board as it is read now.
	Version *int
}

// setBoard sets up a table's board. Under the rulebook: from the capsule
// roll (or one the console rolls) with the number chips dealt by the
// console from a recorded seed (§3 ウ, the dango rule applied); a
// judge-entered deal of a physical board is set afterwards with SetDeal.
// Under the national rules: from the corner die (or one the console rolls),
// the terrain shuffled from a recorded seed. Dice of the other method are
// refused. Refused once the table has a result.
func (s *Service) setBoard(ctx context.Context, judge string, tournamentID int64, n, number int, in BoardInput) (Table, error) {
	e, t, err := s.tableFor(ctx, judge, tournamentID, n, number)
	if err != nil {
		return Table{}, err
	}
	rec := BoardRecord{Roll: in.Roll, Corner: in.Corner, RollAuto: in.Auto, Judge: judge, At: s.now().UTC()}
	if err := referee.CheckDice(e.t.Ruleset, referee.BoardDice{Roll: in.Roll, Corner: in.Corner}); err != nil {
		return Table{}, fmt.Errorf("%w: %s: %w", ErrInvalid, tableSubject(n, number), err)
	}
	spiral := e.t.Ruleset.Board.Method == referee.SpiralBoard
	if in.Auto {
		// The roll's outcome is recorded, like a physical roll; its own
		// seed need not be.
		r := referee.NewRand(s.seed())
		if spiral {
			rec.Roll, rec.Corner = referee.CapsuleRoll{}, referee.RollDie(r)
		} else {
			rec.Roll, rec.Corner = referee.RollCapsule(r), 0
		}
	}
	rec.Seed = s.seed()
	if _, err := boardOf(e.t.Ruleset, rec); err != nil {
		return Table{}, fmt.Errorf("%s: %w", tableSubject(n, number), err)
	}
	c := s.change(judge, "table.board", tableSubject(n, number), t.Board, &rec)
	if err := s.store.SetBoard(ctx, t.ID, &rec, nil, in.Version, c); err != nil {
		return Table{}, err
	}
	t.Board = &rec
	return t, nil
}

// setDeal records the number chips of a physical board as the judge entered
// them, on the board set up with SetBoard. A deal the dango rule rejects
// (§3 ウ) is refused with a *DealError: the chips must be collected and
// dealt again.
func (s *Service) setDeal(ctx context.Context, judge string, tournamentID int64, n, number int, in DealInput) (Table, error) {
	chips := in.Chips
	e, t, err := s.tableFor(ctx, judge, tournamentID, n, number)
	if err != nil {
		return Table{}, err
	}
	if e.t.Ruleset.Board.Method == referee.SpiralBoard {
		return Table{}, invalid("deal-spiral",
			tableSubject(n, number)+": the spiral lays the number chips (national rules): there is no deal to enter",
			map[string]any{"Round": n, "Table": number, "Ruleset": e.t.Ruleset.Name})
	}
	if t.Board == nil {
		return Table{}, invalid("deal-before-board", tableSubject(n, number)+": enter the capsule roll of the board before its chips",
			map[string]any{"Round": n, "Table": number})
	}
	check, err := referee.CheckDeal(e.t.Ruleset, t.Board.Roll.White, chips)
	if err != nil {
		return Table{}, fmt.Errorf("%s: %w", tableSubject(n, number), err)
	}
	if check.Redeal {
		clumps := clumpTexts(check.Clumps)
		board, err := boardOf(e.t.Ruleset, *t.Board)
		if err != nil {
			return Table{}, fmt.Errorf("%s: %w", tableSubject(n, number), err)
		}
		return Table{}, &DealError{Clumps: check.Clumps, Board: layDeal(board, chips), err: invalid("red-clump",
			fmt.Sprintf("%s: red chips clump on %s (§3 ウ): collect the chips and deal again", tableSubject(n, number), strings.Join(clumps, "; ")),
			map[string]any{"Round": n, "Table": number, "Clumps": clumps})}
	}
	rec := *t.Board
	rec.Deal = slices.Clone(chips)
	rec.Judge, rec.At = judge, s.now().UTC()
	c := s.change(judge, "table.deal", tableSubject(n, number), t.Board, &rec)
	// The deal was checked against this board's roll (§3 ウ): the store
	// refuses it if another judge set up another board meanwhile, or, for
	// a deal entered on a version of the board, changed the board since.
	if err := s.store.SetBoard(ctx, t.ID, &rec, t.Board, in.Version, c); err != nil {
		return Table{}, err
	}
	t.Board = &rec
	return t, nil
}

// DealError is a deal of the number chips that the dango rule rejects
// (§3 ウ): the chips must be collected and dealt again. It wraps the
// violation red-clump (ErrInvalid) and carries the deal as typed, laid on
// the table's board, with the clumps of red chips, so that a page can draw
// them.
type DealError struct {
	Board  referee.Board // the board with the chips as typed
	Clumps [][]referee.Hex
	err    error
}

func (e *DealError) Error() string { return e.err.Error() }

// Unwrap returns the violation.
func (e *DealError) Unwrap() error { return e.err }

// boardOf makes the board a record describes: referee.NewSpiralBoard from
// the corner and seed under the national rules, else referee.NewBoard from
// the roll and seed, with the judge-entered chips in place of the dealt ones.
func boardOf(rs referee.Ruleset, rec BoardRecord) (referee.Board, error) {
	b, err := referee.SetUpBoard(rs, referee.BoardDice{Roll: rec.Roll, Corner: rec.Corner}, rec.Seed)
	if err != nil || rec.Deal == nil {
		return b, err
	}
	return layDeal(b, rec.Deal), nil
}

// layDeal returns b with the number chips as a judge dealt them in place
// of the console's deal: a hex without a chip has none.
func layDeal(b referee.Board, chips []referee.Chip) referee.Board {
	numbers := map[referee.Hex]int{}
	for _, c := range chips {
		numbers[c.Hex] = c.Number
	}
	for i := range b.Tiles {
		b.Tiles[i].Number = numbers[b.Tiles[i].Hex]
	}
	b.Redeals = 0
	return b
}

// ResultInput is a score sheet as the judge enters it.
type ResultInput struct {
	Scores   []Score
	Declared int64 // the player who declared victory, or 0 when time ended the game
	// Version is the revision the judge edited: 0 for a first save.
	Version int
	// Reason is required for a correction (Version > 0), and for a game
	// recorded as ended by time before its signal (see checkEndedInTime).
	Reason string
	// LateReason confirms that a declaration recorded after the table's
	// time signal was made before it (§12); see checkDeclaredInTime.
	LateReason string
	// HandedIn is when the sheet was handed in, for §12's checks, when it
	// was not now: a players' report accepted later was handed in when
	// they reported it.
	HandedIn time.Time
	// ReportID is the players' report the judge opened the sheet from
	// (Report.Sheet): a sheet saved as one of its versions is that report,
	// accepted (Result.ReportID); changed, it is the judge's own.
	ReportID int64
}

// TableResult is a saved result with the placings computed from it.
type TableResult struct {
	Result Result
	Places []Placing
}

// recordResult saves a table's score sheet as a new revision. The scores must
// name exactly the table's players; the declared winner must be at the table
// with enough VP (§11). Saving over a newer revision than in.Version is
// refused with a *ConflictError (ErrConflict) that says what changed.
func (s *Service) recordResult(ctx context.Context, judge string, tournamentID int64, n, number int, in ResultInput) (TableResult, error) {
	e, _, err := s.openTable(ctx, judge, tournamentID, n, number)
	if err != nil {
		return TableResult{}, err
	}
	return s.saveResult(ctx, e, judge, n, number, in, 0)
}

// saveResult checks and saves a score sheet of table number of round n as
// SaveResult does; moves > 0 says it comes from the first moves of the
// table's recorded game (Result.GameMoves).
func (s *Service) saveResult(ctx context.Context, e record, judge string, n, number int, in ResultInput, moves int) (TableResult, error) {
	t, tr, err := s.checkResult(ctx, e, n, number, judge, in)
	if err != nil {
		return TableResult{}, err
	}
	tr.Result.GameMoves = moves
	action, subject := "result.save", tableSubject(n, number)
	if in.Version > 0 {
		action = "result.correct"
	}
	if tr.Result.ReportID, tr.Result.ReportSide, err = s.fromReport(ctx, e.t.ID, t, in.ReportID, tr.Result); err != nil {
		return TableResult{}, err
	}
	if tr.Result.ReportID != 0 {
		subject += reportedBy
	}
	// Under the two-person rule the revision is entered: it counts once
	// another account confirms it (ConfirmResult).
	tr.Result.NeedsConfirm = e.t.ConfirmResults
	c := s.change(judge, action, subject, t.Latest(), &tr.Result)
	if err := s.store.SaveResult(ctx, t.ID, in.Version, &tr.Result, c); err != nil {
		if ce := (*ConflictError)(nil); errors.As(err, &ce) {
			ce.Names = map[int64]string{}
			for _, p := range e.players {
				ce.Names[p.ID] = p.Name
			}
		}
		return TableResult{}, err
	}
	return tr, nil
}

// reportedBy ends the audit subject of a result saved from a players'
// report.
const reportedBy = " (reported by players)"

// fromReport returns the report a judge's sheet res of table t was opened
// from (id), with the side of it the sheet is, when the sheet is one of
// its versions as they stand and the report waits for a judge (confirmed
// or disputed); else 0: the sheet is the judge's own.
func (s *Service) fromReport(ctx context.Context, tournamentID int64, t Table, id int64, res Result) (int64, string, error) {
	if id == 0 {
		return 0, "", nil
	}
	r, err := s.storedReport(ctx, tournamentID, id)
	if errors.Is(err, ErrNotFound) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	if r.TableID != t.ID || (r.Status != ReportConfirmed && r.Status != ReportDisputed) {
		return 0, "", nil
	}
	switch {
	case sameSheet(res.Scores, res.Declared, r.Scores, r.Declared):
		return r.ID, SideReported, nil
	case r.Dispute.HasVersion() && sameSheet(res.Scores, res.Declared, r.Dispute.Scores, r.Dispute.Declared):
		return r.ID, SideDisputed, nil
	}
	return 0, "", nil
}

// previewResult checks a score sheet and places it exactly as SaveResult
// would, with the same errors and the penalties given in the game, but
// stores nothing: the judge sees the placings before saving. The Result
// has the Version saving would give it, unless someone saves first; its
// Judge is empty. A stale in.Version shows only when saving.
func (s *Service) previewResult(ctx context.Context, tournamentID int64, n, number int, in ResultInput) (TableResult, error) {
	e, _, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return TableResult{}, err
	}
	t, tr, err := s.checkResult(ctx, e, n, number, "", in)
	if err != nil {
		return TableResult{}, err
	}
	tr.Result.TableID, tr.Result.Version = t.ID, in.Version+1
	return tr, nil
}

// checkResult validates a score sheet for table number of round n, as
// judge saves it now, and places it: the one path of SaveResult and
// PreviewResult. It returns the table and the revision to store with its
// placings.
func (s *Service) checkResult(ctx context.Context, e record, n, number int, judge string, in ResultInput) (Table, TableResult, error) {
	r, t, err := e.table(n, number)
	if err != nil {
		return Table{}, TableResult{}, err
	}
	subject := tableSubject(n, number)
	if in.Reason, err = fieldReason.clean(in.Reason); err != nil {
		return Table{}, TableResult{}, err
	}
	if in.Version < 0 {
		return Table{}, TableResult{}, invalid("result-version", fmt.Sprintf("version %d is not a result version", in.Version),
			map[string]any{"Version": in.Version})
	}
	if err := s.checkLines(ctx, e, n, t, in); err != nil {
		return Table{}, TableResult{}, err
	}
	if in.Version > 0 && in.Reason == "" {
		return Table{}, TableResult{}, invalid("correction-reason-missing", subject+": a correction needs a reason",
			map[string]any{"Round": n, "Table": number})
	}
	scores, err := e.checkSheet(in)
	if err != nil {
		return Table{}, TableResult{}, err
	}
	res := Result{
		Scores:   scores,
		Declared: in.Declared,
		EndedBy:  EndedByTime,
		Judge:    judge,
		At:       s.now().UTC(),
		Reason:   in.Reason,
	}
	handed := res.At
	if !in.HandedIn.IsZero() {
		handed = in.HandedIn
	}
	if res.LateReason, err = s.checkDeclaredInTime(ctx, e, r, t, in, handed); err != nil {
		return Table{}, TableResult{}, err
	}
	if in.Declared != 0 {
		res.EndedBy = EndedByDeclaration
	}
	places, err := e.placings(n, res)
	if err != nil {
		return Table{}, TableResult{}, fmt.Errorf("%s: %w", subject, e.named(err))
	}
	// A sheet that cannot be right is said first; then when the game ended.
	if res.EndedBy == EndedByTime {
		if res.EndedEarly, err = s.checkEndedInTime(ctx, e, r, t, in, handed); err != nil {
			return Table{}, TableResult{}, err
		}
	}
	return t, TableResult{Result: res, Places: places}, nil
}

// checkLines refuses a sheet of table t of round n whose scores do not
// name each player at the table once, or whose declared winner is not at
// the table: that player is named, read from the store when the record
// (a table's facts) does not hold them.
func (s *Service) checkLines(ctx context.Context, e record, n int, t Table, in ResultInput) error {
	if _, ok := e.player(in.Declared); in.Declared != 0 && !ok {
		if p, err := s.store.Player(ctx, in.Declared); err == nil && p.TournamentID == e.t.ID {
			e = e.with(p)
		}
	}
	return e.checkLines(n, t, in)
}

// with returns the record with player p too, for naming them, leaving e
// as it is.
func (e record) with(p Player) record {
	e.players = append(slices.Clone(e.players), p)
	e.byID = maps.Clone(e.byID)
	e.byID[p.ID] = len(e.players) - 1
	return e
}

// checkLines refuses a sheet whose lines are not the table's (see
// Service.checkLines).
func (e record) checkLines(n int, t Table, in ResultInput) error {
	var ids []int64
	for _, sc := range in.Scores {
		ids = append(ids, sc.PlayerID)
	}
	switch {
	case !sameMembers(ids, t.Players):
		return invalid("scores-not-the-table", tableSubject(n, t.Number)+": the scores must name each player at the table once",
			map[string]any{"Round": n, "Table": t.Number})
	case in.Declared != 0 && !slices.Contains(t.Players, in.Declared):
		return invalid("winner-not-at-table", fmt.Sprintf("%s: the declared winner %d is not at the table", tableSubject(n, t.Number), in.Declared),
			map[string]any{"Player": e.nameOf(pid(in.Declared))})
	}
	return nil
}

// checkSheet checks a score sheet of table number of round n as a form
// shows it while it is typed: that it names the table's players, and
// referee.CheckSheet's rules under the tournament's ruleset (the
// breakdowns, the declared winner's VP), with SaveResult's errors. The
// rules that need the rest of the event (the time signal of §12, the
// penalties) are left to saving. It reads the table's facts, not the
// whole event: a phone asks it at each pause in typing. It returns the
// scores as the sheet counts them.
func (s *Service) checkSheet(ctx context.Context, tournamentID int64, n, number int, in ResultInput) ([]Score, error) {
	e, t, err := s.tableFacts(ctx, tournamentID, n, number)
	if err != nil {
		return nil, err
	}
	if err := s.checkLines(ctx, e, n, t, in); err != nil {
		return nil, err
	}
	return e.checkSheet(in)
}

// checkSheet checks the sheet's breakdowns with referee.CheckSheet, and
// returns its scores as the sheet counts them: the VP written, or the
// breakdown's. A sheet that breaks a rule is refused with every violation
// (errors.Join), each naming its player and field, the first first.
func (e record) checkSheet(in ResultInput) ([]Score, error) {
	lines := make([]referee.SheetLine, len(in.Scores))
	for i, sc := range in.Scores {
		lines[i] = referee.SheetLine{Player: pid(sc.PlayerID)}
		if !sc.NoVP {
			vp := sc.VP
			lines[i].VP = &vp
		}
		if sc.Breakdown != nil {
			b := *sc.Breakdown
			lines[i].Breakdown = &b
		}
	}
	declared := ""
	if in.Declared != 0 {
		declared = pid(in.Declared)
	}
	counted, bad := referee.CheckSheet(e.t.Ruleset, lines, declared)
	if len(bad) > 0 {
		errs := make([]error, len(bad))
		for i, v := range bad {
			errs[i] = e.named(v)
		}
		return nil, errors.Join(errs...)
	}
	out := make([]Score, len(in.Scores))
	for i, sc := range in.Scores {
		out[i] = Score{PlayerID: sc.PlayerID, VP: counted[i].VP, Breakdown: lines[i].Breakdown}
	}
	return out, nil
}

// Draft is a table's score sheet as a judge opens it.
type Draft struct {
	Version int           // the revision it corrects; 0 for a first sheet
	VP      map[int64]int // by player; nil for a first sheet
	// Breakdown is the breakdown of each player whose line gave one.
	Breakdown map[int64]referee.Breakdown
	Declared  int64 // the declared winner; 0 for none
	ByTime    bool  // time ended the game (§12)
	// Reason and LateReason are the reasons of §12 a players' report gave
	// (Report.Sheet); a revision's are not offered again.
	Reason, LateReason string
}

// Draft returns the sheet a judge opens for the table: its latest revision,
// to correct; before one, an empty sheet, which ends by time once the
// table's time signal has passed (§12: a game ends by a declaration or by
// the signal, so a sheet handed in after it without one ended by time).
func (tv TableView) Draft() Draft {
	if tv.Result == nil {
		return Draft{ByTime: tv.Clock.TimeUp}
	}
	return tv.Result.Draft()
}

// Draft returns revision r as the sheet a judge opens to correct it.
func (r Result) Draft() Draft {
	d := Draft{Version: r.Version, VP: map[int64]int{}, Declared: r.Declared, ByTime: r.Declared == 0}
	for _, sc := range r.Scores {
		d.VP[sc.PlayerID] = sc.VP
		if sc.Breakdown == nil {
			continue
		}
		if d.Breakdown == nil {
			d.Breakdown = map[int64]referee.Breakdown{}
		}
		d.Breakdown[sc.PlayerID] = *sc.Breakdown
	}
	return d
}

// Revisions returns every revision of a table's result, oldest first.
// They are read once per version of the tournament and shared: the
// caller must not change them.
func (s *Service) Revisions(ctx context.Context, tournamentID int64, n, number int) ([]Result, error) {
	return readTable(ctx, s, &s.revisions, tournamentID, n, number, func(ctx context.Context, _ record, t Table) ([]Result, error) {
		return s.store.Revisions(ctx, t.ID)
	})
}

// place places a game of round n from a result revision and the standing
// penalties its players were given in the round (docs/rules.md, Penalties).
func (e record) place(n int, res Result) ([]referee.Placing, error) {
	scores := make([]referee.Score, len(res.Scores))
	var sanctions []referee.Sanction
	for i, sc := range res.Scores {
		scores[i] = referee.Score{Player: pid(sc.PlayerID), VP: sc.VP}
		sanctions = append(sanctions, e.sanctions[entry{n, sc.PlayerID}]...)
	}
	declared := ""
	if res.Declared != 0 {
		declared = pid(res.Declared)
	}
	return referee.PlaceWithPenalties(e.t.Ruleset, scores, declared, sanctions)
}
