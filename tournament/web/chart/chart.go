// Package chart draws a person's rating history as the view model of a
// server-rendered SVG line chart: the ordinal after each event as a solid
// line with round marks, μ as a dashed line, on a grid of the ordinal's
// scale, so that the chart reads on a phone and printed in black and
// white alike (lines and marks, no colour needed). Templates draw it.
package chart

import (
	"fmt"
	"math"
	"strings"

	"github.com/catanjudge/catanjudge/tournament"
)

// The chart's size in SVG units; it scales to the page's width.
const (
	Width  = 640
	Height = 260
	left   = 44
	right  = 32
	top    = 14
	bottom = 34
)

// Mark is one point of the line: where it is drawn, and what it says when
// pointed at or read aloud.
type Mark struct {
	X, Y  float64
	Title string
}

// Tick is a label on an axis at X or Y.
type Tick struct {
	X, Y  float64
	Label string
}

// Rating is the chart of a rating history: the ordinal's line and marks,
// μ's line, the axes' ticks.
type Rating struct {
	Width, Height  int
	PlotLeft       float64
	PlotRight      float64
	PlotTop        float64
	PlotBottom     float64
	Ordinal, Mu    string // SVG polyline points
	Marks          []Mark
	YTicks, XTicks []Tick
}

// maxXTicks bounds the dates written under the chart: a long history
// labels some of its events.
const maxXTicks = 6

// Of draws history, starting from a new rating before the first event;
// title says a mark's words from its event and ordinal. Nil for an empty
// history: a person with no game has nothing to draw.
func Of(history []tournament.RatingPoint, title func(p tournament.RatingPoint) string) *Rating {
	if len(history) == 0 {
		return nil
	}
	c := &Rating{Width: Width, Height: Height, PlotLeft: left, PlotRight: Width - right, PlotTop: top, PlotBottom: Height - bottom}
	lo, hi := history[0].Before.Ordinal(), history[0].Before.Ordinal()
	for _, p := range history {
		for _, v := range []float64{p.After.Ordinal(), p.After.Mu, p.Before.Mu} {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	step := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi == lo {
		hi = lo + step
	}
	n := len(history)
	x := func(i int) float64 { return c.PlotLeft + float64(i)*(c.PlotRight-c.PlotLeft)/float64(n) }
	y := func(v float64) float64 { return c.PlotBottom - (v-lo)/(hi-lo)*(c.PlotBottom-c.PlotTop) }
	var ord, mu []string
	ord = append(ord, pt(x(0), y(history[0].Before.Ordinal())))
	mu = append(mu, pt(x(0), y(history[0].Before.Mu)))
	for i, p := range history {
		ord = append(ord, pt(x(i+1), y(p.After.Ordinal())))
		mu = append(mu, pt(x(i+1), y(p.After.Mu)))
		c.Marks = append(c.Marks, Mark{X: round1(x(i + 1)), Y: round1(y(p.After.Ordinal())), Title: title(p)})
	}
	c.Ordinal, c.Mu = strings.Join(ord, " "), strings.Join(mu, " ")
	for v := lo; v <= hi+step/2; v += step {
		c.YTicks = append(c.YTicks, Tick{X: c.PlotLeft - 6, Y: round1(y(v)), Label: fmt.Sprint(math.Round(v*10) / 10)})
	}
	every := max(1, (n+maxXTicks-1)/maxXTicks)
	for i := n - 1; i >= 0; i -= every {
		c.XTicks = append([]Tick{{X: round1(x(i + 1)), Y: c.PlotBottom + 18, Label: shortDate(history[i].Event.Day())}}, c.XTicks...)
	}
	return c
}

// niceStep is the grid's step: 1, 2 or 5 times a power of ten, at least
// the span given.
func niceStep(span float64) float64 {
	if span <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= span {
			return m * p
		}
	}
	return 10 * p
}

func pt(x, y float64) string { return fmt.Sprintf("%.1f,%.1f", x, y) }

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// shortDate is a date as the axis writes it: 2025-10-18 is 25/10/18.
func shortDate(d string) string {
	if len(d) == 10 {
		return d[2:4] + "/" + d[5:7] + "/" + d[8:10]
	}
	return d
}
