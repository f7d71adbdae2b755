package config

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

//go:embed rulesets/*.json
var builtin embed.FS

// DefaultRuleset is the name of the built-in preset holding the rulebook's values.
const DefaultRuleset = "proshop-2003"

// RulesetFile is the on-disk (and API) shape of a ruleset; referee.Ruleset
// carries no tags.
type RulesetFile struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	Description    string `json:"description"`
	GameMinutes    int    `json:"game_minutes"`
	VPCap          int    `json:"vp_cap"`
	WinVP          int    `json:"win_vp"`
	Dango          string `json:"dango"`
	LongestRoadTie string `json:"longest_road_tie"`
	BankShortage   string `json:"bank_shortage"`
	RobberOnDesert bool   `json:"robber_on_desert"`
	// RequireBreakdown: every score sheet line gives the VP breakdown.
	RequireBreakdown bool          `json:"require_breakdown,omitempty"`
	Colors           []string      `json:"colors"`
	Layout           LayoutFile    `json:"layout"`
	StandingsOrder   []string      `json:"standings_order"`
	PlacementPoints  []int         `json:"placement_points"`
	Bye              ByeFile       `json:"bye"`
	Ladder           []string      `json:"ladder"`
	EscalateFrom     string        `json:"escalate_from"`
	DeductVP         int           `json:"deduct_vp"`
	Penalties        []OffenceFile `json:"penalties"`
	// Board, Time and Event came after the first rulesets: a file without
	// them keeps the rulebook's behaviour (referee.Ruleset.WithDefaults).
	Board *BoardFile `json:"board,omitempty"`
	Time  *TimeFile  `json:"time,omitempty"`
	Event *EventFile `json:"event,omitempty"`
	// Disqualification is a disqualification's effect on the games played
	// ("keep", "remove" or "void"); a file without it keeps them.
	Disqualification string `json:"disqualification,omitempty"`
	// Teams are the settings of a team event; a file without them takes
	// teams of 4 to 6, 4 playing, ranked by points then VP.
	Teams *TeamsFile `json:"teams,omitempty"`
}

// TeamsFile is the file shape of referee.TeamRules.
type TeamsFile struct {
	MinSize int      `json:"min_size"`
	MaxSize int      `json:"max_size"`
	Plays   int      `json:"plays"`
	Order   []string `json:"order"`
	// IndividualStandings says whether the players' own standings are
	// shown beside the teams' (true when left out).
	IndividualStandings *bool `json:"individual_standings,omitempty"`
}

// BoardFile is the file shape of referee.BoardSetup.
type BoardFile struct {
	Method  string   `json:"method"`
	Corners []string `json:"corners,omitempty"`
	Chips   []int    `json:"chips,omitempty"`
}

// TimeFile is the file shape of referee.Timing; the play phase is
// game_minutes.
type TimeFile struct {
	PlacementSecondsPerSettlement int `json:"placement_seconds_per_settlement"`
	FinalTurnSeconds              int `json:"final_turn_seconds"`
	EndNoticeMinutes              int `json:"end_notice_minutes"`
}

// EventFile is the file shape of referee.EventFormat.
type EventFile struct {
	Rounds    []string `json:"rounds"`
	Final     string   `json:"final"`
	Cut       []int    `json:"cut,omitempty"`
	FinalTies string   `json:"final_ties"`
	// SchedulePriority came after the event section: a file without it
	// spreads 3-player tables first (referee.SpreadFirst).
	SchedulePriority string `json:"schedule_priority,omitempty"`
}

// LayoutFile is the file shape of referee.Layout.
type LayoutFile struct {
	Terrain []string `json:"terrain"`
	Harbors []string `json:"harbors"`
}

// ByeFile is the file shape of referee.Bye.
type ByeFile struct {
	Firsts int     `json:"firsts"`
	VP     int     `json:"vp"`
	Share  float64 `json:"share"`
	Points int     `json:"points"`
	Played bool    `json:"played"`
}

// OffenceFile is the file shape of referee.Offence.
type OffenceFile struct {
	Code      string `json:"code"`
	Section   string `json:"section"`
	NameJA    string `json:"name_ja"`
	NameEN    string `json:"name_en"`
	Level     string `json:"level"`
	Remedy    string `json:"remedy,omitempty"`
	Escalates bool   `json:"escalates"`
}

// ParseRuleset decodes and validates a ruleset file. Errors name the field
// at fault (a *referee.FieldError for a bad value).
func ParseRuleset(r io.Reader) (referee.Ruleset, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return referee.Ruleset{}, fmt.Errorf("read ruleset: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f RulesetFile
	if err := dec.Decode(&f); err != nil {
		return referee.Ruleset{}, describeJSONError(err)
	}
	// More would miss a stray "]" or "}": only the end may follow.
	if _, err := dec.Token(); err != io.EOF {
		return referee.Ruleset{}, errors.New("ruleset: unexpected data after the JSON object")
	}
	rs, err := f.toRuleset()
	if err != nil {
		return referee.Ruleset{}, err
	}
	if err := rs.Validate(); err != nil {
		return referee.Ruleset{}, err
	}
	return rs, nil
}

func describeJSONError(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var fe *referee.FieldError
	switch {
	case errors.As(err, &fe):
		return fe
	case errors.As(err, &te):
		return &referee.FieldError{Field: te.Field, Msg: fmt.Sprintf("want a %s, got a JSON %s", te.Type, te.Value)}
	case errors.As(err, &se):
		return fmt.Errorf("ruleset: invalid JSON at byte %d: %w", se.Offset, err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &referee.FieldError{Field: field, Msg: "unknown setting"}
	}
	return fmt.Errorf("ruleset: %w", err)
}

// UnmarshalJSON decodes the board settings, naming an unknown one by its path.
func (f *BoardFile) UnmarshalJSON(data []byte) error {
	type plain BoardFile
	return decodeSection(data, "board", (*plain)(f))
}

// UnmarshalJSON decodes the time settings, naming an unknown one by its path.
func (f *TimeFile) UnmarshalJSON(data []byte) error {
	type plain TimeFile
	return decodeSection(data, "time", (*plain)(f))
}

// UnmarshalJSON decodes the event settings, naming an unknown one by its path.
func (f *EventFile) UnmarshalJSON(data []byte) error {
	type plain EventFile
	return decodeSection(data, "event", (*plain)(f))
}

// decodeSection decodes one object of a ruleset file strictly; its errors
// name the field with the section's path, as "event.cut".
func decodeSection(data []byte, section string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var fe *referee.FieldError
	if errors.As(describeJSONError(err), &fe) {
		return &referee.FieldError{Field: section + "." + fe.Field, Msg: fe.Msg}
	}
	return &referee.FieldError{Field: section, Msg: err.Error()}
}

func (f RulesetFile) toRuleset() (referee.Ruleset, error) {
	rs := referee.Ruleset{
		Name:             f.Name,
		Version:          f.Version,
		Description:      f.Description,
		GameMinutes:      f.GameMinutes,
		VPCap:            f.VPCap,
		WinVP:            f.WinVP,
		Dango:            referee.DangoPolicy(f.Dango),
		LongestRoadTie:   referee.LongestRoadTiePolicy(f.LongestRoadTie),
		BankShortage:     referee.BankShortagePolicy(f.BankShortage),
		RobberOnDesert:   f.RobberOnDesert,
		RequireBreakdown: f.RequireBreakdown,
		Colors:           convert[referee.Color](f.Colors),
		StandingsOrder:   convert[referee.StandingsKey](f.StandingsOrder),
		PlacementPoints:  slices.Clone(f.PlacementPoints),
		Bye:              referee.Bye(f.Bye),
		Ladder:           convert[referee.Level](f.Ladder),
		EscalateFrom:     referee.Level(f.EscalateFrom),
		DeductVP:         f.DeductVP,
		Disqualification: referee.DQEffect(f.Disqualification),
	}
	if len(f.Layout.Terrain) != len(rs.Layout.Terrain) {
		return rs, &referee.FieldError{Field: "layout.terrain", Msg: fmt.Sprintf("must list %d hexes, got %d", len(rs.Layout.Terrain), len(f.Layout.Terrain))}
	}
	if len(f.Layout.Harbors) != len(rs.Layout.Harbors) {
		return rs, &referee.FieldError{Field: "layout.harbors", Msg: fmt.Sprintf("must list %d harbour sites, got %d", len(rs.Layout.Harbors), len(f.Layout.Harbors))}
	}
	for i, t := range f.Layout.Terrain {
		rs.Layout.Terrain[i] = referee.Terrain(t)
	}
	for i, h := range f.Layout.Harbors {
		rs.Layout.Harbors[i] = referee.HarborKind(h)
	}
	for _, o := range f.Penalties {
		rs.Penalties = append(rs.Penalties, referee.Offence{
			Code: o.Code, Section: o.Section, NameJA: o.NameJA, NameEN: o.NameEN,
			Level: referee.Level(o.Level), Remedy: o.Remedy, Escalates: o.Escalates,
		})
	}
	if b := f.Board; b != nil {
		if b.Method == "" {
			return rs, &referee.FieldError{Field: "board.method", Msg: fmt.Sprintf("must name the set-up method (one of %v)", referee.BoardMethods)}
		}
		rs.Board.Method = referee.BoardMethod(b.Method)
		if b.Corners != nil {
			if len(b.Corners) != len(rs.Board.Corners) {
				return rs, &referee.FieldError{Field: "board.corners", Msg: fmt.Sprintf("must list the %d corners in the order of the numbers 1 to 6, got %d", len(rs.Board.Corners), len(b.Corners))}
			}
			for i, c := range b.Corners {
				rs.Board.Corners[i] = referee.Corner(c)
			}
		}
		if b.Chips != nil {
			if len(b.Chips) != len(rs.Board.Chips) {
				return rs, &referee.FieldError{Field: "board.chips", Msg: fmt.Sprintf("must list the %d lettered chips A to R, got %d", len(rs.Board.Chips), len(b.Chips))}
			}
			rs.Board.Chips = [18]int(b.Chips)
		}
	}
	if t := f.Time; t != nil {
		rs.Timing = referee.Timing{PlacementSeconds: t.PlacementSecondsPerSettlement, FinalTurnSeconds: t.FinalTurnSeconds, EndNoticeMinutes: t.EndNoticeMinutes}
	}
	if e := f.Event; e != nil {
		if len(e.Rounds) == 0 {
			return rs, &referee.FieldError{Field: "event.rounds", Msg: "must list the format of round 1 at least (the last repeats)"}
		}
		if e.Final == "" {
			return rs, &referee.FieldError{Field: "event.final", Msg: fmt.Sprintf("must name the final format (one of %v)", referee.FinalFormats)}
		}
		if e.FinalTies == "" {
			return rs, &referee.FieldError{Field: "event.final_ties", Msg: fmt.Sprintf("must say how final ties break (%q or %q)", referee.FinalTiesShared, referee.FinalTiesStandings)}
		}
		rs.Event = referee.EventFormat{
			Rounds: convert[referee.RoundFormat](e.Rounds), Final: referee.FinalFormat(e.Final),
			Cut: slices.Clone(e.Cut), FinalTies: referee.FinalTies(e.FinalTies),
			SchedulePriority: referee.SchedulePriority(e.SchedulePriority),
		}
	}
	if t := f.Teams; t != nil {
		rs.Teams = referee.TeamRules{MinSize: t.MinSize, MaxSize: t.MaxSize, Plays: t.Plays, Order: convert[referee.StandingsKey](t.Order)}
		rs.Teams.HideIndividual = t.IndividualStandings != nil && !*t.IndividualStandings
	}
	return rs.WithDefaults(), nil
}

func convert[T ~string](in []string) []T {
	out := make([]T, len(in))
	for i, s := range in {
		out[i] = T(s)
	}
	return out
}

// Rulesets holds the rulesets a server offers, by name.
type Rulesets struct {
	byName map[string]referee.Ruleset
	names  []string
}

// LoadRulesets returns the built-in presets plus the ruleset files at extra
// (a file given with --ruleset replaces a preset of the same name).
func LoadRulesets(extra ...string) (*Rulesets, error) {
	rs := &Rulesets{byName: map[string]referee.Ruleset{}}
	entries, err := fs.ReadDir(builtin, "rulesets")
	if err != nil {
		return nil, fmt.Errorf("read built-in rulesets: %w", err)
	}
	for _, e := range entries {
		f, err := builtin.Open(path.Join("rulesets", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("open built-in ruleset %s: %w", e.Name(), err)
		}
		r, err := ParseRuleset(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("built-in ruleset %s: %w", e.Name(), err)
		}
		rs.add(r)
	}
	for _, p := range extra {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("open ruleset: %w", err)
		}
		r, err := ParseRuleset(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("ruleset %s: %w", p, err)
		}
		rs.add(r)
	}
	return rs, nil
}

func (rs *Rulesets) add(r referee.Ruleset) {
	if _, ok := rs.byName[r.Name]; !ok {
		rs.names = append(rs.names, r.Name)
		slices.Sort(rs.names)
	}
	rs.byName[r.Name] = r
}

// Get returns the ruleset with the given name.
func (rs *Rulesets) Get(name string) (referee.Ruleset, bool) {
	r, ok := rs.byName[name]
	return r, ok
}

// All returns every ruleset, sorted by name.
func (rs *Rulesets) All() []referee.Ruleset {
	out := make([]referee.Ruleset, 0, len(rs.names))
	for _, n := range rs.names {
		out = append(out, rs.byName[n])
	}
	return out
}

// FileOf returns the file shape of rs, for writing it out or serving it.
func FileOf(rs referee.Ruleset) RulesetFile {
	f := RulesetFile{
		Name:             rs.Name,
		Version:          rs.Version,
		Description:      rs.Description,
		GameMinutes:      rs.GameMinutes,
		VPCap:            rs.VPCap,
		WinVP:            rs.WinVP,
		Dango:            string(rs.Dango),
		LongestRoadTie:   string(rs.LongestRoadTie),
		BankShortage:     string(rs.BankShortage),
		RobberOnDesert:   rs.RobberOnDesert,
		RequireBreakdown: rs.RequireBreakdown,
		Colors:           strs(rs.Colors),
		StandingsOrder:   strs(rs.StandingsOrder),
		PlacementPoints:  slices.Clone(rs.PlacementPoints),
		Bye:              ByeFile(rs.Bye),
		Ladder:           strs(rs.Ladder),
		EscalateFrom:     string(rs.EscalateFrom),
		DeductVP:         rs.DeductVP,
		Disqualification: string(rs.Disqualification),
		Layout:           LayoutFile{Terrain: strs(rs.Layout.Terrain[:]), Harbors: strs(rs.Layout.Harbors[:])},
	}
	for _, o := range rs.Penalties {
		f.Penalties = append(f.Penalties, OffenceFile{
			Code: o.Code, Section: o.Section, NameJA: o.NameJA, NameEN: o.NameEN,
			Level: string(o.Level), Remedy: o.Remedy, Escalates: o.Escalates,
		})
	}
	rs = rs.WithDefaults()
	f.Board = &BoardFile{Method: string(rs.Board.Method)}
	if rs.Board.Method == referee.SpiralBoard {
		f.Board.Corners = strs(rs.Board.Corners[:])
		f.Board.Chips = slices.Clone(rs.Board.Chips[:])
	}
	f.Time = &TimeFile{
		PlacementSecondsPerSettlement: rs.Timing.PlacementSeconds,
		FinalTurnSeconds:              rs.Timing.FinalTurnSeconds,
		EndNoticeMinutes:              rs.Timing.EndNoticeMinutes,
	}
	f.Event = &EventFile{
		Rounds: strs(rs.Event.Rounds), Final: string(rs.Event.Final),
		Cut: slices.Clone(rs.Event.Cut), FinalTies: string(rs.Event.FinalTies),
		SchedulePriority: string(rs.Event.SchedulePriority),
	}
	// A ruleset with the default team settings leaves them out.
	if t := rs.WithDefaults().Teams; !reflect.DeepEqual(t, (referee.Ruleset{PlacementPoints: rs.PlacementPoints}).WithDefaults().Teams) {
		shown := !t.HideIndividual
		f.Teams = &TeamsFile{MinSize: t.MinSize, MaxSize: t.MaxSize, Plays: t.Plays, Order: strs(t.Order), IndividualStandings: &shown}
	}
	return f
}

func strs[T ~string](in []T) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = string(s)
	}
	return out
}
