package web

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Who of the staff may do what (issue 27, docs/security.md's roles table):
// the one place the roles are checked. Every route of the staff's groups
// passes the staff guard (staffGuard) with the role roles names for it: a
// read is any account's unless roles says otherwise, and a route that
// changes state and is missing here is the head's alone, so that a new
// route is never open to more of the staff than it was meant to be (a
// test walks the route table to find any such route).
const (
	head        = tournament.RoleHead
	judgeRole   = tournament.RoleJudge
	scorekeeper = tournament.RoleScorekeeper
)

// roles are the roles the staff's routes need, by method and path.
var roles = map[string]tournament.Role{
	// The head's: staff, tournament settings, closing, archiving and
	// deleting, backups, the registry's merges, logging everyone out.
	http.MethodPost + " " + route.TournamentsAPI:   head,
	http.MethodPatch + " " + route.TournamentAPI:   head,
	http.MethodDelete + " " + route.TournamentAPI:  head,
	http.MethodPost + " " + route.CloseAPI:         head,
	http.MethodPost + " " + route.ReopenAPI:        head,
	http.MethodPost + " " + route.ArchiveAPI:       head,
	http.MethodPost + " " + route.UnarchiveAPI:     head,
	http.MethodPost + " " + route.MergeAPI:         head,
	http.MethodGet + " " + route.StaffAPI:          head,
	http.MethodPost + " " + route.StaffAPI:         head,
	http.MethodPatch + " " + route.StaffMemberAPI:  head,
	http.MethodPost + " " + route.StaffPasswordAPI: head,
	http.MethodPost + " " + route.Create:           head,
	http.MethodPost + " " + route.Tournament:       head,
	http.MethodPost + " " + route.Close:            head,
	http.MethodPost + " " + route.Reopen:           head,
	http.MethodPost + " " + route.Archive:          head,
	http.MethodPost + " " + route.Unarchive:        head,
	http.MethodPost + " " + route.DeleteTournament: head,
	http.MethodPost + " " + route.Backup:           head,
	http.MethodPost + " " + route.PersonMerge:      head,
	http.MethodPost + " " + route.LogoutAll:        head,
	http.MethodGet + " " + route.Staff:             head,
	http.MethodPost + " " + route.Staff:            head,
	http.MethodPost + " " + route.StaffMember:      head,
	http.MethodPost + " " + route.StaffPassword:    head,
	http.MethodPost + " " + route.PlayersAPI:       judgeRole,
	http.MethodDelete + " " + route.PlayerAPI:      judgeRole,
	http.MethodPost + " " + route.DropAPI:          judgeRole,
	http.MethodPost + " " + route.CheckInAPI:       judgeRole,
	http.MethodPost + " " + route.CodeAPI:          judgeRole,
	http.MethodPost + " " + route.RoundsAPI:        judgeRole,
	http.MethodPost + " " + route.FinalAPI:         judgeRole,
	http.MethodPost + " " + route.RulingsAPI:       judgeRole,
	http.MethodPost + " " + route.PenaltiesAPI:     judgeRole,
	http.MethodPost + " " + route.RevokeAPI:        judgeRole,
	http.MethodPut + " " + route.PersonAPI:         judgeRole,
	http.MethodPost + " " + route.PersonArchiveAPI: judgeRole,
	http.MethodPost + " " + route.PersonUnarchAPI:  judgeRole,
	http.MethodPost + " " + route.CallClaimAPI:     judgeRole,
	http.MethodPost + " " + route.CallEscalateAPI:  judgeRole,
	http.MethodPost + " " + route.CallResolveAPI:   judgeRole,
	http.MethodPost + " " + route.DeviceAPI:        judgeRole,
	http.MethodDelete + " " + route.DeviceAPI:      judgeRole,
	http.MethodPost + " " + route.Players:          judgeRole,
	http.MethodGet + " " + route.Import:            judgeRole,
	http.MethodPost + " " + route.Import:           judgeRole,
	http.MethodPost + " " + route.ImportConfirm:    judgeRole,
	http.MethodPost + " " + route.Player:           judgeRole,
	http.MethodPost + " " + route.CheckIn:          judgeRole,
	http.MethodPost + " " + route.CheckInMany:      judgeRole,
	http.MethodPost + " " + route.Drop:             judgeRole,
	http.MethodPost + " " + route.Reinstate:        judgeRole,
	http.MethodPost + " " + route.Delete:           judgeRole,
	http.MethodPost + " " + route.Code:             judgeRole,
	http.MethodGet + " " + route.Cards:             judgeRole, // the players' codes in clear
	http.MethodPost + " " + route.Rounds:           judgeRole,
	http.MethodPost + " " + route.Repair:           judgeRole,
	http.MethodPost + " " + route.Swap:             judgeRole,
	http.MethodPost + " " + route.Move:             judgeRole,
	http.MethodPost + " " + route.Ruling:           judgeRole,
	http.MethodPost + " " + route.Penalties:        judgeRole,
	http.MethodPost + " " + route.Revoke:           judgeRole,
	http.MethodPost + " " + route.Final:            judgeRole,
	http.MethodPost + " " + route.Person:           judgeRole,
	http.MethodPost + " " + route.PersonArchive:    judgeRole,
	http.MethodPost + " " + route.PersonUnarchive:  judgeRole,
	http.MethodPost + " " + route.CallClaim:        judgeRole,
	http.MethodPost + " " + route.CallEscalate:     judgeRole,
	http.MethodPost + " " + route.CallResolve:      judgeRole,
	http.MethodPost + " " + route.Device:           judgeRole,
	http.MethodPost + " " + route.DeviceRevoke:     judgeRole,
	// Late entries, substitutes and no-shows (issue 30): the judges'.
	http.MethodPost + " " + route.LateAPI:       judgeRole,
	http.MethodPost + " " + route.SubstituteAPI: judgeRole,
	http.MethodPost + " " + route.SitInAPI:      judgeRole,
	http.MethodPost + " " + route.NoShowAPI:     judgeRole,
	http.MethodPost + " " + route.Late:          judgeRole,
	http.MethodPost + " " + route.Substitute:    judgeRole,
	http.MethodPost + " " + route.SitIn:         judgeRole,
	http.MethodPost + " " + route.NoShow:        judgeRole,
	// Team events (issue 30): registering a team is registering players,
	// and naming a round's line-up is pairing: the judges'.
	http.MethodPost + " " + route.TeamsAPI:         judgeRole,
	http.MethodPut + " " + route.LineupAPI:         judgeRole,
	http.MethodPost + " " + route.Teams:            judgeRole,
	http.MethodPost + " " + route.TeamPage:         judgeRole,
	http.MethodPost + " " + route.SeatingAPI:       scorekeeper,
	http.MethodPost + " " + route.BoardAPI:         scorekeeper,
	http.MethodPut + " " + route.ResultAPI:         scorekeeper,
	http.MethodPost + " " + route.ConfirmResultAPI: scorekeeper,
	http.MethodPost + " " + route.AcceptAPI:        scorekeeper,
	http.MethodPost + " " + route.GameMovesAPI:     scorekeeper,
	http.MethodDelete + " " + route.GameMoveAPI:    scorekeeper,
	http.MethodPost + " " + route.GameResultAPI:    scorekeeper,
	http.MethodPost + " " + route.ClockAPI:         scorekeeper,
	http.MethodDelete + " " + route.SessionAPI:     scorekeeper,
	http.MethodPost + " " + route.Logout:           scorekeeper,
	http.MethodPost + " " + route.Clock:            scorekeeper,
	http.MethodPost + " " + route.ReportAccept:     scorekeeper,
	http.MethodPost + " " + route.Seating:          scorekeeper,
	http.MethodPost + " " + route.Board:            scorekeeper,
	http.MethodPost + " " + route.Deal:             scorekeeper,
	http.MethodPost + " " + route.Score:            scorekeeper,
	http.MethodPost + " " + route.Confirm:          scorekeeper,
	http.MethodPost + " " + route.Turns:            scorekeeper,
	http.MethodPost + " " + route.Record:           scorekeeper,
	// The routes added beside the staff's: disqualifying (a penalty),
	// undoing and restoring a round (pairing: once its tables have records,
	// undoing it is the head's alone, as referee.CheckUndoRound says with
	// the judge's role), making the final again, the cards printed and a
	// person's real name (players) are a judge's.
	http.MethodPost + " " + route.DisqualifyAPI:   judgeRole,
	http.MethodGet + " " + route.Disqualify:       judgeRole,
	http.MethodPost + " " + route.Disqualify:      judgeRole,
	http.MethodDelete + " " + route.RoundAPI:      judgeRole,
	http.MethodPost + " " + route.RestoreRoundAPI: judgeRole,
	http.MethodPost + " " + route.UndoRound:       judgeRole,
	http.MethodPost + " " + route.RestoreRound:    judgeRole,
	http.MethodPost + " " + route.RemakeFinalAPI:  judgeRole,
	http.MethodPost + " " + route.RemakeFinal:     judgeRole,
	http.MethodPost + " " + route.CardsPrinted:    judgeRole,
	http.MethodPut + " " + route.PersonRealName:   judgeRole,
	// A judge's tool at the table; the import of past events, a form alone, the head's as its POST is.
	http.MethodGet + " " + route.Ruling:     judgeRole,
	http.MethodGet + " " + route.PastEvents: head,
	// The record file (issue 28: "(judge)"): the whole event with the
	// judges' notes and the member numbers, a judge's and the head's.
	http.MethodGet + " " + route.RecordAPI: judgeRole,
}

// devices are the console's routes a table device opens, for its own
// table only (auth.DeviceUse).
var devices = map[string]auth.DeviceUse{
	http.MethodGet + " " + route.Turns:   auth.DeviceTurns,
	http.MethodPost + " " + route.Turns:  auth.DeviceTurns,
	http.MethodGet + " " + route.Record:  auth.DeviceRecord,
	http.MethodPost + " " + route.Record: auth.DeviceRecord,
}

// need is the role a route of the staff needs: roles', else any account
// for a read, else the head's.
func need(rt routeEntry) tournament.Role {
	if r, ok := roles[rt.Method+" "+rt.Path]; ok {
		return r
	}
	if rt.Method == http.MethodGet {
		return scorekeeper
	}
	return head
}

// staffGuard is the guard of a route of the staff: the JSON API's, or the
// console's, with the role it needs and the table device's use of it.
func (s *site) staffGuard(rt routeEntry) gin.HandlerFunc {
	if strings.HasPrefix(rt.Path, route.API+"/") {
		return s.auth.StaffAPI(need(rt))
	}
	return s.auth.StaffPages(need(rt), devices[rt.Method+" "+rt.Path])
}

// staffGroups are the routes of issue 27: staff accounts and sessions, the
// two-person rule, judge calls, the round page's live parts and table
// devices.
func (s *site) staffGroups() []group {
	a, c, k := s.api, s.console, s.kiosk
	page := s.pages.Handle
	return []group{
		// A script's login: bounded as the console's is.
		{"the session API", public, []gin.HandlerFunc{s.limitLogins}, s.failJSON, []routeEntry{
			{Method: http.MethodPost, Path: route.SessionAPI, Handler: a.JSON(a.CreateSession), Body: maxLoginForm},
		}},
		{"the staff's API", judge, nil, s.failJSON, []routeEntry{
			{Method: http.MethodDelete, Path: route.SessionAPI, Handler: a.JSON(a.EndSession)},
			{Method: http.MethodGet, Path: route.StaffAPI, Handler: a.JSON(a.ListStaff)},
			{Method: http.MethodPost, Path: route.StaffAPI, Handler: a.JSON(a.AddStaff)},
			{Method: http.MethodPatch, Path: route.StaffMemberAPI, Handler: a.JSON(a.EditStaff)},
			{Method: http.MethodPost, Path: route.StaffPasswordAPI, Handler: a.JSON(a.ResetStaffPassword)},
			{Method: http.MethodPost, Path: route.ConfirmResultAPI, Handler: a.JSON(a.ConfirmResult)},
			{Method: http.MethodGet, Path: route.CallsAPI, Handler: a.JSON(a.ListCalls)},
			{Method: http.MethodPost, Path: route.CallClaimAPI, Handler: a.JSON(a.ClaimCall)},
			{Method: http.MethodPost, Path: route.CallEscalateAPI, Handler: a.JSON(a.EscalateCall)},
			{Method: http.MethodPost, Path: route.CallResolveAPI, Handler: a.JSON(a.ResolveCall)},
			{Method: http.MethodPost, Path: route.DeviceAPI, Handler: a.JSON(a.OpenDevice)},
			{Method: http.MethodDelete, Path: route.DeviceAPI, Handler: a.JSON(a.RevokeDevices)},
		}},
		// A player calls a judge with their code: bounded as the other
		// actions with a code are.
		{"players calling a judge", player, []gin.HandlerFunc{s.gateReads(s.failJSON)}, s.failJSON, []routeEntry{
			{Method: http.MethodPost, Path: route.CallsAPI, Handler: a.JSON(a.CallJudge), Body: maxCodeForm},
		}},
		{"players' phones calling a judge", player, []gin.HandlerFunc{s.gateReads(s.pages.Fail), readForm(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodPost, Path: route.KioskCall, Handler: page(k.CallJudge), Body: maxCodeForm},
			{Method: http.MethodPost, Path: route.KioskForget, Handler: page(k.ForgetPlayer), Body: maxCodeForm},
		}},
		// A table device's link: anyone may follow one; the token is 256
		// random bits, found by its hash.
		{"a table device's link", public, []gin.HandlerFunc{s.gateReads(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.OpenDevice, Handler: s.auth.OpenDevice},
		}},
		{"the staff's pages", judge, []gin.HandlerFunc{readForm(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.Staff, Handler: page(c.ShowStaff)},
			{Method: http.MethodPost, Path: route.Staff, Handler: page(c.AddStaff)},
			{Method: http.MethodPost, Path: route.StaffMember, Handler: page(c.EditStaff)},
			{Method: http.MethodPost, Path: route.StaffPassword, Handler: page(c.ResetStaffPassword)},
			{Method: http.MethodPost, Path: route.Confirm, Handler: page(c.ConfirmResult)},
			{Method: http.MethodGet, Path: route.Calls, Handler: page(c.ShowCalls)},
			{Method: http.MethodPost, Path: route.CallClaim, Handler: page(c.ClaimCall)},
			{Method: http.MethodPost, Path: route.CallEscalate, Handler: page(c.EscalateCall)},
			{Method: http.MethodPost, Path: route.CallResolve, Handler: page(c.ResolveCall)},
			{Method: http.MethodGet, Path: route.RoundLive, Handler: page(c.ShowRoundLive)},
			{Method: http.MethodPost, Path: route.Device, Handler: page(c.OpenDevice)},
			{Method: http.MethodPost, Path: route.DeviceRevoke, Handler: page(c.RevokeDevices)},
		}},
	}
}
