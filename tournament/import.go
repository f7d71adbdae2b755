package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// MaxNameRunes is the longest name or kana a player may have, in characters:
// the console's form allows as many.
const MaxNameRunes = 60

// ImportRow is one player read from a file a judge uploads (package roster
// reads .xlsx and .csv files into these).
type ImportRow struct {
	Line       int // the row's number in the file, the header row counting too
	Name       string
	Kana       string
	FixedTable int // 0 for none
	// Member is the member number the row gives, "" for none.
	Member string
	// Problem is a code for what the reader could not read in the row
	// (ProblemFixedTable), or "".
	Problem string
	// Person is the judge's word on whom the row is in the registry, from
	// the preview (PersonChoice); the zero value leaves it to the name,
	// the reading and the member number.
	Person PersonChoice
}

// What PlanImport decides for a row.
const (
	ImportAdd    = "add"    // a new player: ImportPlayers registers them
	ImportSkip   = "skip"   // already registered with the same name and kana: nothing to do
	ImportRefuse = "refuse" // a bad row, with a Problem: never imported
)

// The problems of a refused row, as codes the web layer translates.
const (
	ProblemNameMissing  = "name_missing"
	ProblemNameTooLong  = "name_too_long"
	ProblemKanaTooLong  = "kana_too_long"
	ProblemFixedTable   = "fixed_table" // not a table number from 1 to 100
	ProblemDuplicateRow = "duplicate"   // the same name and kana as an earlier row of the file
	// ProblemFixedTableFull is a fixed table that already seats 4 fixed
	// players, registered or earlier in the file.
	ProblemFixedTableFull = "fixed_table_full"
	// ProblemText is a name or kana the text rules refuse (control or
	// direction characters, nothing visible): ImportLine.Text says why.
	ProblemText = "text"
	// ProblemMember is a member number NormalizeMember refuses.
	ProblemMember = "member"
	// ProblemPerson is a row that cannot be the person of the registry it
	// names (a member number or the judge's choice): ImportLine.Text says
	// why.
	ProblemPerson = "person"
)

// The warnings of an added row: it may be a player already registered, or
// an earlier row, written otherwise. The judge reads them before importing.
const (
	// WarnSameNameOtherReading is a row with the name of a registered player
	// (SamePlayer) or an earlier row (SameLine), read another way.
	WarnSameNameOtherReading = "same_name_other_reading"
	// WarnSameReadingOtherName is a row with the reading of a registered
	// player or an earlier row under another name (a name written in kana,
	// say, or another kanji).
	WarnSameReadingOtherName = "same_reading_other_name"
)

// ImportLine is a row of an import with what PlanImport decided for it.
type ImportLine struct {
	ImportRow
	Action string // ImportAdd, ImportSkip or ImportRefuse
	// Warning is why an added row may be someone already there
	// (WarnSameNameOtherReading, WarnSameReadingOtherName), or "".
	Warning    string
	SameLine   int   // a duplicate row, or a warned one: the earlier line
	SamePlayer int64 // a skipped or warned row: the registered player
	// Text is why the text rules refuse the row's name or kana
	// (ProblemText), or why it cannot be its person (ProblemPerson), as
	// the forms and the API would say it.
	Text error
	// PersonID is the person of the registry an added row is, as the
	// judge chose or the member number, name and reading surely tell;
	// 0 for a new person. Person is the registry's side of it
	// (Player.Person). Candidates are the people the row may be
	// (PersonMatch), for the judge to choose from.
	PersonID   int64
	Person     *Person
	Candidates []PersonCandidate
}

// ImportPlan is what an import of rows does, line by line.
type ImportPlan struct {
	Lines              []ImportLine
	Add, Skip, Refused int
	Added              []Player // the players ImportPlayers registered; empty for a plan
}

// importKey is what makes two players the same person for an import: the
// same name and kana as FoldReading folds them, so that イトウ ミサキ,
// ｲﾄｳﾐｻｷ and いとう みさき are one reading, and 伊藤 美咲 and 伊藤美咲 one name.
func importKey(name, kana string) string {
	return FoldReading(name) + "\x00" + FoldReading(kana)
}

// PlanImport decides, without changing anything, what importing rows into
// a tournament would do: each row is added, skipped as already registered
// (the same name and kana, folded as FoldReading folds them; a row or a
// player without kana matches on the name), or refused with a problem. An
// added row that may be a registered player written otherwise (the same
// name read another way, the same reading under another name) carries a
// warning. Importing the same file twice therefore adds nobody the second
// time, and a roster in katakana adds nobody registered in hiragana.
func (s *Service) PlanImport(ctx context.Context, tournamentID int64, rows []ImportRow) (ImportPlan, error) {
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return ImportPlan{}, err
	}
	players, err := s.store.Players(ctx, tournamentID)
	if err != nil {
		return ImportPlan{}, err
	}
	plan := planImport(players, rows)
	return plan, s.planPeople(ctx, tournamentID, &plan)
}

// planPeople decides whom each added row of plan is in the registry, as
// AddPlayer does (PersonIndex.Register), with the people each may be for
// the judge to choose from. A row that cannot be the person it names is
// refused with ProblemPerson.
func (s *Service) planPeople(ctx context.Context, tournamentID int64, plan *ImportPlan) error {
	var adds []ImportRow
	for _, l := range plan.Lines {
		if l.Action == ImportAdd {
			adds = append(adds, l.ImportRow)
		}
	}
	if len(adds) == 0 {
		return nil
	}
	x, err := s.personIndex(ctx, adds)
	if err != nil {
		return err
	}
	for i := range plan.Lines {
		l := &plan.Lines[i]
		if l.Action != ImportAdd {
			continue
		}
		l.Candidates = x.Match(tournamentID, l.Name, l.Kana, l.Member).Candidates
		if l.PersonID, l.Person, err = x.Register(tournamentID, l.Name, l.Kana, l.Member, l.ImportRow.Person); err != nil {
			l.Action, l.Problem, l.Text, l.Candidates = ImportRefuse, ProblemPerson, err, nil
			plan.Add--
			plan.Refused++
		}
	}
	return nil
}

// someone is a registered player or an earlier row of the file, as an
// import compares them.
type someone struct {
	name, kana string // folded
	player     int64  // a registered player, or 0
	line       int    // an earlier row, or 0
}

func planImport(players []Player, rows []ImportRow) ImportPlan {
	// Registered players first, then the rows in order: the first match wins.
	var known []someone
	for _, p := range players {
		known = append(known, someone{name: FoldReading(p.Name), kana: FoldReading(p.Kana), player: p.ID})
	}
	seen := map[string]int{}
	var plan ImportPlan
	for _, r := range rows {
		r.Name, r.Kana = strings.TrimSpace(r.Name), strings.TrimSpace(r.Kana)
		l := ImportLine{ImportRow: r, Action: ImportRefuse}
		key := importKey(r.Name, r.Kana)
		text, textErr := rowText(r)
		member, memberErr := checkMember(r.Member)
		l.Member = member
		switch {
		case r.Problem != "":
		case r.Name == "":
			l.Problem = ProblemNameMissing
		case text != "":
			l.Problem, l.Text = text, textErr
		case r.FixedTable < 0 || r.FixedTable > 100:
			l.Problem = ProblemFixedTable
		case memberErr != nil:
			l.Problem, l.Text = ProblemMember, memberErr
		case seen[key] != 0:
			l.Problem, l.SameLine = ProblemDuplicateRow, seen[key]
		default:
			l.Action = ImportAdd
			compare(&l, known)
		}
		if l.Problem == "" && seen[key] == 0 {
			seen[key] = r.Line
		}
		if l.Action == ImportAdd {
			known = append(known, someone{name: FoldReading(r.Name), kana: FoldReading(r.Kana), line: r.Line})
		}
		switch l.Action {
		case ImportAdd:
			plan.Add++
		case ImportSkip:
			plan.Skip++
		default:
			plan.Refused++
		}
		plan.Lines = append(plan.Lines, l)
	}
	refuseFixedTables(players, &plan)
	return plan
}

// compare decides an importable row l against the players registered and
// the earlier rows: skipped as a registered player with the same name and
// reading (a missing reading matches any), or added, with a warning when
// someone has the same name read another way, or the same reading under
// another name.
func compare(l *ImportLine, known []someone) {
	name, kana := FoldReading(l.Name), FoldReading(l.Kana)
	read := someone{name: name, kana: kana}.reading()
	var warned *someone
	for i, k := range known {
		switch {
		case k.name == name && (k.kana == kana || k.kana == "" || kana == ""):
			if k.player != 0 {
				l.Action, l.SamePlayer = ImportSkip, k.player
				l.Warning, l.SameLine = "", 0
				return
			}
			// The same as an earlier row without kana on one side: that
			// row registers them.
			l.Action, l.Problem, l.SameLine = ImportRefuse, ProblemDuplicateRow, k.line
			l.Warning, l.SamePlayer = "", 0
			return
		case warned != nil:
		case k.name == name:
			warned, l.Warning = &known[i], WarnSameNameOtherReading
		case k.reading() == read:
			warned, l.Warning = &known[i], WarnSameReadingOtherName
		}
	}
	if warned != nil {
		l.SamePlayer, l.SameLine = warned.player, warned.line
	}
}

// reading is how someone is read: the kana, or the name of someone
// registered without kana (as CollationKey sorts them).
func (k someone) reading() string {
	if k.kana != "" {
		return k.kana
	}
	return k.name
}

// rowText checks a row's name and kana as the player form does: a text
// over its limit is ProblemNameTooLong or ProblemKanaTooLong, any other
// text the rules refuse ProblemText with the reason.
func rowText(r ImportRow) (string, error) {
	for _, f := range []struct {
		field   textField
		text    string
		tooLong string
	}{{fieldPlayerName, r.Name, ProblemNameTooLong}, {fieldKana, r.Kana, ProblemKanaTooLong}} {
		_, err := f.field.clean(f.text)
		var v *referee.Violation
		switch {
		case err == nil:
		case errors.As(err, &v) && strings.HasSuffix(v.Code, "-too-long"):
			return f.tooLong, nil
		default:
			return ProblemText, err
		}
	}
	return "", nil
}

// refuseFixedTables refuses the added rows that would be a fifth player
// fixed to a table, counting the players registered and the rows before,
// as SetFixedTable does (checkFixedTable). Whether the table is within
// those the players fill is left to the pairing: a roster is often
// imported in parts, before everyone has entered.
func refuseFixedTables(players []Player, plan *ImportPlan) {
	fixed := map[int]int{}
	for _, p := range players {
		if p.DroppedRound == 0 {
			fixed[p.FixedTable]++
		}
	}
	for i := range plan.Lines {
		l := &plan.Lines[i]
		if l.Action != ImportAdd || l.FixedTable == 0 {
			continue
		}
		if fixed[l.FixedTable] >= 4 {
			l.Action, l.Problem = ImportRefuse, ProblemFixedTableFull
			plan.Add--
			plan.Refused++
			continue
		}
		fixed[l.FixedTable]++
	}
}

// ImportPlayers registers the rows PlanImport would add, all in one
// transaction, and returns the plan with the players added. Rows already
// registered are skipped and refused rows are left out: the judge fixes the
// file and imports it again. Like AddPlayer, once round 1 is paired the new
// players are late entries from the first open round; nobody is checked in
// (ImportPlayersCheckedIn checks them all in).
func (s *Service) ImportPlayers(ctx context.Context, judge string, tournamentID int64, rows []ImportRow) (ImportPlan, error) {
	return s.importPlayers(ctx, judge, tournamentID, rows, false)
}

// ImportPlayersCheckedIn is ImportPlayers with every player added checked
// in: a roster of the players at the desk.
func (s *Service) ImportPlayersCheckedIn(ctx context.Context, judge string, tournamentID int64, rows []ImportRow) (ImportPlan, error) {
	return s.importPlayers(ctx, judge, tournamentID, rows, true)
}

func (s *Service) importPlayers(ctx context.Context, judge string, tournamentID int64, rows []ImportRow, checkIn bool) (ImportPlan, error) {
	if err := checkJudge(judge); err != nil {
		return ImportPlan{}, err
	}
	plan, err := s.PlanImport(ctx, tournamentID, rows)
	if err != nil {
		return ImportPlan{}, err
	}
	if err := s.checkChoices(ctx, tournamentID, rows, plan); err != nil {
		return ImportPlan{}, err
	}
	if plan.Add == 0 {
		return plan, nil
	}
	prog, err := s.store.Progress(ctx, tournamentID)
	if err != nil {
		return ImportPlan{}, err
	}
	late := 0
	if prog.Paired > 0 {
		late = prog.OpenRound()
	}
	ps := make([]*Player, 0, plan.Add)
	for _, l := range plan.Lines {
		if l.Action == ImportAdd {
			p := &Player{TournamentID: tournamentID, Name: l.Name, Kana: l.Kana, FixedTable: l.FixedTable, LateEntryRound: late, CheckedIn: checkIn,
				PersonID: l.PersonID, Person: l.Person}
			p.issueCode()
			ps = append(ps, p)
		}
	}
	if checkIn {
		if err := s.checkAttemptsOf(ctx, tournamentID, personsOf(ps)); err != nil {
			return ImportPlan{}, err
		}
	}
	c := s.change(judge, "player.import", fmt.Sprintf("%d players", len(ps)), nil, ps)
	if err := s.store.AddPlayers(ctx, ps, prog, c); err != nil {
		return ImportPlan{}, err
	}
	for _, p := range ps {
		plan.Added = append(plan.Added, *p)
	}
	return plan, nil
}

// checkChoices refuses an import whose rows the judge's choices of people
// refuse (plan, planned with them): a person chosen who is gone or plays
// the tournament already, chosen twice, or chosen for one row and named by
// another's member number. The import stops, for the preview again,
// rather than leave out a row the preview said it would add.
func (s *Service) checkChoices(ctx context.Context, tournamentID int64, rows []ImportRow, plan ImportPlan) error {
	chose := false
	unchosen := slices.Clone(rows)
	for i := range unchosen {
		chose = chose || unchosen[i].Person != (PersonChoice{})
		unchosen[i].Person = PersonChoice{}
	}
	if !chose {
		return nil
	}
	base, err := s.PlanImport(ctx, tournamentID, unchosen)
	if err != nil {
		return err
	}
	for i, l := range plan.Lines {
		if l.Problem == ProblemPerson && base.Lines[i].Problem != ProblemPerson {
			return fmt.Errorf("line %d: %w", l.Line, l.Text)
		}
	}
	return nil
}
