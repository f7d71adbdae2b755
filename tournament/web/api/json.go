package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/gin-gonic/gin"
)

// MaxBody caps every JSON request body.
const MaxBody = 1 << 20

// reasonRequest is the body of a change that takes only the judge's
// reason (undoing a round, remaking the final, revoking a penalty,
// reopening a tournament): {"reason"}.
type reasonRequest struct {
	Reason string `json:"reason"`
}

// decodeJSON reads the request body strictly into dst: unknown fields, a
// field given twice, a second value, invalid UTF-8 and bodies over MaxBody
// are refused with a *badRequest.
func decodeJSON(c *gin.Context, dst any) error {
	data, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &problem.BadRequest{ID: "error.too_large", Data: map[string]any{"Limit": MaxBody}, Detail: err.Error()}
		}
		return &problem.BadRequest{ID: "error.json", Data: map[string]any{"Detail": err.Error()}, Detail: err.Error()}
	}
	return decodeJSONBytes(data, dst)
}

func decodeJSONBytes(data []byte, dst any) error {
	if !utf8.Valid(data) {
		return &problem.BadRequest{ID: "error.utf8", Detail: "invalid utf-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return &problem.BadRequest{ID: "error.json_object", Detail: err.Error()}
		case errors.As(err, &te):
			return &problem.BadRequest{ID: "error.json_field", Data: map[string]any{"Field": te.Field}, Detail: err.Error()}
		case errors.As(err, &se), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return &problem.BadRequest{ID: "error.json", Data: map[string]any{"Detail": err.Error()}, Detail: err.Error()}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &problem.BadRequest{ID: "error.unknown_field", Data: map[string]any{"Field": f}, Detail: err.Error()}
		}
		return &problem.BadRequest{ID: "error.json", Data: map[string]any{"Detail": err.Error()}, Detail: err.Error()}
	}
	// More would miss a stray "]" or "}" after the value: only the end of
	// the body may follow it.
	if _, err := dec.Token(); err != io.EOF {
		return &problem.BadRequest{ID: "error.json", Data: map[string]any{"Detail": "unexpected data after the JSON value"}, Detail: "trailing data"}
	}
	if key, ok := duplicateKey(data); ok {
		return &problem.BadRequest{ID: "error.duplicate_field", Data: map[string]any{"Field": key}, Detail: "duplicate key " + key}
	}
	return nil
}

// duplicateKey returns a key given twice in one object of data, a single
// valid JSON value. encoding/json would silently keep the last, so that
// {"declared":1,"declared":2} would name one of two winners; it also
// matches keys without regard to case, and so does this check.
func duplicateKey(data []byte) (string, bool) {
	type object struct {
		keys    map[string]bool
		wantKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*object // nil for an array
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1] != nil {
			stack[n-1].wantKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		if n := len(stack); n > 0 && stack[n-1] != nil && stack[n-1].wantKey {
			if key, ok := tok.(string); ok {
				folded := foldKey(key)
				if stack[n-1].keys[folded] {
					return key, true
				}
				stack[n-1].keys[folded], stack[n-1].wantKey = true, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &object{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, nil)
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}

// foldKey maps every key encoding/json takes for the same field to one
// string: each rune becomes the smallest of its case-folding orbit, as
// bytes.EqualFold compares them.
func foldKey(key string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, key)
}
