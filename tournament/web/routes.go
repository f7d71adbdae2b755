package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/console"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// access says who may use a route.
type access int

const (
	public  access = iota // anyone: the stateless referee API, health, static files
	players               // anyone, read-only: what players see
	player                // a player with their code: what they do themselves
	judge                 // the staff: an account whose role allows the route (roles.go), or the API token
)

// routeEntry is one line of the route table.
type routeEntry struct {
	Method  string
	Path    string
	Handler gin.HandlerFunc
	// Body is the most bytes the request's body may hold: maxForm when 0.
	Body int64
	// Multipart says the route takes a multipart upload: no other can be
	// made to spool files to the temporary folder.
	Multipart bool
	Access    access // set from the route's group
}

// group is routes that share who may use them, the guards they pass, in
// order, before their handlers run, and how a refusal before the handler
// is answered: as JSON, or as a page.
type group struct {
	name   string
	access access
	guards []gin.HandlerFunc
	fail   func(*gin.Context, error)
	routes []routeEntry
}

// groups is the one route table of the site, group by group. Every route
// is classified here, and a test walks it to check each class anonymously
// and as a judge.
func (s *site) groups() []group {
	a, c, k := s.api, s.console, s.kiosk
	page := s.pages.Handle
	return append([]group{
		{"the site", public, nil, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.Health, Handler: a.CheckHealth},
			{Method: http.MethodGet, Path: route.Static, Handler: s.pages.Static},
			{Method: http.MethodGet, Path: route.Favicon, Handler: s.pages.Favicon},
			{Method: http.MethodGet, Path: route.Lang, Handler: s.pages.SwitchLanguage},
		}},
		// The referee API computes for anyone: a few at once per client.
		{"the referee API", public, []gin.HandlerFunc{s.gateCompute}, s.failJSON, []routeEntry{
			{Method: http.MethodGet, Path: route.RulesetsAPI, Handler: a.JSON(a.ListRulesets)},
			{Method: http.MethodGet, Path: route.RulesetAPI, Handler: a.JSON(a.ShowRuleset)},
			{Method: http.MethodGet, Path: route.RefereeBoard, Handler: a.JSON(a.SetUpBoard)},
			{Method: http.MethodPost, Path: route.RefereeDeal, Handler: a.JSON(a.CheckDeal)},
			{Method: http.MethodPost, Path: route.RefereeSeating, Handler: a.JSON(a.OrderSeats)},
			{Method: http.MethodPost, Path: route.RefereePlacings, Handler: a.JSON(a.PlaceTable)},
			{Method: http.MethodPost, Path: route.RefereeStandings, Handler: a.JSON(a.RankGames)},
			{Method: http.MethodPost, Path: route.RefereePairings, Handler: a.JSON(a.PairPlayers)},
			{Method: http.MethodPost, Path: route.RefereePosition, Handler: a.JSON(a.RebuildPosition)},
			{Method: http.MethodPost, Path: route.RefereeGame, Handler: a.JSON(a.CheckGame)},
		}},
		// What the kiosk reads, as JSON: a few at once per client.
		{"the kiosk's API", players, []gin.HandlerFunc{s.gateReads(s.failJSON)}, s.failJSON, []routeEntry{
			{Method: http.MethodGet, Path: route.TournamentsAPI, Handler: a.JSON(a.ListTournaments)},
			{Method: http.MethodGet, Path: route.TournamentAPI, Handler: a.JSON(a.ShowTournament)},
			{Method: http.MethodGet, Path: route.RoundAPI, Handler: a.JSON(a.ShowRound)},
			{Method: http.MethodGet, Path: route.StandingsAPI, Handler: a.JSON(a.ShowStandings)},
			{Method: http.MethodGet, Path: route.ClockAPI, Handler: a.JSON(a.ShowClock)},
			{Method: http.MethodGet, Path: route.LiveAPI, Handler: a.ShowLive},
			{Method: http.MethodGet, Path: route.ReportsAPI, Handler: a.JSON(a.ListReports)},
			// Team events (issue 30): the teams and their standings.
			{Method: http.MethodGet, Path: route.TeamsAPI, Handler: a.JSON(a.ListTeams)},
			{Method: http.MethodGet, Path: route.TeamStandingsAPI, Handler: a.JSON(a.ShowTeamStandings)},
			// Beyond one event: the ratings and the seasons' standings, read
			// from the finished events once per change (tournament.finished).
			{Method: http.MethodGet, Path: route.PersonRatingAPI, Handler: a.JSON(a.ShowPersonRating)},
			{Method: http.MethodGet, Path: route.RatingsAPI, Handler: a.JSON(a.ListRatings)},
			{Method: http.MethodGet, Path: route.SeasonsAPI, Handler: a.JSON(a.ListSeasons)},
			{Method: http.MethodGet, Path: route.SeasonAPI, Handler: a.JSON(a.ShowSeason)},
			{Method: http.MethodGet, Path: route.SeasonTableAPI, Handler: a.JSON(a.ShowSeasonStandings)},
		}},
		// The live feed is bounded by the broker: a few feeds per client.
		{"the live feed", players, nil, s.failJSON, []routeEntry{
			{Method: http.MethodGet, Path: route.EventsAPI, Handler: s.live.Stream},
			// The kiosk's, whose events carry its live parts.
			{Method: http.MethodGet, Path: route.KioskEvents, Handler: k.ShowEvents},
		}},
		// The staff's routes pass the staff guard first, with the role each
		// needs (roles.go).
		{"the judges' API", judge, nil, s.failJSON, []routeEntry{
			{Method: http.MethodPost, Path: route.TournamentsAPI, Handler: a.JSON(a.CreateTournament)},
			{Method: http.MethodPost, Path: route.CloseAPI, Handler: a.JSON(a.CloseTournament)},
			{Method: http.MethodPost, Path: route.ReopenAPI, Handler: a.JSON(a.ReopenTournament)},
			{Method: http.MethodPost, Path: route.ArchiveAPI, Handler: a.JSON(a.ArchiveTournament)},
			{Method: http.MethodPost, Path: route.UnarchiveAPI, Handler: a.JSON(a.UnarchiveTournament)},
			{Method: http.MethodPatch, Path: route.TournamentAPI, Handler: a.JSON(a.EditTournament)},
			{Method: http.MethodDelete, Path: route.TournamentAPI, Handler: a.JSON(a.DeleteTournament)},
			{Method: http.MethodGet, Path: route.PlayersAPI, Handler: a.JSON(a.ListPlayers)},
			{Method: http.MethodPost, Path: route.PlayersAPI, Handler: a.JSON(a.AddPlayer)},
			{Method: http.MethodDelete, Path: route.PlayerAPI, Handler: a.JSON(a.DeletePlayer)},
			{Method: http.MethodPost, Path: route.DropAPI, Handler: a.JSON(a.DropPlayer)},
			{Method: http.MethodPost, Path: route.DisqualifyAPI, Handler: a.JSON(a.Disqualify)},
			// Team events (issue 30).
			{Method: http.MethodPost, Path: route.TeamsAPI, Handler: a.JSON(a.RegisterTeam)},
			{Method: http.MethodPut, Path: route.LineupAPI, Handler: a.JSON(a.NameLineup)},
			{Method: http.MethodDelete, Path: route.RoundAPI, Handler: a.JSON(a.UndoRound)},
			{Method: http.MethodPost, Path: route.RestoreRoundAPI, Handler: a.JSON(a.RestoreRound)},
			{Method: http.MethodPost, Path: route.LateAPI, Handler: a.JSON(a.SeatLate)},
			{Method: http.MethodPost, Path: route.SubstituteAPI, Handler: a.JSON(a.MarkSubstitute)},
			{Method: http.MethodPost, Path: route.SitInAPI, Handler: a.JSON(a.SitIn)},
			{Method: http.MethodPost, Path: route.NoShowAPI, Handler: a.JSON(a.NoShow)},
			// Divisions in one event (issue 30).
			{Method: http.MethodPost, Path: route.DivisionsAPI, Handler: a.JSON(a.AddDivision)},
			{Method: http.MethodPut, Path: route.DivisionAPI, Handler: a.JSON(a.NameDivision)},
			{Method: http.MethodPost, Path: route.CheckInAPI, Handler: a.JSON(a.CheckIn)},
			{Method: http.MethodPost, Path: route.CodeAPI, Handler: a.JSON(a.IssueCode)},
			{Method: http.MethodPost, Path: route.RoundsAPI, Handler: a.JSON(a.PairRound)},
			{Method: http.MethodPost, Path: route.FinalAPI, Handler: a.JSON(a.MakeFinal)},
			{Method: http.MethodPost, Path: route.RemakeFinalAPI, Handler: a.JSON(a.RemakeFinal)},
			{Method: http.MethodPost, Path: route.SeatingAPI, Handler: a.JSON(a.SeatTable)},
			{Method: http.MethodPost, Path: route.BoardAPI, Handler: a.JSON(a.SetBoard)},
			{Method: http.MethodPut, Path: route.ResultAPI, Handler: a.JSON(a.SaveResult)},
			{Method: http.MethodGet, Path: route.RevisionsAPI, Handler: a.JSON(a.ListRevisions)},
			{Method: http.MethodPost, Path: route.AcceptAPI, Handler: a.JSON(a.AcceptReport)},
			{Method: http.MethodGet, Path: route.RulingsAPI, Handler: a.JSON(a.ListRulings)},
			{Method: http.MethodPost, Path: route.RulingsAPI, Handler: a.JSON(a.SaveRuling)},
			{Method: http.MethodGet, Path: route.GameAPI, Handler: a.JSON(a.ShowGame)},
			{Method: http.MethodPost, Path: route.GameMovesAPI, Handler: a.JSON(a.AppendMove)},
			{Method: http.MethodDelete, Path: route.GameMoveAPI, Handler: a.JSON(a.UndoMove)},
			{Method: http.MethodPost, Path: route.GameResultAPI, Handler: a.JSON(a.SaveGameResult)},
			{Method: http.MethodGet, Path: route.PenaltiesAPI, Handler: a.JSON(a.ListPenalties)},
			{Method: http.MethodPost, Path: route.PenaltiesAPI, Handler: a.JSON(a.RecordPenalty)},
			{Method: http.MethodPost, Path: route.RevokeAPI, Handler: a.JSON(a.RevokePenalty)},
			{Method: http.MethodGet, Path: route.ExportAPI, Handler: a.ExportWorkbook},
			{Method: http.MethodPost, Path: route.ClockAPI, Handler: a.JSON(a.RecordClock)},
			// The registry of people: judges only, as it lists member numbers.
			{Method: http.MethodGet, Path: route.PeopleAPI, Handler: a.JSON(a.ListPeople)},
			{Method: http.MethodGet, Path: route.PersonAPI, Handler: a.JSON(a.ShowPerson)},
			{Method: http.MethodPut, Path: route.PersonAPI, Handler: a.JSON(a.EditPerson)},
			{Method: http.MethodPost, Path: route.MergeAPI, Handler: a.JSON(a.MergePeople)},
			{Method: http.MethodPost, Path: route.PersonArchiveAPI, Handler: a.JSON(a.ArchivePerson)},
			{Method: http.MethodPost, Path: route.PersonUnarchAPI, Handler: a.JSON(a.UnarchivePerson)},
			// Beyond one event: seasons (a head judge's), the qualification
			// ledger with its real names, the import of past events.
			{Method: http.MethodPost, Path: route.SeasonsAPI, Handler: a.JSON(a.CreateSeason)},
			{Method: http.MethodGet, Path: route.QualificationAPI, Handler: a.JSON(a.ShowQualification)},
			{Method: http.MethodGet, Path: route.SeasonExportAPI, Handler: a.ExportSeason},
			{Method: http.MethodPut, Path: route.PersonRealName, Handler: a.JSON(a.RecordRealName)},
			{Method: http.MethodPost, Path: route.PastEventsAPI, Handler: a.JSON(a.ImportPastEvents)},
			// The record file: the whole event, with the judges' notes.
			{Method: http.MethodGet, Path: route.RecordAPI, Handler: a.JSON(a.ShowRecord)},
		}},
		// The front door lists the tournaments: a read like the kiosk's.
		{"the front door", players, []gin.HandlerFunc{s.gateReads(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.Home, Handler: page(s.home.ShowHome)},
		}},
		// The pages the room's screens follow, rendered once per change for
		// everyone: the gate counts a client's requests, and takes a slot
		// only to render (auth.PassShared).
		{"the kiosk's shared pages", players, []gin.HandlerFunc{s.gateShared(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.Kiosk, Handler: page(k.ShowKiosk)},
			{Method: http.MethodGet, Path: route.KioskLive, Handler: page(k.ShowLive)},
			{Method: http.MethodGet, Path: route.KioskGame, Handler: page(k.ShowGame)},
			{Method: http.MethodGet, Path: route.KioskGameLive, Handler: page(k.ShowGameLive)},
			// A table on its players' phones, once per change for each
			// language and remembered player.
			{Method: http.MethodGet, Path: route.KioskTable, Handler: page(k.ShowTable)},
		}},
		{"the kiosk", players, []gin.HandlerFunc{s.gateReads(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.KioskQR, Handler: k.ShowQR},
			// A player's page, a person's events and a finished event's
			// results: read from the event's record the kiosk keeps, a
			// person's events a page at a time.
			{Method: http.MethodGet, Path: route.KioskPlayer, Handler: page(k.ShowPlayer)},
			{Method: http.MethodGet, Path: route.PersonPage, Handler: page(k.ShowPerson)},
			{Method: http.MethodGet, Path: route.Results, Handler: page(k.ShowResults)},
			// A season's standings, from the finished events' kept read.
			{Method: http.MethodGet, Path: route.SeasonPage, Handler: page(k.ShowSeason)},
		}},
		// A player acts for themselves with their code: small bodies, the
		// kiosk's gate, and guesses at codes limited per address and per
		// player (auth.Codes).
		{"players with their code", player, []gin.HandlerFunc{s.gateReads(s.failJSON)}, s.failJSON, []routeEntry{
			{Method: http.MethodPost, Path: route.SelfCheckInAPI, Handler: a.JSON(a.SelfCheckIn), Body: maxCodeForm},
			{Method: http.MethodPost, Path: route.ReportsAPI, Handler: a.JSON(a.ReportResult), Body: maxCodeForm},
			{Method: http.MethodPost, Path: route.ConfirmAPI, Handler: a.JSON(a.ConfirmReport), Body: maxCodeForm},
			{Method: http.MethodPost, Path: route.DisputeAPI, Handler: a.JSON(a.DisputeReport), Body: maxCodeForm},
		}},
		{"players' pages with their code", player, []gin.HandlerFunc{s.gateReads(s.pages.Fail), readForm(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.KioskCheckIn, Handler: page(k.ShowCheckIn)},
			{Method: http.MethodPost, Path: route.KioskCheckIn, Handler: page(k.CheckIn), Body: maxCodeForm},
			{Method: http.MethodPost, Path: route.KioskReport, Handler: page(k.ReportTable), Body: maxCodeForm},
			{Method: http.MethodPost, Path: route.KioskAnswer, Handler: page(k.AnswerReport), Body: maxCodeForm},
		}},
		// Anyone may post the login form: it is small, and an address that
		// guessed wrong too often is refused before it is read.
		{"the login", public, []gin.HandlerFunc{s.limitLogins, readForm(s.pages.Fail)}, s.pages.Fail, []routeEntry{
			{Method: http.MethodGet, Path: route.Login, Handler: page(s.auth.ShowLogin)},
			{Method: http.MethodPost, Path: route.Login, Handler: page(s.auth.LogIn), Body: maxLoginForm},
		}},
		{"the console", judge, []gin.HandlerFunc{readForm(s.pages.Fail)}, s.pages.Fail, s.consoleRoutes(c)},
	}, s.staffGroups()...)
}

// consoleRoutes are the judges' pages.
func (s *site) consoleRoutes(c *console.Pages) []routeEntry {
	page := s.pages.Handle
	return []routeEntry{
		{Method: http.MethodPost, Path: route.Logout, Handler: page(s.auth.LogOut)},
		{Method: http.MethodPost, Path: route.LogoutAll, Handler: page(s.auth.LogOutEveryone)},
		{Method: http.MethodGet, Path: route.Tournaments, Handler: page(c.ShowTournaments)},
		{Method: http.MethodGet, Path: route.Rulesets, Handler: page(c.ShowRulesets)},
		{Method: http.MethodGet, Path: route.People, Handler: page(c.ShowPeople)},
		{Method: http.MethodGet, Path: route.Person, Handler: page(c.ShowPerson)},
		{Method: http.MethodPost, Path: route.Person, Handler: page(c.EditPerson)},
		{Method: http.MethodPost, Path: route.PersonMerge, Handler: page(c.MergePerson)},
		{Method: http.MethodPost, Path: route.PersonArchive, Handler: page(c.ArchivePerson)},
		{Method: http.MethodPost, Path: route.PersonUnarchive, Handler: page(c.UnarchivePerson)},
		// Beyond one event: the seasons and the import of past events.
		{Method: http.MethodGet, Path: route.Seasons, Handler: page(c.ShowSeasons)},
		{Method: http.MethodPost, Path: route.Seasons, Handler: page(c.CreateSeason)},
		{Method: http.MethodGet, Path: route.Season, Handler: page(c.ShowSeason)},
		{Method: http.MethodGet, Path: route.PastEvents, Handler: page(c.ShowPastEvents)},
		{Method: http.MethodPost, Path: route.PastEvents, Handler: page(c.PreviewPastEvents), Body: console.MaxImport + 64<<10, Multipart: true},
		{Method: http.MethodPost, Path: route.PastEventsConfirm, Handler: page(c.ImportPastEvents), Body: 2 * console.MaxImport},
		{Method: http.MethodPost, Path: route.Backup, Handler: c.DownloadBackup},
		{Method: http.MethodPost, Path: route.Create, Handler: page(c.CreateTournament)},
		{Method: http.MethodGet, Path: route.Tournament, Handler: page(c.ShowTournament)},
		{Method: http.MethodPost, Path: route.Tournament, Handler: page(c.EditTournament)},
		{Method: http.MethodGet, Path: route.TournamentRuleset, Handler: page(c.ShowTournamentRuleset)},
		{Method: http.MethodPost, Path: route.Close, Handler: page(c.CloseTournament)},
		{Method: http.MethodPost, Path: route.Reopen, Handler: page(c.ReopenTournament)},
		{Method: http.MethodPost, Path: route.Archive, Handler: page(c.ArchiveTournament)},
		{Method: http.MethodPost, Path: route.Unarchive, Handler: page(c.UnarchiveTournament)},
		{Method: http.MethodPost, Path: route.Divisions, Handler: page(c.AddDivision)},
		{Method: http.MethodPost, Path: route.Division, Handler: page(c.NameDivision)},
		{Method: http.MethodPost, Path: route.DeleteTournament, Handler: page(c.DeleteTournament)},
		{Method: http.MethodGet, Path: route.Players, Handler: page(c.ShowPlayers)},
		{Method: http.MethodPost, Path: route.Players, Handler: page(c.AddPlayer)},
		{Method: http.MethodGet, Path: route.Import, Handler: page(c.ShowImport)},
		// The import's upload, and its confirmation, which carries the file
		// in base64, are larger than a form.
		{Method: http.MethodPost, Path: route.Import, Handler: page(c.PreviewImport), Body: console.MaxImport + 64<<10, Multipart: true},
		{Method: http.MethodPost, Path: route.ImportConfirm, Handler: page(c.ImportPlayers), Body: 2 * console.MaxImport},
		{Method: http.MethodGet, Path: route.Player, Handler: page(c.ShowPlayer)},
		{Method: http.MethodPost, Path: route.Player, Handler: page(c.EditPlayer)},
		{Method: http.MethodPost, Path: route.CheckIn, Handler: page(c.SetCheckIn)},
		{Method: http.MethodPost, Path: route.CheckInMany, Handler: page(c.CheckInMany)},
		{Method: http.MethodPost, Path: route.Drop, Handler: page(c.DropPlayer)},
		{Method: http.MethodPost, Path: route.Reinstate, Handler: page(c.ReinstatePlayer)},
		{Method: http.MethodGet, Path: route.Disqualify, Handler: page(c.ShowDisqualify)},
		{Method: http.MethodPost, Path: route.Disqualify, Handler: page(c.Disqualify)},
		// Team events (issue 30).
		{Method: http.MethodGet, Path: route.Teams, Handler: page(c.ShowTeams)},
		{Method: http.MethodPost, Path: route.Teams, Handler: page(c.RegisterTeam)},
		{Method: http.MethodGet, Path: route.TeamStandings, Handler: page(c.ShowTeamStandings)},
		{Method: http.MethodGet, Path: route.TeamPage, Handler: page(c.ShowTeam)},
		{Method: http.MethodPost, Path: route.TeamPage, Handler: page(c.NameLineup)},
		{Method: http.MethodPost, Path: route.UndoRound, Handler: page(c.UndoRound)},
		{Method: http.MethodPost, Path: route.RestoreRound, Handler: page(c.RestoreRound)},
		{Method: http.MethodPost, Path: route.Late, Handler: page(c.SeatLate)},
		{Method: http.MethodPost, Path: route.Substitute, Handler: page(c.MarkSubstitute)},
		{Method: http.MethodPost, Path: route.SitIn, Handler: page(c.SitIn)},
		{Method: http.MethodPost, Path: route.NoShow, Handler: page(c.NoShow)},
		{Method: http.MethodPost, Path: route.Delete, Handler: page(c.DeletePlayer)},
		{Method: http.MethodPost, Path: route.Code, Handler: page(c.IssueCode)},
		{Method: http.MethodGet, Path: route.Cards, Handler: page(c.ShowCards)},
		{Method: http.MethodPost, Path: route.CardsPrinted, Handler: page(c.PrintedCards)},
		{Method: http.MethodPost, Path: route.Rounds, Handler: page(c.PairRound)},
		{Method: http.MethodGet, Path: route.Round, Handler: page(c.ShowRound)},
		{Method: http.MethodPost, Path: route.Repair, Handler: page(c.RepairRound)},
		{Method: http.MethodPost, Path: route.RemakeFinal, Handler: page(c.RemakeFinal)},
		{Method: http.MethodPost, Path: route.Swap, Handler: page(c.SwapPlayers)},
		{Method: http.MethodPost, Path: route.Move, Handler: page(c.MovePlayer)},
		{Method: http.MethodGet, Path: route.Clock, Handler: page(c.ShowClockPanel)},
		{Method: http.MethodPost, Path: route.Clock, Handler: page(c.RecordClock)},
		{Method: http.MethodPost, Path: route.ReportAccept, Handler: page(c.AcceptReport)},
		{Method: http.MethodGet, Path: route.PrintNames, Handler: page(c.PrintPairingsByName)},
		{Method: http.MethodGet, Path: route.PrintTables, Handler: page(c.PrintPairingsByTable)},
		{Method: http.MethodGet, Path: route.PrintScores, Handler: page(c.PrintScoreSheets)},
		{Method: http.MethodGet, Path: route.PrintBoards, Handler: page(c.PrintBoardSheets)},
		{Method: http.MethodGet, Path: route.Table, Handler: page(c.ShowTable)},
		{Method: http.MethodPost, Path: route.Seating, Handler: page(c.SetSeating)},
		{Method: http.MethodPost, Path: route.Board, Handler: page(c.SetBoard)},
		{Method: http.MethodPost, Path: route.Deal, Handler: page(c.SetDeal)},
		{Method: http.MethodGet, Path: route.Score, Handler: page(c.ShowScore)},
		{Method: http.MethodPost, Path: route.Score, Handler: page(c.SaveScore)},
		{Method: http.MethodGet, Path: route.PrintRulings, Handler: page(c.PrintRulings)},
		{Method: http.MethodGet, Path: route.Ruling, Handler: page(c.ShowRuling)},
		{Method: http.MethodPost, Path: route.Ruling, Handler: page(c.PostRuling)},
		{Method: http.MethodGet, Path: route.Turns, Handler: page(c.ShowTurns)},
		{Method: http.MethodPost, Path: route.Turns, Handler: page(c.RecordTurn)},
		{Method: http.MethodGet, Path: route.Record, Handler: page(c.ShowRecord)},
		{Method: http.MethodPost, Path: route.Record, Handler: page(c.PostRecord)},
		{Method: http.MethodGet, Path: route.Penalties, Handler: page(c.ShowPenalties)},
		{Method: http.MethodPost, Path: route.Penalties, Handler: page(c.RecordPenalty)},
		{Method: http.MethodPost, Path: route.Revoke, Handler: page(c.RevokePenalty)},
		{Method: http.MethodGet, Path: route.Standings, Handler: page(c.ShowStandings)},
		{Method: http.MethodPost, Path: route.Final, Handler: page(c.MakeFinal)},
		{Method: http.MethodGet, Path: route.PrintStandings, Handler: page(c.PrintStandings)},
		{Method: http.MethodGet, Path: route.Audit, Handler: page(c.ShowAudit)},
	}
}

// newRouter serves the route table. Every request gets the site's own
// middleware and its session; each route then bounds its body, refuses a
// cross-origin state change, passes the staff guard with the role it needs
// when it is the staff's (roles.go), and its group's guards, before its
// handler runs.
func (s *site) newRouter() (*gin.Engine, error) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	// Reached directly, no header names another client; behind the
	// reverse proxies of several servers, theirs do (ClientAddr).
	if err := r.SetTrustedProxies(s.deps.TrustedProxies); err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	r.RemoteIPHeaders = []string{"X-Forwarded-For"}
	r.Use(s.seenVersions, securityHeaders, s.requestID, s.logRequests, s.recoverPanic, s.auth.Sessions)
	r.NoRoute(func(c *gin.Context) { s.failFor(c)(c, problem.ErrNoRoute) })
	r.NoMethod(func(c *gin.Context) { s.failFor(c)(c, problem.ErrNoMethod) })
	for _, g := range s.groups() {
		origin := s.auth.CheckOrigin(g.fail)
		for _, rt := range g.routes {
			body := rt.Body
			if body == 0 {
				body = maxForm
			}
			chain := []gin.HandlerFunc{limitBody(body, rt.Multipart, g.fail), origin}
			if g.access == judge {
				chain = append(chain, s.staffGuard(rt))
			}
			chain = append(chain, g.guards...)
			r.Handle(rt.Method, rt.Path, append(chain, rt.Handler)...)
		}
	}
	return r, nil
}

// failFor is how a path the route table does not have is answered: as JSON
// under the API's prefix, else as a page, so that a mistyped /judge/...
// path gets a page.
func (s *site) failFor(c *gin.Context) func(*gin.Context, error) {
	if strings.HasPrefix(c.Request.URL.Path, route.API+"/") {
		return s.failJSON
	}
	return s.pages.Fail
}

// gateCompute is the guard of the public referee API's routes.
func (s *site) gateCompute(c *gin.Context) { s.auth.Pass(c, s.compute, s.failJSON) }

// gateReads is the guard of the kiosk's reads, answering a refusal with
// fail (the live feed has its own bounds in the broker).
func (s *site) gateReads(fail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) { s.auth.Pass(c, s.reads, fail) }
}

// gateShared is the guard of the kiosk's pages rendered once for
// everyone (auth.PassShared).
func (s *site) gateShared(fail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) { s.auth.PassShared(c, s.reads, fail) }
}

// limitLogins refuses the login form of an address that got the password
// wrong too often lately, before the form is read.
func (s *site) limitLogins(c *gin.Context) {
	if c.Request.Method == http.MethodPost {
		s.auth.LimitLogins(c)
		return
	}
	c.Next()
}
