package tournament

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// Labels returns the label every page shows a tournament's players by,
// keyed by player ID, so that players of one name are told apart wherever
// a judge or a player picks or reads one of them (docs/glossary.md, 同じ名前の参加者):
// the name alone when no other player has it; for players of one name,
// folded as the duplicate check folds it (importKey), the name with the
// reading, 田中（たなか いちろう）; and when their readings are the same
// too, or missing, with the player number as well, 田中（たなか いちろう・12）
// or 田中（12）. The labels are the same in both languages: the name and
// its reading are Japanese text. The API's names stay the names alone.
func Labels(players []Player) map[int64]string {
	byName := map[string]int{}
	byReading := map[string]int{}
	for _, p := range players {
		byName[FoldReading(p.Name)]++
		byReading[importKey(p.Name, p.Kana)]++
	}
	out := make(map[int64]string, len(players))
	for _, p := range players {
		out[p.ID] = p.Name
		if byName[FoldReading(p.Name)] < 2 {
			continue
		}
		var tag []string
		if kana := Hiragana(strings.TrimSpace(p.Kana)); kana != "" {
			tag = append(tag, kana)
		}
		if kana := FoldReading(p.Kana); kana == "" || byReading[importKey(p.Name, p.Kana)] > 1 {
			tag = append(tag, fmt.Sprint(p.ID))
		}
		out[p.ID] = p.Name + "（" + strings.Join(tag, "・") + "）"
	}
	return out
}

// labelIn is how a message names player p among the tournament's players
// all: their label (Labels), so that players of one name read apart.
func labelIn(all []Player, p Player) string {
	if l, ok := Labels(all)[p.ID]; ok {
		return l
	}
	return p.Name
}

// label is labelIn over the event's players.
func (e record) label(p Player) string { return labelIn(e.players, p) }

// relabel names the player a refusal names (its "Player", p's name) by
// their label among the tournament's players, as a message does.
func (s *Service) relabel(ctx context.Context, p Player, err error) error {
	var v *referee.Violation
	if !errors.As(err, &v) || v.Args["Player"] != p.Name {
		return err
	}
	if all, lerr := s.store.Players(ctx, p.TournamentID); lerr == nil {
		v.Args["Player"] = labelIn(all, p)
	}
	return err
}

// ReadingBeside is the reading a page shows beside a player's label: the
// reading in hiragana, or none when the label already carries it, as the
// label of a player sharing their name does.
func ReadingBeside(label, name, kana string) string {
	if label != name {
		return ""
	}
	return Hiragana(kana)
}
