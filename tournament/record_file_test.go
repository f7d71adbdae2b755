package tournament_test

import (
	"bytes"
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
)

// recordText is the record file of tournament id as the record route
// writes it, without the moment it was written.
func recordText(t *testing.T, c *console, id int64) string {
	t.Helper()
	r := must(c.Svc.Record(c.Ctx, id)).OK(t)
	f := must(recordfile.FromRecord(r, "test")).OK(t)
	var b bytes.Buffer
	if err := recordfile.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^  "written_at": .*\n`).ReplaceAllString(b.String(), "")
}

// readRecordText reads a record file's text as import-record does.
func readRecordText(t *testing.T, text string) tournament.Record {
	t.Helper()
	f := must(recordfile.Read(bytes.NewReader([]byte(text)))).OK(t)
	r, _, err := f.Record()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestImportRecordRestoresTheEvent plays a short event with everything a
// record holds (seatings rolled by the console and by hand, boards, a
// judge's deal, a correction, penalties, a revoked one, the clock, a
// drop, the closing), writes its record, and imports it into another
// database (SQLite, or PostgreSQL under make test-postgres): exported
// again, it is the same file. Imported a second time beside it, it takes
// new IDs and still checks. A record whose facts were changed is refused
// and nothing is written.
func TestImportRecordRestoresTheEvent(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(8, 2)
	for n := 1; n <= 2; n++ {
		r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
		for _, tb := range r.Tables {
			in := tournament.SeatingInput{Auto: true}
			if tb.Number == 2 {
				// The players rolled: white and blue each, no tie.
				in = tournament.SeatingInput{}
				var rolls []tournament.Roll
				for i, id := range tb.Players {
					rolls = append(rolls, tournament.Roll{PlayerID: id, CapsuleRoll: referee.CapsuleRoll{White: i + 1, Blue: i + 2}})
				}
				in.Rolls = [][]tournament.Roll{rolls}
			}
			must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, n, tb.Number, in)).OK(t)
			board := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, n, tb.Number, tournament.BoardInput{Auto: true})).OK(t)
			if tb.Number == 1 {
				hand := must(referee.NewBoard(tour.Ruleset, board.Board.Roll, uint64(40+n))).OK(t)
				must(c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, n, tb.Number, tournament.DealInput{Chips: hand.Chips()})).OK(t)
			}
		}
		pen := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: r.Tables[0].Players[0], Round: n, Offence: "note-taking", Note: "メモ"})).OK(t)
		if n == 2 {
			must(c.Svc.RevokePenalty(c.Ctx, "judge-b", tour.ID, pen.ID, "取り違え")).OK(t)
		}
		c.Save(tour, n, 1, 0, []int{10, 7, 6, 4}, 0, "")
		c.timeUp(tour, n)
		c.Save(tour, n, 2, 0, []int{8, 8, 6, 5}, -1, "")
		c.Save(tour, n, 2, 1, []int{8, 7, 6, 5}, -1, "数え直し")
		if n == 1 {
			must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, players[7].ID)).OK(t)
			must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: names[8].Name, Kana: names[8].Kana, CheckedIn: true})).OK(t)
		}
	}
	must(c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)).OK(t)
	text := recordText(t, c, tour.ID)
	rec := readRecordText(t, text)
	if check := tournament.CheckRecord(rec); len(check.Disagreements) > 0 || len(check.Unchecked) > 0 || check.Checked.Seatings != 4 || check.Checked.Boards != 4 {
		t.Fatalf("the event's record: disagreements %v, unchecked %v, checked %+v; want none, none, 4 seatings and 4 boards",
			check.Disagreements, check.Unchecked, check.Checked)
	}

	other := newConsole(t)
	imported := must(other.Svc.ImportRecord(other.Ctx, "審判長", "event.json", rec)).OK(t)
	if imported.Closed == nil || imported.Name != tour.Name || imported.Imported != tournament.ImportedFromRecord {
		t.Errorf("imported tournament = %+v, want %q closed, marked imported from its record file", imported, tour.Name)
	}
	if diff := cmp.Diff(text, recordText(t, other, imported.ID)); diff != "" {
		t.Errorf("the imported event's record differs from the file it came from (-file +imported):\n%s", diff)
	}
	log := must(other.Svc.AuditLog(other.Ctx, imported.ID)).OK(t)
	if len(log) != 1 || log[0].Action != "tournament.import" || log[0].Judge != "審判長" {
		t.Errorf("the import's audit log = %+v, want one tournament.import by 審判長", log)
	}
	second := must(other.Svc.ImportRecord(other.Ctx, "審判長", "event.json", rec)).OK(t)
	again := readRecordText(t, recordText(t, other, second.ID))
	if second.ID == imported.ID || again.Players[0].ID == rec.Players[0].ID {
		t.Errorf("the second import has tournament %d and player IDs from %d, want new IDs", second.ID, again.Players[0].ID)
	}
	if check := tournament.CheckRecord(again); len(check.Disagreements) > 0 {
		t.Errorf("the second import's record does not check: %v", check.Disagreements)
	}

	// One VP changed on a sheet: refused, saying where, and nothing written.
	changed := readRecordText(t, text)
	changed.Rounds[0].Tables[1].Revisions[1].Scores[0].VP = 9
	before := len(must(other.Svc.ListTournaments(other.Ctx)).OK(t))
	_, err := other.Svc.ImportRecord(other.Ctx, "審判長", "event.json", changed)
	var v *referee.Violation
	if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != "record-disagrees" ||
		!regexp.MustCompile(`round 1 table 2 placings`).MatchString(v.Args["First"].(string)) {
		t.Errorf("ImportRecord(one VP changed) = %v, want record-disagrees naming round 1 table 2", err)
	}
	if after := len(must(other.Svc.ListTournaments(other.Ctx)).OK(t)); after != before {
		t.Errorf("a refused import left %d tournaments, want %d", after, before)
	}
}

// A stage of the final made again after a finalist dropped during it
// (RemakeFinal) leaves them out of the cut: the record of such an event
// checks, and imports.
func TestRecordOfARemadeFinalChecks(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(8, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.Save(tour, 1, 1, 0, []int{10, 7, 6, 4}, 0, "")
	c.Save(tour, 1, 2, 0, []int{10, 8, 5, 3}, 0, "")
	final := must(c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID)).OK(t)
	gone := final.Tables[0].Players[0]
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, gone)).OK(t)
	remade := must(c.Svc.RemakeFinal(c.Ctx, "judge-a", tour.ID, "決勝進出者の棄権")).OK(t)
	if slices.Contains(remade.Tables[0].Players, gone) {
		t.Fatalf("the remade final seats player %d, who dropped", gone)
	}
	rec := readRecordText(t, recordText(t, c, tour.ID))
	if check := tournament.CheckRecord(rec); len(check.Disagreements) > 0 || check.Checked.Cuts != 1 {
		t.Errorf("the record of a remade final: disagreements %v, %d cuts checked; want none and 1", check.Disagreements, check.Checked.Cuts)
	}
	must(newConsole(t).Svc.ImportRecord(c.Ctx, "審判長", "event.json", rec)).OK(t)
}
