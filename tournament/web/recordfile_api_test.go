package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// checkScenarioRecord reads the scenario's record file from the API, as a
// judge, and checks it (tournament.CheckRecord, what catanjudge check
// runs): it checks as written, and fails naming the round and table when
// one VP is changed or a player is moved to another table. Without the
// judge's token the record is refused: it holds the judges' notes.
func checkScenarioRecord(t *testing.T, cl webtest.APIClient, base string) {
	t.Helper()
	if rec := webtest.Do(cl.Env.Handler, "GET", base+"/record", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("GET %s/record without a judge = %d, want 401", base, rec.Code)
	}
	if rec := webtest.Do(cl.Env.Handler, "GET", "/api/v1/tournaments/999/record", "", "Authorization", "Bearer test-token"); rec.Code != http.StatusNotFound {
		t.Errorf("GET the record of an unknown tournament = %d %s, want 404", rec.Code, rec.Body)
	}
	rec := webtest.Do(cl.Env.Handler, "GET", base+"/record", "", "Authorization", "Bearer test-token")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), `{"format":1,`) {
		t.Fatalf("GET %s/record = %d %.200s, want 200 and a record of format 1", base, rec.Code, rec.Body)
	}
	check := func(data []byte) tournament.RecordCheck {
		t.Helper()
		f, err := recordfile.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := f.Record()
		if err != nil {
			t.Fatal(err)
		}
		return tournament.CheckRecord(r)
	}
	if c := check(rec.Body.Bytes()); len(c.Disagreements) > 0 || c.Checked.Results != 11 || !c.Checked.Standings {
		t.Errorf("the scenario's record does not check: %v (%+v)", c.Disagreements, c.Checked)
	}
	for _, tc := range []struct {
		name         string
		change       func(f *recordfile.File)
		round, table int
	}{
		{"one VP", func(f *recordfile.File) {
			res := f.Rounds[1].Tables[2].Results
			res[len(res)-1].Scores[1].VP++
		}, 2, 3},
		{"a player moved to another table", func(f *recordfile.File) {
			from, to := &f.Rounds[2].Tables[0], &f.Rounds[2].Tables[1]
			to.Players = append(to.Players, from.Players[3])
			from.Players = from.Players[:3]
		}, 3, 1},
	} {
		var f recordfile.File
		if err := json.Unmarshal(rec.Body.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		tc.change(&f)
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		c := check(data)
		at := fmt.Sprintf("round %d table %d ", tc.round, tc.table)
		var named bool
		for _, d := range c.Disagreements {
			named = named || strings.HasPrefix(d.String(), at)
		}
		if !named {
			t.Errorf("the scenario's record with %s changed: disagreements %q, want one at %q", tc.name, c.Disagreements, at)
		}
	}
}

// The route's record names the program with the build's version, as
// catanjudge simulate's does, and a browser saves it as a file named
// after the event.
func TestRecordNamesTheBuild(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	for _, tc := range []struct{ version, want string }{{"v1.2.3", "catanjudge v1.2.3"}, {"", "catanjudge"}} {
		s, err := web.NewSite(web.Deps{Rulesets: tournamenttest.Rulesets(t), Service: env.Service, Settings: env.Store, APIToken: "test-token", Version: tc.version})
		if err != nil {
			t.Fatal(err)
		}
		rec := webtest.Do(s.Router(), "GET", fmt.Sprintf("/api/v1/tournaments/%d/record", tr.ID), "", "Authorization", "Bearer test-token")
		var f recordfile.File
		if err := json.Unmarshal(rec.Body.Bytes(), &f); rec.Code != http.StatusOK || err != nil {
			t.Fatalf("GET the record = %d %.200s (%v), want 200 and a record", rec.Code, rec.Body, err)
		}
		if f.Generator != tc.want {
			t.Errorf("built as version %q, the record's generator is %q, want %q", tc.version, f.Generator, tc.want)
		}
		if got, want := rec.Header().Get("Content-Disposition"), fmt.Sprintf(`attachment; filename="tournament-%d.record.json"`, tr.ID); !strings.HasPrefix(got, want) {
			t.Errorf("the record's Content-Disposition is %q, want it to begin %q", got, want)
		}
	}
}
