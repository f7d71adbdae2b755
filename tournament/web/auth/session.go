package auth

import (
	"context"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gin-contrib/sessions"
	cookiestore "github.com/gin-contrib/sessions/cookie"
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
)

// The console's own settings, kept through Settings.
const (
	settingSessionEpoch = "session_epoch"
	// settingSessionKeys held the session keys before they moved to
	// SessionKeyFile: a backup of the database carried them, and a cookie
	// forged from it was accepted. It is deleted at start-up.
	settingSessionKeys = "session_keys"
)

// Settings is where the console keeps its state: the session epoch and
// the sessions logged out, and the staff accounts (Accounts).
// store.Store satisfies it. The keys that sign the session cookie are
// never kept here (Deps.SessionKeys): whatever is here, a backup carries.
type Settings interface {
	Accounts
	// GetSetting returns an error wrapping tournament.ErrNotFound for a key never set.
	GetSetting(ctx context.Context, key string) (string, error)
	SetSetting(ctx context.Context, key, value string) error
	// AddSetting stores value unless the key is set already, and returns
	// the value stored then: servers starting at once agree on one.
	AddSetting(ctx context.Context, key, value string) (string, error)
	DeleteSetting(ctx context.Context, key string) error
	// EndSession records a session logged out, until its cookie expires.
	EndSession(ctx context.Context, id string, expires time.Time) error
	// EndedSessions returns the sessions logged out and not expired at now.
	EndedSessions(ctx context.Context, now time.Time) (map[string]time.Time, error)
}

// readablePassword returns about 80 random bits as four groups of four
// characters without look-alikes (no 0/o, 1/l/i), easy to type on a tablet.
func readablePassword() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	var b strings.Builder
	for i := range 16 {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(alphabet[randIntN(len(alphabet))])
	}
	return b.String()
}

// randIntN returns a uniform crypto-random number in [0, n) for small n.
func randIntN(n int) int {
	var b [1]byte
	limit := 256 - 256%n
	for {
		_, _ = rand.Read(b[:])
		if int(b[0]) < limit {
			return int(b[0]) % n
		}
	}
}

// Session cookie contents.
const (
	sessionCookie = "catanjudge_session"
	sessionStaff  = "staff"    // the staff account's ID
	sessionID     = "sid"      // a random id, which a logout records as ended
	sessionSince  = "since_ms" // unix milliseconds of the login
	sessionEpoch  = "epoch"    // the session epoch at the login
	// sessionTTL covers a long tournament day; the login time is checked on
	// every request, so an old cookie does not outlive it.
	sessionTTL = 14 * time.Hour
)

// SessionKeyFile is the file in the data folder that holds the keys that
// sign and encrypt the judges' session cookies: outside the database, so
// that no backup or export carries them, readable by its owner only. A
// data folder restored from a backup has none, and the server makes new
// keys there.
const SessionKeyFile = "session-keys"

// sessionKeyBytes is the length of the session keys: a 64-byte signing
// key and a 32-byte encryption key.
const sessionKeyBytes = 64 + 32

// LoadSessionKeys returns the session keys kept in dataDir/session-keys,
// making new random ones there (readable by its owner only) when the file
// does not exist. Deleting the file logs every judge out at the next start.
// Several servers of one event share a key instead (SharedSessionKeys).
func LoadSessionKeys(dataDir string) ([]byte, error) {
	file := filepath.Join(dataDir, SessionKeyFile)
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return newSessionKeys(dataDir, file)
	}
	if err != nil {
		return nil, fmt.Errorf("read session keys: %w", err)
	}
	keys, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(keys) != sessionKeyBytes {
		return nil, fmt.Errorf("session keys: %s does not hold %d hex digits; delete it and start again (every judge then logs in again)", file, 2*sessionKeyBytes)
	}
	if info, err := os.Stat(file); err == nil && info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(file, 0o600); err != nil {
			return nil, fmt.Errorf("session keys: %w", err)
		}
	}
	return keys, nil
}

// SharedSessionKeys returns the session keys derived from secret, the
// random bytes of CATANJUDGE_SESSION_KEY that every server of one event
// is given (config.DecodeSessionKey), so that each accepts the cookies the
// others sign. HKDF makes the signing and encryption keys from it apart.
func SharedSessionKeys(secret []byte) ([]byte, error) {
	sign, err := hkdf.Key(sha256.New, secret, nil, "catanjudge session cookie signing", 64)
	if err != nil {
		return nil, fmt.Errorf("session keys: %w", err)
	}
	encrypt, err := hkdf.Key(sha256.New, secret, nil, "catanjudge session cookie encryption", sessionKeyBytes-64)
	if err != nil {
		return nil, fmt.Errorf("session keys: %w", err)
	}
	return append(sign, encrypt...), nil
}

func newSessionKeys(dataDir, file string) ([]byte, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data folder: %w", err)
	}
	keys := make([]byte, sessionKeyBytes)
	_, _ = rand.Read(keys)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		// Another start made them meanwhile: use those.
		return LoadSessionKeys(dataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("write session keys: %w", err)
	}
	_, err = f.WriteString(hex.EncodeToString(keys) + "\n")
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(file)
		return nil, fmt.Errorf("write session keys: %w", err)
	}
	return keys, nil
}

// sessionStore returns the cookie store signed and encrypted with keys,
// or with keys of this process alone when there are none.
func sessionStore(keys []byte) (sessions.Store, error) {
	if keys == nil {
		keys = make([]byte, sessionKeyBytes)
		_, _ = rand.Read(keys)
	}
	if len(keys) != sessionKeyBytes {
		return nil, fmt.Errorf("session keys: %d bytes, want %d", len(keys), sessionKeyBytes)
	}
	store := cookiestore.NewStore(keys[:64], keys[64:])
	store.Options(sessions.Options{
		Path:     "/",
		MaxAge:   int(sessionTTL / time.Second),
		HttpOnly: true,
		// Lax keeps the cookie off cross-site form posts; the origin check
		// refuses those anyway.
		SameSite: http.SameSiteLaxMode,
	})
	return store, nil
}

// endedSessions are the sessions logged out before their cookies expire,
// kept in memory so that checking a session reads no database; Settings
// keeps them across restarts, and for the other servers on the database,
// which read them again when told (Auth.Reread).
type endedSessions struct {
	mu sync.RWMutex
	m  map[string]time.Time // session id -> when its cookie expires
}

func (e *endedSessions) has(id string) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	_, ok := e.m[id]
	return ok
}

// end stores that session id ended, then remembers it.
func (e *endedSessions) end(ctx context.Context, st Settings, id string, expires time.Time) error {
	if err := st.EndSession(ctx, id, expires); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	for k, exp := range e.m {
		if exp.Before(now) {
			delete(e.m, k)
		}
	}
	e.m[id] = expires
	return nil
}

// add remembers the sessions of m as ended, with those remembered already:
// an ended session never comes back, so what a read missed (a logout here
// committed after it) stays.
func (e *endedSessions) add(m map[string]time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	for k, exp := range e.m {
		if exp.Before(now) {
			delete(e.m, k)
		}
	}
	for k, exp := range m {
		e.m[k] = exp
	}
}

// currentEpoch is the session epoch: a random token in Settings that every
// session records at its login. A session from another epoch is refused, so
// moving the epoch logs out every judge at once, which a cookie store alone
// cannot do. It is kept in memory so that checking a session reads no
// database; another server on the database that moves it tells this one
// to read it again (Auth.Reread).
type currentEpoch struct {
	mu    sync.RWMutex // held while the new epoch is stored, so memory and the store agree
	value string
}

// get returns the current epoch.
func (e *currentEpoch) get() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.value
}

// bump stores a new epoch and makes it current, ending every session.
func (e *currentEpoch) bump(ctx context.Context, st Settings) error {
	return e.set(ctx, st, newEpoch)
}

// reload reads the epoch from st again (another server may have moved it).
func (e *currentEpoch) reload(ctx context.Context, st Settings) error {
	return e.set(ctx, st, loadEpoch)
}

// set makes the epoch that epoch stores or reads current, holding mu
// throughout, so that a bump here and a read of another server's bump come
// one after the other.
func (e *currentEpoch) set(ctx context.Context, st Settings, epoch func(context.Context, Settings) (string, error)) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, err := epoch(ctx, st)
	if err != nil {
		return err
	}
	e.value = v
	return nil
}

// loadEpoch returns the stored session epoch, creating one on the first
// start (the first stored, when servers start at once). Sessions from
// before there was an epoch carry none and are refused.
func loadEpoch(ctx context.Context, st Settings) (string, error) {
	v, err := st.GetSetting(ctx, settingSessionEpoch)
	switch {
	case errors.Is(err, tournament.ErrNotFound):
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		if v, err = st.AddSetting(ctx, settingSessionEpoch, hex.EncodeToString(b)); err != nil {
			return "", fmt.Errorf("store session epoch: %w", err)
		}
		return v, nil
	case err == nil && v == "":
		return newEpoch(ctx, st)
	case err != nil:
		return "", fmt.Errorf("read session epoch: %w", err)
	}
	return v, nil
}

// newEpoch stores a new random session epoch and returns it.
func newEpoch(ctx context.Context, st Settings) (string, error) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	v := hex.EncodeToString(b)
	if err := st.SetSetting(ctx, settingSessionEpoch, v); err != nil {
		return "", fmt.Errorf("store session epoch: %w", err)
	}
	return v, nil
}

func sessionOptions(c *gin.Context, maxAge int) sessions.Options {
	return sessions.Options{
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		// Secure only when the request came over TLS: the shop laptop serves
		// plain http on the local network.
		Secure:   c.Request.TLS != nil,
		SameSite: http.SameSiteLaxMode,
	}
}

// memSettings keeps the settings in memory when the server runs without a
// store (the stateless referee API alone): nobody can log in then.
type memSettings struct {
	mu sync.Mutex
	m  map[string]string
}

func (m *memSettings) GetSetting(_ context.Context, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	if !ok {
		return "", fmt.Errorf("setting %s: %w", key, tournament.ErrNotFound)
	}
	return v, nil
}

func (m *memSettings) SetSetting(_ context.Context, key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]string{}
	}
	m.m[key] = value
	return nil
}

func (m *memSettings) DeleteSetting(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
	return nil
}

func (m *memSettings) AddSetting(_ context.Context, key, value string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]string{}
	}
	if v, ok := m.m[key]; ok {
		return v, nil
	}
	m.m[key] = value
	return value, nil
}

// Nobody logs in without a store, so no session ends.
func (m *memSettings) EndSession(context.Context, string, time.Time) error { return nil }

func (m *memSettings) EndedSessions(context.Context, time.Time) (map[string]time.Time, error) {
	return map[string]time.Time{}, nil
}

// Without a store there is no account, and nobody logs in.
func (m *memSettings) StaffMember(_ context.Context, id int64) (tournament.Staff, error) {
	return tournament.Staff{}, fmt.Errorf("staff %d: %w", id, tournament.ErrNotFound)
}

func (m *memSettings) StaffByName(_ context.Context, name string) (tournament.Staff, error) {
	return tournament.Staff{}, fmt.Errorf("staff %s: %w", name, tournament.ErrNotFound)
}

func (m *memSettings) AddFirstHead(context.Context, string, string, time.Time) (bool, error) {
	return false, nil
}

func (m *memSettings) SetFirstHeadPassword(context.Context, string, func(string) bool, time.Time) (tournament.Staff, error) {
	return tournament.Staff{}, fmt.Errorf("head account: %w", tournament.ErrNotFound)
}

func (m *memSettings) Device(context.Context, []byte) (tournament.Device, error) {
	return tournament.Device{}, fmt.Errorf("device: %w", tournament.ErrNotFound)
}
