package console

import (
	"context"
	"fmt"

	"github.com/catanjudge/catanjudge/tournament"
)

// peopleList reads a page of the registry's list: by reading, or with
// byRating by rating (the ordinal), best first (issue 29).
func (s *Pages) peopleList(ctx context.Context, q string, archived bool, page int, byRating bool) (tournament.PeoplePage, error) {
	if byRating {
		return s.svc.PeopleByRating(ctx, q, archived, page)
	}
	return s.svc.People(ctx, q, archived, page)
}

// rateLines writes each listed person's rating beside them: the ordinal
// to one decimal and the games it counts; none without a game.
func (s *Pages) rateLines(ctx context.Context, lines []personLine) error {
	ids := make([]int64, len(lines))
	for i, l := range lines {
		ids[i] = l.ID
	}
	rs, err := s.svc.RatingsOf(ctx, ids)
	if err != nil {
		return err
	}
	for i := range lines {
		if r := rs[lines[i].ID]; r.Games > 0 {
			lines[i].Rating, lines[i].Games = fmt.Sprintf("%.1f", r.Rating.Ordinal()), r.Games
		}
	}
	return nil
}

// personRating puts the person's rating and real name on their page.
func (s *Pages) personRating(ctx context.Context, vm *personPage) error {
	lines := []personLine{vm.Person}
	if err := s.rateLines(ctx, lines); err != nil {
		return err
	}
	vm.Person = lines[0]
	names, err := s.svc.RealNames(ctx, []int64{vm.Person.ID})
	if err != nil {
		return err
	}
	vm.RealName = names[vm.Person.ID].Name
	return nil
}
