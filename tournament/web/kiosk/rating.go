package kiosk

import (
	"context"
	"fmt"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/chart"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// ratingView is a person's rating on their public page: where it stands,
// its history drawn as a chart, and the latest events in numbers.
type ratingView struct {
	Games            int
	Ordinal, Mu, Sig string
	Chart            *chart.Rating
	Rows             []ratingRow // the latest maxRatingRows events, newest first
	More             int         // events rated before those rows
}

type ratingRow struct {
	Date, Event   string
	Games         int
	Before, After string // ordinals
	Change        string // signed
}

// maxRatingRows bounds the events a person's page lists in numbers; the
// chart draws them all.
const maxRatingRows = 20

func one(v float64) string { return fmt.Sprintf("%.1f", v) }

// ratingView reads person id's rating for their page, in p's words.
func (s *Pages) ratingView(ctx context.Context, p i18n.Printer, id int64) (ratingView, error) {
	r, err := s.svc.Rating(ctx, id)
	if err != nil {
		return ratingView{}, err
	}
	v := ratingView{Games: r.Games, Ordinal: one(r.Rating.Ordinal()), Mu: one(r.Rating.Mu), Sig: one(r.Rating.Sigma)}
	v.Chart = chart.Of(r.History, func(pt tournament.RatingPoint) string {
		return p.Text("rating.mark", map[string]any{"Date": pt.Event.Day(), "Event": pt.Event.Name, "Ordinal": one(pt.After.Ordinal())})
	})
	for i := len(r.History) - 1; i >= 0 && len(v.Rows) < maxRatingRows; i-- {
		pt := r.History[i]
		d := pt.After.Ordinal() - pt.Before.Ordinal()
		v.Rows = append(v.Rows, ratingRow{Date: pt.Event.Day(), Event: pt.Event.Name, Games: pt.Games,
			Before: one(pt.Before.Ordinal()), After: one(pt.After.Ordinal()), Change: fmt.Sprintf("%+.1f", d)})
	}
	v.More = len(r.History) - len(v.Rows)
	return v, nil
}
