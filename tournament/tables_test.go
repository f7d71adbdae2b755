package tournament_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

func roll(p int64, white, blue int) tournament.Roll {
	return tournament.Roll{PlayerID: p, CapsuleRoll: referee.CapsuleRoll{White: white, Blue: blue}}
}

func TestSetSeating(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players

	// Two players tie on 7: the judge is told who re-rolls.
	tied := [][]tournament.Roll{{roll(p[0], 6, 6), roll(p[1], 3, 4), roll(p[2], 5, 2), roll(p[3], 1, 1)}}
	_, err := c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Rolls: tied})
	var te *referee.TieError
	if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &te) {
		t.Fatalf("SetSeating(tied rolls) error = %v, want ErrInvalid with a *referee.TieError", err)
	}
	if want := [][]string{{pidOf(p[1]), pidOf(p[2])}}; !cmp.Equal(te.Groups, want) {
		t.Errorf("TieError.Groups = %v, want %v", te.Groups, want)
	}
	// The service names them by their IDs, for the pages.
	var tt *tournament.TieError
	if !errors.As(err, &tt) || !cmp.Equal(tt.Groups, [][]int64{{p[1], p[2]}}) {
		t.Errorf("SetSeating(tied rolls) error = %#v, want a *tournament.TieError with the groups [[%d %d]]", err, p[1], p[2])
	}
	rerolled := append(tied, []tournament.Roll{roll(p[1], 2, 2), roll(p[2], 6, 5)})
	tb := must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Rolls: rerolled})).OK(t)
	want := []tournament.Seat{
		{PlayerID: p[0], Order: 1, Color: referee.Red}, {PlayerID: p[2], Order: 2, Color: referee.Blue},
		{PlayerID: p[1], Order: 3, Color: referee.Yellow}, {PlayerID: p[3], Order: 4, Color: referee.Green},
	}
	if diff := cmp.Diff(want, tb.Seating.Seats); diff != "" {
		t.Errorf("SetSeating() seats mismatch (-want +got):\n%s", diff)
	}
	v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	var order []int64
	for _, s := range v.Tables[0].Players {
		order = append(order, s.PlayerID)
	}
	if !slices.Equal(order, []int64{p[0], p[2], p[1], p[3]}) || v.Tables[0].Players[1].Color != referee.Blue {
		t.Errorf("RoundView players = %+v, want play order with colours", v.Tables[0].Players)
	}

	// Rolls for someone not at the table are refused.
	stranger := [][]tournament.Roll{{roll(p[0], 6, 6), roll(p[1], 3, 4), roll(p[2], 5, 2), roll(999, 1, 1)}}
	if _, err := c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Rolls: stranger}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SetSeating(a stranger's roll) error = %v, want ErrInvalid", err)
	}

	// The console rolls from a recorded seed, which replays the same seating.
	auto := must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
	rolls, seats, err := referee.RollSeating(tour.Ruleset, []string{pidOf(p[0]), pidOf(p[1]), pidOf(p[2]), pidOf(p[3])}, auto.Seating.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if !auto.Seating.Auto || len(auto.Seating.Rolls) != len(rolls) || auto.Seating.Seats[0].PlayerID != fromPID(seats[0].Player) {
		t.Errorf("auto seating %+v does not replay from seed %d", auto.Seating, auto.Seating.Seed)
	}
	stored := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round
	if diff := cmp.Diff(auto.Seating, stored.Tables[0].Seating); diff != "" {
		t.Errorf("stored seating mismatch (-want +got):\n%s", diff)
	}
}

func TestSetBoardAndDeal(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if _, err := c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: nil}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SetDeal(before the roll) error = %v, want ErrInvalid", err)
	}
	if _, err := c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 7, Blue: 1}}); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("SetBoard(white 7) error = %v, want referee.ErrInvalid", err)
	}
	tb := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 2, Blue: 5}})).OK(t)
	want, err := referee.NewBoard(tour.Ruleset, referee.CapsuleRoll{White: 2, Blue: 5}, tb.Board.Seed)
	if err != nil {
		t.Fatal(err)
	}
	v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if diff := cmp.Diff(&want, v.Tables[0].Board); diff != "" {
		t.Errorf("RoundView board mismatch (-want +got):\n%s", diff)
	}

	// The judge enters a physical deal: the dealt board's chips, then a
	// deal with three reds in a row, which the dango rule refuses (§3 ウ).
	chips := want.Chips()
	must(c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: chips})).OK(t)
	v = must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if diff := cmp.Diff(chips, v.Tables[0].Board.Chips()); diff != "" {
		t.Errorf("board after SetDeal mismatch (-want +got):\n%s", diff)
	}
	if _, err := c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: dangoDeal(t, want)}); !errors.Is(err, tournament.ErrInvalid) || !strings.Contains(err.Error(), "deal again") {
		t.Errorf("SetDeal(red clump) error = %v, want ErrInvalid asking for a new deal", err)
	}

	auto := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Auto: true})).OK(t)
	if !auto.Board.RollAuto || auto.Board.Roll.Validate() != nil || auto.Board.Deal != nil {
		t.Errorf("auto board = %+v, want a valid console roll and no entered deal", auto.Board)
	}
}

// dangoDeal returns board's deal with the red chips moved onto three hexes
// in a row of the outer ring's top edge.
func dangoDeal(t *testing.T, b referee.Board) []referee.Chip {
	t.Helper()
	row := []referee.Hex{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: 2, R: -2}}
	chips := b.Chips()
	num := map[referee.Hex]int{}
	for _, c := range chips {
		num[c.Hex] = c.Number
	}
	var reds []referee.Hex
	for _, c := range chips {
		if (c.Number == 6 || c.Number == 8) && !slices.Contains(row, c.Hex) {
			reds = append(reds, c.Hex)
		}
	}
	for _, h := range row {
		if num[h] == 6 || num[h] == 8 {
			continue
		}
		if _, ok := num[h]; !ok {
			t.Skip("the desert lies on the test's row")
		}
		r := reds[0]
		reds = reds[1:]
		num[h], num[r] = num[r], num[h]
	}
	out := make([]referee.Chip, len(chips))
	for i, c := range chips {
		out[i] = referee.Chip{Hex: c.Hex, Number: num[c.Hex]}
	}
	return out
}

func TestSaveResultValidation(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	scores := func(vp ...int) []tournament.Score {
		var out []tournament.Score
		for i, v := range vp {
			out = append(out, tournament.Score{PlayerID: p[i], VP: v})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		in   tournament.ResultInput
		want error
		code string // the *referee.Violation's code, for the user's language
	}{
		{"missing player", tournament.ResultInput{Scores: scores(5, 4, 3)}, tournament.ErrInvalid, "scores-not-the-table"},
		{"player twice", tournament.ResultInput{Scores: append(scores(5, 4, 3), tournament.Score{PlayerID: p[0], VP: 1})}, tournament.ErrInvalid, "scores-not-the-table"},
		{"declared not at the table", tournament.ResultInput{Scores: scores(10, 4, 3, 2), Declared: 999}, tournament.ErrInvalid, "winner-not-at-table"},
		{"declared under 10 VP", tournament.ResultInput{Scores: scores(9, 4, 3, 2), Declared: p[0]}, referee.ErrInvalid, "winner-under-win-vp"},
		{"negative VP", tournament.ResultInput{Scores: scores(9, -1, 3, 2)}, referee.ErrInvalid, "negative-vp"},
		{"correction of nothing", tournament.ResultInput{Scores: scores(9, 4, 3, 2), Version: 1, Reason: "x"}, tournament.ErrConflict, ""},
		{"correction without a reason", tournament.ResultInput{Scores: scores(9, 4, 3, 2), Version: 1}, tournament.ErrInvalid, "correction-reason-missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, tc.in)
			if !errors.Is(err, tc.want) {
				t.Errorf("SaveResult(%+v) error = %v, want %v", tc.in, err, tc.want)
			}
			var v *referee.Violation
			if tc.code != "" && (!errors.As(err, &v) || v.Code != tc.code) {
				t.Errorf("SaveResult(%+v) error = %v, want a *referee.Violation %q", tc.in, err, tc.code)
			}
			if tc.code == "" {
				return // a stale version shows only when saving
			}
			// The preview refuses the sheet as saving does.
			_, perr := c.Svc.PreviewResult(c.Ctx, tour.ID, 1, 1, tc.in)
			if !errors.Is(perr, tc.want) || !errors.As(perr, &v) || v.Code != tc.code {
				t.Errorf("PreviewResult(%+v) error = %v, want %v with code %q", tc.in, perr, tc.want, tc.code)
			}
		})
	}

	// The referee knows players by id; the message names them.
	_, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.ResultInput{Scores: scores(9, 4, 3, 2), Declared: p[0]})
	var v *referee.Violation
	if !errors.As(err, &v) || v.Args["Player"] != nameOf(players, p[0]) || v.Args["VP"] != 9 || v.Args["Need"] != 10 {
		t.Errorf("SaveResult(declared under 10 VP) error = %v, want a violation naming %s with 9 VP of 10", err, nameOf(players, p[0]))
	} else if !strings.Contains(err.Error(), `"`+pidOf(p[0])+`"`) {
		t.Errorf("SaveResult(declared under 10 VP) error = %q, want the player id kept for the log", err)
	}
	if _, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 2, tournament.ResultInput{Scores: scores(1, 2, 3, 4)}); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("SaveResult(table 2) error = %v, want ErrNotFound", err)
	}
	if _, err := c.Svc.SaveResult(c.Ctx, "", tour.ID, 1, 1, tournament.ResultInput{Scores: scores(1, 2, 3, 4)}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SaveResult(no judge) error = %v, want ErrInvalid", err)
	}
	if revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t); len(revs) != 0 {
		t.Errorf("Revisions() after refused saves = %v, want none", revs)
	}
	// Once a result is in, the seating and board of the game are settled.
	c.timeUp(tour, 1)
	must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.ResultInput{Scores: scores(1, 2, 3, 4)})).OK(t)
	if _, err := c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true}); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("SetSeating(after the result) error = %v, want ErrConflict", err)
	}
}

// PreviewResult places a sheet as SaveResult then saves it, penalties
// given in the game included, and stores nothing.
func TestPreviewResult(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	// A VP deduction for the declared winner (who stays 1st) and a game
	// loss for the player with the most VP after them.
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "note-taking", Level: referee.VPDeduction})).OK(t)
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[1], Round: 1, Offence: "ignored-judge"})).OK(t)
	in := tournament.ResultInput{Declared: p[0]}
	for i, vp := range []int{10, 9, 6, 6} {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p[i], VP: vp})
	}
	preview := must(c.Svc.PreviewResult(c.Ctx, tour.ID, 1, 1, in)).OK(t)
	want := []tournament.Placing{{PlayerID: p[0], VP: 10 - tour.Ruleset.DeductVP, Place: 1, Reported: 10, Deducted: tour.Ruleset.DeductVP},
		{PlayerID: p[2], VP: 6, Place: 2, Reported: 6}, {PlayerID: p[3], VP: 6, Place: 2, Reported: 6}, {PlayerID: p[1], VP: 0, Place: 4, Reported: 9, Deducted: 9}}
	if diff := cmp.Diff(want, preview.Places, cmpopts.IgnoreFields(tournament.Placing{}, "Penalties")); diff != "" {
		t.Errorf("PreviewResult() placings mismatch (-want +got):\n%s", diff)
	}
	// Each deduction names the penalty it comes from (docs/rules.md, Penalties).
	for i, wantOffence := range []string{"note-taking", "", "", "ignored-judge"} {
		var got []string
		for _, x := range preview.Places[i].Penalties {
			got = append(got, x.Offence)
		}
		if wantOffence == "" && len(got) != 0 || wantOffence != "" && !slices.Equal(got, []string{wantOffence}) {
			t.Errorf("PreviewResult() placing %d penalties = %v, want %q", i, got, wantOffence)
		}
	}
	if revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t); len(revs) != 0 {
		t.Fatalf("Revisions() after a preview = %v, want none", revs)
	}
	saved := must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, in)).OK(t)
	if diff := cmp.Diff(saved.Places, preview.Places); diff != "" {
		t.Errorf("PreviewResult() and SaveResult() placings differ (-saved +preview):\n%s", diff)
	}
	got, wantRes := preview.Result, saved.Result
	got.At, got.Judge, wantRes.At, wantRes.Judge = time.Time{}, "", time.Time{}, ""
	if diff := cmp.Diff(wantRes, got); diff != "" {
		t.Errorf("PreviewResult() result differs from the saved one (-saved +preview):\n%s", diff)
	}
	if _, err := c.Svc.PreviewResult(c.Ctx, tour.ID, 1, 2, in); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("PreviewResult(table 2) error = %v, want ErrNotFound", err)
	}
}

// PenaltySuggestion suggests the level RecordPenalty then gives when the
// judge leaves it to the escalation rules.
func TestPenaltySuggestion(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	record := func(in tournament.PenaltyInput) tournament.Penalty {
		t.Helper()
		suggested := must(c.Svc.PenaltySuggestion(c.Ctx, tour.ID, in.PlayerID, in.Offence)).OK(t).Level
		pen := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, in)).OK(t)
		if in.Level == "" && pen.Level != suggested {
			t.Errorf("RecordPenalty(%+v) level = %s, but PenaltySuggestion said %s", in, pen.Level, suggested)
		}
		return pen
	}
	first := record(tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "note-taking"})
	if first.Level != referee.Warning {
		t.Errorf("first note-taking = %s, want the catalogue's warning", first.Level)
	}
	if second := record(tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "note-taking"}); second.Level == referee.Warning {
		t.Errorf("second note-taking = %s, want it escalated from warning", second.Level)
	}
	// Another player, and the same player for another offence, start afresh.
	if l := must(c.Svc.PenaltySuggestion(c.Ctx, tour.ID, p[1], "note-taking")).OK(t).Level; l != referee.Warning {
		t.Errorf("PenaltySuggestion(another player) = %s, want warning", l)
	}
	if l := must(c.Svc.PenaltySuggestion(c.Ctx, tour.ID, p[0], "needless-talk")).OK(t).Level; l != referee.Caution {
		t.Errorf("PenaltySuggestion(another offence) = %s, want caution", l)
	}
	// A revoked penalty does not count.
	must(c.Svc.RevokePenalty(c.Ctx, "judge-b", first.TournamentID, first.ID, "人違い")).OK(t)
	second := must(c.Svc.PenaltySuggestion(c.Ctx, tour.ID, p[0], "note-taking")).OK(t).Level
	if third := record(tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "note-taking"}); third.Level != second {
		t.Errorf("note-taking after a revocation = %s, want %s", third.Level, second)
	}
	for _, tc := range []struct {
		player  int64
		offence string
	}{{999, "note-taking"}, {p[0], "no-such-offence"}} {
		if _, err := c.Svc.PenaltySuggestion(c.Ctx, tour.ID, tc.player, tc.offence); !errors.Is(err, referee.ErrInvalid) && !errors.Is(err, tournament.ErrInvalid) {
			t.Errorf("PenaltySuggestion(%d, %q) error = %v, want invalid", tc.player, tc.offence, err)
		}
	}
	if _, err := c.Svc.PenaltySuggestion(c.Ctx, tour.ID+1, p[0], "note-taking"); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("PenaltySuggestion(no such tournament) error = %v, want ErrNotFound", err)
	}
}

// A penalty recorded after the result changes the placings and the
// standings on the next read; revoking it restores them.
func TestPenaltyEffectIsComputed(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	places := func() []tournament.Placing {
		return must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Tables[0].Places
	}
	before := places()
	pen := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "ignored-judge"})).OK(t)
	if pen.Level != referee.GameLoss || pen.Table != 1 {
		t.Errorf("RecordPenalty(ignored-judge) = level %s table %d, want the catalogue's game_loss at table 1", pen.Level, pen.Table)
	}
	want := []tournament.Placing{{PlayerID: p[1], VP: 8, Place: 1, Reported: 8}, {PlayerID: p[2], VP: 6, Place: 2, Reported: 6},
		{PlayerID: p[3], VP: 4, Place: 3, Reported: 4}, {PlayerID: p[0], VP: 0, Place: 4, Reported: 10, Deducted: 10}}
	if diff := cmp.Diff(want, places(), cmpopts.IgnoreFields(tournament.Placing{}, "Penalties")); diff != "" {
		t.Errorf("placings after a game loss mismatch (-want +got):\n%s", diff)
	}
	st := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t)
	if st[0].PlayerID != p[1] || st[len(st)-1].PlayerID != p[0] {
		t.Errorf("standings after a game loss = %+v, want player %d first and %d last", st, p[1], p[0])
	}
	must(c.Svc.RevokePenalty(c.Ctx, "judge-b", pen.TournamentID, pen.ID, "判断の誤り")).OK(t)
	if diff := cmp.Diff(before, places()); diff != "" {
		t.Errorf("placings after revoking mismatch (-want +got):\n%s", diff)
	}
	if _, err := c.Svc.RevokePenalty(c.Ctx, "judge-b", pen.TournamentID, pen.ID, "again"); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("RevokePenalty(twice) error = %v, want ErrConflict", err)
	}
	if _, err := c.Svc.RevokePenalty(c.Ctx, "judge-b", pen.TournamentID, pen.ID, " "); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("RevokePenalty(no reason) error = %v, want ErrInvalid", err)
	}

	// A disqualification also drops the player from the next round.
	dq := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[3], Round: 1, Offence: "unsporting-conduct", Level: referee.Disqualification})).OK(t)
	if pl := must(c.Svc.GetPlayer(c.Ctx, tour.ID, dq.PlayerID)).OK(t); pl.DroppedRound != 2 {
		t.Errorf("disqualified player DroppedRound = %d, want 2", pl.DroppedRound)
	}
	for _, tc := range []tournament.PenaltyInput{
		{PlayerID: p[0], Round: 1, Offence: "no-such-offence"},
		{PlayerID: p[0], Round: 1, Offence: "note-taking", Level: "banned"},
		{PlayerID: p[0], Round: 1, Table: 2, Offence: "note-taking"},
		{PlayerID: p[0], Round: 2, Offence: "note-taking"},
		{PlayerID: 999, Offence: "note-taking"},
	} {
		if _, err := c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tc); !errors.Is(err, tournament.ErrInvalid) {
			t.Errorf("RecordPenalty(%+v) error = %v, want ErrInvalid", tc, err)
		}
	}
}

// pidOf and fromPID convert IDs as the service does for the referee.
func pidOf(id int64) string { return strconv.FormatInt(id, 10) }

func fromPID(s string) int64 {
	id, _ := strconv.ParseInt(s, 10, 64)
	return id
}

// The case: needless talk three times stayed a caution. docs/rules.md,
// Penalties: a repeat is suggested one level above the highest level the
// offence reached for the player, so cautions climb, and a lighter level the
// judge chose in between lowers nothing.
func TestRepeatedCautionsEscalate(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	var got []referee.Level
	for range 3 {
		pen := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "needless-talk"})).OK(t)
		got = append(got, pen.Level)
	}
	if want := []referee.Level{referee.Caution, referee.Warning, referee.VPDeduction}; !slices.Equal(got, want) {
		t.Errorf("needless-talk three times = %v, want %v", got, want)
	}
	// The judge gives a caution this time (§14); the next is still one above the highest.
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "needless-talk", Level: referee.Caution})).OK(t)
	sg := must(c.Svc.PenaltySuggestion(c.Ctx, tour.ID, p[0], "needless-talk")).OK(t)
	want := referee.Suggestion{Level: referee.GameLoss, Start: referee.Caution, Nth: 5, Highest: referee.VPDeduction, Escalated: true, Why: referee.SuggestEscalated}
	if diff := cmp.Diff(want, sg); diff != "" {
		t.Errorf("PenaltySuggestion(fifth needless talk) (-want +got):\n%s", diff)
	}
}

// Under the national rules the judge gives the corner die (or the console
// rolls it), the terrain seed is drawn and recorded, and the board replays
// from both; capsule dice and a hand-entered deal are refused.
func TestSetSpiralBoard(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "地区予選", Ruleset: "national-2025", Rounds: 3})).OK(t)
	if tour.GameMinutes != 60 || tour.Ruleset.Board.Method != referee.SpiralBoard {
		t.Fatalf("tournament = %d minutes, board %q, want the national rules' 60 and the spiral", tour.GameMinutes, tour.Ruleset.Board.Method)
	}
	for _, nm := range names[:4] {
		p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, Kana: nm.Kana})).OK(t)
		must(c.Svc.CheckIn(c.Ctx, "judge-a", p.TournamentID, p.ID, true)).OK(t)
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)

	refusals := []struct {
		name string
		in   tournament.BoardInput
		code string
	}{
		{"capsule roll", tournament.BoardInput{Roll: referee.CapsuleRoll{White: 2, Blue: 5}}, "board-roll-not-corner"},
		{"corner 7", tournament.BoardInput{Corner: 7}, "corner-die-out-of-range"},
		{"no corner", tournament.BoardInput{}, "corner-die-out-of-range"},
	}
	for _, tt := range refusals {
		_, err := c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tt.in)
		var v *referee.Violation
		if !errors.As(err, &v) || v.Code != tt.code {
			t.Errorf("SetBoard(%s) error = %v, want violation %s", tt.name, err, tt.code)
		}
	}

	tb := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Corner: 4})).OK(t)
	if tb.Board.Corner != 4 || tb.Board.Roll != (referee.CapsuleRoll{}) {
		t.Errorf("board record = %+v, want corner 4 and no capsule roll", tb.Board)
	}
	want, err := referee.NewSpiralBoard(tour.Ruleset, 4, tb.Board.Seed)
	if err != nil {
		t.Fatal(err)
	}
	v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if diff := cmp.Diff(&want, v.Tables[0].Board); diff != "" {
		t.Errorf("RoundView board mismatch (-want +got):\n%s", diff)
	}
	if v.Tables[0].Board.Start != referee.SouthEast {
		t.Errorf("corner 4 starts at %q, want the south-east corner (1 = north-west, then clockwise)", v.Tables[0].Board.Start)
	}
	if _, err := c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: want.Chips()}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SetDeal(spiral board) error = %v, want ErrInvalid", err)
	}

	auto := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Auto: true})).OK(t)
	if !auto.Board.RollAuto || auto.Board.Corner < 1 || auto.Board.Corner > 6 || auto.Board.Roll != (referee.CapsuleRoll{}) {
		t.Errorf("auto board = %+v, want a console-rolled corner and no capsule roll", auto.Board)
	}

	// A capsule tournament refuses a corner.
	capsule, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", capsule.ID)).OK(t)
	_, err = c.Svc.SetBoard(c.Ctx, "judge-a", capsule.ID, 1, 1, tournament.BoardInput{Corner: 1})
	if v := (*referee.Violation)(nil); !errors.As(err, &v) || v.Code != "board-corner-not-roll" {
		t.Errorf("SetBoard(corner, capsule ruleset) error = %v, want violation board-corner-not-roll", err)
	}
}

// A score sheet may carry each player's VP breakdown: a VP written beside
// it must be what it gives (§11), the table is checked with it, and a
// line with only the breakdown has its VP counted. The breakdown is
// stored with the revision.
func TestSaveResultBreakdown(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	bd := func(s, ci int, lr, la bool, pc int) *referee.Breakdown {
		return &referee.Breakdown{Settlements: s, Cities: ci, LongestRoad: lr, LargestArmy: la, PointCards: pc}
	}
	sheet := func(first tournament.Score) []tournament.Score {
		first.PlayerID = p[0]
		return []tournament.Score{first, {PlayerID: p[1], VP: 5}, {PlayerID: p[2], NoVP: true, Breakdown: bd(2, 1, false, false, 0)}, {PlayerID: p[3], VP: 3}}
	}
	for _, tc := range []struct {
		name  string
		first tournament.Score
		code  string
		args  map[string]any
	}{
		{"§11: a mistyped total", tournament.Score{VP: 9, Breakdown: bd(2, 2, true, false, 0)}, "sheet-vp-mismatch",
			map[string]any{"Player": nameOf(players, p[0]), "VP": 9, "Counted": 8, "Field": "vp"}},
		{"§8: six settlements", tournament.Score{NoVP: true, Breakdown: bd(6, 0, false, false, 0)}, "sheet-over-settlements",
			map[string]any{"Player": nameOf(players, p[0]), "Count": 6, "Max": 5, "Field": "settlements"}},
		{"neither VP nor breakdown", tournament.Score{NoVP: true}, "sheet-line-empty",
			map[string]any{"Player": nameOf(players, p[0]), "Field": "vp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tournament.ResultInput{Scores: sheet(tc.first)}
			for _, try := range []func() error{
				func() error { _, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, in); return err },
				func() error { _, err := c.Svc.PreviewResult(c.Ctx, tour.ID, 1, 1, in); return err },
			} {
				var v *referee.Violation
				if err := try(); !errors.As(err, &v) || v.Code != tc.code {
					t.Fatalf("error = %v, want %s", err, tc.code)
				}
				for k, want := range tc.args {
					if v.Args[k] != want {
						t.Errorf("%s: Args[%s] = %v, want %v", tc.code, k, v.Args[k], want)
					}
				}
			}
		})
	}
	// Two players claiming the longest road: both said, by name.
	in := tournament.ResultInput{Scores: sheet(tournament.Score{NoVP: true, Breakdown: bd(2, 0, true, false, 0)})}
	in.Scores[2].Breakdown.LongestRoad = true
	_, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, in)
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "sheet-longest-road-twice" || !slices.Equal(v.Args["Group"].([]string), []string{nameOf(players, p[0]), nameOf(players, p[2])}) {
		t.Errorf("two longest roads: error = %v, want sheet-longest-road-twice naming both", err)
	}
	if revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t); len(revs) != 0 {
		t.Fatalf("Revisions() after refused sheets = %v, want none", revs)
	}

	c.timeUp(tour, 1)
	in = tournament.ResultInput{Scores: sheet(tournament.Score{VP: 10, Breakdown: bd(2, 2, true, false, 2)})}
	tr := must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, in)).OK(t)
	want := []tournament.Score{{PlayerID: p[0], VP: 10, Breakdown: bd(2, 2, true, false, 2)}, {PlayerID: p[1], VP: 5},
		{PlayerID: p[2], VP: 4, Breakdown: bd(2, 1, false, false, 0)}, {PlayerID: p[3], VP: 3}}
	if diff := cmp.Diff(want, tr.Result.Scores); diff != "" {
		t.Errorf("saved scores (-want +got):\n%s", diff)
	}
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if len(revs) != 1 || !cmp.Equal(want, revs[0].Scores) {
		t.Errorf("Revisions() = %+v, want the breakdowns stored", revs)
	}
	tv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Tables[0]
	if d := tv.Draft(); d.Breakdown[p[2]] != *bd(2, 1, false, false, 0) || d.VP[p[2]] != 4 {
		t.Errorf("Draft() = %+v, want the breakdown to correct", d)
	}
}
