package web

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// access says who may use a route.
type access int

const (
	public access = iota // anyone: the stateless referee API, health, static files
	kiosk                // anyone, read-only: what players see
	judge                // a logged-in judge or the API token
)

func (a access) String() string {
	return [...]string{"public", "kiosk", "judge"}[a]
}

// routeEntry is one line of the route table.
type routeEntry struct {
	Method  string
	Path    string
	Access  access
	Handler gin.HandlerFunc
}

// routes is the one route table of the site. Every route is classified here,
// and a test walks it to check each class anonymously and as a judge.
func (s *Server) routes() []routeEntry {
	return []routeEntry{
		{http.MethodGet, "/healthz", public, s.checkHealth},

		{http.MethodGet, "/api/v1/rulesets", public, s.api(s.listRulesets)},
		{http.MethodGet, "/api/v1/rulesets/:name", public, s.api(s.showRuleset)},

		{http.MethodGet, "/api/v1/referee/board", public, s.api(s.setUpBoard)},
		{http.MethodPost, "/api/v1/referee/board/check", public, s.api(s.checkDeal)},
		{http.MethodPost, "/api/v1/referee/seating", public, s.api(s.seatTable)},
		{http.MethodPost, "/api/v1/referee/placings", public, s.api(s.placeTable)},
		{http.MethodPost, "/api/v1/referee/standings", public, s.api(s.rankGames)},
		{http.MethodPost, "/api/v1/referee/pairings", public, s.api(s.pairPlayers)},
		{http.MethodPost, "/api/v1/referee/position", public, s.api(s.rebuildPosition)},
		{http.MethodPost, "/api/v1/referee/game", public, s.api(s.checkGame)},

		{http.MethodGet, "/api/v1/tournaments", kiosk, s.api(s.listTournamentsAPI)},
		{http.MethodPost, "/api/v1/tournaments", judge, s.api(s.createTournamentAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id", kiosk, s.api(s.showTournamentAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/close", judge, s.api(s.closeTournamentAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/reopen", judge, s.api(s.reopenTournamentAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/players", judge, s.api(s.listPlayersAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/players", judge, s.api(s.addPlayerAPI)},
		{http.MethodDelete, "/api/v1/tournaments/:id/players/:pid", judge, s.api(s.deletePlayerAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/players/:pid/drop", judge, s.api(s.dropPlayerAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/players/:pid/checkin", judge, s.api(s.checkInAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/rounds", judge, s.api(s.pairRoundAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/rounds/:n", kiosk, s.api(s.showRoundAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/rounds/:n/tables/:tn/seating", judge, s.api(s.seatTableAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/rounds/:n/tables/:tn/board", judge, s.api(s.setTableBoardAPI)},
		{http.MethodPut, "/api/v1/tournaments/:id/rounds/:n/tables/:tn/result", judge, s.api(s.saveResultAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/rounds/:n/tables/:tn/revisions", judge, s.api(s.listRevisionsAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/penalties", judge, s.api(s.listPenaltiesAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/penalties", judge, s.api(s.recordPenaltyAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/penalties/:penalty/revoke", judge, s.api(s.revokePenaltyAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/standings", kiosk, s.api(s.showStandingsAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/export.xlsx", judge, s.exportWorkbook},
		{http.MethodGet, "/api/v1/tournaments/:id/rounds/:n/clock", kiosk, s.api(s.showClockAPI)},
		{http.MethodPost, "/api/v1/tournaments/:id/rounds/:n/clock", judge, s.api(s.recordClockAPI)},
		{http.MethodGet, "/api/v1/tournaments/:id/live", kiosk, s.showLiveAPI},
		{http.MethodGet, "/api/v1/tournaments/:id/events", kiosk, s.streamEvents},

		{http.MethodGet, "/kiosk/:id", kiosk, s.page(s.showKiosk)},
		{http.MethodGet, "/kiosk/:id/qr.png", kiosk, s.showKioskQR},

		{http.MethodGet, "/static/*file", public, s.serveStatic},
		{http.MethodGet, "/lang/:lang", public, s.switchLanguage},
		{http.MethodGet, "/judge/login", public, s.page(s.showLogin)},
		{http.MethodPost, "/judge/login", public, s.page(s.logIn)},
		{http.MethodPost, "/judge/logout", judge, s.page(s.logOut)},
		{http.MethodPost, "/judge/logout-all", judge, s.page(s.logOutEveryone)},
		{http.MethodGet, "/judge", judge, s.page(s.showTournaments)},
		{http.MethodGet, "/judge/rulesets", judge, s.page(s.showRulesets)},
		{http.MethodPost, "/judge/backup", judge, s.download(s.downloadBackup)},
		{http.MethodPost, "/judge/tournaments", judge, s.page(s.createTournament)},
		{http.MethodGet, "/judge/t/:id", judge, s.page(s.showTournament)},
		{http.MethodPost, "/judge/t/:id", judge, s.page(s.editTournament)},
		{http.MethodGet, "/judge/t/:id/ruleset", judge, s.page(s.showTournamentRuleset)},
		{http.MethodPost, "/judge/t/:id/close", judge, s.page(s.closeTournament)},
		{http.MethodPost, "/judge/t/:id/reopen", judge, s.page(s.reopenTournament)},
		{http.MethodGet, "/judge/t/:id/players", judge, s.page(s.showPlayers)},
		{http.MethodPost, "/judge/t/:id/players", judge, s.page(s.addPlayer)},
		{http.MethodGet, "/judge/t/:id/players/import", judge, s.page(s.showImport)},
		{http.MethodPost, "/judge/t/:id/players/import", judge, s.page(s.previewImport)},
		{http.MethodPost, "/judge/t/:id/players/import/confirm", judge, s.page(s.importPlayers)},
		{http.MethodGet, "/judge/t/:id/players/:pid", judge, s.page(s.showPlayer)},
		{http.MethodPost, "/judge/t/:id/players/:pid", judge, s.page(s.editPlayer)},
		{http.MethodPost, "/judge/t/:id/players/:pid/checkin", judge, s.page(s.setCheckIn)},
		{http.MethodPost, "/judge/t/:id/players/:pid/drop", judge, s.page(s.dropPlayer)},
		{http.MethodPost, "/judge/t/:id/players/:pid/reinstate", judge, s.page(s.reinstatePlayer)},
		{http.MethodPost, "/judge/t/:id/players/:pid/delete", judge, s.page(s.deletePlayer)},
		{http.MethodPost, "/judge/t/:id/rounds", judge, s.page(s.pairRound)},
		{http.MethodGet, "/judge/t/:id/rounds/:n", judge, s.page(s.showRound)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/repair", judge, s.page(s.repairRound)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/swap", judge, s.page(s.swapPlayers)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/move", judge, s.page(s.movePlayer)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/clock", judge, s.page(s.recordClock)},
		{http.MethodGet, "/judge/t/:id/rounds/:n/print/names", judge, s.page(s.printPairingsByName)},
		{http.MethodGet, "/judge/t/:id/rounds/:n/print/tables", judge, s.page(s.printPairingsByTable)},
		{http.MethodGet, "/judge/t/:id/rounds/:n/print/scores", judge, s.page(s.printScoreSheets)},
		{http.MethodGet, "/judge/t/:id/rounds/:n/print/boards", judge, s.page(s.printBoardSheets)},
		{http.MethodGet, "/judge/t/:id/rounds/:n/tables/:tn", judge, s.page(s.showTable)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/tables/:tn/seating", judge, s.page(s.setSeating)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/tables/:tn/board", judge, s.page(s.setBoard)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/tables/:tn/deal", judge, s.page(s.setDeal)},
		{http.MethodGet, "/judge/t/:id/rounds/:n/tables/:tn/score", judge, s.page(s.showScore)},
		{http.MethodPost, "/judge/t/:id/rounds/:n/tables/:tn/score", judge, s.page(s.saveScore)},
		{http.MethodGet, "/judge/t/:id/penalties", judge, s.page(s.showPenalties)},
		{http.MethodPost, "/judge/t/:id/penalties", judge, s.page(s.recordPenalty)},
		{http.MethodPost, "/judge/t/:id/penalties/:penalty/revoke", judge, s.page(s.revokePenalty)},
		{http.MethodGet, "/judge/t/:id/standings", judge, s.page(s.showStandings)},
		{http.MethodGet, "/judge/t/:id/audit", judge, s.page(s.showAudit)},
	}
}

// checkHealth answers {"status":"ok"} when the database can be read whole,
// and 503 with the reason when it cannot, so that a monitor sees what the
// judges' pages would show. The check reads the whole file, so anonymous
// callers share one answer for healthEvery.
func (s *Server) checkHealth(c *gin.Context) {
	if s.deps.Service != nil {
		if err := s.health.check(c.Request.Context(), s.deps.Service.Check); err != nil {
			s.log.Error("health check failed", "id", c.GetString(requestIDKey), "err", err)
			c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "error": s.i18n.Text(s.i18n.Lang(c), "error.unhealthy", nil)})
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// healthEvery is how long a health check's answer is shared.
const healthEvery = 5 * time.Second

// health keeps the last health check's answer.
type health struct {
	mu  sync.Mutex // held during a check: callers meanwhile wait for its answer
	at  time.Time
	err error
}

func (h *health) check(ctx context.Context, check func(context.Context) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.at.IsZero() && time.Since(h.at) < healthEvery {
		return h.err
	}
	// The answer is shared: a caller going away must not cancel it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	h.err, h.at = check(ctx), time.Now()
	return h.err
}
