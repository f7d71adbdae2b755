package kiosk

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// RememberSealing is the label of the key that seals the player a phone
// remembers (auth.NewSealer).
const RememberSealing = "player on a phone"

// Players' phones remember the player after their first right code on that
// phone for the tournament (issue 27): a cookie of the tournament's kiosk
// pages alone holds the player and their code, sealed (AES-GCM under a key
// of the servers' alone, bound to the tournament), so that reporting,
// confirming, disputing and calling need no code again. The code is checked
// by the service on every use as if typed, so a new code a judge issues
// ends it; so does the tournament's close, and 「これは私ではありません」.

// rememberAge is how long a phone remembers its player at most: past the
// longest event day, the close ends it sooner.
const rememberAge = 3 * 24 * 60 * 60

// rememberedPlayer is what the cookie seals.
type rememberedPlayer struct {
	Player int64  `json:"p"`
	Code   string `json:"c"`
}

func rememberCookie(tid int64) string { return "catanjudge_player_" + strconv.FormatInt(tid, 10) }

func rememberAbout(tid int64) []byte {
	return []byte("player of tournament " + strconv.FormatInt(tid, 10))
}

// rememberPath is where the cookie is sent: the tournament's kiosk pages.
func rememberPath(tid int64) string { return route.Path(route.Kiosk, tid) }

// remembered is the player this phone remembers for tournament tid, if
// any and the tournament is open.
func (s *Pages) remembered(c *gin.Context, tid int64, closed bool) (rememberedPlayer, bool) {
	v, err := c.Cookie(rememberCookie(tid))
	if err != nil || v == "" || closed {
		return rememberedPlayer{}, false
	}
	sealed, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return rememberedPlayer{}, false
	}
	plain, err := s.remember.Open(sealed, rememberAbout(tid))
	if err != nil {
		return rememberedPlayer{}, false
	}
	var r rememberedPlayer
	if json.Unmarshal(plain, &r) != nil || r.Player == 0 {
		return rememberedPlayer{}, false
	}
	return r, true
}

// rememberPlayer has this phone remember player, whose code was code, for
// tournament tid.
func (s *Pages) rememberPlayer(c *gin.Context, tid, player int64, code string) {
	plain, err := json.Marshal(rememberedPlayer{Player: player, Code: code})
	if err != nil {
		return
	}
	v := base64.RawURLEncoding.EncodeToString(s.remember.Seal(plain, rememberAbout(tid)))
	s.setRemember(c, tid, v, rememberAge)
}

func (s *Pages) setRemember(c *gin.Context, tid int64, value string, maxAge int) {
	http.SetCookie(c.Writer, &http.Cookie{
		Name: rememberCookie(tid), Value: value, Path: rememberPath(tid), MaxAge: maxAge,
		HttpOnly: true, Secure: c.Request.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
}

// ForgetPlayer forgets the player this phone remembers (「これは私ではありません」)
// and goes back to the page the form was on.
func (s *Pages) ForgetPlayer(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	s.setRemember(c, tid, "", -1)
	return render.SeeOther(route.Local(c.PostForm("back"), rememberPath(tid)), ""), nil
}
