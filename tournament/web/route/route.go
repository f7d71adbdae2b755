// Package route names the site's paths: the route table registers these
// patterns, and handlers and templates build URLs from them with Path, so
// that a path is written once. It reads a request's path parameters (ID,
// RoundParams, TableParams) and keeps redirects on the site (Local, Back).
package route

import (
	"fmt"
	"html/template"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// The paths of the site, as gin patterns: ":name" is one segment, "*name"
// the rest of the path.
const (
	Home    = "/"
	Favicon = "/favicon.ico"
	Health  = "/healthz"
	Static  = "/static/*file"
	Lang    = "/lang/:lang"

	Login       = "/judge/login"
	Logout      = "/judge/logout"
	LogoutAll   = "/judge/logout-all"
	Tournaments = "/judge"
	Rulesets    = "/judge/rulesets"
	Backup      = "/judge/backup"
	Create      = "/judge/tournaments"
	// People is the registry of people across events; Person one of them.
	People          = "/judge/people"
	Person          = People + "/:person"
	PersonMerge     = Person + "/merge"
	PersonArchive   = Person + "/archive"
	PersonUnarchive = Person + "/unarchive"

	Tournament        = "/judge/t/:id"
	TournamentRuleset = Tournament + "/ruleset"
	Close             = Tournament + "/close"
	Reopen            = Tournament + "/reopen"
	Archive           = Tournament + "/archive"
	Unarchive         = Tournament + "/unarchive"
	DeleteTournament  = Tournament + "/delete"
	Players           = Tournament + "/players"
	Import            = Players + "/import"
	ImportConfirm     = Import + "/confirm"
	CheckInMany       = Players + "/checkin"
	Player            = Players + "/:pid"
	CheckIn           = Player + "/checkin"
	Drop              = Player + "/drop"
	Reinstate         = Player + "/reinstate"
	Delete            = Player + "/delete"
	Code              = Player + "/code"
	Cards             = Players + "/cards"
	CardsPrinted      = Cards + "/printed"
	Rounds            = Tournament + "/rounds"
	Round             = Rounds + "/:n"
	Repair            = Round + "/repair"
	Swap              = Round + "/swap"
	Move              = Round + "/move"
	Clock             = Round + "/clock"
	ReportAccept      = Round + "/reports/:report/accept"
	PrintNames        = Round + "/print/names"
	PrintTables       = Round + "/print/tables"
	PrintScores       = Round + "/print/scores"
	PrintBoards       = Round + "/print/boards"
	Table             = Round + "/tables/:tn"
	Seating           = Table + "/seating"
	Board             = Table + "/board"
	Deal              = Table + "/deal"
	Score             = Table + "/score"
	Ruling            = Table + "/ruling"
	Rulings           = Table + "/rulings"
	PrintRulings      = Rulings + "/print"
	Turns             = Table + "/turns"
	Record            = Table + "/game" // a table's recorded game, entered move by move
	Penalties         = Tournament + "/penalties"
	Revoke            = Penalties + "/:penalty/revoke"
	Standings         = Tournament + "/standings"
	Final             = Tournament + "/final"
	PrintStandings    = Standings + "/print"
	Audit             = Tournament + "/audit"

	Kiosk     = "/kiosk/:id"
	KioskQR   = Kiosk + "/qr.png"
	KioskLive = Kiosk + "/live"
	// KioskEvents is the kiosk's live feed: the tournament's, each change
	// carrying the live parts of the kiosk's view.
	KioskEvents = Kiosk + "/events"
	// KioskCheckIn is where players check themselves in with their code.
	KioskCheckIn = Kiosk + "/checkin"
	// KioskTable is a table on its players' phones: report its result,
	// confirm or dispute the report.
	KioskTable  = Kiosk + "/rounds/:n/tables/:tn"
	KioskReport = KioskTable + "/report"
	KioskAnswer = KioskTable + "/reports/:report"
	// KioskPlayer is a player's page in an event: their tables round by
	// round. PersonPage lists every event a person played here; Results
	// is a finished tournament's results, to print.
	KioskPlayer = Kiosk + "/players/:pid"
	PersonPage  = "/people/:person"
	Results     = "/results/:id"
	// KioskGame is a table's recorded game as the room sees it, live:
	// the board for the projector, or a phone.
	KioskGame     = KioskTable + "/game"
	KioskGameLive = KioskGame + "/live"

	API              = "/api/v1"
	RulesetsAPI      = API + "/rulesets"
	RulesetAPI       = RulesetsAPI + "/:name"
	RefereeBoard     = API + "/referee/board"
	RefereeDeal      = RefereeBoard + "/check"
	RefereeSeating   = API + "/referee/seating"
	RefereePlacings  = API + "/referee/placings"
	RefereeStandings = API + "/referee/standings"
	RefereePairings  = API + "/referee/pairings"
	RefereePosition  = API + "/referee/position"
	RefereeGame      = API + "/referee/game"
	TournamentsAPI   = API + "/tournaments"
	TournamentAPI    = TournamentsAPI + "/:id"
	CloseAPI         = TournamentAPI + "/close"
	SelfCheckInAPI   = TournamentAPI + "/checkin"
	ReopenAPI        = TournamentAPI + "/reopen"
	ArchiveAPI       = TournamentAPI + "/archive"
	UnarchiveAPI     = TournamentAPI + "/unarchive"
	PlayersAPI       = TournamentAPI + "/players"
	PlayerAPI        = PlayersAPI + "/:pid"
	DropAPI          = PlayerAPI + "/drop"
	CheckInAPI       = PlayerAPI + "/checkin"
	CodeAPI          = PlayerAPI + "/code"
	RoundsAPI        = TournamentAPI + "/rounds"
	RoundAPI         = RoundsAPI + "/:n"
	ClockAPI         = RoundAPI + "/clock"
	TableAPI         = RoundAPI + "/tables/:tn"
	SeatingAPI       = TableAPI + "/seating"
	BoardAPI         = TableAPI + "/board"
	ResultAPI        = TableAPI + "/result"
	RevisionsAPI     = TableAPI + "/revisions"
	ReportsAPI       = TableAPI + "/reports"
	ReportAPI        = ReportsAPI + "/:report"
	ConfirmAPI       = ReportAPI + "/confirm"
	DisputeAPI       = ReportAPI + "/dispute"
	AcceptAPI        = ReportAPI + "/accept"
	RulingsAPI       = TableAPI + "/rulings"
	GameAPI          = TableAPI + "/game"
	GameMovesAPI     = GameAPI + "/moves"
	GameMoveAPI      = GameMovesAPI + "/:move"
	GameResultAPI    = GameAPI + "/result"
	PenaltiesAPI     = TournamentAPI + "/penalties"
	RevokeAPI        = PenaltiesAPI + "/:penalty/revoke"
	StandingsAPI     = TournamentAPI + "/standings"
	FinalAPI         = TournamentAPI + "/final"
	ExportAPI        = TournamentAPI + "/export.xlsx"
	RecordAPI        = TournamentAPI + "/record" // the record file (docs/record.md)
	LiveAPI          = TournamentAPI + "/live"
	EventsAPI        = TournamentAPI + "/events"
	PeopleAPI        = API + "/people"
	PersonAPI        = PeopleAPI + "/:person"
	MergeAPI         = PersonAPI + "/merge"
	PersonArchiveAPI = PersonAPI + "/archive"
	PersonUnarchAPI  = PersonAPI + "/unarchive"
)

// Issue 30: events as they really go.
const (
	DisqualifyAPI   = PlayerAPI + "/disqualify"
	Disqualify      = Player + "/disqualify"
	RestoreRoundAPI = RoundAPI + "/restore"
	UndoRound       = Round + "/undo"
	RestoreRound    = Round + "/restore"
)

// Issue 30: team events.
const (
	TeamsAPI         = TournamentAPI + "/teams"
	TeamStandingsAPI = TeamsAPI + "/standings"
	LineupAPI        = RoundAPI + "/lineups/:team"
	Teams            = Tournament + "/teams"
	TeamPage         = Teams + "/:team"
	TeamStandings    = Teams + "/standings"
)

// Issue 30: divisions in one event.
const (
	DivisionsAPI = TournamentAPI + "/divisions"
	DivisionAPI  = TournamentAPI + "/division"
	Divisions    = Tournament + "/divisions"
	Division     = Tournament + "/division"
)

// The end of an event (issue 24): making the final again, with a reason.
const (
	RemakeFinal    = Round + "/remake"
	RemakeFinalAPI = FinalAPI + "/remake"
)

// byName are the paths templates build, by the name they give them:
// {{path "round" .TID .N}}.
var byName = map[string]string{
	"home": Home, "login": Login, "logout": Logout, "logoutAll": LogoutAll, "tournaments": Tournaments, "rulesets": Rulesets,
	"backup": Backup, "create": Create, "lang": Lang,
	"tournament": Tournament, "tournamentRuleset": TournamentRuleset, "close": Close, "reopen": Reopen,
	"archive": Archive, "unarchive": Unarchive, "deleteTournament": DeleteTournament,
	"players": Players, "import": Import, "importConfirm": ImportConfirm, "player": Player,
	"checkIn": CheckIn, "checkInMany": CheckInMany, "drop": Drop, "reinstate": Reinstate, "delete": Delete, "code": Code, "cards": Cards, "cardsPrinted": CardsPrinted,
	"rounds": Rounds, "round": Round, "repair": Repair, "swap": Swap, "move": Move, "clock": Clock, "reportAccept": ReportAccept,
	"printNames": PrintNames, "printTables": PrintTables, "printScores": PrintScores, "printBoards": PrintBoards,
	"table": Table, "seating": Seating, "board": Board, "deal": Deal, "score": Score, "turns": Turns,
	"ruling": Ruling, "rulings": Rulings, "printRulings": PrintRulings, "rulingsAPI": RulingsAPI, "positionAPI": RefereePosition,
	"penalties": Penalties, "revoke": Revoke, "standings": Standings, "final": Final, "printStandings": PrintStandings, "audit": Audit,
	"kiosk": Kiosk, "kioskQR": KioskQR, "kioskLive": KioskLive, "kioskEvents": KioskEvents, "kioskCheckIn": KioskCheckIn,
	"kioskTable": KioskTable, "kioskReport": KioskReport, "kioskAnswer": KioskAnswer,
	"kioskPlayer": KioskPlayer, "personPage": PersonPage, "results": Results,
	"people": People, "person": Person, "personMerge": PersonMerge, "personArchive": PersonArchive, "personUnarchive": PersonUnarchive,
	"record": Record, "kioskGame": KioskGame, "kioskGameLive": KioskGameLive,
	"rulesetsAPI": RulesetsAPI, "export": ExportAPI, "events": EventsAPI,
	"disqualify": Disqualify, "undoRound": UndoRound, "restoreRound": RestoreRound,
	"remakeFinal": RemakeFinal,
	"teams":       Teams, "team": TeamPage, "teamStandings": TeamStandings,
	"divisions": Divisions, "division": Division,
}

// Path fills the parameters of pattern, in order, with args: Path(Round,
// 3, 2) is "/judge/t/3/rounds/2". A parameter without an argument stays as
// it is.
func Path(pattern string, args ...any) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		if len(args) == 0 {
			break
		}
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			segs[i] = fmt.Sprint(args[0])
			args = args[1:]
		}
	}
	return strings.Join(segs, "/")
}

// Funcs are the template functions of this package: path builds the path
// of a route by its name, {{path "table" .TID .N .Number}}; port is the
// port of an absolute address, {{port .URL}}.
func Funcs() template.FuncMap {
	return template.FuncMap{
		"port": Port,
		"path": func(name string, args ...any) (string, error) {
			pattern, ok := byName[name]
			if !ok {
				return "", fmt.Errorf("no route named %q", name)
			}
			if n := strings.Count(pattern, "/:") + strings.Count(pattern, "/*"); n != len(args) {
				return "", fmt.Errorf("route %q takes %d parameters, got %d", name, n, len(args))
			}
			return Path(pattern, args...), nil
		},
	}
}

// Local returns target when it is a path on this site, else fallback:
// redirects never leave the site. A browser drops tabs and line breaks
// from a Location and reads a backslash as a slash, so "/\t/host" would
// take it to //host: a target with any control character, space or
// backslash is refused, as is anything that parses with a scheme or a host.
func Local(target, fallback string) string {
	if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") || !utf8.ValidString(target) ||
		strings.IndexFunc(target, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0 {
		return fallback
	}
	if u, err := url.Parse(target); err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" {
		return fallback
	}
	return target
}

// Back returns the page the browser came from (its Referer, on host), when
// it is on this site, else fallback.
func Back(referer, host, fallback string) string {
	u, err := url.Parse(referer)
	if err != nil || u.Host != host {
		return fallback
	}
	return Local(u.RequestURI(), fallback)
}

// ID reads the numeric path parameter name: a tournament, player or
// penalty ID. Anything else is a page not found.
func ID(c *gin.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, problem.ErrNoRoute
	}
	return id, nil
}

// IDs reads the tournament (:id) and the ID of one of its records in the
// parameter name: a player's :pid, a penalty's :penalty.
func IDs(c *gin.Context, name string) (tid, id int64, err error) {
	if tid, err = ID(c, "id"); err != nil {
		return 0, 0, err
	}
	id, err = ID(c, name)
	return tid, id, err
}

// RoundParams reads the tournament (:id) and the round number (:n).
func RoundParams(c *gin.Context) (tid int64, n int, err error) {
	if tid, err = ID(c, "id"); err != nil {
		return 0, 0, err
	}
	n, err = number(c, "n")
	return tid, n, err
}

// TableParams reads the tournament (:id), the round (:n) and the table
// number (:tn).
func TableParams(c *gin.Context) (tid int64, n, table int, err error) {
	if tid, n, err = RoundParams(c); err != nil {
		return 0, 0, 0, err
	}
	table, err = number(c, "tn")
	return tid, n, table, err
}

// number reads a round or table number.
func number(c *gin.Context, name string) (int, error) {
	n, err := strconv.Atoi(c.Param(name))
	if err != nil || n < 1 {
		return 0, problem.ErrNoRoute
	}
	return n, nil
}

// Port is the port an absolute address names, or its scheme's default:
// the hint for a server phones cannot reach names the port it listens on.
func Port(address string) string {
	u, err := url.Parse(address)
	if err != nil {
		return ""
	}
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// Unreachable says an absolute address (a kiosk's, for the QR codes) names
// this machine itself (localhost, 127.0.0.1, ::1): players' phones cannot
// open it. An address without a host (a path alone) is not said to be.
func Unreachable(address string) bool {
	u, err := url.Parse(address)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}
