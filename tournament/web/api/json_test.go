package api

import (
	"errors"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// The strict JSON decoder refuses a field given twice (in any case, as
// encoding/json would take either) and anything after the value.
func TestDecodeJSONStrict(t *testing.T) {
	type inner struct {
		B int `json:"b"`
	}
	type target struct {
		A        int     `json:"a"`
		Declared *int64  `json:"declared"`
		List     []inner `json:"list"`
		Obj      *inner  `json:"obj"`
	}
	tests := []struct {
		body string
		want string // the message id, or "" for accepted
	}{
		{`{"a":1,"declared":2}`, ""},
		{`{"list":[{"b":1},{"b":2}],"obj":{"b":1}}`, ""},
		{`{"a":1,"a":2}`, "error.duplicate_field"},
		{`{"declared":1,"Declared":2}`, "error.duplicate_field"},
		{`{"list":[{"b":1,"B":2}]}`, "error.duplicate_field"},
		{`{"obj":{"b":1},"obj":null}`, "error.duplicate_field"},
		{`{"a":1} `, ""},
		{`{"a":1}]`, "error.json"},
		{`{"a":1}}`, "error.json"},
		{`{"a":1} {"a":2}`, "error.json"},
		{`[1]`, "error.json_object"},
		{`"text"`, "error.json_object"},
	}
	for _, tt := range tests {
		var dst target
		err := decodeJSONBytes([]byte(tt.body), &dst)
		var got string
		if br := (*problem.BadRequest)(nil); err != nil && errors.As(err, &br) {
			got = br.ID
		} else if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("decodeJSONBytes(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}
