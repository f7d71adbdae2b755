package api

import (
	"testing"
)

func TestAttachmentName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"Spring Open.xlsx", `attachment; filename="f.xlsx"; filename*=UTF-8''Spring%20Open.xlsx`},
		{`a/b\c"d.xlsx`, `attachment; filename="f.xlsx"; filename*=UTF-8''a_b_c_d.xlsx`},
		{"大会\r\n.xlsx", `attachment; filename="f.xlsx"; filename*=UTF-8''%E5%A4%A7%E4%BC%9A__.xlsx`},
	} {
		if got := attachment(tc.name, "f.xlsx"); got != tc.want {
			t.Errorf("attachment(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
