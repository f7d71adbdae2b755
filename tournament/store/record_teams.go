package store

import (
	"github.com/catanjudge/catanjudge/tournament"
)

// teams writes a team event's teams of a record, with their members and
// the line-ups they named, the players by their new IDs. A player who is
// none of the record's is left for ImportRecord to refuse (im.bad).
func (im *importer) teams(teams []tournament.Team) error {
	for _, t := range teams {
		row := teamRow{TournamentID: im.tid, Name: t.Name, CreatedAt: t.CreatedAt.UTC()}
		if t.CreatedAt.IsZero() {
			row.CreatedAt = im.at.UTC()
		}
		if err := im.tx.Omit("Tournament").Create(&row).Error; err != nil {
			return err
		}
		var members []teamMemberRow
		for i, p := range t.Players {
			members = append(members, teamMemberRow{TeamID: row.ID, PlayerID: im.player(p), Position: i + 1})
		}
		var lineups []lineupRow
		for _, l := range t.Lineups {
			at := l.At
			if at.IsZero() {
				at = im.at
			}
			for i, p := range l.Players {
				lineups = append(lineups, lineupRow{TeamID: row.ID, Round: l.Round, PlayerID: im.player(p), Position: i + 1, Judge: l.Judge, At: at.UTC()})
			}
		}
		if im.bad != 0 {
			return nil // ImportRecord refuses the record, naming the player
		}
		if len(members) > 0 {
			if err := im.tx.Omit("Team", "Player").Create(&members).Error; err != nil {
				return err
			}
		}
		if len(lineups) > 0 {
			if err := im.tx.Omit("Team", "Player").Create(&lineups).Error; err != nil {
				return err
			}
		}
	}
	return nil
}
