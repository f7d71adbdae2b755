package tournament

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/width"
)

// A player's code identifies the player on their phone: self check-in and
// table reports. It is CodeLength characters of CodeAlphabet, which leaves
// out what reads two ways (0 and O, 1, I and l): 31^8, about 2^39.6 codes.
// It is drawn with crypto/rand, printed once on the player's card as
// "ABCD-EFGH", and stored only as a salted hash (see docs/security.md), so
// that a leaked database or backup is no list of working codes; a lost card
// is replaced by issuing a new code (IssueCode), which voids the old one.
const (
	CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	CodeLength   = 8
)

// CardBatch is a batch of players' cards the console keeps, sealed, until
// they are printed: the cards of the codes one request issued. It is no
// record of the event (console.CardStore).
type CardBatch struct {
	Name    string // unguessable, chosen by the console
	Sealed  []byte
	Printed bool
}

// newCode draws a code and returns it as printed, with its stored hash.
func newCode() (code, hash string) {
	b := make([]byte, CodeLength)
	for i := range b {
		b[i] = CodeAlphabet[randIndex(len(CodeAlphabet))]
	}
	code = string(b[:CodeLength/2]) + "-" + string(b[CodeLength/2:])
	salt := make([]byte, 16)
	rand.Read(salt) // never fails (crypto/rand's documentation)
	return code, hashCode(salt, string(b))
}

// randIndex returns a uniform index below n (n ≤ 256) from crypto/rand,
// rejecting the bytes that would favour the low indexes.
func randIndex(n int) int {
	limit := 256 - 256%n
	var one [1]byte
	for {
		rand.Read(one[:])
		if int(one[0]) < limit {
			return int(one[0]) % n
		}
	}
}

// hashCode is the stored form of a normalized code: "salt:sha256" in hex.
func hashCode(salt []byte, code string) string {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(code))
	return hex.EncodeToString(salt) + ":" + hex.EncodeToString(h.Sum(nil))
}

// NormalizeCode is a code as typed on a phone, made comparable: full-width
// letters made narrow, upper case, without spaces and hyphens. The
// letters the alphabet leaves out stay, so they never match.
func NormalizeCode(s string) string {
	s = strings.ToUpper(width.Narrow.String(s))
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\u3000' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// matchCode reports whether code (as typed) is the one whose hash is
// stored: a player without a code matches nothing.
func matchCode(stored, code string) bool {
	saltHex, _, ok := strings.Cut(stored, ":")
	if !ok {
		return false
	}
	salt, err := hex.DecodeString(saltHex)
	if err != nil {
		return false
	}
	if len(code) > 4*CodeLength {
		return false // never normalize a long string a request sent
	}
	code = NormalizeCode(code)
	if len(code) != CodeLength {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(hashCode(salt, code)), []byte(stored)) == 1
}

// issueCode gives p a new code, in clear in p.Code for the card.
func (p *Player) issueCode() {
	p.Code, p.CodeHash = newCode()
}

// IssueCode gives a player a new code, which voids the old one (a lost
// card, a code seen by someone else). The player comes back with the new
// code in Code, to print on their card: it is shown this once. The audit
// log records that a code was issued, never the code.
func (s *Service) IssueCode(ctx context.Context, judge string, tournamentID, id int64) (Player, error) {
	var code string
	p, err := s.updatePlayer(ctx, judge, tournamentID, id, "player.code", nil, func(p *Player) error {
		p.issueCode()
		code = p.Code
		return nil
	})
	if err != nil {
		return Player{}, err
	}
	p.Code = code
	return p, nil
}

// ErrWrongCode is a code that is not the player's (or a player who has
// none): what a limit on guesses counts. It comes with ErrInvalid and the
// violation player-code-wrong, the same for every wrong guess.
var ErrWrongCode = errors.New("wrong player's code")

func errWrongCode() error {
	return fmt.Errorf("%w: %w", ErrWrongCode, invalid("player-code-wrong", "that is not the player's code", nil))
}

// PlayerActor is the name the audit log gives a change a player made
// with their code; the subject names the player.
const PlayerActor = "player"

// SelfCheckIn checks a player in with their code, when the tournament
// lets players check themselves in (Tournament.SelfCheckIn). Checking in
// twice changes nothing; a player who dropped sees a judge. The caller
// bounds the guesses at the code.
func (s *Service) SelfCheckIn(ctx context.Context, tournamentID, id int64, code string) (Player, error) {
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Player{}, err
	}
	if !t.SelfCheckIn {
		return Player{}, invalid("self-checkin-off", "this tournament's players are checked in by the judges", nil)
	}
	p, err := s.CheckCode(ctx, tournamentID, id, code)
	if err != nil {
		return Player{}, err
	}
	switch {
	case p.DroppedRound != 0:
		return Player{}, s.relabel(ctx, p, invalid("self-checkin-dropped", describe(p)+" has dropped: a judge checks them in again",
			map[string]any{"Player": p.Name}))
	case p.CheckedIn:
		return p, nil
	}
	if err := s.checkAttempts(ctx, tournamentID, p.PersonID); err != nil {
		return Player{}, err
	}
	after := p
	after.CheckedIn = true
	if err := s.store.UpdatePlayer(ctx, p, after, nil, s.change(PlayerActor, "player.self_check_in", describe(p), snapshot(p), after)); err != nil {
		return Player{}, err
	}
	return after, nil
}

// CheckCode returns the player id of a tournament when code is theirs,
// else an ErrInvalid error with the code player-code-wrong; a player of
// another tournament, or none, is refused the same way, so a wrong guess
// tells nothing about the players. The caller bounds the guesses
// (web/auth's code limiter).
func (s *Service) CheckCode(ctx context.Context, tournamentID, id int64, code string) (Player, error) {
	p, err := s.store.Player(ctx, id)
	if err != nil || p.TournamentID != tournamentID || !matchCode(p.CodeHash, code) {
		if err != nil && !errors.Is(err, ErrNotFound) {
			return Player{}, err
		}
		return Player{}, errWrongCode()
	}
	return p, nil
}
