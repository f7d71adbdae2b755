package export

import (
	"fmt"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// The team standings of a team event (issue 30).
var (
	sheetTeams   = text{"チーム順位表", "Team standings"}
	hTeam        = text{"チーム", "Team"}
	hMembers     = text{"メンバー（個人順位）", "Members (own rank)"}
	nTeamOrder   = text{"チームの順位の決め方: メンバーの%s（すべて同じなら同順位）。", "Teams ranked by their members' %s (equal on all: a shared rank). "}
	teamKeyWords = map[referee.StandingsKey]text{
		referee.KeyPoints: {"順位点の合計", "placement points"},
		referee.KeyVP:     {"勝利点の合計", "VP"},
		referee.KeyFirsts: {"1位の回数の合計", "1st places"},
		referee.KeyShare:  {"勝利点シェアの合計", "VP shares"},
	}
	memberRank = text{"%s（%d位）", "%s (%d)"}
)

// teamsTable is the team standings: each team's sums, and its members
// with their own ranks unless the ruleset hides the players' standings.
func teamsTable(d tournament.ExportData, lang string) table {
	rules := d.Tournament.Ruleset.WithDefaults().Teams
	cols := []text{hRank, hTied, hTeam, hPoints, hTotalVP, hFirsts, hShare, hPlayed}
	if !rules.HideIndividual {
		cols = append(cols, hMembers)
	}
	st := d.Teams
	sharing := map[int]int{}
	for _, s := range st {
		sharing[s.Rank]++
	}
	order := wordList(teamKeyWords, rules.Order, stepSep, lang)
	wrap := make([]bool, len(cols))
	wrap[len(cols)-1] = !rules.HideIndividual
	return table{name: sheetTeams, note: fmt.Sprintf(nTeamOrder.in(lang), order), cols: cols, wrap: wrap, n: len(st), row: func(i int, v []any) {
		s := st[i]
		v[0] = s.Rank
		if n := sharing[s.Rank]; n > 1 {
			v[1] = tied(n)
		}
		v[2], v[3], v[4], v[5], v[6], v[7] = s.Name, s.Points, s.VP, s.Firsts, percent(s.Share), s.Played
		if !rules.HideIndividual {
			names := make([]string, len(s.Players))
			for k, p := range s.Players {
				names[k] = fmt.Sprintf(memberRank.in(lang), p.Name, p.Rank)
			}
			v[8] = strings.Join(names, listSep.in(lang))
		}
	}}
}
