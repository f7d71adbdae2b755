package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// teamRow is a team of a team event (schema version 22).
type teamRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID int64          `gorm:"not null;index"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Name         string         `gorm:"not null"`
	CreatedAt    time.Time
}

func (teamRow) TableName() string { return "teams" }

// teamMemberRow is a player of a team: one team at most (the unique index
// is the race guard of two judges registering one player in two teams).
type teamMemberRow struct {
	ID       int64      `gorm:"primaryKey"`
	TeamID   int64      `gorm:"not null;index"`
	Team     *teamRow   `gorm:"constraint:OnDelete:CASCADE"`
	PlayerID int64      `gorm:"not null;uniqueIndex"`
	Player   *playerRow `gorm:"constraint:OnDelete:CASCADE"`
	Position int        `gorm:"not null"`
}

func (teamMemberRow) TableName() string { return "team_members" }

// lineupRow is a player a team named for a round.
type lineupRow struct {
	ID       int64      `gorm:"primaryKey"`
	TeamID   int64      `gorm:"not null;index:idx_lineup_round,priority:1"`
	Team     *teamRow   `gorm:"constraint:OnDelete:CASCADE"`
	Round    int        `gorm:"not null;index:idx_lineup_round,priority:2"`
	PlayerID int64      `gorm:"not null;index"`
	Player   *playerRow `gorm:"constraint:OnDelete:CASCADE"`
	Position int        `gorm:"not null"`
	Judge    string     `gorm:"not null"`
	At       time.Time  `gorm:"not null"`
}

func (lineupRow) TableName() string { return "team_lineups" }

// AddTeam implements tournament.Store.
func (s *Store) AddTeam(ctx context.Context, t *tournament.Team, c tournament.Change) error {
	return s.tx(ctx, "add team", func(tx *Tx) error {
		if err := tx.lock(t.TournamentID); err != nil {
			return err
		}
		var names []string
		if err := tx.Model(&teamRow{}).Where("tournament_id = ?", t.TournamentID).Pluck("name", &names).Error; err != nil {
			return err
		}
		for _, n := range names {
			if strings.EqualFold(n, t.Name) {
				return tournament.Conflict("team-name-taken", fmt.Sprintf("the tournament has a team %q", n), map[string]any{"Team": n})
			}
		}
		var taken []struct{ Player, Team string }
		err := tx.Table("team_members").Select("players.name AS player, teams.name AS team").
			Joins("JOIN players ON players.id = team_members.player_id").Joins("JOIN teams ON teams.id = team_members.team_id").
			Where("team_members.player_id IN ?", t.Players).Scan(&taken).Error
		if err != nil {
			return err
		}
		if len(taken) > 0 {
			return tournament.Conflict("player-in-team", fmt.Sprintf("%s plays for team %s", taken[0].Player, taken[0].Team),
				map[string]any{"Player": taken[0].Player, "Team": taken[0].Team})
		}
		var in int64
		if err := tx.Model(&playerRow{}).Where("tournament_id = ? AND id IN ?", t.TournamentID, t.Players).Count(&in).Error; err != nil {
			return err
		}
		if int(in) != len(t.Players) {
			return fmt.Errorf("%w: a player of team %q is not in tournament %d", tournament.ErrInvalid, t.Name, t.TournamentID)
		}
		row := teamRow{TournamentID: t.TournamentID, Name: t.Name, CreatedAt: t.CreatedAt}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		t.ID = row.ID
		members := make([]teamMemberRow, len(t.Players))
		for i, p := range t.Players {
			members[i] = teamMemberRow{TeamID: row.ID, PlayerID: p, Position: i + 1}
		}
		if err := tx.Create(&members).Error; err != nil {
			return err
		}
		return tx.audit(t.TournamentID, c)
	})
}

// SetLineup implements tournament.Store.
func (s *Store) SetLineup(ctx context.Context, l *tournament.Lineup, from tournament.Progress, c tournament.Change) error {
	return s.tx(ctx, "set line-up", func(tx *Tx) error {
		var team teamRow
		if err := tx.Take(&team, l.TeamID).Error; err != nil {
			return err
		}
		if err := tx.lock(team.TournamentID); err != nil {
			return err
		}
		if err := checkProgress(tx.DB, team.TournamentID, &from); err != nil {
			return err
		}
		if err := tx.Where("team_id = ? AND round = ?", l.TeamID, l.Round).Delete(&lineupRow{}).Error; err != nil {
			return err
		}
		rows := make([]lineupRow, len(l.Players))
		for i, p := range l.Players {
			rows[i] = lineupRow{TeamID: l.TeamID, Round: l.Round, PlayerID: p, Position: i + 1, Judge: l.Judge, At: l.At.UTC()}
		}
		if err := tx.Create(&rows).Error; err != nil {
			return err
		}
		return tx.audit(team.TournamentID, c)
	})
}

// teamsOf reads a tournament's teams with their members and line-ups.
func teamsOf(db *gorm.DB, tournamentID int64) ([]tournament.Team, error) {
	var rows []teamRow
	if err := db.Where("tournament_id = ?", tournamentID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	in := db.Model(&teamRow{}).Select("id").Where("tournament_id = ?", tournamentID)
	var members []teamMemberRow
	if err := db.Where("team_id IN (?)", in).Order("team_id, position").Find(&members).Error; err != nil {
		return nil, err
	}
	var lineups []lineupRow
	if err := db.Where("team_id IN (?)", in).Order("team_id, round, position").Find(&lineups).Error; err != nil {
		return nil, err
	}
	out := make([]tournament.Team, len(rows))
	at := make(map[int64]int, len(rows))
	for i, r := range rows {
		out[i] = tournament.Team{ID: r.ID, TournamentID: r.TournamentID, Name: r.Name, CreatedAt: r.CreatedAt}
		at[r.ID] = i
	}
	for _, m := range members {
		t := &out[at[m.TeamID]]
		t.Players = append(t.Players, m.PlayerID)
	}
	for _, l := range lineups {
		t := &out[at[l.TeamID]]
		if n := len(t.Lineups); n == 0 || t.Lineups[n-1].Round != l.Round {
			t.Lineups = append(t.Lineups, tournament.Lineup{TeamID: l.TeamID, Round: l.Round, Judge: l.Judge, At: l.At})
		}
		last := &t.Lineups[len(t.Lineups)-1]
		last.Players = append(last.Players, l.PlayerID)
	}
	return out, nil
}
