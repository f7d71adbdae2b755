package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Players' cards. A player's code is stored hashed, so its card can be
// printed only from what the request that issued it kept: registering a
// player (one card), importing a roster (a card per player added) or
// issuing a new code. That request keeps the cards as a batch, and the
// judge goes on at the desk: the players page lists the cards not printed
// yet with their codes, and one button prints them all, ten to an A4
// sheet with cut lines (issue 24: a card page after every registration
// lost the codes of a judge who typed the next name). Once the judge says
// they are printed, they leave the list and are kept cardsKept more, to
// print again after a jam; after that a lost card is replaced by issuing a
// new code, which voids the one printed before.
//
// The batches are kept in the database (CardStore), so that any server of
// the event prints them (behind nginx the players page may land on another
// server than the registration), sealed (auth.Sealer, under a key derived
// from the session keys every server of the event shares): the database,
// a backup or a pg_dump holds the codes only as the salted hashes of the
// players and this ciphertext, never in clear.

const (
	// cardsWaiting is how long cards not printed yet are kept: the day of
	// the event.
	cardsWaiting = 24 * time.Hour
	// cardsKept is how long printed cards can be printed again (a jammed
	// printer).
	cardsKept = 30 * time.Minute
)

// CardSealing is the label of the key that seals players' cards
// (auth.NewSealer).
const CardSealing = "players' cards"

// CardStore keeps sealed batches of players' cards of a tournament until
// they expire, deleting the expired ones (store.Store is one).
type CardStore interface {
	KeepCards(ctx context.Context, name string, tournamentID int64, sealed []byte, expires, now time.Time) error
	// CardBatches returns the tournament's batches kept at now, those not
	// printed first.
	CardBatches(ctx context.Context, tournamentID int64, now time.Time) ([]tournament.CardBatch, error)
	// PrintCards marks batches of the tournament printed, to expire at
	// expires; one printed before, expired or unknown is left as it is.
	PrintCards(ctx context.Context, tournamentID int64, names []string, expires, now time.Time) error
}

// cardBatch is what a batch seals: the cards, and when they were issued.
type cardBatch struct {
	Cards []playerCard
	At    time.Time
}

// playerCard is one player's card.
type playerCard struct {
	PlayerID         int64
	Name, Kana, Code string
}

// keepCards seals and keeps the cards of players, whose codes are in
// clear (Player.Code), for the desk to print with the others not printed
// yet.
func (s *Pages) keepCards(ctx context.Context, tid int64, players []tournament.Player, now time.Time) error {
	b := cardBatch{At: now}
	for _, p := range players {
		b.Cards = append(b.Cards, playerCard{PlayerID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana), Code: p.Code})
	}
	var raw [16]byte
	rand.Read(raw[:]) // never fails (crypto/rand's documentation)
	name := hex.EncodeToString(raw[:])
	plain, err := json.Marshal(b)
	if err != nil {
		return err
	}
	sealed := s.sealer.Seal(plain, cardsAbout(tid, name))
	return s.cards.KeepCards(ctx, name, tid, sealed, now.Add(cardsWaiting), now)
}

// deskCards are a tournament's cards kept: those waiting to be printed,
// with their batches, and those printed lately.
type deskCards struct {
	Waiting []playerCard
	Batches []string // the batches of Waiting
	Printed []playerCard
}

// deskCards reads the cards kept for tournament tid: a player's latest
// card only (a new code voids the one before), and only the cards of
// players still registered, by name.
func (s *Pages) deskCards(ctx context.Context, tid int64, players []tournament.Player, now time.Time) (deskCards, error) {
	batches, err := s.cards.CardBatches(ctx, tid, now)
	if err != nil {
		return deskCards{}, err
	}
	type kept struct {
		card    playerCard
		at      time.Time
		printed bool
	}
	latest := map[int64]kept{}
	var out deskCards
	for _, b := range batches {
		opened, ok := s.openCards(tid, b)
		if !ok {
			continue
		}
		if !b.Printed {
			out.Batches = append(out.Batches, b.Name)
		}
		for _, c := range opened.Cards {
			if k, ok := latest[c.PlayerID]; !ok || !k.at.After(opened.At) {
				latest[c.PlayerID] = kept{card: c, at: opened.At, printed: b.Printed}
			}
		}
	}
	for _, p := range players {
		k, ok := latest[p.ID]
		if !ok {
			continue
		}
		k.card.Name, k.card.Kana = p.Name, p.Kana // as registered now
		if k.printed {
			out.Printed = append(out.Printed, k.card)
		} else {
			out.Waiting = append(out.Waiting, k.card)
		}
	}
	return out, nil
}

// openCards opens batch b of tournament tid, if it opens with this
// server's key.
func (s *Pages) openCards(tid int64, b tournament.CardBatch) (cardBatch, bool) {
	plain, err := s.sealer.Open(b.Sealed, cardsAbout(tid, b.Name))
	if err != nil {
		// Sealed by a server with other session keys: none of this
		// event's, or from before the keys changed.
		s.log.Warn("a batch of players' cards does not open with this server's session keys", "batch", b.Name, "err", err)
		return cardBatch{}, false
	}
	var out cardBatch
	if err := json.Unmarshal(plain, &out); err != nil {
		s.log.Warn("a batch of players' cards does not read", "batch", b.Name, "err", err)
		return cardBatch{}, false
	}
	return out, true
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
	printed bool
}

func newMemoryCards() *memoryCards { return &memoryCards{batches: map[string]memoryBatch{}} }

func (m *memoryCards) KeepCards(_ context.Context, name string, tid int64, sealed []byte, expires, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forget(now)
	m.batches[name] = memoryBatch{tid: tid, sealed: sealed, expires: expires}
	return nil
}

func (m *memoryCards) CardBatches(_ context.Context, tid int64, now time.Time) ([]tournament.CardBatch, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.forget(now)
	var out []tournament.CardBatch
	for _, printed := range []bool{false, true} {
		var names []string
		for name, b := range m.batches {
			if b.tid == tid && b.printed == printed {
				names = append(names, name)
			}
		}
		slices.SortFunc(names, func(a, b string) int { return m.batches[a].expires.Compare(m.batches[b].expires) })
		for _, name := range names {
			b := m.batches[name]
			out = append(out, tournament.CardBatch{Name: name, Sealed: b.sealed, Printed: b.printed})
		}
	}
	return out, nil
}

func (m *memoryCards) PrintCards(_ context.Context, tid int64, names []string, expires, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, name := range names {
		if b, ok := m.batches[name]; ok && b.tid == tid && !b.printed && now.Before(b.expires) {
			b.printed, b.expires = true, expires
			m.batches[name] = b
		}
	}
	return nil
}

// forget deletes the batches expired at now.
func (m *memoryCards) forget(now time.Time) {
	for n, b := range m.batches {
		if !now.Before(b.expires) {
			delete(m.batches, n)
		}
	}
}

// cardsPage is the printable of players' cards: cardsPerSheet to an A4
// sheet.
type cardsPage struct {
	printPage
	TID     int64
	Sheets  [][]playerCard
	Count   int      // the cards
	Again   bool     // the cards printed lately, printed again
	Batches []string // the batches printed: the button that says so marks them
}

// cardsPerSheet is how many cards of 85 × 52 mm an A4 sheet takes, two
// across and five down (static/print.css).
const cardsPerSheet = 10

// ShowCards shows the cards not printed yet, ten to an A4 sheet, with the
// button that marks them printed once they are; ?again=1 the cards printed
// lately, to print again. The page is never cached: the codes are not to
// be seen again from the browser's history.
func (s *Pages) ShowCards(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	players, err := s.svc.Players(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	c.Header("Cache-Control", "no-store")
	kept, err := s.deskCards(c.Request.Context(), tid, players, time.Now())
	if err != nil {
		return render.Result{}, err
	}
	vm := cardsPage{printPage: s.printPageOf(c, t, 0, "cards.title", route.Path(route.Players, tid)+"#cards"), TID: tid, Batches: kept.Batches}
	cards := kept.Waiting
	if c.Query("again") == "1" {
		cards, vm.Again, vm.Batches = kept.Printed, true, nil
	}
	vm.Count, vm.Sheets = len(cards), slices.Collect(slices.Chunk(cards, cardsPerSheet))
	vm.BackText = s.i18n.Text(vm.Lang, "print.back_players", nil)
	return render.Show("print_cards", vm), nil
}

// PrintedCards takes the cards the judge printed off the players page
// (the batches the sheet showed, which are still waiting), keeping them
// cardsKept more to print again.
func (s *Pages) PrintedCards(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.GetTournament(c.Request.Context(), tid); err != nil {
		return render.Result{}, err
	}
	now := time.Now()
	batches, err := s.cards.CardBatches(c.Request.Context(), tid, now)
	if err != nil {
		return render.Result{}, err
	}
	posted := c.PostFormArray("batch")
	var names []string
	for _, b := range batches {
		if !b.Printed && slices.Contains(posted, b.Name) {
			names = append(names, b.Name)
		}
	}
	if err := s.cards.PrintCards(c.Request.Context(), tid, names, now.Add(cardsKept), now); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Players, tid)+"#cards", "flash.cards_printed"), nil
}

// IssueCode gives a player a new code, voiding the old one; their new
// card waits on the players page with the others not printed yet.
func (s *Pages) IssueCode(c *gin.Context) (render.Result, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return render.Result{}, err
	}
	p, err := s.svc.IssueCode(c.Request.Context(), auth.Judge(c), tid, pid)
	if err != nil {
		return render.Result{}, err
	}
	if err := s.keepCards(c.Request.Context(), tid, []tournament.Player{p}, time.Now()); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Players, tid)+"#cards", "flash.code_issued"), nil
}
