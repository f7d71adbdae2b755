package console

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Players' cards. A player's code is stored hashed, so its card can be
// printed only from the request that issued it: registering the player
// (one card), importing a roster (a card per player added) or issuing a
// new code. That request keeps the cards in this process's memory for
// cardsKept under an unguessable batch name and sends the judge to them
// (a redirect, so that reloading never registers anyone twice); after
// that, or after a restart, a lost card is replaced by issuing a new code,
// which voids the one printed before.

// cardsKept is how long a batch of cards can be printed (again: a jammed
// printer) after its codes were issued; maxCardBatches bounds the memory
// they take, the oldest going first.
const (
	cardsKept      = 30 * time.Minute
	maxCardBatches = 64
)

// cardBatches are the cards issued lately, by batch name.
type cardBatches struct {
	mu      sync.Mutex
	batches map[string]cardBatch
}

type cardBatch struct {
	tid     int64
	cards   []playerCard
	next    string // where the desk goes on, for a registration
	back    string
	expires time.Time
}

func newCardBatches() *cardBatches { return &cardBatches{batches: map[string]cardBatch{}} }

// keep stores b and returns its name.
func (k *cardBatches) keep(b cardBatch, now time.Time) string {
	var raw [16]byte
	rand.Read(raw[:]) // never fails (crypto/rand's documentation)
	name := hex.EncodeToString(raw[:])
	b.expires = now.Add(cardsKept)
	k.mu.Lock()
	defer k.mu.Unlock()
	for n, old := range k.batches {
		if now.After(old.expires) {
			delete(k.batches, n)
		}
	}
	for len(k.batches) >= maxCardBatches {
		oldest := ""
		for n, old := range k.batches {
			if oldest == "" || old.expires.Before(k.batches[oldest].expires) {
				oldest = n
			}
		}
		delete(k.batches, oldest)
	}
	k.batches[name] = b
	return name
}

// get returns batch name of tournament tid, if it is still kept.
func (k *cardBatches) get(tid int64, name string, now time.Time) (cardBatch, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	b, ok := k.batches[name]
	if !ok || b.tid != tid || now.After(b.expires) {
		return cardBatch{}, false
	}
	return b, true
}

// cardsPage is the printable sheet of players' cards.
type cardsPage struct {
	printPage
	Cards []playerCard
	// Next is where the desk registers the next player, when the sheet
	// answers a registration.
	Next string
	Gone bool // the batch is no longer kept
}

// playerCard is one player's card.
type playerCard struct {
	Name, Kana, Code string
}

// seeCards keeps the cards of players, which carry their codes in clear
// (Player.Code), and sends the judge to them.
func (s *Pages) seeCards(tid int64, players []tournament.Player, back, next, flash string) render.Result {
	b := cardBatch{tid: tid, back: back, next: next}
	for _, p := range players {
		b.cards = append(b.cards, playerCard{Name: p.Name, Kana: p.Kana, Code: p.Code})
	}
	return render.SeeOther(route.Path(route.Cards, tid, s.cards.keep(b, time.Now())), flash)
}

// ShowCards shows a batch of players' cards to print. The page is never
// cached: the codes are not to be seen again from the browser's history.
func (s *Pages) ShowCards(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	c.Header("Cache-Control", "no-store")
	// A batch no longer kept (or never issued) is a page that says so,
	// and how to print a new card.
	b, ok := s.cards.get(tid, c.Param("batch"), time.Now())
	if !ok {
		b.back = route.Path(route.Players, tid)
	}
	vm := cardsPage{printPage: s.printPageOf(c, t, 0, "cards.title", b.back), Cards: b.cards, Next: b.next, Gone: !ok}
	vm.BackText = s.i18n.Text(vm.Lang, "print.back_players", nil)
	return render.Show("print_cards", vm), nil
}

// IssueCode gives a player a new code, voiding the old one, and sends the
// judge to their new card.
func (s *Pages) IssueCode(c *gin.Context) (render.Result, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return render.Result{}, err
	}
	p, err := s.svc.IssueCode(c.Request.Context(), auth.Judge(c), tid, pid)
	if err != nil {
		return render.Result{}, err
	}
	return s.seeCards(tid, []tournament.Player{p}, route.Path(route.Player, tid, pid), "", "flash.code_issued"), nil
}
