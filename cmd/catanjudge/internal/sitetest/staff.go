package sitetest

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/tournament"
)

// browserJudges are the staff accounts every test server has besides the
// first start's head (tournament.FirstHead, of BrowserPassword): the
// judges the browser tests log in as, each a head judge so that every
// page is theirs.
var browserJudges = []string{"山田", "佐藤"}

// staffPasswords keeps the passwords the staff API gave the accounts of
// each data folder, and which folder each server's address serves.
var staffPasswords = struct {
	sync.Mutex
	byDir map[string]map[string]string
	dirOf map[string]string
}{byDir: map[string]map[string]string{}, dirOf: map[string]string{}}

// AddBrowserJudges makes the browserJudges accounts on the server at base
// over the data folder dir, once per folder: a restart keeps their
// passwords, and their sessions.
func AddBrowserJudges(t *testing.T, base, dir string) {
	t.Helper()
	staffPasswords.Lock()
	defer staffPasswords.Unlock()
	staffPasswords.dirOf[base] = dir
	known := staffPasswords.byDir[dir]
	if known == nil {
		known = map[string]string{}
		staffPasswords.byDir[dir] = known
	}
	var list struct {
		Staff []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"staff"`
	}
	APIDo(t, base, "GET", "/api/v1/staff", nil, http.StatusOK, &list)
	for _, name := range browserJudges {
		if known[name] != "" {
			continue
		}
		var made struct {
			Password string `json:"password"`
		}
		id := int64(0)
		for _, st := range list.Staff {
			if st.Name == name {
				id = st.ID
			}
		}
		if id == 0 {
			APIDo(t, base, "POST", "/api/v1/staff", map[string]any{"name": name, "role": tournament.RoleHead}, http.StatusCreated, &made)
		} else {
			APIDo(t, base, "POST", fmt.Sprintf("/api/v1/staff/%d/password", id), nil, http.StatusOK, &made)
		}
		known[name] = made.Password
	}
}

// StaffPassword is the password of the account name on the server at
// base: BrowserPassword for the first start's head.
func StaffPassword(t *testing.T, base, name string) string {
	t.Helper()
	p := PasswordOf(base, name)
	if p == "" {
		t.Fatalf("no account %s on the server at %s", name, base)
	}
	return p
}

// PasswordOf is StaffPassword, "" for an account it does not know.
func PasswordOf(base, name string) string {
	if name == tournament.FirstHead {
		return BrowserPassword
	}
	staffPasswords.Lock()
	defer staffPasswords.Unlock()
	return staffPasswords.byDir[staffPasswords.dirOf[base]][name]
}

// LogInAs logs a new browser in to the account name with password on the
// console's login page, and waits for a page of the logged-in console.
func LogInAs(t *testing.T, base, name, password string, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	ctx := NewBrowser(t, extra...)
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/judge/login"),
		chromedp.WaitVisible(`#password`),
		chromedp.SendKeys(`#name`, name),
		chromedp.SendKeys(`#password`, password),
		chromedp.Submit(`#password`),
		chromedp.WaitVisible(`.who`),
	)
	if err != nil {
		t.Fatalf("log %s in: %v", name, err)
	}
	return ctx
}
