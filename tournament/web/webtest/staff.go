package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// APIToken is the API token's header, as the tests' site has it.
var APIToken = []string{"Authorization", "Bearer test-token"}

// Bearer is the header of a session token.
func Bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// MustJSON fails the test unless rec has status, and reads its body into out.
func MustJSON(t *testing.T, what string, rec *httptest.ResponseRecorder, status int, out any) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("%s = %d %s, want %d", what, rec.Code, rec.Body, status)
	}
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("%s: %v in %s", what, err, rec.Body)
		}
	}
}

// NewAccount makes an account through POST /api/v1/staff with the API
// token and returns its ID and its password.
func NewAccount(t *testing.T, env *Env, name string, role tournament.Role) (int64, string) {
	t.Helper()
	var st struct {
		ID       int64  `json:"id"`
		Name     string `json:"name"`
		Role     string `json:"role"`
		Password string `json:"password"`
	}
	rec := Do(env.Handler, "POST", "/api/v1/staff", fmt.Sprintf(`{"name":%q,"role":%q}`, name, role), APIToken...)
	MustJSON(t, "POST /api/v1/staff", rec, http.StatusCreated, &st)
	if got := KeysOf(t, rec.Body.Bytes()); !slices.Equal(got, []string{"id", "name", "password", "role"}) {
		t.Errorf("POST /api/v1/staff answered the keys %v, want id, name, role, password", got)
	}
	if st.ID == 0 || st.Name != name || st.Role != string(role) || len(st.Password) < 16 {
		t.Fatalf("POST /api/v1/staff = %+v, want %s the %s with a password", st, name, role)
	}
	return st.ID, st.Password
}

// Session logs in to an account through POST /api/v1/session and returns
// its bearer token.
func Session(t *testing.T, env *Env, name, password string, role tournament.Role) string {
	t.Helper()
	var s struct {
		Token     string    `json:"token"`
		Role      string    `json:"role"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	rec := Do(env.Handler, "POST", "/api/v1/session", fmt.Sprintf(`{"name":%q,"password":%q}`, name, password))
	MustJSON(t, "POST /api/v1/session as "+name, rec, http.StatusOK, &s)
	if got := KeysOf(t, rec.Body.Bytes()); !slices.Equal(got, []string{"expires_at", "role", "token"}) {
		t.Errorf("POST /api/v1/session answered the keys %v, want token, role, expires_at", got)
	}
	if left := time.Until(s.ExpiresAt); s.Token == "" || s.Role != string(role) || left < 11*time.Hour || left > 12*time.Hour+time.Minute {
		t.Fatalf("POST /api/v1/session = %+v, want a %s's token for 12 hours", s, role)
	}
	return s.Token
}

// MustForbid fails unless rec is 403 role-forbidden naming the role need.
func MustForbid(t *testing.T, what string, rec *httptest.ResponseRecorder, need tournament.Role) {
	t.Helper()
	var p struct {
		Code string `json:"code"`
		Role string `json:"role"`
	}
	if rec.Code != http.StatusForbidden || json.Unmarshal(rec.Body.Bytes(), &p) != nil || p.Code != "role-forbidden" || p.Role != string(need) {
		t.Errorf("%s = %d %s, want 403 role-forbidden naming %s", what, rec.Code, rec.Body, need)
	}
}

// Sheet is the body of a PUT of table's score sheet in round n, at
// version: its first player declared 10 VP, the others less.
func Sheet(t *testing.T, env *Env, tid int64, n, table, version int) string {
	t.Helper()
	rounds, err := env.Service.Rounds(env.Ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	r := rounds[n-1]
	var scores []string
	players := r.Tables[table-1].Players
	for i, p := range players {
		scores = append(scores, fmt.Sprintf(`{"player":%d,"vp":%d}`, p, 10-i-min(i, 1)))
	}
	return fmt.Sprintf(`{"version":%d,"declared":%d,"scores":[%s]}`, version, players[0], strings.Join(scores, ","))
}

// SessionCookie is the name of the session cookie, as the server sets it.
const SessionCookie = "catanjudge_session"

// CountingStore counts the whole-tournament reads (a snapshot's read,
// Event, reads every round once per call, as Rounds does; Reports decodes
// every report of the event).
type CountingStore struct {
	*store.Store
	Loads       atomic.Int64
	ReportReads atomic.Int64
}

// Reports counts a read of every report of the event.
func (s *CountingStore) Reports(ctx context.Context, tid int64) ([]tournament.Report, error) {
	s.ReportReads.Add(1)
	return s.Store.Reports(ctx, tid)
}

// Rounds counts a whole-tournament read.
func (s *CountingStore) Rounds(ctx context.Context, tid int64) ([]tournament.Round, error) {
	s.Loads.Add(1)
	return s.Store.Rounds(ctx, tid)
}

// Event counts a whole-tournament read.
func (s *CountingStore) Event(ctx context.Context, tid int64) (tournament.EventRecord, error) {
	s.Loads.Add(1)
	return s.Store.Event(ctx, tid)
}

// KeysOf returns the keys of a JSON object, sorted.
func KeysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
