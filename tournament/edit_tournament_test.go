package tournament_test

import (
	"errors"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// The game time is what every round's clock is computed from (§12): it may
// change until a clock starts, and not after, so a running round's
// deadline never moves.
func TestGameMinutesFixedOnceAClockStarts(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(8, 3)
	edit := func(minutes int) (tournament.Tournament, error) {
		return c.Svc.EditTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentInput{Name: tour.Name, Rounds: tour.Rounds, GameMinutes: minutes})
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if got := must(edit(10)).OK(t); got.GameMinutes != 10 {
		t.Fatalf("EditTournament(10 minutes before any clock) = %d minutes, want 10", got.GameMinutes)
	}
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = c.At.Add(time.Minute)
	before := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Timer

	_, err := edit(30)
	var v *referee.Violation
	if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != "game-minutes-clock-started" {
		t.Errorf("EditTournament(30 minutes while round 1 runs) error = %v, want the violation game-minutes-clock-started", err)
	}
	after := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Timer
	if !after.Deadline.Equal(before.Deadline) || after.GameLength != 10*time.Minute {
		t.Errorf("deadline after the refused edit = %v (game %v), want %v (10m)", after.Deadline, after.GameLength, before.Deadline)
	}
	// Other fields still change, with the game time as it is.
	if got := must(edit(10)).OK(t); got.GameMinutes != 10 {
		t.Errorf("EditTournament(same minutes) = %d minutes, want 10", got.GameMinutes)
	}
}

// The console asks the service whether the next round can be paired and
// whether a round has started, rather than work it out itself.
func TestCanPairAndStarted(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 2)
	can := func() bool { return must(c.Svc.CanPair(c.Ctx, tour.ID)).OK(t) }
	started := func() bool { return must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Started }
	if !can() {
		t.Error("CanPair before round 1 = false, want true")
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if can() || started() {
		t.Errorf("round 1 paired: CanPair %v, Started %v; want false, false", can(), started())
	}
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
	if !started() {
		t.Error("round 1 seated: Started = false, want true")
	}
	c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	if !can() {
		t.Error("round 1 complete: CanPair = false, want true")
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.Save(tour, 2, 1, 0, []int{10, 8, 6, 4}, 0, "")
	if can() {
		t.Error("every round paired: CanPair = true, want false")
	}
	if _, err := c.Svc.CanPair(c.Ctx, tour.ID+1); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("CanPair(no such tournament) error = %v, want ErrNotFound", err)
	}
}

// PatchTournament changes the settings it is given and keeps the others,
// by EditTournament's rules.
func TestPatchTournament(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 3)
	got := must(c.Svc.PatchTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentPatch{SelfCheckIn: ptr(true), SelfReport: ptr("approve")})).OK(t)
	if !got.SelfCheckIn || got.SelfReport != "approve" || got.Name != tour.Name || got.Venue != tour.Venue || got.Date != tour.Date || got.Rounds != 3 || got.GameMinutes != tour.GameMinutes {
		t.Fatalf("PatchTournament(self check-in, approve) = %+v, want the rest of %+v", got, tour)
	}
	violationOf(t, "an unknown mode", must(c.Svc.PatchTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentPatch{SelfReport: ptr("sometimes")})).Err, "self-report-mode")
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	violationOf(t, "rounds below those paired", must(c.Svc.PatchTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentPatch{Rounds: ptr(0)})).Err, "rounds-out-of-range")
	got = must(c.Svc.PatchTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentPatch{Name: ptr("12月定例会"), SelfCheckIn: ptr(false)})).OK(t)
	if got.Name != "12月定例会" || got.SelfCheckIn || got.SelfReport != "approve" {
		t.Errorf("PatchTournament(name, no self check-in) = %+v", got)
	}
}

func ptr[T any](v T) *T { return &v }
