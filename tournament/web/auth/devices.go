package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// DeviceUse says which pages of one table a table device opens on a route
// of the console (the route table's devices).
type DeviceUse int

const (
	DeviceNone   DeviceUse = iota // no device: staff only
	DeviceTurns                   // the table's turn page, for every device of the table
	DeviceRecord                  // the table's record page, for a device opened with it
)

// deviceCookie holds a table device's token on the device's browser.
const deviceCookie = "catanjudge_device"

// StaffPages is the guard of a console page that needs the role need: it
// lets an account whose role allows need through as StaffAPI does, shows
// one whose role does not a 403 page naming need, and sends anyone else to
// the login page (303), to come back to the page asked for. A table
// device passes on the pages of its own table that use allows, and is
// refused every other page (403).
func (a *Auth) StaffPages(need tournament.Role, use DeviceUse) gin.HandlerFunc {
	return func(c *gin.Context) {
		if a.letStaff(c, need, a.pages.Fail) {
			return
		}
		id := a.identify(c)
		if d := id.actor; d != nil && d.Device != nil {
			if !use.allows(*d.Device, c) {
				a.pages.Fail(c, &problem.Forbidden{ID: "error.device_forbidden", Detail: "a table device outside its pages"})
				return
			}
			c.Set(judgeKey, d.Name)
			c.Set(deviceKey, d.Device)
			c.Next()
			return
		}
		if _, err := c.Cookie(deviceCookie); err == nil && id.ended {
			a.pages.Fail(c, &problem.Forbidden{ID: "error.device_ended", Detail: "a table device revoked or expired"})
			return
		}
		next := route.Tournaments
		if c.Request.Method == http.MethodGet {
			next = c.Request.URL.RequestURI()
		}
		c.Redirect(http.StatusSeeOther, route.Login+"?next="+url.QueryEscape(next))
		c.Abort()
	}
}

// allows reports whether the device d opens the route of c: a page use
// allows, of d's own tournament, round and table.
func (use DeviceUse) allows(d tournament.Device, c *gin.Context) bool {
	switch {
	case use == DeviceNone, use == DeviceRecord && !d.Record:
		return false
	}
	return c.Param("id") == strconv.FormatInt(d.TournamentID, 10) && c.Param("n") == strconv.Itoa(d.Round) &&
		c.Param("tn") == strconv.Itoa(d.Table)
}

// deviceKey is the gin context key of the table device making the request.
const deviceKey = "device"

// Device is the table device making the request, let through by
// StaffPages; nil for anyone else.
func Device(c *gin.Context) *tournament.Device {
	d, _ := c.Get(deviceKey)
	out, _ := d.(*tournament.Device)
	return out
}

// NewDeviceToken returns a new table device's token, 256 random bits, and
// the hash it is found by: the database keeps the hash, never the token.
func NewDeviceToken() (token string, hash []byte) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, deviceHash(token)
}

func deviceHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// deviceOf returns the table device of the request's device cookie, and
// whether a cookie named one that no longer opens (revoked, expired, or
// unknown to this database).
func (a *Auth) deviceOf(c *gin.Context) (*Actor, bool, error) {
	token, err := c.Cookie(deviceCookie)
	if err != nil || token == "" {
		return nil, false, nil
	}
	d, err := a.settings.Device(c.Request.Context(), deviceHash(token))
	switch {
	case errors.Is(err, tournament.ErrNotFound):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	case !d.Open(time.Now()):
		return nil, true, nil
	}
	return &Actor{Name: d.Actor(), Device: &d}, false, nil
}

// OpenDevice is where a table device's link leads (GET /device/:token):
// it keeps the token in the device's cookie and goes to the table's turn
// page. A link that no longer opens says so.
func (a *Auth) OpenDevice(c *gin.Context) {
	token := c.Param("token")
	if len(token) > 64 {
		a.pages.Fail(c, &problem.Forbidden{ID: "error.device_ended", Detail: "a device token too long"})
		return
	}
	d, err := a.settings.Device(c.Request.Context(), deviceHash(token))
	switch {
	case errors.Is(err, tournament.ErrNotFound) || err == nil && !d.Open(time.Now()):
		a.pages.Fail(c, &problem.Forbidden{ID: "error.device_ended", Detail: "a device link revoked or expired"})
		return
	case err != nil:
		a.pages.Fail(c, err)
		return
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name: deviceCookie, Value: token, Path: "/", Expires: d.Expires, HttpOnly: true,
		Secure: c.Request.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
	c.Redirect(http.StatusSeeOther, route.Path(route.Turns, d.TournamentID, d.Round, d.Table))
}

// DeviceLinks makes the links of table devices and says them again: each
// link's token is sealed for the database under the servers' keys, so
// that the table's page shows its QR code on any server of the event.
type DeviceLinks struct {
	sealer *Sealer
	base   string
}

// NewDeviceLinks makes links at publicURL (the address phones reach the
// server at), sealed under sessionKeys.
func NewDeviceLinks(sessionKeys []byte, publicURL string) (*DeviceLinks, error) {
	sealer, err := NewSealer(sessionKeys, "table device")
	if err != nil {
		return nil, err
	}
	return &DeviceLinks{sealer: sealer, base: publicURL}, nil
}

// deviceAbout binds a sealed token to what it is.
var deviceAbout = []byte("table device")

// New returns a new device's token as the service keeps it (its hash and
// the token sealed), opening the record page too when record, and the
// link.
func (l *DeviceLinks) New(record bool) (tournament.DeviceInput, string) {
	token, hash := NewDeviceToken()
	return tournament.DeviceInput{Hash: hash, Sealed: l.sealer.Seal([]byte(token), deviceAbout), Record: record}, l.link(token)
}

// URL is the link of device d, read back from its sealed token; an error
// when these servers' keys do not open it.
func (l *DeviceLinks) URL(d tournament.Device) (string, error) {
	token, err := l.sealer.Open(d.Sealed, deviceAbout)
	if err != nil {
		return "", err
	}
	return l.link(string(token)), nil
}

func (l *DeviceLinks) link(token string) string { return l.base + route.Path(route.OpenDevice, token) }
