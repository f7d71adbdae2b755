package kiosk

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// ShowTable shows round :n table :tn to its players, or its judge call's
// status alone (part=call, for phone-call.js to swap in live). Every
// player of a table opens it on their phone after each change, so it is
// rendered once per version of the tournament for each view (share): the
// language, and the player the phone remembers (remember.go), whose forms
// then ask for no code. The page holds no code: the forms sent from it
// read the phone's own cookie again.
func (s *Pages) ShowTable(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	me, err := s.rememberedAt(c, tid)
	if err != nil {
		return render.Result{}, err
	}
	key := sharedKey{page: "report", tid: tid, round: n, table: number, lang: s.i18n.Lang(c), me: me.Player}
	if lang := c.Query("lang"); lang == "ja" || lang == "en" {
		key.asked = lang
	}
	if c.Query("part") == "call" {
		key.block = "callstatus"
	}
	return s.share(c.Request.Context(), key, func(ctx context.Context) (render.Shared, error) {
		// The code stays out of what is shared (a rendering is another
		// phone's too): the page shows none.
		vm, err := s.readTablePage(ctx, tid, n, number, key.lang, key.path(route.Path(route.KioskTable, tid, n, number)), rememberedPlayer{Player: me.Player})
		if err != nil {
			return render.Shared{}, err
		}
		if key.block != "" {
			return s.pages.Share(key.lang, render.Part("report", key.block, vm), time.Time{})
		}
		return s.pages.Share(key.lang, render.Show("report", vm), time.Time{})
	})
}

// rememberedAt is the player this phone remembers for tournament tid
// (none once it is closed).
func (s *Pages) rememberedAt(c *gin.Context, tid int64) (rememberedPlayer, error) {
	l, err := s.live.Live(c.Request.Context(), tid)
	if err != nil {
		return rememberedPlayer{}, err
	}
	me, _ := s.remembered(c, tid, l.Tournament.Closed != nil)
	return me, nil
}
