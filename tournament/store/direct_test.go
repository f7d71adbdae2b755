package store

import (
	"regexp"
	"sync"
	"testing"

	"gorm.io/gorm/schema"
)

// TestDirectStatementsNameEveryColumn: the statements a save runs by hand
// (direct.go) name every column of the row types they read or write, as
// gorm's schema of those types has them, so that a column a migration adds
// to one of those types cannot be left out of a save's read or insert
// unnoticed. An insert leaves out the ID its database assigns.
func TestDirectStatementsNameEveryColumn(t *testing.T) {
	cases := []struct {
		name   string
		stmt   string
		model  any
		skipID bool
	}{
		{"players", playersSelect, &playerRow{}, false},
		{"penalties", penaltiesSelect, &penaltyRow{}, false},
		{"scores", scoresSelect, &scoreRow{}, false},
		{"clock events", clockEventsSelect, &clockEventRow{}, false},
		{"results", resultsSelect, &resultRow{}, false},
		{"results' insert", resultsInsert, &resultRow{}, true},
		{"scores' insert", scoresInsert, &scoreRow{}, true},
		{"audit's insert", auditInsert, &auditRow{}, true},
	}
	for _, c := range cases {
		s, err := schema.Parse(c.model, &sync.Map{}, schema.NamingStrategy{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.DBNames) < 3 {
			t.Fatalf("%s: gorm's schema has columns %v: not the row type", c.name, s.DBNames)
		}
		for _, col := range s.DBNames {
			if c.skipID && col == "id" {
				continue
			}
			if !regexp.MustCompile(`[ ,(."]` + regexp.QuoteMeta(col) + `[ ,)"]`).MatchString(c.stmt) {
				t.Errorf("%s: the statement does not name the column %s of %s\n%s", c.name, col, s.Table, c.stmt)
			}
		}
	}
}
