package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
)

// Actor is who makes a request of the staff: an account (by its session
// cookie or a session token), the API token (a head named
// tournament.APIActor), or a table device.
type Actor struct {
	ID   int64 // the account; 0 for the API token and a device
	Name string
	Role tournament.Role // "" for a device
	// Device is the table device making the request; nil otherwise.
	Device *tournament.Device
}

// session is what a judge's session cookie holds, and a session token
// (POST /api/v1/session) seals: one login of one account.
type session struct {
	ID    string `json:"s"`
	Staff int64  `json:"u"`
	Since int64  `json:"t"` // unix milliseconds of the login
	Epoch string `json:"e"`
}

// newSession is a login of account now, in the current epoch.
func (a *Auth) newSession(account int64) session {
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return session{ID: hex.EncodeToString(id), Staff: account, Since: time.Now().UnixMilli(), Epoch: a.epoch.get()}
}

func (s session) since() time.Time { return time.UnixMilli(s.Since) }

// actorOf returns the account of s if the session still holds: within
// ttl of its login, from the current epoch, not logged out, of an active
// account, and begun after the account's sessions were last ended (a
// deactivation, a new password). The account is read from the database on
// every request, so that a deactivation on any server ends its sessions on
// every server at once. Nil when the session no longer holds.
func (a *Auth) actorOf(ctx context.Context, s session, ttl time.Duration) (*Actor, error) {
	if s.ID == "" || s.Staff == 0 || time.Since(s.since()) > ttl || s.Epoch == "" || s.Epoch != a.epoch.get() || a.ended.has(s.ID) {
		return nil, nil
	}
	st, err := a.settings.StaffMember(ctx, s.Staff)
	if errors.Is(err, tournament.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Active || s.since().Before(st.SessionsFrom) {
		return nil, nil
	}
	return &Actor{ID: st.ID, Name: st.Name, Role: st.Role}, nil
}

// identity is who the request is, found once per request (identify).
type identity struct {
	actor *Actor
	token tokenCheck
	// ended says the request presented a session or device that held
	// once and no longer does (logged out, deactivated, revoked).
	ended bool
	err   error
}

// identityKey is the gin context key of the request's identity.
const identityKey = "identity"

// identify returns who makes the request, found once: a request that
// presents a bearer token stands or falls by it (a wrong one never falls
// back to the browser's cookie); else the session cookie's account; else
// a table device's cookie.
func (a *Auth) identify(c *gin.Context) identity {
	if v, ok := c.Get(identityKey); ok {
		return v.(identity)
	}
	var id identity
	id.token = a.checkToken(c)
	ctx := c.Request.Context()
	switch id.token {
	case tokenValid:
		id.actor = &Actor{Name: tournament.APIActor, Role: tournament.RoleHead}
	case tokenSession:
		id.actor, id.err = a.actorOf(ctx, a.tokenSession(c), tokenTTL)
		id.ended = id.actor == nil
	case tokenNone:
		s := cookieSession(c)
		if s.ID != "" {
			id.actor, id.err = a.actorOf(ctx, s, sessionTTL)
			id.ended = id.actor == nil
		}
		if id.actor == nil && id.err == nil {
			var ended bool
			id.actor, ended, id.err = a.deviceOf(c)
			id.ended = id.ended || ended
		}
	}
	c.Set(identityKey, id)
	return id
}

// cookieSession reads the session of the request's cookie.
func cookieSession(c *gin.Context) session {
	sess := sessions.Default(c)
	var s session
	s.ID, _ = sess.Get(sessionID).(string)
	s.Staff, _ = sess.Get(sessionStaff).(int64)
	s.Since, _ = sess.Get(sessionSince).(int64)
	s.Epoch, _ = sess.Get(sessionEpoch).(string)
	return s
}

// SessionJudge is the account logged in on this browser, or "": for a
// page open to anyone that greets a judge differently (the landing page).
func (a *Auth) SessionJudge(c *gin.Context) string {
	if id := a.identify(c); id.actor != nil && id.actor.Device == nil {
		return id.actor.Name
	}
	return ""
}

// staffActor is the request's account or the API token, nil for anyone
// else (a device, a player, nobody).
func (a *Auth) staffActor(c *gin.Context) *Actor {
	if id := a.identify(c); id.actor != nil && id.actor.Device == nil {
		return id.actor
	}
	return nil
}

// startSession logs account in on this browser, in the current epoch, as
// a new session.
func (a *Auth) startSession(c *gin.Context, account int64) error {
	s := a.newSession(account)
	sess := sessions.Default(c)
	sess.Clear()
	sess.Set(sessionStaff, s.Staff)
	sess.Set(sessionID, s.ID)
	sess.Set(sessionSince, s.Since)
	sess.Set(sessionEpoch, s.Epoch)
	sess.Options(sessionOptions(c, int(sessionTTL/time.Second)))
	return sess.Save()
}

// endSession logs the browser out and deletes the cookie. The session
// itself is recorded as ended, so that a copy of the cookie no longer
// works either.
func (a *Auth) endSession(c *gin.Context) error {
	if s := cookieSession(c); s.ID != "" {
		if err := a.ended.end(c.Request.Context(), a.settings, s.ID, s.since().Add(sessionTTL)); err != nil {
			return err
		}
	}
	sess := sessions.Default(c)
	sess.Clear()
	sess.Options(sessionOptions(c, -1))
	return sess.Save()
}

// tokenTTL is how long a session token lasts (POST /api/v1/session).
const tokenTTL = 12 * time.Hour

// tokenPrefix starts every session token, so that it is told apart from
// the API token at a glance (and in a log).
const tokenPrefix = "cjs_"

// sessionToken seals s as a bearer token: only the servers of the event,
// which share the session keys, open it, and it says nothing to anyone
// else.
func (a *Auth) sessionToken(s session) (string, error) {
	plain, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("session token: %w", err)
	}
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(a.tokens.Seal(plain, []byte(tokenPrefix))), nil
}

// openToken returns the session a token seals, or false for anything
// these servers did not seal.
func (a *Auth) openToken(token string) (session, bool) {
	raw, ok := strings.CutPrefix(token, tokenPrefix)
	if !ok {
		return session{}, false
	}
	sealed, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return session{}, false
	}
	plain, err := a.tokens.Open(sealed, []byte(tokenPrefix))
	if err != nil {
		return session{}, false
	}
	var s session
	if json.Unmarshal(plain, &s) != nil {
		return session{}, false
	}
	return s, true
}
