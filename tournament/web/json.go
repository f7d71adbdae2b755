package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
)

// maxBody caps every JSON request body.
const maxBody = 1 << 20

// decodeJSON reads the request body strictly into dst: unknown fields, a
// second value, invalid UTF-8 and bodies over maxBody are refused with a
// *badRequest.
func decodeJSON(c *gin.Context, dst any) error {
	data, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &badRequest{id: "error.too_large", data: map[string]any{"Limit": maxBody}, detail: err.Error()}
		}
		return &badRequest{id: "error.json", data: map[string]any{"Detail": err.Error()}, detail: err.Error()}
	}
	return decodeJSONBytes(data, dst)
}

func decodeJSONBytes(data []byte, dst any) error {
	if !utf8.Valid(data) {
		return &badRequest{id: "error.utf8", detail: "invalid utf-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			return &badRequest{id: "error.json_field", data: map[string]any{"Field": te.Field}, detail: err.Error()}
		case errors.As(err, &se), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return &badRequest{id: "error.json", data: map[string]any{"Detail": err.Error()}, detail: err.Error()}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &badRequest{id: "error.unknown_field", data: map[string]any{"Field": f}, detail: err.Error()}
		}
		return &badRequest{id: "error.json", data: map[string]any{"Detail": err.Error()}, detail: err.Error()}
	}
	if dec.More() {
		return &badRequest{id: "error.json", data: map[string]any{"Detail": "unexpected data after the JSON value"}, detail: "trailing data"}
	}
	return nil
}
