package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
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
// new code. That request keeps the cards for cardsKept under an
// unguessable batch name and sends the judge to them (a redirect, so that
// reloading never registers anyone twice); after that a lost card is
// replaced by issuing a new code, which voids the one printed before.
//
// The batch is kept in the database (CardStore), so that any server of
// the event prints it (behind nginx the card page may land on another
// server than the registration), sealed (auth.Sealer, under a key derived
// from the session keys every server of the event shares): the database,
// a backup or a pg_dump holds the codes only as the salted hashes of the
// players and this ciphertext, never in clear.

// cardsKept is how long a batch of cards can be printed (again: a jammed
// printer) after its codes were issued.
const cardsKept = 30 * time.Minute

// CardSealing is the label of the key that seals players' cards
// (auth.NewSealer).
const CardSealing = "players' cards"

// CardStore keeps sealed batches of players' cards by name until they
// expire, deleting the expired ones (store.Store is one).
type CardStore interface {
	KeepCards(ctx context.Context, name string, tournamentID int64, sealed []byte, expires, now time.Time) error
	// Cards returns a batch of the tournament, or an error wrapping
	// tournament.ErrNotFound once it expired (or never was).
	Cards(ctx context.Context, name string, tournamentID int64, now time.Time) ([]byte, error)
}

// cardBatch is what a batch seals: the cards, and where the desk goes on.
type cardBatch struct {
	Cards []playerCard
	Next  string // where the desk registers the next player, for a registration
	Back  string
}

// keepCards seals b of tournament tid, keeps it, and returns its name.
func (s *Pages) keepCards(ctx context.Context, tid int64, b cardBatch, now time.Time) (string, error) {
	var raw [16]byte
	rand.Read(raw[:]) // never fails (crypto/rand's documentation)
	name := hex.EncodeToString(raw[:])
	plain, err := json.Marshal(b)
	if err != nil {
		return "", err
	}
	sealed := s.sealer.Seal(plain, cardsAbout(tid, name))
	if err := s.cards.KeepCards(ctx, name, tid, sealed, now.Add(cardsKept), now); err != nil {
		return "", err
	}
	return name, nil
}

// cardsOf returns batch name of tournament tid, if it is still kept and
// opens with this server's key.
func (s *Pages) cardsOf(ctx context.Context, tid int64, name string, now time.Time) (cardBatch, bool, error) {
	sealed, err := s.cards.Cards(ctx, name, tid, now)
	if errors.Is(err, tournament.ErrNotFound) {
		return cardBatch{}, false, nil
	}
	if err != nil {
		return cardBatch{}, false, err
	}
	plain, err := s.sealer.Open(sealed, cardsAbout(tid, name))
	if err != nil {
		// Sealed by a server with other session keys: none of this
		// event's, or from before the keys changed.
		s.log.Warn("a batch of players' cards does not open with this server's session keys", "batch", name, "err", err)
		return cardBatch{}, false, nil
	}
	var b cardBatch
	if err := json.Unmarshal(plain, &b); err != nil {
		return cardBatch{}, false, fmt.Errorf("cards %s: %w", name, err)
	}
	return b, true, nil
}

// cardsAbout binds a sealed batch to its tournament and name: a batch
// moved under another name or tournament does not open.
func cardsAbout(tid int64, name string) []byte { return fmt.Appendf(nil, "cards %d %s", tid, name) }

// memoryCards keeps the batches in this process's memory, for a console
// built without a CardStore.
type memoryCards struct {
	mu      sync.Mutex
	batches map[string]memoryBatch
}

type memoryBatch struct {
	tid     int64
	sealed  []byte
	expires time.Time
}

func newMemoryCards() *memoryCards { return &memoryCards{batches: map[string]memoryBatch{}} }

func (m *memoryCards) KeepCards(_ context.Context, name string, tid int64, sealed []byte, expires, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for n, b := range m.batches {
		if !now.Before(b.expires) {
			delete(m.batches, n)
		}
	}
	m.batches[name] = memoryBatch{tid: tid, sealed: sealed, expires: expires}
	return nil
}

func (m *memoryCards) Cards(_ context.Context, name string, tid int64, now time.Time) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.batches[name]
	if !ok || b.tid != tid || !now.Before(b.expires) {
		return nil, fmt.Errorf("card batch %s: %w", name, tournament.ErrNotFound)
	}
	return b.sealed, nil
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
func (s *Pages) seeCards(c *gin.Context, tid int64, players []tournament.Player, back, next, flash string) (render.Result, error) {
	b := cardBatch{Back: back, Next: next}
	for _, p := range players {
		b.Cards = append(b.Cards, playerCard{Name: p.Name, Kana: tournament.Hiragana(p.Kana), Code: p.Code})
	}
	name, err := s.keepCards(c.Request.Context(), tid, b, time.Now())
	if err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Cards, tid, name), flash), nil
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
	// A batch no longer kept (or never issued, or sealed with other keys)
	// is a page that says so, and how to print a new card.
	b, ok, err := s.cardsOf(c.Request.Context(), tid, c.Param("batch"), time.Now())
	if err != nil {
		return render.Result{}, err
	}
	if !ok {
		b.Back = route.Path(route.Players, tid)
	}
	vm := cardsPage{printPage: s.printPageOf(c, t, 0, "cards.title", b.Back), Cards: b.Cards, Next: b.Next, Gone: !ok}
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
	return s.seeCards(c, tid, []tournament.Player{p}, route.Path(route.Player, tid, pid), "", "flash.code_issued")
}
